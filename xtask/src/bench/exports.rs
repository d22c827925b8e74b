//! The exports measured in headless Chromium (`browser.mjs export`, `household-export`): every
//! match of a 10,000-row search through the console's Export beside the browser's own
//! `JSON.stringify` + Blob of the same rows, and "Download my data" of a 1,000-member household
//! with large profiles (seeded here through the API), each with its wasm memory growth.
//!
//! `cargo xtask bench --only export`, or against a running server:
//! `cargo xtask bench-export CONSOLE_URL` (a larder-server started with `--demo
//! --generate-articles 10000` or more, the console under CONSOLE_URL).

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use super::pages::{browser, numbers, violations};
use super::Figure;

/// Members of the seeded household (the reference service's cap per household).
pub const MEMBERS: usize = 1000;
/// The owner of the seeded household (a demo account that owns none).
const OWNER: (&str, &str) = ("noah", "noah-demo");
/// Runs of each export.
const RUNS: usize = 3;
/// Rows of the exported search.
const ROWS: usize = 10_000;

/// A profile of about 12 KB of JSON (the reference service keeps at most 16 KiB).
fn large_profile(n: usize) -> Value {
    let likes: Vec<String> = (0..150)
        .map(|k| format!("food {n}-{k}, \"quoted\""))
        .collect();
    json!({
        "dietary_groups": ["vegetarian", "gluten_free"],
        "allergies": ["peanuts", "sesame"],
        "nutritional_preferences": {"likes": likes, "notes": "x".repeat(4000)},
        "properties": {"history": (0..40).map(|k| json!({"week": k, "weight": 70 + k % 5})).collect::<Vec<_>>()},
    })
}

async fn login(http: &reqwest::Client, origin: &str) -> Result<String> {
    let answer: Value = http
        .post(format!("{origin}/api/v1/system/login"))
        .json(&json!({"username": OWNER.0, "password": OWNER.1}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    answer["result"]["token"]
        .as_str()
        .or_else(|| answer["result"]["access_token"].as_str())
        .map(str::to_string)
        .context("no token in the login answer")
}

/// Gives the owner a household of [`MEMBERS`] members with large profiles, unless they have
/// one of that size already.
pub async fn seed_household(origin: &str) -> Result<()> {
    let http = reqwest::Client::new();
    let token = login(&http, origin).await?;
    let own = http
        .get(format!("{origin}/api/v1/households/me"))
        .bearer_auth(&token)
        .send()
        .await?;
    if own.status().is_success() {
        let value: Value = own.json().await?;
        if value["result"]["members"].as_array().map(Vec::len) == Some(MEMBERS) {
            return Ok(());
        }
        bail!(
            "{} owns a household of another size: start from a fresh database",
            OWNER.0
        );
    }
    let created: Value = http
        .post(format!("{origin}/api/v1/households"))
        .bearer_auth(&token)
        .json(&json!({"name": "A thousand members", "region": "EU"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = created["result"]["id"]
        .as_str()
        .context("no household id")?
        .to_string();
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let (http, origin, token, id) =
            (http.clone(), origin.to_string(), token.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            for n in (worker..MEMBERS).step_by(8) {
                let member: Value = http
                    .post(format!("{origin}/api/v1/members"))
                    .bearer_auth(&token)
                    .json(&json!({"household_id": id, "name": format!("Member {n:04}"), "age_group": "adult"}))
                    .send()
                    .await?
                    .error_for_status()?
                    .json()
                    .await?;
                let member_id = member["result"]["id"].as_str().context("no member id")?;
                http.post(format!("{origin}/api/v1/members/{member_id}/profile"))
                    .bearer_auth(&token)
                    .json(&large_profile(n))
                    .send()
                    .await?
                    .error_for_status()?;
            }
            anyhow::Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    Ok(())
}

fn growth(result: &Value, after: &str) -> Vec<f64> {
    numbers(&result["wasm_before"])
        .iter()
        .zip(numbers(&result[after]))
        .map(|(b, a)| a - b)
        .collect()
}

/// The figures of both exports; `console` is the console's URL (ending in `/`).
pub fn figures(console: &str) -> Result<Vec<Figure>> {
    let runs = RUNS.to_string();
    let list = browser(&[
        "export",
        console,
        // 10,000 of the generated articles (the search window's most), as the list bench reads them.
        "records/articles?q=&sort=urn%20asc",
        &ROWS.to_string(),
        &runs,
        "curator",
        "curator-demo",
    ])?;
    violations(&list)?;
    if numbers(&list["rows"]).iter().any(|n| *n as usize != ROWS) {
        bail!("the export held {:?} rows, not {ROWS}", list["rows"]);
    }
    let plain = Figure::new(
        "export of 10,000 search results: the browser's own fetch + JSON.stringify + Blob",
        "ms",
        numbers(&list["plain_ms"]),
    )
    .note(format!(
        "same pages of 200, three at a time; {:.1} MB",
        list["plain_bytes"].as_f64().unwrap_or_default() / 1e6
    ));
    let json_figure = Figure::new(
        "export of 10,000 search results through Export, JSON",
        "ms",
        numbers(&list["json_ms"]),
    )
    .note(format!(
        "click to download event; {:.1} MB",
        list["json_bytes"].as_f64().unwrap_or_default() / 1e6
    ))
    .versus(&plain);
    let mut out = vec![
        plain,
        json_figure,
        Figure::new(
            "export of 10,000 search results through Export, CSV",
            "ms",
            numbers(&list["csv_ms"]),
        )
        .note(format!(
            "{:.1} MB",
            list["csv_bytes"].as_f64().unwrap_or_default() / 1e6
        )),
        Figure::new(
            "export of 10,000 search results: wasm memory growth (JSON then CSV)",
            "bytes",
            growth(&list, "wasm_after_csv"),
        )
        .note(format!(
            "wasm memory {:.1} MB before the first export; target < 2 MB",
            numbers(&list["wasm_before"])
                .first()
                .copied()
                .unwrap_or_default()
                / 1e6
        )),
    ];

    let runtime = tokio::runtime::Runtime::new()?;
    let origin = console.trim_end_matches('/').trim_end_matches("/console");
    runtime.block_on(seed_household(origin))?;
    let household = browser(&[
        "household-export",
        console,
        &MEMBERS.to_string(),
        &runs,
        OWNER.0,
        OWNER.1,
    ])?;
    violations(&household)?;
    out.extend([
        Figure::new(
            "Download my data, 1,000 members with ~12 KB profiles: JSON",
            "ms",
            numbers(&household["json_ms"]),
        )
        .note(format!(
            "{:.1} MB",
            household["json_bytes"].as_f64().unwrap_or_default() / 1e6
        )),
        Figure::new(
            "Download my data, 1,000 members with ~12 KB profiles: CSV zip",
            "ms",
            numbers(&household["zip_ms"]),
        )
        .note(format!(
            "{:.1} MB",
            household["zip_bytes"].as_f64().unwrap_or_default() / 1e6
        )),
        Figure::new(
            "Download my data, 1,000 members: wasm memory growth (JSON then zip)",
            "bytes",
            growth(&household, "wasm_after_zip"),
        )
        .note(format!(
            "wasm memory {:.1} MB before (the page holds households/me); target < 2 MB",
            numbers(&household["wasm_before"])
                .first()
                .copied()
                .unwrap_or_default()
                / 1e6
        )),
    ]);
    Ok(out)
}
