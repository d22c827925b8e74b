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

/// Another browser script of the bench (`xtask/src/bench/restore.mjs`), run as [`browser`] is.
pub fn browser_script(script: &str, args: &[&str]) -> Result<Value> {
    run_script(script, args, None)
}

/// [`browser`], with a bearer token handed over in the environment (`LARDER_BENCH_TOKEN`), so it
/// is not printed with the command line.
fn browser_with_token(args: &[&str], token: Option<&str>) -> Result<Value> {
    run_script(BROWSER_SCRIPT, args, token)
}

fn run_script(script: &str, args: &[&str], token: Option<&str>) -> Result<Value> {
    let mut all = vec![script];
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

/// One field of every run of one app.
/// Bytes as KB (1,000 bytes), as the table shows them.
fn kilobytes(bytes: Vec<f64>) -> Vec<f64> {
    bytes.into_iter().map(|b| b / 1000.0).collect()
}

fn field(result: &Value, app: &str, key: &str) -> Vec<f64> {
    result[app]
        .as_array()
        .map(|runs| runs.iter().filter_map(|r| r[key].as_f64()).collect())
        .unwrap_or_default()
}

/// The peers of `LARDER_BENCH_PEERS` (`name=url` separated by spaces: another app's sign-in
/// page), as (name, url).
pub fn env_peers() -> Vec<(String, String)> {
    parse_peers(&std::env::var("LARDER_BENCH_PEERS").unwrap_or_default())
}

fn parse_peers(text: &str) -> Vec<(String, String)> {
    text.split_whitespace()
        .filter_map(|peer| peer.split_once('='))
        .map(|(name, url)| (name.to_string(), url.to_string()))
        .collect()
}

/// Start, fresh profile each run, on loopback or under Lighthouse's mobile throttling (1.6 Mbps,
/// 150 ms round trip), beside the static floor page, the built-in Refine peer (`refine`: served
/// under the console's folder, see peer.rs; it also signs in, in the first run) and any peers of
/// `LARDER_BENCH_PEERS`. For the console also (browser.mjs `scenarios`): an owner's bookmark to
/// `/household` signing in at once and 2 s later, until the members and the page working, and a
/// curator's bookmark to the articles list until its rows and search work. With `before` (an
/// earlier build's folder URL, on its own server), the same scenarios for it in the same run.
pub fn start(
    console: &str,
    runs: usize,
    throttled: bool,
    refine: bool,
    before: Option<&str>,
) -> Result<Vec<Figure>> {
    let floor = format!("{console}floor.html");
    let mut peers = env_peers();
    if refine {
        peers.push((
            super::peer::NAME.to_string(),
            format!("{console}{}", super::peer::SERVED_AT),
        ));
    }
    let mode = if throttled { "throttled" } else { "loopback" };
    let runs_text = runs.to_string();
    let mut args: Vec<String> = vec![
        "start".into(),
        console.into(),
        floor,
        runs_text,
        mode.into(),
    ];
    args.extend(peers.iter().map(|(name, url)| format!("{name}={url}")));
    if refine {
        args.push(format!("--check={}", super::peer::NAME));
    }
    if let Some(before) = before {
        args.push(format!("--before={before}"));
    }
    let result = browser(&args.iter().map(String::as_str).collect::<Vec<_>>())?;
    violations(&result)?;
    if refine && result[super::peer::NAME][0]["signed_in"] != true {
        bail!("the Refine peer did not sign in");
    }
    let line = if throttled {
        "mobile 1.6 Mbps / 150 ms"
    } else {
        "loopback"
    };
    let floor_ready = Figure::new(
        format!("start ({line}): static floor page, sign-in works"),
        "ms",
        field(&result, "floor", "sign_in_ms"),
    );
    let mut figures = vec![floor_ready.clone()];
    let now = console_figures(&result, "", line, throttled, &floor_ready, None);
    if before.is_some() {
        let earlier = console_figures(&result, "before_", line, throttled, &floor_ready, None);
        figures.extend(console_figures(
            &result,
            "",
            line,
            throttled,
            &floor_ready,
            Some(&earlier),
        ));
        figures.extend(earlier);
    } else {
        figures.extend(now.clone());
    }
    let ready = &now[0];
    let console_bytes = &now[1];
    for (name, _) in &peers {
        let what = if refine && name == super::peer::NAME {
            "Refine 5's headless AuthPage (React 19, vite build), same server and policy; "
        } else {
            ""
        };
        let peer_ready = Figure::new(
            format!("start ({line}): {name}, sign-in works"),
            "ms",
            field(&result, name, "sign_in_ms"),
        )
        .versus(&floor_ready);
        let note = format!(
            "{what}{:.2}x the console's Sign in",
            peer_ready.median() / ready.median()
        );
        figures.push(peer_ready.note(note));
        figures.push(
            Figure::new(
                format!("start ({line}): {name}, bytes until sign-in works"),
                "KB",
                kilobytes(field(&result, name, "bytes")),
            )
            .versus(console_bytes),
        );
    }
    for app in [
        "console",
        "console_later",
        "curator",
        "before_console",
        "before_curator",
    ] {
        print_waterfall(app, &result[app][0]);
    }
    for app in ["console", "console_el"] {
        if let Some(files) = result[app][0]["files"].as_array() {
            eprintln!("{app}: files loaded before Sign in works (first run, bytes on the wire):");
            for file in files {
                eprintln!("  {:>8}  {}", file[1], file[0].as_str().unwrap_or_default());
            }
        }
    }
    Ok(figures)
}

/// The console's figures of one build (`prefix` "" for this one, "before_" for the earlier
/// one, whose figures say "(before)"); with `earlier` (that build's figures, in the same order),
/// each figure's ratio to the earlier build's. The first two are "Sign in" works and its bytes.
fn console_figures(
    result: &Value,
    prefix: &str,
    line: &str,
    throttled: bool,
    floor_ready: &Figure,
    earlier: Option<&[Figure]>,
) -> Vec<Figure> {
    let build = if prefix.is_empty() { "" } else { " (before)" };
    let at = |app: &str, key: &str| field(result, &format!("{prefix}{app}"), key);
    let goal = |text: &'static str| if throttled { text } else { "" };
    let ready = Figure::new(
        format!("start ({line}): console{build}, its own Sign in works"),
        "ms",
        at("console", "sign_in_ms"),
    )
    .versus(floor_ready)
    .note(goal("hold: 450 ms and 2.5x the floor (issue 37)"));
    let console_bytes = Figure::new(
        format!("start ({line}): console{build}, bytes on the wire until Sign in works"),
        "KB",
        kilobytes(at("console", "bytes")),
    )
    .note("every file and header; hold: 50 KB (issue 37)");
    let mut figures = vec![
        ready.clone(),
        console_bytes.clone(),
        // The same link in a Greek browser, same run: its catalog must not make "Sign in" later.
        Figure::new(
            format!("start ({line}): console{build} in Greek (el-GR), its own Sign in works"),
            "ms",
            at("console_el", "sign_in_ms"),
        )
        .versus(&ready)
        .note("issue 24: as fast as English"),
        Figure::new(
            format!("start ({line}): console{build} in Greek (el-GR), bytes until Sign in works"),
            "KB",
            kilobytes(at("console_el", "bytes")),
        )
        .versus(&console_bytes),
        Figure::new(
            format!("start ({line}): console{build}, index.html's form in the DOM"),
            "ms",
            at("console", "form_ms"),
        )
        .note("typing works from here"),
        Figure::new(
            format!("start ({line}): bookmark{build}, cold: opening /household to members on screen"),
            "ms",
            at("console", "open_ms"),
        )
        .note(goal("typing at once, Sign in the moment it works; hold: 1,200 ms (issue 37)")),
        Figure::new(
            format!("start ({line}): owner{build} signs in at once, until the household page"),
            "ms",
            at("console", "page_ms"),
        )
        .note("bookmark, cold: from pressing Sign in to members on screen"),
        Figure::new(
            format!("start ({line}): bookmark{build}, cold: opening /household to the console's page working"),
            "ms",
            at("console", "working_ms"),
        )
        .note("its \"Edit household\" button painted: the members above are the start-up module's until then"),
        Figure::new(
            format!("start ({line}): owner{build} signs in at once, until the console's page works"),
            "ms",
            at("console", "working_page_ms"),
        )
        .note(goal("bookmark, cold: from pressing Sign in; reach: 1,200 ms (issue 37)")),
        Figure::new(
            format!("start ({line}): owner{build} signs in 2 s later, until the console's page works"),
            "ms",
            at("console_later", "working_page_ms"),
        )
        .note(goal("bookmark, cold: pressed 2 s after Sign in works, from pressing; reach: 500 ms (issue 37)")),
        Figure::new(
            format!("start ({line}): curator's bookmark{build}, cold: opening /records/articles to rows and search working"),
            "ms",
            at("curator", "list_ms"),
        )
        .note(goal("Sign in pressed the moment it works; reach: 2,500 ms (issue 37)")),
        Figure::new(
            format!("start ({line}): curator{build} signs in at once, until the list works"),
            "ms",
            at("curator", "list_page_ms"),
        )
        .note("from pressing Sign in"),
        Figure::new(
            format!("start ({line}): bytes{build} from Sign in to the household page"),
            "KB",
            kilobytes(at("console", "page_bytes")),
        )
        .note(format!(
            "wasm modules still arriving at the press, whole: {:.0} KB (median; a bundle asked for before the press counts whole)",
            median(&at("console", "page_wasm_bytes")) / 1000.0
        )),
    ];
    if let Some(earlier) = earlier {
        figures = figures
            .into_iter()
            .zip(earlier)
            .map(|(now, then)| {
                let note = now.note.clone();
                let ratio = now.median() / then.median();
                let joint = if note.is_empty() { "" } else { "; " };
                now.note(format!("{note}{joint}{ratio:.2}x the build before"))
            })
            .collect();
    }
    figures
}

/// `app`'s first run's requests until its page worked, in page time (ms since opening the
/// link), with the moment Sign in was pressed: which waited for which.
fn print_waterfall(app: &str, run: &Value) {
    let Some(requests) = run["waterfall"].as_array() else {
        return;
    };
    let at = |key: &str| run[key].as_f64().unwrap_or(f64::NAN);
    eprintln!(
        "{app}: requests until the page worked (first run; Sign in pressed at {:.0} ms, shown at {:.0} ms, working at {:.0} ms):",
        at("pressed_ms"),
        at("shown_ms"),
        at("done_ms")
    );
    for request in requests {
        let ms = |key: &str| request[key].as_f64().unwrap_or(f64::NAN);
        eprintln!(
            "  {:>6.0} .. {:>6.0} ms {:>8} B  {}",
            ms("start"),
            ms("end"),
            request["bytes"],
            request["name"].as_str().unwrap_or_default()
        );
    }
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

#[cfg(test)]
mod tests {
    use super::parse_peers;

    #[test]
    fn peers_are_name_equals_url_separated_by_spaces() {
        assert_eq!(
            parse_peers(" refine=http://127.0.0.1:5173/  react-admin=http://h/x?a=b nonsense "),
            [
                ("refine".to_string(), "http://127.0.0.1:5173/".to_string()),
                ("react-admin".to_string(), "http://h/x?a=b".to_string()),
            ]
        );
        assert!(parse_peers("").is_empty());
    }
}
