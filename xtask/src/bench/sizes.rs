//! The split build's files, each raw, gzip -9 and brotli 11, and the start-up set's total.

use std::path::Path;

use anyhow::{Context, Result};

use super::Figure;

/// The split build's files, raw, gzip -9 and brotli 11: the start-up set (`index.html`, which
/// carries the start-up module, its glue, style and catalog, and the loader it runs) and every
/// module loaded later, each on its own.
pub(super) fn first_load(dist: &Path) -> Result<Vec<Figure>> {
    let folder = std::fs::read_dir(dist)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            p.is_dir()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("larder-"))
        })
        .context("no larder-<hash> folder in the build")?;
    let mut names: Vec<String> = std::fs::read_dir(&folder)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| [".wasm", ".js", ".css"].iter().any(|ext| n.ends_with(ext)))
        .collect();
    names.sort();
    // What comes before "Sign in" works: the page and the loader it runs. The console's main
    // module (larder_bg.wasm, in a bundle `parts_*.wasm` with a landing's parts), its glue
    // (larder.js, __wasm_split.js) and its style sheet (larder.css) come afterwards, fetched by
    // the start-up module. The start-up files (start_bg.wasm, start.js, start.css) are what the
    // page carries, fetched only when a policy refuses the page's own script (larder_start::build::page).
    let mut totals = [0.0; 3];
    let page = sizes_kb(&std::fs::read(dist.join("index.html"))?)?;
    add_to(&mut totals, page);
    let mut figures = vec![size_figure(
        "index.html",
        page,
        "at start (the page, with the start-up module, its glue, style and catalog)",
    )];
    let carried = ["start_bg.wasm", "start.js", "start.css"];
    for name in &names {
        let sizes = sizes_kb(&std::fs::read(folder.join(name))?)?;
        let at_start = name == "boot.js";
        if at_start {
            add_to(&mut totals, sizes);
        }
        let when = if at_start {
            "at start"
        } else if carried.contains(&name.as_str()) {
            "inside index.html; this file only when a policy refuses the page's script"
        } else if name.starts_with(larder_start::build::bundle::FILE_PREFIX) {
            "the main module and a landing's parts in one file, after \"Sign in\" works"
        } else {
            "loaded when needed"
        };
        figures.push(size_figure(name, sizes, when));
    }
    for (i, encoding) in ["raw", "gzip -9", "brotli"].iter().enumerate() {
        figures.push(
            Figure::new(
                format!("size: start-up set, {encoding}"),
                "KB",
                vec![totals[i]],
            )
            .note(if i == 1 { "target 180 KB" } else { "" }),
        );
    }
    Ok(figures)
}

/// A file's size in KB: raw, gzip -9 and brotli.
fn sizes_kb(raw: &[u8]) -> Result<[f64; 3]> {
    Ok([
        raw.len() as f64 / 1000.0,
        crate::dist::gzip(raw)?.len() as f64 / 1000.0,
        crate::dist::brotli(raw)?.len() as f64 / 1000.0,
    ])
}

fn add_to(totals: &mut [f64; 3], sizes: [f64; 3]) {
    for (total, size) in totals.iter_mut().zip(sizes) {
        *total += size;
    }
}

/// The "size: NAME, gzip -9" figure, with raw and brotli in its note and when it is loaded.
fn size_figure(name: &str, sizes: [f64; 3], when: &str) -> Figure {
    Figure::new(format!("size: {name}, gzip -9"), "KB", vec![sizes[1]]).note(format!(
        "{:.1} raw, {:.1} brotli; {when}",
        sizes[0], sizes[2]
    ))
}
