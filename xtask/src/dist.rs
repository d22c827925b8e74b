//! `cargo xtask dist`: the static console for any CDN, under a strict Content-Security-Policy.
//!
//! The split build (see split.rs) in a folder named by its hash, an `index.html` that carries the
//! start-up set (start_page.rs) and loads the rest through an external module under the policy
//! (a `<meta>` tag, its inline script and style allowed by their hashes), a `404.html` copy for
//! hosts that serve it on unknown paths, the header policy for operators, a
//! `config.example.json` template, and precompressed copies.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use larder_contract::hosting::Inline;

use crate::process::root;
use larder_start::build::page::{self, StartSet};

/// The start-up catalog's keys: the larder crate's own list, compiled here as well (see there
/// why one file serves both crates).
#[path = "../../src/i18n/start_keys.rs"]
mod start_keys;

/// The policy written into `index.html`. `connect-src 'self'` covers the wasm module, config.json
/// and an API on the page's own origin; operators add their API origins (see docs/hosting.md).
/// No `'unsafe-inline'` anywhere: the console sizes elements through the CSS object model
/// (Leptos `style:height=`, which the policy does not govern), never with `style` attributes,
/// and the journeys fail on any violation.
/// `img-src` allows `picture_hosts` (see [`picture_hosts`]) beside the page's own origin.
pub fn csp(picture_hosts: &[String], inline: &Inline) -> String {
    // The same policy `larder-server --static` sends as a header (which adds frame-ancestors).
    larder_contract::hosting::policy(&[], picture_hosts, inline, false)
}

/// The hosts member pictures may come from: the `picture_hosts` of an operator's `config.json`
/// already in the folder (a build keeps it), so the page's `img-src` follows the same list as
/// the console (issue 36 finding 10); none without the file. A wrong entry stops the build.
pub fn picture_hosts(dir: &Path) -> Result<Vec<String>> {
    let key = larder_contract::hosting::PICTURE_HOSTS_KEY;
    let Ok(text) = std::fs::read_to_string(dir.join("config.json")) else {
        return Ok(Vec::new());
    };
    let config: serde_json::Value =
        serde_json::from_str(&text).context("config.json in the dist folder is not JSON")?;
    let mut hosts = Vec::new();
    for entry in config[key].as_array().into_iter().flatten() {
        let host = entry
            .as_str()
            .and_then(larder_contract::hosting::picture_host)
            .with_context(|| format!("config.json: {key} has {entry}, which is not a host name"))?;
        hosts.push(host);
    }
    Ok(hosts)
}

/// The `config.json` template: the format of src/config.rs, every key optional.
const CONFIG_EXAMPLE: &str = r#"{
  "data_api_base": "https://data.example.org",
  "system_api_base": "https://system.example.org",
  "timeout_seconds": 30,
  "default_language": "en",
  "languages": ["en", "hu", "sl", "el"],
  "picture_hosts": []
}
"#;

/// `cargo xtask dist [--public-url /sub/path/] [--dist DIR]`.
pub fn run(args: &[String]) -> Result<()> {
    let mut public_url = None;
    let mut dist = "dist".to_string();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .with_context(|| format!("{flag} takes a value"))?;
        match flag.as_str() {
            "--public-url" => public_url = Some(normalise_public_url(value)),
            "--dist" => dist = value.clone(),
            _ => bail!("usage: cargo xtask dist [--public-url /sub/path/] [--dist DIR]"),
        }
    }
    crate::setup::run()?;
    let dir = build(&dist, public_url.as_deref())?;
    eprintln!("dist: the static console is in {}", dir.display());
    for entry in list(&dir)? {
        eprintln!("  {:>9}  {}", entry.1, entry.0);
    }
    Ok(())
}

/// `/console` or `console/` becomes `/console/`; `/` stays.
pub fn normalise_public_url(url: &str) -> String {
    let trimmed = url.trim_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else {
        format!("/{trimmed}/")
    }
}

