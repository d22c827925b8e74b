//! Issue 41's figure (`cargo xtask bench --only restore`): a 100-member household with profiles
//! and a week of meal plans (one plan a day per family of four), downloaded through "Download my
//! data" on the phone line, then restored from that file into an account without a household,
//! on the phone line, once per run: its time from pressing Restore to the comparison's result,
//! the API requests the page sent, and the comparison's result (target: no differences).
//! Seeded here through the API; the browser half is `restore.mjs`.

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use super::exports::{login_as, meal, utc_today};
use super::pages::{browser_script, numbers, violations};
use super::Figure;

const SCRIPT: &str = "xtask/src/bench/restore.mjs";
/// Members of the household downloaded.
const MEMBERS: usize = 100;
/// Days of plans, from the service's today on.
const DAYS: i64 = 7;
/// Members sharing each plan.
const FAMILY: usize = 4;
/// Whose household is downloaded (a demo family account, its household replaced).
const SOURCE: (&str, &str) = ("family02", "family-demo");
/// Who restores it (a demo family account, its household removed before each run).
const RESTORER: (&str, &str) = ("family03", "family-demo");
/// What the console says when the file and the service agree.
const NO_DIFFERENCES: &str =
    "Restored. The service now holds what the file holds: no differences, ids and times excepted.";

/// A profile as an owner fills one in (about 1 KB of JSON).
fn profile(n: usize) -> Value {
    json!({
        "dietary_groups": if n.is_multiple_of(3) { json!(["vegetarian"]) } else { json!(["halal", "gluten_free"]) },
        "allergies": ["peanuts", format!("allergen {n}")],
        "nutritional_preferences": {"likes": [format!("figs {n}"), "oats"], "salt": "low"},
        "properties": {"gender": if n.is_multiple_of(2) { "female" } else { "male" }, "food_likes": ["soup"], "notes": "x".repeat(600)},
    })
}

async fn post(http: &reqwest::Client, token: &str, url: String, body: Value) -> Result<Value> {
    let answer: Value = http
        .post(url)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(answer["result"].clone())
}

/// Replaces the source's household with [`MEMBERS`] members, each with a profile (production's
/// member create keeps the dietary groups and preferences; the rest is a `PATCH`), and a plan a
/// day for [`DAYS`] days for each family of [`FAMILY`].
async fn seed(origin: &str) -> Result<()> {
    let http = reqwest::Client::new();
    let token = login_as(&http, origin, SOURCE).await?;
    let own = http
        .get(format!("{origin}/api/v1/households/me"))
        .bearer_auth(&token)
        .send()
        .await?;
    if own.status().is_success() {
        let id = own.json::<Value>().await?["result"]["id"]
            .as_str()
            .context("no household id")?
            .to_string();
        http.delete(format!("{origin}/api/v1/households/{id}"))
            .bearer_auth(&token)
            .send()
            .await?
            .error_for_status()?;
    }
    let household = post(
        &http,
        &token,
        format!("{origin}/api/v1/households"),
        json!({"name": "A hundred members", "region": "EU", "metadata": {"seeded_by": "cargo xtask bench"}}),
    )
    .await?;
    let id = household["id"].as_str().context("no household id")?;
    let mut ids = Vec::new();
    for n in 0..MEMBERS {
        let member = post(
            &http,
            &token,
            format!("{origin}/api/v1/members"),
            json!({"household_id": id, "name": format!("Member {n:03}"), "age_group": if n % 4 == 3 { "child" } else { "adult" }}),
        )
        .await?;
        let member_id = member["id"].as_str().context("no member id")?.to_string();
        let full = profile(n);
        post(
            &http,
            &token,
            format!("{origin}/api/v1/members/{member_id}/profile"),
            full.clone(),
        )
        .await?;
        http.patch(format!("{origin}/api/v1/members/{member_id}/profile"))
            .bearer_auth(&token)
            .json(&json!({"allergies": full["allergies"], "properties": full["properties"]}))
            .send()
            .await?
            .error_for_status()?;
        ids.push(member_id);
    }
    let today = utc_today();
    for (family, members) in ids.chunks(FAMILY).enumerate() {
        for day in 0..DAYS {
            let date = larder_contract::time::add_days(&today, day).context("a date")?;
            let plan = json!({
                "id": format!("bench-{family}-{date}"),
                "breakfast": meal(format!("Porridge {family}")),
                "lunch": meal(format!("Lentil soup {family}")),
                "dinner": meal(format!("Baked salmon {family}")),
                "reasoning": "Balanced for the family: fish twice a week, no nuts, less salt.",
            });
            post(
                &http,
                &token,
                format!("{origin}/api/v1/members/{}/meal-plans", members[0]),
                json!({"date": date, "applies_to_member_ids": &members[1..], "meal_plan": plan}),
            )
            .await?;
        }
    }
    Ok(())
}

/// The figures; `console` is the console's URL (ending in `/`).
pub fn figures(console: &str, runs: usize) -> Result<Vec<Figure>> {
    let origin = console.trim_end_matches('/').trim_end_matches("/console");
    tokio::runtime::Runtime::new()?.block_on(seed(origin))?;
    let result = browser_script(
        SCRIPT,
        &[
            console,
            &runs.to_string(),
            SOURCE.0,
            SOURCE.1,
            RESTORER.0,
            RESTORER.1,
        ],
    )?;
    violations(&result)?;
    if result["members"].as_u64() != Some(MEMBERS as u64) {
        bail!("the file held {} members, not {MEMBERS}", result["members"]);
    }
    let results: Vec<&str> = result["results"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let faithful = results.iter().filter(|r| **r == NO_DIFFERENCES).count();
    let requests = numbers(&result["requests"]);
    Ok(vec![
        Figure::new(
            "Download my data, 100 members with profiles and 7 days of plans, phone line: JSON",
            "ms",
            vec![result["download_ms"].as_f64().unwrap_or(f64::NAN)],
        )
        .note(format!(
            "{:.2} MB, {} plans in the file (a plan counted once per member)",
            result["file_bytes"].as_f64().unwrap_or_default() / 1e6,
            result["plans"]
        )),
        Figure::new(
            "Restore from that file into an account without a household, phone line: Restore to the comparison's result",
            "ms",
            numbers(&result["restore_ms"]),
        )
        .note(format!(
            "{} API requests a run ({}); no differences in {faithful} of {} runs{}",
            requests.first().copied().unwrap_or_default(),
            if requests.windows(2).all(|w| w[0] == w[1]) { "every run" } else { "first run" },
            results.len(),
            if faithful == results.len() {
                String::new()
            } else {
                format!(": {results:?}")
            }
        )),
    ])
}
