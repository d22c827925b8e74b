//! The console's release build: the start-up module that makes the sign-in form work
//! (crates/start), and the console split into its main module and chunks the pages pull in
//! when they are first opened.
//!
//! trunk cannot run a split (its hooks run before cargo or after wasm-bindgen), so this runs the
//! pipeline itself: cargo (with relocations kept) → `wasm_split_cli_support::transform` →
//! wasm-bindgen on the main module → wasm-opt on the main module and every chunk. Everything the
//! page loads sits in one folder named by the hash of its contents (`larder-<hash>/`): the split
//! loader finds chunks next to itself, and a tab opened before a deploy keeps its own chunks.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::files::{on_both_cores, walk};
use crate::process::{command, exec, root};

/// The wasm-bindgen output's name: `larder.js` and `larder_bg.wasm`.
const OUT_NAME: &str = "larder";
/// The style sheets, in the order index.html names them.
pub const STYLES: [&str; 2] = ["style/main.css", "style/records.css"];
/// The start-up module's output name: `start.js` and `start_bg.wasm` (crates/start).
const START_OUT_NAME: &str = "start";
/// The split module every page after signing in needs: the console (`src/console.rs`).
const CONSOLE_SPLIT: &str = "console";

/// The loader index.html runs: an external module, so the policy needs no inline script. It
/// starts the start-up module and hands it the console's loader, which the start-up module calls
/// once the form works, naming the page group the sign-in will land on
/// (`larder_start::landing`). The loader asks for the console's module, its glue and the split
/// loader the glue imports together (one after another they took three round trips), then for
/// `parts` (by split: the files of the console and of that group), which the split loader would
/// ask for only once the module runs, and announces the module's exports (its memory among
/// them) for the bench.
///
/// The parts are preloads (`<link rel=preload as=fetch>`), which the split loader's own `fetch`
/// of each then takes over, in flight or done; a plain `fetch` ahead left the split loader's a
/// second download in a browser with a disk cache (719 against 415 KB after pressing Sign in,
/// in the bench's persistent profiles). They are asked for once 70 % of the module's
/// `module_bytes` have arrived: on a phone
/// line (200 KB/s, 150 ms) the last 30 % of its 96 KB take about the round trip the parts'
/// first bytes need, so the line does not idle between them; asked for beside the module, they
/// took the line from it, and everything after the module (the sign-in's hand-over, the page's
/// reads) started later.
fn boot_js(parts: &[(String, Vec<String>)], module_bytes: usize) -> String {
    let parts: Vec<String> = parts
        .iter()
        .map(|(split, files)| {
            let files: Vec<String> = files.iter().map(|f| format!("\"{f}\"")).collect();
            format!("\"{split}\": [{}]", files.join(", "))
        })
        .collect();
    format!(
        r#"import start, {{ run }} from "./start.js";
const PARTS = {{ {parts} }};
const MODULE_BYTES = {module_bytes};
async function whenMostlyHere(answer, then) {{
  const reader = answer.body.getReader();
  let seen = 0, asked = false;
  for (;;) {{
    const {{ done, value }} = await reader.read();
    if (!done) seen += value.length;
    if (!asked && (done || seen >= MODULE_BYTES * 0.7)) {{ asked = true; then(); }}
    if (done) return;
  }}
}}
async function loadConsole(group) {{
  const module = fetch(new URL("larder_bg.wasm", import.meta.url));
  module.catch(() => {{}});
  const glue = Promise.all([import("./larder.js"), import("./__wasm_split.js")]);
  const parts = new Set([...PARTS["{console}"], ...(PARTS[group] ?? [])]);
  const fetchParts = () => {{
    for (const part of parts) {{
      const link = document.createElement("link");
      link.rel = "preload";
      link.as = "fetch";
      link.crossOrigin = "anonymous";
      link.href = new URL(part, import.meta.url).href;
      document.head.append(link);
    }}
  }};
  module.then((answer) => whenMostlyHere(answer.clone(), fetchParts)).catch(() => {{}});
  const [larder] = await glue;
  const wasm = await larder.default({{ module_or_path: module }});
  dispatchEvent(new CustomEvent("larder-started", {{ detail: {{ wasm }} }}));
  return larder;
}}
await start({{ module_or_path: new URL("start_bg.wasm", import.meta.url) }});
run(loadConsole);
"#,
        parts = parts.join(", "),
        console = CONSOLE_SPLIT,
    )
}