/// Builds the release console into `dist` (relative to the root): the split build in its
/// hashed folder, `index.html` naming it under the policy, `404.html`, the config template, and
/// a `.br` and a `.gz` beside every text and wasm file so a CDN need not compress.
pub fn build(dist: &str, public_url: Option<&str>) -> Result<PathBuf> {
    let dir = root().join(dist);
    std::fs::create_dir_all(&dir)?;
    let built = crate::split::build(&dir)?;
    remove_earlier_builds(&dir, &built.folder)?;
    let start_texts = copy_locales(&dir)?;
    let source = std::fs::read_to_string(root().join("index.html"))?;
    let set = StartSet::read(&dir.join(&built.folder), start_texts)?;
    let (html, inline) = page(&source, public_url.unwrap_or("/"), &built.folder, &set)?;
    let pictures = picture_hosts(&dir)?;
    let html = add_policy(&html, &pictures, &inline)?;
    std::fs::write(dir.join("index.html"), &html)?;
    std::fs::write(dir.join("404.html"), &html)?;
    // The header policy for operators to copy (docs/hosting.md, Content-Security-Policy): a
    // header without this build's hashes refuses the page's inline start, and the console starts
    // a round trip later.
    std::fs::write(
        dir.join(POLICY_FILE),
        larder_contract::hosting::policy(&[], &pictures, &inline, true) + "\n",
    )?;
    std::fs::write(dir.join("config.example.json"), CONFIG_EXAMPLE)?;
    let (worker, script) = larder_start::build::OIDC_WORKER;
    std::fs::write(dir.join(worker), script)?;
    precompress(&dir)?;
    eprintln!(
        "dist: {} with {} chunks: {}; bundles: {}",
        built.folder,
        built.chunks.len(),
        built.chunks.join(", "),
        built.bundles.join(", ")
    );
    Ok(dir)
}

/// The languages' catalogs, fetched when a language is chosen: `locales/<code>.json` beside
/// `index.html` (revalidated like it, so a deploy's new texts arrive); and the start-up catalog
/// made from them, returned for the page to carry and written to `locales/start.json` for a page
/// of an earlier build that fetches it.
fn copy_locales(dir: &Path) -> Result<String> {
    let target = dir.join("locales");
    if target.exists() {
        std::fs::remove_dir_all(&target)?;
    }
    std::fs::create_dir_all(&target)?;
    let mut catalogs = Vec::new();
    for entry in std::fs::read_dir(root().join("locales"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::copy(&path, target.join(path.file_name().context("name")?))?;
            let code = path
                .file_stem()
                .context("name")?
                .to_string_lossy()
                .into_owned();
            catalogs.push((code, std::fs::read_to_string(&path)?));
        }
    }
    catalogs.sort();
    let start_texts = start_catalog(&catalogs)?;
    std::fs::write(target.join(START_CATALOG), &start_texts)?;
    Ok(start_texts)
}

/// The start-up catalog's file under `locales/` (src/i18n/choose.rs reads it by this name).
pub const START_CATALOG: &str = "start.json";

/// The start-up catalog: for every language but English (whose texts are the keys), the texts
/// of the sign-in form's keys, `{"el": {"Sign in": "Σύνδεση", ...}, ...}`. A catalog lacking
/// one of them is an error: the form would show it in English.
fn start_catalog(catalogs: &[(String, String)]) -> Result<String> {
    let mut all = serde_json::Map::new();
    for (code, text) in catalogs {
        if code == "en" {
            continue;
        }
        let catalog: serde_json::Value =
            serde_json::from_str(text).with_context(|| format!("locales/{code}.json"))?;
        let mut texts = serde_json::Map::new();
        for key in start_keys::START_KEYS {
            match catalog.get(*key) {
                Some(serde_json::Value::String(text)) => {
                    texts.insert(key.to_string(), text.clone().into());
                }
                _ => bail!("locales/{code}.json has no text for the sign-in form's \"{key}\""),
            }
        }
        all.insert(code.clone(), texts.into());
    }
    Ok(serde_json::to_string(&all)?)
}

