//! Figures from an optimised native build (`--profile server`): decoding articles with the API
//! client's types beside Node's `JSON.parse`, and the server's search latency and throughput.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use super::pages::{browser, numbers};
use super::{load, Figure, DECODED};
use crate::process::command;

/// Runs an internal xtask command in an optimised build (`--profile server`), its errors shown
/// as they come; its output.
fn optimised_xtask(args: &[&str]) -> Result<Vec<u8>> {
    eprintln!(
        "$ cargo run --profile server -p xtask -- {}",
        args.join(" ")
    );
    let mut cargo_args = vec![
        "run",
        "--quiet",
        "--profile",
        "server",
        "--package",
        "xtask",
        "--",
    ];
    cargo_args.extend_from_slice(args);
    let out = command("cargo", &cargo_args)
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("running the optimised {}", args[0]))?;
    if !out.status.success() {
        bail!("the optimised {} failed ({})", args[0], out.status);
    }
    Ok(out.stdout)
}

/// Decode runs (natively and in Node).
const DECODE_RUNS: usize = 15;

/// larder-api's `Article` (and the console's generic `Record`) from the same bytes, natively in
/// an optimised build (`--profile server`: a debug build would measure serde unoptimised),
/// beside Node's JSON.parse.
pub(super) fn decode(bytes: &[u8], file: &Path) -> Result<Vec<Figure>> {
    let path = file.to_str().context("path")?;
    let runs = DECODE_RUNS.to_string();
    let out = optimised_xtask(&["bench-decode", path, &runs])?;
    let native: Value = serde_json::from_slice(&out)?;
    let parsed = browser(&["parse", path, &runs])?;
    let js = Figure::new(
        "decode 10,000 articles: JSON.parse (Node)",
        "ms",
        numbers(&parsed["parse_ms"]),
    )
    .note(format!("{:.1} MB of JSON", bytes.len() as f64 / 1e6));
    Ok(vec![
        Figure::new(
            "decode 10,000 articles: larder-api Article (native)",
            "ms",
            numbers(&native["article_ms"]),
        )
        .versus(&js),
        Figure::new(
            "decode 10,000 articles: larder-api Record (native)",
            "ms",
            numbers(&native["record_ms"]),
        )
        .versus(&js),
        js,
    ])
}

/// The server figures, from an optimised build of the load generator: it shares the machine's
/// cores with the server, and a debug build of it (what `cargo xtask` runs) would cap the
/// throughput it measures (about 3,400 GET/s against 9,000 optimised, same server).
pub(super) fn server_figures(origin: &str, articles: &Path) -> Result<Vec<Figure>> {
    let path = articles.to_str().context("path")?;
    let out = optimised_xtask(&["bench-server", origin, path])?;
    let figures: Vec<Value> = serde_json::from_slice(&out)?;
    Ok(figures
        .iter()
        .map(|figure| {
            Figure::new(
                figure["name"].as_str().unwrap_or_default(),
                if figure["unit"] == "req/s" {
                    "req/s"
                } else {
                    "ms"
                },
                numbers(&figure["samples"]),
            )
            .note(figure["note"].as_str().unwrap_or_default())
        })
        .collect())
}

/// `cargo xtask bench-server ORIGIN FILE` (run by the bench in an optimised build): search
/// latency and GET throughput against the server at ORIGIN; FILE holds the articles the warm
/// GET load reads. Prints the figures as JSON.
pub fn server_command(args: &[String]) -> Result<()> {
    let [origin, file] = args else {
        bail!("usage: cargo xtask bench-server ORIGIN FILE");
    };
    let bytes = std::fs::read(file)?;
    let figures = tokio::runtime::Runtime::new()?.block_on(load::server_figures(origin, &bytes))?;
    let figures: Vec<Value> = figures.iter().map(Figure::to_json).collect();
    println!("{}", serde_json::to_string(&figures)?);
    Ok(())
}

/// `cargo xtask bench-decode FILE RUNS` (run by the bench in an optimised build): times
/// decoding the file as `Vec<Article>` and as `Vec<Record>`; prints JSON.
pub fn decode_command(args: &[String]) -> Result<()> {
    let [file, runs] = args else {
        bail!("usage: cargo xtask bench-decode FILE RUNS");
    };
    let bytes = std::fs::read(file)?;
    let runs: usize = runs.parse()?;
    let (mut typed, mut generic) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let at = Instant::now();
        let articles: Vec<larder_api::Article> = serde_json::from_slice(&bytes)?;
        typed.push(at.elapsed().as_secs_f64() * 1000.0);
        let at = Instant::now();
        let records: Vec<larder_api::Record> = serde_json::from_slice(&bytes)?;
        generic.push(at.elapsed().as_secs_f64() * 1000.0);
        if articles.len() != DECODED || records.len() != DECODED {
            bail!("decoded {} articles, not {DECODED}", articles.len());
        }
        std::hint::black_box((articles, records));
    }
    println!("{}", json!({"article_ms": typed, "record_ms": generic}));
    Ok(())
}
