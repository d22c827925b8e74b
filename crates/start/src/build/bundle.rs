//! What the console's loader fetches after "Sign in" works, in one answer per landing: a
//! bundle of the console's main module and the parts the landing page's group needs
//! (`parts_<split>.wasm`), and the split loader rewritten to take its parts from the bundle.
//!
//! A bundle is the length of its table (4 bytes, little-endian), the table (JSON: each part's
//! file name and length in bytes, in order), then the parts one after another. `boot.js` reads
//! it as it streams in (`js/boot.js`).
//!
//! Why (issue 24): on a phone line (200 KB/s, 150 ms) the bookmark to `/household` asked for 32
//! files; each cost a round trip and its headers, and 15 of them are under 1 KB. Compressed
//! together, the parts are also about 15 % smaller than one by one (the splitter cuts shared
//! code into many small modules, which repeat much of each other). A CDN caches a bundle like
//! any other file of the build; the parts' own files stay, for the pages a session goes to
//! next and for a bundle that does not arrive.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The console's main module, first in every bundle.
const MAIN_MODULE: &str = "larder_bg.wasm";

/// One bundle: its file, and its parts with their lengths in bytes, in order.
pub struct Bundle {
    pub split: String,
    pub file: String,
    pub parts: Vec<(String, usize)>,
}

/// How a bundle's file name starts: `parts_<split>.wasm` (`.wasm`, so a CDN serves and
/// compresses it as it does the modules). `boot.js` is handed each name (`BUNDLED`).
pub const FILE_PREFIX: &str = "parts_";

/// The bundle file of a split module.
fn file_name(split: &str) -> String {
    format!("{FILE_PREFIX}{split}.wasm")
}

/// Writes, in `stage`, one bundle for each page group: the main module (the console), then
/// the group's files. Each split's files come dependencies first, its module last, as the
/// splitter's prefetch map lists them, so the console's compile starts while the group's bytes
/// arrive. A page in no group (the start page) needs the main module alone: no bundle.
pub fn write(stage: &Path, parts_by_split: &[(String, Vec<String>)]) -> Result<Vec<Bundle>> {
    parts_by_split
        .iter()
        .map(|(split, files)| {
            let mut names: Vec<&str> = vec![MAIN_MODULE];
            for name in files {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
            let mut body = Vec::new();
            let mut parts = Vec::new();
            for name in names {
                let part = std::fs::read(stage.join(name))
                    .with_context(|| format!("reading {name} for the {split} bundle"))?;
                parts.push((name.to_string(), part.len()));
                body.extend(part);
            }
            let table = serde_json::to_vec(&parts)?;
            let mut bytes = u32::try_from(table.len())?.to_le_bytes().to_vec();
            bytes.extend(table);
            bytes.extend(body);
            let file = file_name(split);
            std::fs::write(stage.join(&file), bytes)?;
            Ok(Bundle {
                split: split.clone(),
                file,
                parts,
            })
        })
        .collect()
}

/// `boot.js` (the template `js/boot.js`) with each split module's bundle file. The build
/// minifies it with every script (xtask's `split::minify`).
pub fn boot_js(bundles: &[Bundle]) -> Result<String> {
    let files: serde_json::Map<String, serde_json::Value> = bundles
        .iter()
        .map(|b| (b.split.clone(), b.file.clone().into()))
        .collect();
    Ok(include_str!("../../js/boot.js")
        .replace("__BUNDLED__", &serde_json::to_string(&files)?)
        .replace("__STARTED__", &serde_json::to_string(super::STARTED)?))
}

/// `read_bundle.js`, the bundle reader `boot.js` imports when it asks for a bundle.
pub fn reader_js() -> &'static str {
    include_str!("../../js/read_bundle.js")
}

