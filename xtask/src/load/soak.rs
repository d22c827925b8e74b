//! The memory soak that follows the load: articles with long texts of words never seen before
//! and many free-form `extras` keys are created, rewritten and deleted, round after round. All
//! of it is gone afterwards, so the server's resident memory must come back to within
//! [`MARGIN_BYTES`] of where it stood after a warm-up round (which lets the allocator's pools and
//! the caches reach their working size first).
//!
//! Resident memory is `VmRSS` of `/proc/<pid>/status` (Linux); elsewhere the soak is skipped.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// Growth of resident memory over the soak that fails the load run.
pub const MARGIN_BYTES: u64 = 32 << 20;
/// The soak stops starting rounds after this long (a debug server is slow).
const LENGTH: Duration = Duration::from_secs(20);
/// Rounds at most.
const ROUNDS: usize = 40;
/// Rewrites of each article in a round (each with new words and new extras keys).
const REWRITES: usize = 3;
/// Distinct words in each version's content.
const WORDS: usize = 2_000;
/// Distinct `extras` keys in each version.
const EXTRAS: usize = 100;

/// What the soak measured.
pub struct Soak {
    pub before: u64,
    pub after: u64,
    pub rounds: usize,
    pub seconds: f64,
}

impl Soak {
    /// Growth in bytes (0 when memory shrank).
    pub fn growth(&self) -> u64 {
        self.after.saturating_sub(self.before)
    }

    pub fn line(&self) -> String {
        format!(
            "memory soak: {} rounds in {:.1} s; resident {:.1} MiB before, {:.1} MiB after, growth {:.1} MiB (margin {} MiB)\n",
            self.rounds,
            self.seconds,
            mib(self.before),
            mib(self.after),
            mib(self.growth()),
            MARGIN_BYTES >> 20
        )
    }

    pub fn json(&self) -> Value {
        json!({
            "rounds": self.rounds,
            "seconds": self.seconds,
            "rss_before_bytes": self.before,
            "rss_after_bytes": self.after,
            "growth_bytes": self.growth(),
            "margin_bytes": MARGIN_BYTES,
        })
    }

    /// An error when memory grew past the margin.
    pub fn check(&self) -> Result<()> {
        if self.growth() > MARGIN_BYTES {
            bail!(
                "resident memory grew by {:.1} MiB over the soak (margin {} MiB): {:.1} -> {:.1} MiB",
                mib(self.growth()),
                MARGIN_BYTES >> 20,
                mib(self.before),
                mib(self.after)
            );
        }
        Ok(())
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

/// Resident memory of process `pid`, in bytes; `None` where `/proc` doesn't tell.
pub fn resident(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A word no other round or version uses: letters only, so the tokenizer keeps it whole.
fn word(round: usize, version: usize, n: usize) -> String {
    let mut value = (round * 16 + version) * 100_000 + n;
    let mut text = String::from("soak");
    loop {
        text.push((b'a' + (value % 26) as u8) as char);
        value /= 26;
        if value == 0 {
            return text;
        }
    }
}

/// One version of a round's article: new words and new extras keys.
fn version(round: usize, version: usize) -> Value {
    let content: Vec<String> = (0..WORDS).map(|n| word(round, version, n)).collect();
    let extras: serde_json::Map<String, Value> = (0..EXTRAS)
        .map(|n| (word(round, version, 50_000 + n), json!(n)))
        .collect();
    json!({
        "title": format!("Soak {}", word(round, version, 99_999)),
        "content": content.join(" "),
        "extras": extras,
    })
}

/// Sends one request; anything but a success fails the soak.
async fn send(
    http: &reqwest::Client,
    token: &str,
    method: reqwest::Method,
    url: String,
    body: Option<Value>,
) -> Result<()> {
    let mut request = http.request(method.clone(), &url).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await?;
    let status = answer.status();
    if !status.is_success() {
        let text = answer.text().await.unwrap_or_default();
        bail!(
            "soak: {method} {url}: {status} {}",
            text.chars().take(200).collect::<String>()
        );
    }
    Ok(())
}

/// One round: create, rewrite [`REWRITES`] times, delete.
async fn round(http: &reqwest::Client, origin: &str, token: &str, n: usize) -> Result<()> {
    use reqwest::Method;
    let slug = format!("soak-{n}-{}", std::process::id());
    let records = format!("{origin}/api/v1/articles");
    let mut body = version(n, 0);
    body["urn"] = json!(slug);
    body["venue"] = json!("Soak Journal");
    send(http, token, Method::POST, records.clone(), Some(body)).await?;
    let one = format!("{records}/urn:article:{slug}");
    for v in 1..=REWRITES {
        send(http, token, Method::PATCH, one.clone(), Some(version(n, v))).await?;
    }
    send(http, token, Method::DELETE, one, None).await
}

/// Runs the soak against the server at `origin`, process `pid`, signed in as the curator.
pub async fn run(http: &reqwest::Client, origin: &str, pid: u32) -> Result<Option<Soak>> {
    if resident(pid).is_none() {
        eprintln!("memory soak skipped: no /proc/{pid}/status to read resident memory from");
        return Ok(None);
    }
    let answer: Value = http
        .post(format!("{origin}/api/v1/system/login"))
        .json(&json!({"username": "curator", "password": "curator-demo"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token = ["token", "access_token"]
        .iter()
        .find_map(|k| answer["result"][k].as_str())
        .context("no token in the curator's sign-in")?
        .to_string();
    // Warm-up: pools, caches and the index's structures reach their working size.
    round(http, origin, &token, 0).await?;
    let settle = Duration::from_millis(500);
    tokio::time::sleep(settle).await;
    let before = resident(pid).context("resident memory before the soak")?;
    let started = Instant::now();
    let mut rounds = 0;
    while rounds < ROUNDS && started.elapsed() < LENGTH {
        rounds += 1;
        round(http, origin, &token, rounds).await?;
    }
    let seconds = started.elapsed().as_secs_f64();
    tokio::time::sleep(settle).await;
    let after = resident(pid).context("resident memory after the soak")?;
    Ok(Some(Soak {
        before,
        after,
        rounds,
        seconds,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_distinct_letters() {
        let a = word(1, 0, 0);
        assert!(a.chars().all(|c| c.is_ascii_lowercase()), "{a}");
        assert_ne!(a, word(1, 1, 0));
        assert_ne!(a, word(2, 0, 0));
        assert_ne!(word(1, 0, 1), word(1, 0, 27));
    }

    #[test]
    fn this_process_has_a_resident_size() {
        if cfg!(target_os = "linux") {
            assert!(resident(std::process::id()).unwrap() > 0);
        }
    }
}
