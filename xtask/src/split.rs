//! The console's release build: the start-up module that makes the sign-in form work
//! (crates/start), and the console split into its main module and the modules of its groups of
//! pages, pulled in when one of their pages is first opened.
//!
//! trunk cannot run a split (its hooks run before cargo or after wasm-bindgen), so this runs the
//! pipeline itself: cargo (with relocations kept) → `wasm_split_cli_support::transform` →
//! wasm-bindgen on the main module → wasm-opt on the main module and every chunk → a bundle per
//! landing and the loader `boot.js` → terser on every script. The start's own pieces (the
//! bundles and their loader, the start-up set the page carries) are crates/start's (`larder_start::build`, mapped in its
//! `src/lib.rs`); this is the tools' order. Everything the page loads sits in one folder named
//! by the hash of its contents (`larder-<hash>/`): the split loader finds chunks next to
//! itself, and a tab opened before a deploy keeps its own chunks.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::files::{on_both_cores, walk};
use crate::process::{command, exec, root};

use larder_start::build::{bundle, START_OUT_NAME, START_PROVIDER_OUT_NAME};

/// The wasm-bindgen output's name: `larder.js` and `larder_bg.wasm`.
const OUT_NAME: &str = "larder";
/// The sign-in form's style sheet (`start.css`), which index.html carries (`larder_start::build::page`).
const START_STYLES: [&str; 1] = ["style/base.css"];
/// The console's style sheets, in the order index.html names them after the form's: one
/// `larder.css`, which `boot.js` links with the console's module, once "Sign in" works.
const CONSOLE_STYLES: [&str; 2] = ["style/main.css", "style/records.css"];

/// The files of each page group's split module, from the splitter's prefetch map
/// (dependencies first, the module last).
fn parts_by_split(split: &wasm_split_cli_support::SplitWasm) -> Result<Vec<(String, Vec<String>)>> {
    larder_start::landing::Group::ALL
        .map(|g| g.split_name())
        .iter()
        .map(|name| {
            let files = split
                .prefetch_map
                .get(*name)
                .with_context(|| format!("the splitter made no module named {name}"))?
                .iter()
                .map(|file| {
                    if file.ends_with(".wasm") {
                        file.clone()
                    } else {
                        format!("{file}.wasm")
                    }
                })
                .collect();
            Ok((name.to_string(), files))
        })
        .collect()
}

/// One built folder: its name under dist, and the chunks it holds.
pub struct Build {
    pub folder: String,
    pub chunks: Vec<String>,
    /// Each bundle's file and how many parts it holds.
    pub bundles: Vec<String>,
}

/// The console's release compile for the splitter (`cargo` and these): `cargo xtask test` also
/// starts it early, before the tools the rest of the pipeline needs are installed.
pub const CARGO_ARGS: [&str; 12] = [
    "rustc",
    "--package",
    "larder",
    "--bin",
    "larder",
    "--target",
    "wasm32-unknown-unknown",
    "--release",
    "--features",
    "split",
    "--",
    "-Clink-arg=--emit-relocs",
];

/// The start-up module's release compile (crates/start, its browser binary).
pub const START_CARGO_ARGS: [&str; 10] = [
    "build",
    "--package",
    "larder-start",
    "--bin",
    "larder-start",
    "--features",
    "web",
    "--target",
    "wasm32-unknown-unknown",
    "--release",
];

/// The start-up module with the identity provider's sign-in (feature `provider`), which the
/// one inside the page hands the start to when config.json names a provider: the same compile
/// with that feature.
fn start_provider_cargo_args() -> [&'static str; 10] {
    START_CARGO_ARGS.map(|arg| if arg == "web" { "provider" } else { arg })
}

/// One build of the start-up module, through wasm-bindgen into `stage` as `out_name`. The two
/// builds write the same file under target/, so they run one after the other.
fn start_module(cargo_args: &[&str], out_name: &str, stage: &Path) -> Result<()> {
    exec(&mut command("cargo", cargo_args))?;
    let start_module = root().join("target/wasm32-unknown-unknown/release/larder-start.wasm");
    exec(&mut command(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            out_name,
            "--out-dir",
            path_str(stage)?,
            path_str(&start_module)?,
        ],
    ))
}