/// The split loader the splitter wrote, each of its `fetch`es of a part made a call of
/// `boot.js`'s `part`, which answers from the bundle while it has the part. Stops when the
/// loader does not fetch exactly `modules` parts in the form this expects (a splitter that
/// changed its output must not leave the bundles unused unnoticed).
pub fn route_through_bundles(loader: &str, modules: usize) -> Result<String> {
    const FETCH: &str = "fetch(new URL(\"./";
    const TAIL: &str = "\", import.meta.url))";
    let mut out = String::from("import { part } from \"./boot.js\";\n");
    let mut rest = loader;
    let mut found = 0;
    while let Some(at) = rest.find(FETCH) {
        let after = &rest[at + FETCH.len()..];
        let Some(end) = after.find(TAIL) else {
            bail!("the split loader's fetch at byte {at} is not of a part's URL");
        };
        let name = &after[..end];
        if !name.ends_with(".wasm") || name.contains(['"', '/', '\\']) {
            bail!("the split loader fetches {name:?}, not a part");
        }
        out.push_str(&rest[..at]);
        out.push_str(&format!(
            "part(\"{name}\", new URL(\"./{name}\", import.meta.url))"
        ));
        rest = &after[end + TAIL.len()..];
        found += 1;
    }
    out.push_str(rest);
    if found != modules {
        bail!("the split loader fetches {found} parts, the splitter made {modules}");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_fetches_each_part_through_the_bundles() {
        let loader = "const a = makeLoad(() => {\n    const src = fetch(new URL(\"./chunk_7.wasm\", import.meta.url));\n}, []);\nconst b = fetch(new URL(\"./split_console.wasm\", import.meta.url));\n";
        let routed = route_through_bundles(loader, 2).unwrap();
        assert_eq!(
            routed,
            "import { part } from \"./boot.js\";\nconst a = makeLoad(() => {\n    const src = part(\"chunk_7.wasm\", new URL(\"./chunk_7.wasm\", import.meta.url));\n}, []);\nconst b = part(\"split_console.wasm\", new URL(\"./split_console.wasm\", import.meta.url));\n"
        );
    }

    #[test]
    fn a_loader_unlike_the_expected_one_stops_the_build() {
        let loader = "fetch(new URL(\"./chunk_7.wasm\", import.meta.url));";
        assert!(route_through_bundles(loader, 2).is_err(), "a part missing");
        assert!(route_through_bundles("fetch(new URL(\"./x.js\", import.meta.url));", 1).is_err());
        assert!(route_through_bundles("fetch(new URL(\"./a.wasm\"", 1).is_err());
    }

    #[test]
    fn each_bundle_is_the_main_module_and_its_group() {
        let stage = std::env::temp_dir().join(format!("larder-bundle-{}", std::process::id()));
        std::fs::create_dir_all(&stage).unwrap();
        for (name, bytes) in [
            (MAIN_MODULE, &b"main"[..]),
            ("chunk_1.wasm", b"one"),
            ("split_member_pages.wasm", b"member"),
            ("chunk_2.wasm", b"two!"),
            ("split_household_pages.wasm", b"house"),
        ] {
            std::fs::write(stage.join(name), bytes).unwrap();
        }
        let splits = vec![
            (
                "member_pages".to_string(),
                vec!["chunk_1.wasm".into(), "split_member_pages.wasm".into()],
            ),
            (
                "household_pages".to_string(),
                vec![
                    "chunk_1.wasm".into(),
                    "chunk_2.wasm".into(),
                    "split_household_pages.wasm".into(),
                ],
            ),
        ];
        let bundles = write(&stage, &splits).unwrap();
        let house = std::fs::read(stage.join("parts_household_pages.wasm")).unwrap();
        let member = std::fs::read(stage.join("parts_member_pages.wasm")).unwrap();
        std::fs::remove_dir_all(&stage).unwrap();
        let table = br#"[["larder_bg.wasm",4],["chunk_1.wasm",3],["split_member_pages.wasm",6]]"#;
        assert_eq!(member[..4], (table.len() as u32).to_le_bytes());
        assert_eq!(&member[4..4 + table.len()], table);
        assert_eq!(&member[4 + table.len()..], b"mainonemember");
        let parts = &house[house.len() - b"mainonetwo!house".len()..];
        assert_eq!(parts, b"mainonetwo!house");
        let names: Vec<&str> = bundles[1].parts.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                MAIN_MODULE,
                "chunk_1.wasm",
                "chunk_2.wasm",
                "split_household_pages.wasm"
            ]
        );
        assert_eq!(bundles[1].parts[2], ("chunk_2.wasm".to_string(), 4));
        let boot = boot_js(&bundles).unwrap();
        assert!(boot.contains(
            "const BUNDLED = {\"household_pages\":\"parts_household_pages.wasm\",\"member_pages\":\"parts_member_pages.wasm\"};"
        ));
        assert!(boot.contains("import(\"./read_bundle.js\")"));
        assert!(!boot.contains("__BUNDLED__"), "the placeholder filled");
        assert!(
            boot.contains("globalThis[\"larderStartedInPage\"]"),
            "the flag named"
        );
        assert!(!boot.contains("__STARTED__"));
        assert!(reader_js().contains("export async function readBundle("));
    }

    /// The reader `boot.js` imports (`read_bundle.js`) against the parts its bundles were made
    /// of, in Node.js (which the journeys need too): `read_bundle.test.mjs`, on the reader as
    /// written and on what ships, minified by the build's own step.
    #[test]
    fn the_bundle_reader_gives_back_each_part() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/read_bundle.js");
        run_reader_test(&source);
        let shipped =
            std::env::temp_dir().join(format!("larder-read-bundle-{}", std::process::id()));
        std::fs::create_dir_all(&shipped).unwrap();
        let minified = shipped.join("read_bundle.js");
        std::fs::copy(&source, &minified).unwrap();
        minify(&minified);
        let (before, after) = (
            std::fs::read(&source).unwrap(),
            std::fs::read(&minified).unwrap(),
        );
        assert!(after.len() < before.len(), "the shipped reader is minified");
        run_reader_test(&minified);
        std::fs::remove_dir_all(&shipped).unwrap();
    }

    /// terser as the build runs it (the workspace's own, from npm).
    fn minify(script: &Path) {
        let terser = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../node_modules/.bin/terser");
        let status = std::process::Command::new(terser)
            .arg(script)
            .args(["--module", "--compress", "--mangle", "--output"])
            .arg(script)
            .status()
            .expect("terser runs (npm ci)");
        assert!(status.success());
    }

    fn run_reader_test(reader: &Path) {
        let test = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/read_bundle.test.mjs");
        let out = std::process::Command::new("node")
            .arg("--test")
            .arg(&test)
            .env("READ_BUNDLE", reader)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{}: {}{}",
            reader.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