/// The files of the console's split module and of each page group's, from the splitter's
/// prefetch map (dependencies first, the module last).
fn parts_by_split(split: &wasm_split_cli_support::SplitWasm) -> Result<Vec<(String, Vec<String>)>> {
    let names = std::iter::once(CONSOLE_SPLIT)
        .chain(larder_start::landing::Group::ALL.map(|g| g.split_name()));
    names
        .map(|name| {
            let files = split
                .prefetch_map
                .get(name)
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

    eprintln!("split: the start-up module (crates/start)");
    exec(&mut command("cargo", &START_CARGO_ARGS))?;
    let start_module = root().join("target/wasm32-unknown-unknown/release/larder-start.wasm");
    exec(&mut command(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            START_OUT_NAME,
            "--out-dir",
            path_str(&stage)?,
            path_str(&start_module)?,
        ],
    ))?;

    let mut modules = vec![
        stage.join(format!("{START_OUT_NAME}_bg.wasm")),
        stage.join(format!("{OUT_NAME}_bg.wasm")),
    ];
    modules.extend(split.split_modules.iter().cloned());
    on_both_cores(&modules, |module| optimise(module))?;
    let module_bytes = std::fs::metadata(stage.join(format!("{OUT_NAME}_bg.wasm")))?.len();
    let boot = boot_js(&parts_by_split(&split)?, module_bytes as usize);
    std::fs::write(stage.join("boot.js"), boot)?;
    let mut css = String::new();
    for style in STYLES {
        css.push_str(&std::fs::read_to_string(root().join(style))?);
        css.push('\n');
    }
    std::fs::write(stage.join(format!("{OUT_NAME}.css")), css)?;

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
    Ok(Build { folder, chunks })
}

/// `wasm-opt -Oz` in place, with the features rustc emits for wasm32 (the chunks carry no
/// features section of their own).
fn optimise(module: &Path) -> Result<()> {
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

/// The tags index.html gets in place of trunk's: the style sheet, the loader, and preloads of
/// what the start-up module needs at once. The console's module is not among them: the
/// start-up module fetches it once "Sign in" works (issue 24).
pub fn head_tags(base: &str, folder: &str) -> String {
    let at = format!("{base}{folder}");
    [
        format!("<link rel=\"stylesheet\" href=\"{at}/{OUT_NAME}.css\">"),
        format!("<link rel=\"modulepreload\" href=\"{at}/{START_OUT_NAME}.js\">"),
        format!(
            "<link rel=\"preload\" href=\"{at}/{START_OUT_NAME}_bg.wasm\" as=\"fetch\" type=\"application/wasm\" crossorigin>"
        ),
        // The start-up module reads config.json before it enables "Sign in": fetched beside the
        // wasm rather than after it, this saves a round trip on a slow line.
        format!("<link rel=\"preload\" href=\"{base}config.json\" as=\"fetch\" crossorigin>"),
        // The sign-in form's texts in every language (a few hundred bytes): the language is
        // chosen in the module (remembered, the browser's, config's), so all come, and a
        // language other than English costs no round trip before "Sign in" works (issue 24).
        format!(
            "<link rel=\"preload\" href=\"{base}locales/{}\" as=\"fetch\" crossorigin>",
            crate::dist::START_CATALOG
        ),
        format!("<script type=\"module\" src=\"{at}/boot.js\"></script>"),
    ]
    .join("\n    ")
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