/// Earlier builds' folders and files, and trunk's outputs; an operator's `config.json` stays.
fn remove_earlier_builds(dir: &Path, keep: &str) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = ["larder-", "boot-", "main-", "records-"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
            || name.ends_with(".br")
            || name.ends_with(".gz");
        if !ours || name == keep {
            continue;
        }
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// The header policy of a build (its inline hashes, `frame-ancestors 'none'`), beside `index.html`.
pub const POLICY_FILE: &str = "content-security-policy.txt";

/// The page from the source `index.html` (written for trunk, which dev builds still use): the
/// base for the public URL, the start-up set (see start_page.rs) in place of trunk's directives,
/// and the hashes its policy must allow.
fn page(source: &str, base: &str, folder: &str, set: &StartSet) -> Result<(String, Inline)> {
    let parts = page::parts(set, base, &format!("{base}{folder}"))?;
    const BASE: &str = "<base data-trunk-public-url>";
    if !source.contains(BASE) {
        bail!("index.html has no `{BASE}`");
    }
    let mut lines: Vec<String> = Vec::new();
    for line in source.lines() {
        if line.contains("data-trunk") && !line.contains(BASE) {
            continue;
        }
        if line.contains(BASE) {
            lines.push(line.replace(BASE, &format!("<base href=\"{base}\">")));
            let indent = &line[..line.len() - line.trim_start().len()];
            for tag in &parts.head {
                lines.push(format!("{indent}{tag}"));
            }
            continue;
        }
        lines.push(line.to_string());
    }
    let mut html = lines.join("\n") + "\n";
    // The data blocks last: the form is on screen before the module's bytes have arrived.
    let end = html
        .rfind("</body>")
        .context("index.html has no `</body>`")?;
    html.insert_str(end, &format!("{}\n", parts.body_end));
    Ok((html, parts.inline))
}

/// Puts the policy right after `<meta charset>`, before anything it governs.
fn add_policy(html: &str, picture_hosts: &[String], inline: &Inline) -> Result<String> {
    let meta = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        csp(picture_hosts, inline)
    );
    let charset = html
        .find("<meta charset")
        .context("index.html has no <meta charset>")?;
    let after = charset + html[charset..].find('>').context("unclosed meta")? + 1;
    Ok(format!("{}\n    {meta}{}", &html[..after], &html[after..]))
}

/// Writes `name.br` (brotli 11) and `name.gz` (gzip -9) beside every compressible file.
pub fn precompress(dir: &Path) -> Result<()> {
    let mut files = Vec::new();
    crate::files::walk(dir, &mut files)?;
    files.retain(|file| {
        let name = file.to_string_lossy();
        [".wasm", ".js", ".css", ".html", ".json"]
            .iter()
            .any(|ext| name.ends_with(ext))
            && !name.ends_with("config.json")
    });
    crate::files::on_both_cores(&files, |file| {
        let name = file.to_string_lossy();
        let bytes = std::fs::read(file)?;
        std::fs::write(format!("{name}.gz"), gzip(&bytes)?)?;
        std::fs::write(format!("{name}.br"), brotli(&bytes)?)?;
        Ok(())
    })
}

pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

pub fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
}

/// The files of a dist folder with their sizes, sorted by name.
pub fn list(dir: &Path) -> Result<Vec<(String, u64)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            files.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.metadata()?.len(),
            ));
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <title>Larder</title>
    <base data-trunk-public-url>
    <link data-trunk rel="rust" data-bin="larder" data-wasm-opt="z" data-type="main">
    <link data-trunk rel="css" href="style/main.css">
