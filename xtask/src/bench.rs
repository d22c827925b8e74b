//! `cargo xtask bench`: size, start, list, decoding and server figures, each a median of
//! repeated runs with min and max, comparisons as ratios measured in the same run. Prints a table
//! and writes `target/bench/report.json`. Loopback only; every loop is bounded.

mod exports;
mod load;
mod native;
mod oidc_size;
mod pages;
mod peer;
mod restore;
mod silent;
mod sizes;

use native::{decode, server_figures};
pub use native::{decode_command, server_command};
use pages::{download, list, start, DOWNLOAD_BYTES};
use sizes::first_load;

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::{json, Value};

use crate::process::{command, exec, root, Server};

/// The browser half (headless Debian Chromium through Playwright's library).
const BROWSER_SCRIPT: &str = "xtask/src/bench/browser.mjs";
/// A plain static page with a sign-in form: the floor the console's start is compared with.
const FLOOR_PAGE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in</title></head>
<body><main><h1>Sign in</h1><form><label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button>Sign in</button></form></main></body></html>
"#;
/// Articles the server generates.
const ARTICLES: usize = 100_000;
/// Records decoded.
const DECODED: usize = 10_000;

/// One measured figure: samples, and what it is compared with.
#[derive(Clone, Debug)]
pub struct Figure {
    pub name: String,
    pub unit: &'static str,
    pub samples: Vec<f64>,
    /// A ratio to another figure of the same run, and what that one is.
    pub ratio: Option<(f64, String)>,
    pub note: String,
}

impl Figure {
    pub fn new(name: impl Into<String>, unit: &'static str, samples: Vec<f64>) -> Figure {
        Figure {
            name: name.into(),
            unit,
            samples,
            ratio: None,
            note: String::new(),
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Figure {
        self.note = note.into();
        self
    }

    pub fn median(&self) -> f64 {
        median(&self.samples)
    }

    fn min(&self) -> f64 {
        self.samples.iter().copied().fold(f64::INFINITY, f64::min)
    }

    fn max(&self) -> f64 {
        self.samples
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// This figure's median over `other`'s.
    pub fn versus(mut self, other: &Figure) -> Figure {
        self.ratio = Some((self.median() / other.median(), other.name.clone()));
        self
    }

    fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "unit": self.unit,
            "median": self.median(),
            "min": self.min(),
            "max": self.max(),
            "runs": self.samples.len(),
            "samples": self.samples,
            "ratio": self.ratio.as_ref().map(|(r, to)| json!({"value": r, "to": to})),
            "note": self.note,
        })
    }
}

/// The median of samples (the mean of the middle two for an even count).
pub fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The `p`th percentile (0..=100) by nearest rank.
pub fn percentile(samples: &[f64], p: f64) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// `cargo xtask bench [--runs N]`.
/// The parts of the bench, in the order they run; `--only` picks some of them.
const PARTS: [&str; 11] = [
    "first-load",
    "start",
    "list",
    "decode",
    "server",
    "download",
    "export",
    "plans",
    "restore",
    "silent",
    "oidc-size",
];

struct Options {
    runs: usize,
    parts: Vec<&'static str>,
    /// A build already made (`cargo xtask dist --dist DIR`), measured instead of building one.
    dist: Option<String>,
    /// An earlier build's folder, measured beside this one in the start figures (same run, its
    /// own server on the same database).
    before: Option<String>,
}

fn options(args: &[String]) -> Result<Options> {
    let usage = || {
        anyhow::anyhow!(
            "usage: cargo xtask bench [--runs N] [--only PART[,PART...]] [--dist DIR] [--before DIR]\n  parts: {}",
            PARTS.join(", ")
        )
    };
    let mut options = Options {
        runs: 10,
        parts: PARTS.to_vec(),
        dist: None,
        before: None,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(usage)?;
        match flag.as_str() {
            "--runs" => options.runs = value.parse().context("--runs takes a number")?,
            "--dist" => options.dist = Some(value.clone()),
            "--before" => options.before = Some(value.clone()),
            "--only" => {
                options.parts = value
                    .split(',')
                    .map(|part| PARTS.iter().copied().find(|p| *p == part.trim()))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(usage)?;
            }
            _ => return Err(usage()),
        }
    }
    Ok(options)
}

