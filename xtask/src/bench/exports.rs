//! The exports measured in headless Chromium (`browser.mjs export`, `household-export`): every
//! match of a 10,000-row search through the console's Export beside the browser's own
//! `JSON.stringify` + Blob of the same rows, and "Download my data" of a 1,000-member household
//! with large profiles (seeded here through the API), each with its wasm memory growth; and
//! (`plans`) that household with a month of meal plans, exported on the phone line.
//!
//! `cargo xtask bench --only export` (or `--only plans`), or against a running server:
//! `cargo xtask bench-export CONSOLE_URL` / `cargo xtask bench-plans CONSOLE_URL` (a
//! larder-server started with `--demo --generate-articles 10000` or more for the first, `--demo`
//! for the second, the console under CONSOLE_URL).

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

/// Days of meal plans in the plans figure: a month, from the service's today on (production
/// refuses plans for days gone by).
pub const PLAN_DAYS: i64 = 30;
/// Members sharing each plan (a family), as production's planner stores one plan for several.
const FAMILY: usize = 4;
/// The owner of the household with plans: a demo family account, whose members have no
/// profiles, so the page holds little before the export and the wasm memory growth is the
/// export's own (the profiles' household above is already in memory on its page).
const PLANS_OWNER: (&str, &str) = ("family01", "family-demo");

/// The service's today (UTC), `YYYY-MM-DD`.
pub(super) fn utc_today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    larder_contract::time::date_of((seconds / 86_400) as i64)
}

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

pub(super) async fn login_as(
    http: &reqwest::Client,
    origin: &str,
    who: (&str, &str),
) -> Result<String> {
    let answer: Value = http
        .post(format!("{origin}/api/v1/system/login"))
        .json(&json!({"username": who.0, "password": who.1}))
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
    seed_members(origin, OWNER, true).await
}

/// Gives `who` a household of [`MEMBERS`] members (with large profiles when `profiles`), unless
/// they have one of that size already; a household of another size is an error, except for
/// [`PLANS_OWNER`], whose demo household (three members) is replaced.
async fn seed_members(origin: &str, who: (&str, &str), profiles: bool) -> Result<()> {
    let http = reqwest::Client::new();
    let token = login_as(&http, origin, who).await?;
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
        if who != PLANS_OWNER {
            bail!(
                "{} owns a household of another size: start from a fresh database",
                who.0
            );
        }
        let id = value["result"]["id"].as_str().context("no household id")?;
        http.delete(format!("{origin}/api/v1/households/{id}"))
            .bearer_auth(&token)
            .send()
            .await?
            .error_for_status()?;
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
                if !profiles {
                    continue;
                }
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
    // One day of meal plans, so the figure stays the profiles' (a month is `plans` below).
    let today = utc_today();
    let household = browser(&[
        "household-export",
        console,
        &MEMBERS.to_string(),
        &runs,
        OWNER.0,
        OWNER.1,
        &today,
        &today,
    ])?;
    violations(&household)?;
    out.extend([
        Figure::new(
            "Download my data, 1,000 members with ~12 KB profiles (one day of plans): JSON",
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

pub(super) fn meal(title: String) -> Value {
    json!({
        "recipe_id": format!("rw-{}", title.len()), "title": title,
        "ingredients": "80 g rolled oats\n250 ml milk\n1 handful of blueberries\n1 tsp honey\n1 pinch of cinnamon",
        "directions": "Simmer the oats in the milk for five minutes, stirring now and then.\nTop with the berries, honey and cinnamon and serve warm.",
    })
}

/// Gives every family of [`FAMILY`] members of the seeded household one plan a day for
/// [`PLAN_DAYS`] days from today (an identical plan stored again is reused, so seeding twice
/// adds nothing).
pub async fn seed_plans(origin: &str) -> Result<()> {
    let http = reqwest::Client::new();
    let token = login_as(&http, origin, PLANS_OWNER).await?;
    let own: Value = http
        .get(format!("{origin}/api/v1/households/me"))
        .bearer_auth(&token)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let ids: Vec<String> = own["result"]["members"]
        .as_array()
        .context("no members")?
        .iter()
        .filter_map(|m| m["id"].as_str().map(str::to_string))
        .collect();
    let today = utc_today();
    let mut work = Vec::new();
    for (family, members) in ids.chunks(FAMILY).enumerate() {
        for day in 0..PLAN_DAYS {
            let date = larder_contract::time::add_days(&today, day).context("a date")?;
            work.push((family, date, members.to_vec()));
        }
    }
    let work = std::sync::Arc::new(std::sync::Mutex::new(work));
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (http, origin, token, work) = (
            http.clone(),
            origin.to_string(),
            token.clone(),
            work.clone(),
        );
        tasks.push(tokio::spawn(async move {
            loop {
                let next = work.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.pop();
                let Some((family, date, members)) = next else { return anyhow::Ok(()) };
                let plan = json!({
                    "id": format!("bench-{family}-{date}"),
                    "breakfast": meal(format!("Porridge {family}")),
                    "lunch": meal(format!("Lentil soup {family}")),
                    "dinner": meal(format!("Baked salmon {family}")),
                    "reasoning": "Balanced for the family: fish twice a week, no nuts, less salt.",
                });
                http.post(format!("{origin}/api/v1/members/{}/meal-plans", members[0]))
                    .bearer_auth(&token)
                    .json(&json!({"date": date, "applies_to_member_ids": &members[1..], "meal_plan": plan}))
                    .send()
                    .await?
                    .error_for_status()?;
            }
        }));
    }
    for task in tasks {
        task.await??;
    }
    Ok(())
}

/// "Download my data" of a 1,000-member household with a month of plans (one a day for each
/// member, shared by families of four), on the phone line (1.6 Mbps, 150 ms): once, JSON.
pub fn plan_figures(console: &str) -> Result<Vec<Figure>> {
    let runtime = tokio::runtime::Runtime::new()?;
    let origin = console.trim_end_matches('/').trim_end_matches("/console");
    runtime.block_on(seed_members(origin, PLANS_OWNER, false))?;
    runtime.block_on(seed_plans(origin))?;
    let today = utc_today();
    let last = larder_contract::time::add_days(&today, PLAN_DAYS - 1).context("a date")?;
    let household = browser(&[
        "household-export",
        console,
        &MEMBERS.to_string(),
        "1",
        PLANS_OWNER.0,
        PLANS_OWNER.1,
        &today,
        &last,
        "throttled",
        "json",
    ])?;
    violations(&household)?;
    let plans = numbers(&household["plans"]);
    if plans
        .iter()
        .any(|n| *n as i64 != MEMBERS as i64 * PLAN_DAYS)
    {
        bail!(
            "the file held {plans:?} plans, not {}",
            MEMBERS as i64 * PLAN_DAYS
        );
    }
    let requests = MEMBERS as i64 * (PLAN_DAYS + 4);
    Ok(vec![
        Figure::new(
            "Download my data, 1,000 members, 30 days of plans, phone line: JSON",
            "ms",
            numbers(&household["json_ms"]),
        )
        .note(format!(
            "{:.1} MB; {requests} requests, three at a time",
            household["json_bytes"].as_f64().unwrap_or_default() / 1e6
        )),
        Figure::new(
            "Download my data, 1,000 members, 30 days of plans: wasm memory growth",
            "bytes",
            growth(&household, "wasm_after_json"),
        )
        .note(format!(
            "wasm memory {:.1} MB before (members without profiles); 30,000 plans",
            numbers(&household["wasm_before"])
                .first()
                .copied()
                .unwrap_or_default()
                / 1e6
        )),
    ])
}