</head>
<body><div id="boot-shell"></div></body>
</html>"#;

    #[test]
    fn the_page_carries_the_start_up_set_under_its_policy() {
        let set = StartSet {
            style: "form{margin:0}".into(),
            glue: "function run(e){}function n(e){}export{n as initSync,run};".into(),
            module: b"\0asm".to_vec(),
            catalog: "{}".into(),
        };
        let (html, inline) = page(SOURCE, "/console/", "larder-0123", &set).unwrap();
        let html = add_policy(&html, &[], &inline).unwrap();
        assert!(!html.contains("data-trunk"));
        // Pictures from the page's own origin only, unless config.json names hosts.
        assert!(html.contains("img-src 'self' data:;"));
        assert!(html.contains("<base href=\"/console/\">"));
        assert!(
            html.contains("<script type=\"module\" src=\"/console/larder-0123/boot.js\"></script>")
        );
        assert!(html.contains("<style>form{margin:0}</style>"));
        let policy = html.find("Content-Security-Policy").unwrap();
        assert!(policy < html.find("<script").unwrap());
        assert!(policy < html.find("<link").unwrap());
        assert!(policy < html.find("<style").unwrap());
        // The page's own policy allows its inline script and style, and the header the same.
        assert_eq!(Inline::of_page(&html), inline);
        assert!(html.contains(&format!("style-src 'self' {}", inline.style[0])));
        // The data blocks come after the form.
        assert!(
            html.find("<div id=\"boot-shell\">").unwrap()
                < html.find("id=\"start-module\"").unwrap()
        );
        assert!(html.find("id=\"start-module\"").unwrap() < html.find("</body>").unwrap());
        assert!(page("<html></html>", "/", "x", &set).is_err());
    }

    /// Issue 36 finding 10: the page's `img-src` is config.json's `picture_hosts` when the
    /// operator's file is in the folder, and nothing else.
    #[test]
    fn the_pages_image_policy_follows_config_json() {
        let dir = std::env::temp_dir().join(format!("larder-dist-pictures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(picture_hosts(&dir).unwrap().is_empty());
        std::fs::write(
            dir.join("config.json"),
            r#"{"picture_hosts": ["Pictures.Example.org"], "languages": ["en"]}"#,
        )
        .unwrap();
        let hosts = picture_hosts(&dir).unwrap();
        assert_eq!(hosts, ["pictures.example.org"]);
        assert!(csp(&hosts, &Inline::default())
            .contains("img-src 'self' data: https://pictures.example.org;"));
        std::fs::write(dir.join("config.json"), r#"{"picture_hosts": ["https:"]}"#).unwrap();
        assert!(picture_hosts(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_start_catalog_holds_the_forms_texts_of_every_language_but_english() {
        let full = |extra: &str| {
            let mut texts: Vec<String> = start_keys::START_KEYS
                .iter()
                .map(|k| format!("\"{k}\": \"{extra}{k}\""))
                .collect();
            texts.push("\"Sign out\": \"Kijelentkezés\"".into());
            format!("{{{}}}", texts.join(", "))
        };
        let catalogs = [
            ("el".to_string(), full("el:")),
            ("en".to_string(), "{}".to_string()),
            ("hu".to_string(), full("hu:")),
        ];
        let start: serde_json::Value =
            serde_json::from_str(&start_catalog(&catalogs).unwrap()).unwrap();
        let languages: Vec<&String> = start.as_object().unwrap().keys().collect();
        assert_eq!(languages, ["el", "hu"]);
        assert_eq!(start["hu"]["Sign in"], "hu:Sign in");
        assert_eq!(start["el"]["Client secret"], "el:Client secret");
        assert!(
            start["hu"].get("Sign out").is_none(),
            "only the form's keys"
        );
        assert_eq!(
            start["hu"].as_object().unwrap().len(),
            start_keys::START_KEYS.len()
        );
        let lacking = [("sl".to_string(), r#"{"Sign in": "Prijava"}"#.to_string())];
        let error = start_catalog(&lacking).unwrap_err().to_string();
        assert!(
            error.contains("locales/sl.json") && error.contains("Sign in as"),
            "{error}"
        );
    }

    #[test]
    fn public_urls_are_normalised() {
        assert_eq!(normalise_public_url("/"), "/");
        assert_eq!(normalise_public_url("console"), "/console/");
        assert_eq!(normalise_public_url("/a/b"), "/a/b/");
    }
}
