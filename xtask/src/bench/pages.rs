//! The figures measured in headless Chromium (`browser.mjs`): start against the static floor,
//! the 10,000-row list, and the 1 GiB download beside a plain fetch-to-Blob.

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::{median, percentile, Figure, BROWSER_SCRIPT};
use crate::process::command;

/// Runs the browser script and parses its JSON.
pub fn browser(args: &[&str]) -> Result<Value> {
    browser_with_token(args, None)
}

/// [`browser`], with a bearer token handed over in the environment (`LARDER_BENCH_TOKEN`), so it
/// is not printed with the command line.
fn browser_with_token(args: &[&str], token: Option<&str>) -> Result<Value> {
    let mut all = vec![BROWSER_SCRIPT];
    all.extend_from_slice(args);
    eprintln!("$ node {}", all.join(" "));
    let mut node = command("node", &all);
    if let Some(token) = token {
        node.env("LARDER_BENCH_TOKEN", token);
    }
    let out = node
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("running node")?;
    if !out.status.success() {
        bail!("the browser script failed ({})", out.status);
    }
    serde_json::from_slice(&out.stdout).context("the browser script's output")
}

pub fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

pub fn violations(value: &Value) -> Result<()> {
    let found = value["violations"].as_array().cloned().unwrap_or_default();
    if !found.is_empty() {
        bail!("the Content-Security-Policy blocked something: {found:?}");
    }
    Ok(())
}

pub fn start(console: &str, runs: usize) -> Result<Vec<Figure>> {
    let floor = format!("{console}floor.html");
    let result = browser(&["start", console, &floor, &runs.to_string()])?;
    violations(&result)?;
    let floor_form = Figure::new(
        "start: static floor page, form in DOM",
        "ms",
        numbers(&result["floor"]["form_ms"]),
    );
    let floor_fcp = Figure::new(
        "start: static floor page, first contentful paint",
        "ms",
        numbers(&result["floor"]["fcp_ms"]),
    );
    let form = Figure::new(
        "start: console, sign-in form in DOM",
        "ms",
        numbers(&result["console"]["form_ms"]),
    )
    .versus(&floor_form)
    .note("index.html's form, usable while the module loads; target within 2x the floor");
    let app_form = Figure::new(
        "start: console, its module's sign-in form in DOM",
        "ms",
        numbers(&result["console"]["app_form_ms"]),
    )
    .versus(&floor_form)
    .note("the wasm console rendered, typed input carried over");
    let fcp = Figure::new(
        "start: console, first contentful paint",
        "ms",
        numbers(&result["console"]["fcp_ms"]),
    )
    .versus(&floor_fcp);
    Ok(vec![floor_form, form, app_form, floor_fcp, fcp])
}

/// Size of the downloaded artifact.
pub const DOWNLOAD_BYTES: u64 = 1 << 30;
/// Downloads of it per way (each moves 1 GiB twice: into the Blob and to Playwright's file).
const DOWNLOAD_RUNS: usize = 3;

pub fn download(
    console: &str,
    record_path: &str,
    title: &str,
    artifact: &str,
    token: &str,
) -> Result<Vec<Figure>> {
    let result = browser_with_token(
        &[
            "download",
            console,
            record_path,
            title,
            artifact,
            &DOWNLOAD_RUNS.to_string(),
            "curator",
            "curator-demo",
        ],
        Some(token),
    )?;
    violations(&result)?;
    let bytes = result["bytes"].as_f64().unwrap_or_default();
    if bytes as u64 != DOWNLOAD_BYTES {
        bail!("the plain fetch read {bytes} bytes, not {DOWNLOAD_BYTES}");
    }
    let rate = |ms: &[f64]| {
        ms.iter()
            .map(|m| bytes / 1e6 / (m / 1000.0))
            .collect::<Vec<_>>()
    };
    let (console_ms, plain_ms) = (numbers(&result["console_ms"]), numbers(&result["plain_ms"]));
    let before = numbers(&result["wasm_before"]);
    let after = numbers(&result["wasm_after"]);
    let growth: Vec<f64> = before.iter().zip(&after).map(|(b, a)| a - b).collect();
    let plain = Figure::new(
        "1 GiB download: plain fetch-to-Blob throughput",
        "MB/s",
        rate(&plain_ms),
    )
    .note("same page, same file, bearer header");
    let through_console = Figure::new(
        "1 GiB download: through the console, throughput",
        "MB/s",
        rate(&console_ms),
    )
    .note("button click to the browser's download event")
    .versus(&plain);
    Ok(vec![
        plain,
        through_console,
        Figure::new("1 GiB download: wasm memory growth", "bytes", growth).note(format!(
            "wasm memory {:.1} MB before the first download; target < 1 MB whatever the size",
            before.first().copied().unwrap_or_default() / 1e6
        )),
    ])
}

pub fn list(console: &str, runs: usize) -> Result<Vec<Figure>> {
    let result = browser(&[
        "list",
        console,
        // A search: each request answers 1000 full records (a plain listing answers identifiers,
        // whose records the page reads only for the rows in view).
        "records/articles?q=&sort=urn%20asc&limit=10000",
        "10000",
        &runs.to_string(),
        "curator",
        "curator-demo",
    ])?;
    violations(&result)?;
    let rendered = numbers(&result["rendered_rows"]);
    let frames = numbers(&result["frame_ms"]);
    let over = frames.iter().filter(|f| **f > 17.0).count();
    Ok(vec![
        Figure::new(
            "list of 10,000 records (search): data arrived to rows on screen",
            "ms",
            numbers(&result["render_ms"]),
        )
        .note(format!(
            "virtual table: {} rows in the DOM; target (10,000 rows) < 100 ms",
            median(&rendered)
        )),
        Figure::new(
            "list of 10,000 records: frame time while scrolling",
            "ms",
            frames.clone(),
        )
        .note(format!(
            "{} frames, p99 {:.1} ms, {over} over 17 ms",
            frames.len(),
            percentile(&frames, 99.0)
        )),
    ])
}