pub fn run(args: &[String]) -> Result<()> {
    let Options {
        runs,
        parts,
        dist: built,
        before,
    } = options(args)?;
    let wants = |part: &str| parts.contains(&part);
    crate::setup::run()?;
    let out = root().join("target/bench");
    std::fs::create_dir_all(&out)?;
    let mut figures = Vec::new();
    let mut not_measured: Vec<String> = PARTS
        .iter()
        .filter(|part| !wants(part))
        .map(|part| format!("{part} (left out by --only)"))
        .collect();

    let needs_console = [
        "first-load",
        "start",
        "list",
        "download",
        "export",
        "plans",
        "restore",
        "silent",
    ]
    .iter()
    .any(|part| wants(part));
    let dist = root().join(built.as_deref().unwrap_or("target/bench/dist"));
    if needs_console {
        if built.is_none() {
            eprintln!("\n==> the console's release build (cargo xtask dist logic)");
            crate::dist::build("target/bench/dist", None)?;
        }
        std::fs::write(dist.join("floor.html"), FLOOR_PAGE)?;
    }
    // The built-in Refine peer, unless LARDER_BENCH_PEERS brings its own `refine`.
    let mut refine = false;
    if wants("start") && !pages::env_peers().iter().any(|p| p.0 == peer::NAME) {
        match peer::prepare(&dist) {
            Ok(()) => refine = true,
            Err(error) => {
                eprintln!("the Refine peer could not be built: {error:#}");
                not_measured.push(format!("Refine's login form (its build failed: {error:#})"));
            }
        }
    }
    if wants("first-load") {
        figures.extend(first_load(&dist)?);
    }
    if wants("oidc-size") {
        figures.extend(oidc_size::measure()?);
    }
    // Neither needs the server.
    if parts
        .iter()
        .all(|part| ["first-load", "oidc-size"].contains(part))
    {
        return finish(&out, &figures, &not_measured);
    }

    eprintln!("\n==> larder-server (profile server) with {ARTICLES} generated articles");
    exec(&mut command(
        "cargo",
        &["build", "--package", "larder-server", "--profile", "server"],
    ))?;
    let db = out.join("articles.db");
    let generated = Instant::now();
    let mut server_args = vec![
        "--addr".to_string(),
        "127.0.0.1:0".into(),
        "--db".into(),
        db.to_str().context("path")?.into(),
        "--demo".into(),
        "--generate-articles".into(),
        ARTICLES.to_string(),
        // Room for the 1 GiB download measurement's file.
        "--max-upload".into(),
        (2 * DOWNLOAD_BYTES).to_string(),
    ];
    if needs_console {
        server_args.extend([
            "--static".to_string(),
            dist.to_str().context("path")?.into(),
            "--static-prefix".into(),
            base_of(&dist)?,
        ]);
    }
    let server_args: Vec<&str> = server_args.iter().map(String::as_str).collect();
    // Another build may be measured in the same conditions (before and after a change).
    let binary = std::env::var_os("LARDER_BENCH_SERVER")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root().join("target/server/larder-server"));
    eprintln!("server binary: {}", binary.display());
    let server = Server::start(&binary, &server_args)?;
    eprintln!(
        "server ready in {:.1} s (generation is skipped for articles already in {})",
        generated.elapsed().as_secs_f64(),
        db.display()
    );
    let console = format!("{}{}", server.url, base_of(&dist)?);
    // The earlier build on a server of its own (the same binary and database), so both are
    // measured alike, alternating, in the same run.
    let earlier = match (&before, wants("start")) {
        (Some(folder), true) => {
            let mut args = server_args.clone();
            let at = args.iter().position(|a| *a == "--static");
            let folder = root().join(folder);
            let base = base_of(&folder)?;
            let folder = folder.to_str().context("path")?;
            match at {
                Some(at) => {
                    args[at + 1] = folder;
                    args[at + 3] = &base;
                }
                None => args.extend(["--static", folder, "--static-prefix", &base]),
            }
            Some((Server::start(&binary, &args)?, base))
        }
        _ => None,
    };
    let before_url = earlier.as_ref().map(|(s, base)| format!("{}{base}", s.url));

    if wants("start") {
        eprintln!("\n==> start on loopback: until Sign in works, fresh profile each run");
        figures.extend(start(&console, runs, false, refine, before_url.as_deref())?);
        eprintln!("\n==> start under mobile throttling (1.6 Mbps, 150 ms round trip)");
        figures.extend(start(
            &console,
            runs.min(5),
            true,
            refine,
            before_url.as_deref(),
        )?);
    }
    drop(earlier);
    if wants("list") {
        eprintln!("\n==> a list page of 10,000 records (ten API pages of 1000)");
        figures.extend(list(&console, runs.min(5))?);
    }

    let runtime = tokio::runtime::Runtime::new()?;
    if wants("decode") || wants("server") {
        let bytes = runtime.block_on(load::fetch_articles(&server.url, DECODED))?;
        if wants("decode") {
            eprintln!(
                "\n==> decoding {DECODED} article records: larder-api natively vs JSON.parse"
            );
            let file = out.join("articles-10000.json");
            std::fs::write(&file, &bytes)?;
            figures.extend(decode(&bytes, &file)?);
        }
        if wants("server") {
            eprintln!("\n==> the server: search latency, GET throughput with 32 connections");
            let file = out.join("articles-10000.json");
            std::fs::write(&file, &bytes)?;
            figures.extend(server_figures(&server.url, &file)?);
        }
    }

    if wants("download") {
        eprintln!("\n==> a 1 GiB artifact downloaded through the console, beside fetch-to-Blob");
        let (record_path, title, artifact, token) =
            runtime.block_on(load::big_artifact(&server.url, &out, DOWNLOAD_BYTES))?;
        figures.extend(download(&console, &record_path, &title, &artifact, &token)?);
    }
    if wants("export") {
        eprintln!("\n==> Export of 10,000 search results and Download my data of 1,000 members");
        figures.extend(exports::figures(&console)?);
    }
    if wants("plans") {
        eprintln!("\n==> Download my data of 1,000 members with 30 days of meal plans, phone line");
        figures.extend(exports::plan_figures(&console)?);
    }
    if wants("restore") {
        eprintln!("\n==> Download my data of 100 members with a week of plans, restored into another account; phone line");
        figures.extend(restore::figures(&console, runs.min(3))?);
    }
    if wants("silent") {
        eprintln!("\n==> back without a password (identity provider), a new tab, beside a password sign-in; phone line");
        figures.extend(silent::figures(
            &dist,
            &base_of(&dist)?,
            &console,
            &binary,
            runs.min(5),
        )?);
    }
    drop(server);
    finish(&out, &figures, &not_measured)
}