/// Builds the split console into `dist/<folder>` and returns the folder's name.
pub fn build(dist: &Path) -> Result<Build> {
    let target = root().join("target/split");
    let stage = target.join("stage");
    if stage.exists() {
        std::fs::remove_dir_all(&stage)?;
    }
    std::fs::create_dir_all(&stage)?;

    eprintln!("split: cargo build (feature `split`, relocations kept for the splitter)");
    exec(&mut command("cargo", &CARGO_ARGS))?;
    let linked = root().join("target/wasm32-unknown-unknown/release/larder.wasm");
    let input = std::fs::read(&linked).with_context(|| format!("reading {}", linked.display()))?;

    eprintln!("split: wasm_split_cli_support::transform");
    let main_module = target.join("larder_split.wasm");
    let main_js = format!("./{OUT_NAME}.js");
    let split = {
        let mut options = wasm_split_cli_support::Options::new(&input);
        options.output_dir = &stage;
        options.main_out_path = &main_module;
        options.main_module = &main_js;
        options.link_name = "./__wasm_split.js";
        wasm_split_cli_support::transform(options)
            .map_err(|e| anyhow::anyhow!("{e:#}"))
            .context("splitting the wasm module")?
    };

    eprintln!("split: wasm-bindgen on the main module");
    exec(&mut command(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            // The split loader and the chunks reach the main module's table and memory
            // through exports wasm-bindgen would otherwise remove.
            "--keep-lld-exports",
            "--no-demangle",
            "--no-typescript",
            "--out-name",
            OUT_NAME,
            "--out-dir",
            path_str(&stage)?,
            path_str(&main_module)?,
        ],
    ))?;

    eprintln!("split: the start-up modules (crates/start): the page's, and the provider's");
    start_module(&START_CARGO_ARGS, START_OUT_NAME, &stage)?;
    start_module(
        &start_provider_cargo_args(),
        START_PROVIDER_OUT_NAME,
        &stage,
    )?;

    let mut modules = vec![
        stage.join(format!("{START_OUT_NAME}_bg.wasm")),
        stage.join(format!("{START_PROVIDER_OUT_NAME}_bg.wasm")),
        stage.join(format!("{OUT_NAME}_bg.wasm")),
    ];
    modules.extend(split.split_modules.iter().cloned());
    on_both_cores(&modules, |module| optimise(module))?;
    let bundles = bundle::write(&stage, &parts_by_split(&split)?)?;
    std::fs::write(stage.join("boot.js"), bundle::boot_js(&bundles)?)?;
    std::fs::write(stage.join("read_bundle.js"), bundle::reader_js())?;
    let loader = stage.join("__wasm_split.js");
    let routed = bundle::route_through_bundles(
        &std::fs::read_to_string(&loader)?,
        split.split_modules.len(),
    )?;
    std::fs::write(&loader, routed)?;
    // Every script the page may load, whoever wrote it (wasm-bindgen, the splitter, this).
    let mut scripts = Vec::new();
    walk(&stage, &mut scripts)?;
    scripts.retain(|file| file.extension().is_some_and(|e| e == "js"));
    on_both_cores(&scripts, |script| minify(script))?;
    for (sheet, styles) in [
        (START_OUT_NAME, &START_STYLES[..]),
        (OUT_NAME, &CONSOLE_STYLES[..]),
    ] {
        let mut css = String::new();
        for style in styles {
            css.push_str(&std::fs::read_to_string(root().join(style))?);
            css.push('\n');
        }
        std::fs::write(stage.join(format!("{sheet}.css")), css)?;
    }

    let folder = format!("{OUT_NAME}-{:016x}", hash_folder(&stage)?);
    let destination = dist.join(&folder);
    if destination.exists() {
        std::fs::remove_dir_all(&destination)?;
    }
    std::fs::rename(&stage, &destination)?;
    let mut chunks: Vec<String> = split
        .split_modules
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    chunks.sort();
    let bundles = bundles
        .iter()
        .map(|b| format!("{} ({} parts)", b.file, b.parts.len()))
        .collect();
    Ok(Build {
        folder,
        chunks,
        bundles,
    })
}

/// `wasm-opt -Oz` in place, with the features rustc emits for wasm32 (the chunks carry no
/// features section of their own).
pub fn optimise(module: &Path) -> Result<()> {
    let path = path_str(module)?;
    exec(&mut command(
        "wasm-opt",
        &[
            "-Oz",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-reference-types",
            "--enable-multivalue",
            path,
            "-o",
            path,
        ],
    ))
}

/// terser in place, as an ES module. The glue wasm-bindgen writes is readable, not small:
/// minified, what comes before "Sign in" works (`start.js`, `boot.js`) is 1.4 KB brotli smaller,
/// and the console's glue and loaders 2.8 KB.
pub(crate) fn minify(script: &Path) -> Result<()> {
    let path = path_str(script)?;
    exec(&mut command(
        "terser",
        &[path, "--module", "--compress", "--mangle", "--output", path],
    ))
}

/// FNV-1a over every file's relative name and bytes, in name order.
fn hash_folder(dir: &Path) -> Result<u64> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.sort();
    let mut all = Vec::new();
    for file in files {
        all.extend(file.strip_prefix(dir)?.to_string_lossy().as_bytes());
        all.extend(std::fs::read(&file)?);
    }
    Ok(fnv1a(&all))
}

/// 64-bit FNV-1a: enough to give each loader its own cacheable name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn path_str(path: &Path) -> Result<&str> {
    match path.to_str() {
        Some(text) => Ok(text),
        None => bail!("{} is not UTF-8", path.display()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_provider_build_is_the_start_up_build_with_its_feature() {
        let args = super::start_provider_cargo_args();
        let features = args.iter().position(|a| *a == "--features").unwrap();
        assert_eq!(args[features + 1], "provider");
        assert!(!args.contains(&"web"));
        let same = |a: &[&str]| {
            a.iter()
                .filter(|x| **x != "web" && **x != "provider")
                .count()
        };
        assert_eq!(same(&args), same(&super::START_CARGO_ARGS));
    }
}