/// The public URL a build was made for (`cargo xtask dist --public-url`, the journeys' build
/// `/console/`): its page's `<base href>`, served there.
fn base_of(dist: &Path) -> Result<String> {
    let page = std::fs::read_to_string(dist.join("index.html"))
        .with_context(|| format!("no index.html in {}", dist.display()))?;
    let at = page
        .find("<base href=\"")
        .context("the page has no <base href>")?
        + 12;
    let end = page[at..].find('"').context("an unclosed <base href>")?;
    Ok(page[at..at + end].to_string())
}

/// `cargo xtask bench-plans CONSOLE_URL`: the meal-plan export figures against a server already
/// running (with `--demo`, and the console under CONSOLE_URL), printed as the bench prints them.
pub fn plans_command(args: &[String]) -> Result<()> {
    let console = args
        .first()
        .context("usage: cargo xtask bench-plans CONSOLE_URL")?;
    let console = format!("{}/", console.trim_end_matches('/'));
    let figures = exports::plan_figures(&console)?;
    print_table(&figures, &[]);
    Ok(())
}

/// `cargo xtask bench-export CONSOLE_URL`: the export figures against a server already running
/// (with `--demo --generate-articles 10000` or more, and the console under CONSOLE_URL), printed
/// as the bench prints its table; nothing is written.
pub fn export_command(args: &[String]) -> Result<()> {
    let console = args
        .first()
        .context("usage: cargo xtask bench-export CONSOLE_URL")?;
    let console = format!("{}/", console.trim_end_matches('/'));
    let figures = exports::figures(&console)?;
    print_table(&figures, &[]);
    Ok(())
}

fn finish(out: &Path, figures: &[Figure], not_measured: &[String]) -> Result<()> {
    print_table(figures, not_measured);
    let report = json!({
        "date": crate::process::output("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]),
        "machine": machine(),
        "figures": figures.iter().map(Figure::to_json).collect::<Vec<_>>(),
        "not_measured": not_measured,
    });
    let path = out.join("report.json");
    std::fs::write(&path, serde_json::to_string_pretty(&report)?)?;
    eprintln!("report: {}", path.display());
    Ok(())
}

fn machine() -> Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:").map(|v| v.trim().to_string()));
    json!({
        "nproc": crate::process::output("nproc", &[]),
        "cpu": model,
        "memory": memory,
        "load_average": std::fs::read_to_string("/proc/loadavg").ok().map(|l| l.trim().to_string()),
    })
}

fn print_table(figures: &[Figure], not_measured: &[String]) {
    println!(
        "\n| figure | median | min | max | runs | ratio | note |\n|---|---:|---:|---:|---:|---|---|"
    );
    for f in figures {
        let ratio = f
            .ratio
            .as_ref()
            .map(|(r, to)| format!("{r:.2}x {to}"))
            .unwrap_or_default();
        println!(
            "| {} | {} {} | {} | {} | {} | {} | {} |",
            f.name,
            fmt(f.median()),
            f.unit,
            fmt(f.min()),
            fmt(f.max()),
            f.samples.len(),
            ratio,
            f.note
        );
    }
    for item in not_measured {
        println!("\nnot measured: {item}");
    }
}

fn fmt(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}
