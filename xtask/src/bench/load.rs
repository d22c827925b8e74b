//! The HTTP side of the bench: fetching records, search latency, and a small load generator
//! (32 connections on loopback, bounded rounds of fixed length).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use super::{median, percentile, Figure};

/// Rounds of the GET load; each figure is the median of the rounds.
const ROUNDS: usize = 5;
/// Length of one round of the cold GET load, short enough that no record is read twice.
const COLD_ROUND: Duration = Duration::from_secs(1);
/// Sequential searches per query shape: enough for a p99 that is not simply the maximum.
const SEARCHES: usize = 200;
/// Concurrent connections of the GET load.
const CONNECTIONS: usize = 32;
/// Length of one round of the GET load.
const LOAD_ROUND: Duration = Duration::from_secs(3);

async fn token(http: &reqwest::Client, origin: &str) -> Result<String> {
    let answer: Value = http
        .post(format!("{origin}/api/v1/system/login"))
        .json(&json!({"username": "admin", "password": "admin-demo"}))
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

async fn search(http: &reqwest::Client, origin: &str, token: &str, body: &Value) -> Result<Value> {
    let answer = http
        .post(format!("{origin}/api/v1/articles/search"))
        .bearer_auth(token)
        .json(body)
        .send()
        .await?;
    let status = answer.status();
    let value: Value = answer.json().await?;
    if !status.is_success() {
        bail!("search {body} answered {status}: {value}");
    }
    Ok(value)
}

/// `count` full article records (the search's hits, without `_score`), as one JSON array.
pub async fn fetch_articles(origin: &str, count: usize) -> Result<Vec<u8>> {
    let http = reqwest::Client::new();
    let token = token(&http, origin).await?;
    let mut records = Vec::with_capacity(count);
    let page = 1000;
    for offset in (0..count).step_by(page) {
        let body = json!({"q": "", "sort": "urn asc", "limit": page.min(count - offset), "offset": offset});
        let answer = search(&http, origin, &token, &body).await?;
        for mut hit in answer["result"]["results"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            if let Some(record) = hit.as_object_mut() {
                record.remove("_score");
                record.remove("_highlight");
            }
            records.push(hit);
        }
    }
    if records.len() != count {
        bail!("fetched {} articles, wanted {count}", records.len());
    }
    Ok(serde_json::to_vec(&records)?)
}

/// Search latency per query shape, and GET-record throughput with 32 connections.
pub async fn server_figures(origin: &str, articles: &[u8]) -> Result<Vec<Figure>> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(CONNECTIONS * 2)
        .build()?;
    let token = token(&http, origin).await?;
    let shapes = [
        ("one word", json!({"q": "vitamin", "limit": 20})),
        (
            "three words",
            json!({"q": "adults energy calcium", "limit": 20}),
        ),
        (
            "word + filter + sort",
            json!({"q": "iron", "fq": ["publication_year:[2000 TO 2010]"], "sort": "publication_year desc", "limit": 20}),
        ),
        (
            "word + facets + highlight",
            json!({"q": "sugar", "fields": ["publication_year", "status"], "highlight": true, "limit": 20}),
        ),
        (
            "everything, deep page",
            json!({"q": "", "limit": 20, "offset": 9000}),
        ),
    ];
    let mut figures = Vec::new();
    for (name, body) in &shapes {
        let total = search(&http, origin, &token, body).await?["result"]["total"]
            .as_u64()
            .unwrap_or_default();
        let mut times = Vec::with_capacity(SEARCHES);
        for _ in 0..SEARCHES {
            let at = Instant::now();
            search(&http, origin, &token, body).await?;
            times.push(at.elapsed().as_secs_f64() * 1000.0);
        }
        let p99 = percentile(&times, 99.0);
        figures.push(
            Figure::new(
                format!("search latency (p50 = median): {name}"),
                "ms",
                times,
            )
            .note(format!("{total} hits; {SEARCHES} searches in sequence")),
        );
        figures.push(
            Figure::new(format!("search latency p99: {name}"), "ms", vec![p99])
                .note(format!("nearest rank of {SEARCHES}")),
        );
    }

    // Cold: every request reads a record no request has read before, so the server's cache of
    // presented records never answers; each round takes its own slice of every article.
    // In a fixed shuffled order, as the warm load's URN order is: read in insertion order,
    // SQLite would find each next record on the page it has just read.
    let mut every = article_identifiers(&http, origin, &token).await?;
    every.sort_by_cached_key(|id| {
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(id, &mut hasher);
        std::hash::Hasher::finish(&hasher)
    });
    let every = Arc::new(every);
    let slice = every.len() / ROUNDS;
    let mut cold = Vec::new();
    for round in 0..ROUNDS {
        let urns = Arc::new(every[round * slice..(round + 1) * slice].to_vec());
        cold.push(get_load(&http, origin, &token, &urns, COLD_ROUND, false).await?);
    }
    let note = format!(
        "{CONNECTIONS} connections, {ROUNDS} rounds of {} s, each request a record not read before",
        COLD_ROUND.as_secs()
    );
    figures.extend(load_figures("GET record, each read once", &cold, &note));

    // Warm: the same 10,000 records read in turn, as a console's people read the records they
    // work on; after the first pass the cache answers.
    let urns: Vec<String> = serde_json::from_slice::<Vec<Value>>(articles)?
        .iter()
        .filter_map(|r| r["urn"].as_str().map(str::to_string))
        .collect();
    let urns = Arc::new(urns);
    let mut warm = Vec::new();
    for _ in 0..ROUNDS {
        warm.push(get_load(&http, origin, &token, &urns, LOAD_ROUND, true).await?);
    }
    let note = format!(
        "{CONNECTIONS} connections, {ROUNDS} rounds of {} s over {} records",
        LOAD_ROUND.as_secs(),
        urns.len()
    );
    figures.extend(load_figures("GET record", &warm, &note));
    Ok(figures)
}

/// Throughput, p50 and p99 of load rounds (each `(rate, p50, p99)`).
fn load_figures(name: &str, rounds: &[(f64, f64, f64)], note: &str) -> Vec<Figure> {
    let column = |pick: fn(&(f64, f64, f64)) -> f64| rounds.iter().map(pick).collect::<Vec<_>>();
    vec![
        Figure::new(format!("{name}: throughput"), "req/s", column(|r| r.0)).note(note),
        Figure::new(format!("{name} under load: p50"), "ms", column(|r| r.1)).note(note),
        Figure::new(format!("{name} under load: p99"), "ms", column(|r| r.2)).note(note),
    ]
}

/// Every article's identifier, from the listing (1,000 a page).
async fn article_identifiers(
    http: &reqwest::Client,
    origin: &str,
    token: &str,
) -> Result<Vec<String>> {
    let mut identifiers = Vec::new();
    loop {
        let page: Value = http
            .get(format!(
                "{origin}/api/v1/articles?limit=1000&offset={}",
                identifiers.len()
            ))
            .bearer_auth(token)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let page: Vec<String> = page["result"]
            .as_array()
            .context("the listing's result is not a list")?
            .iter()
            .filter_map(|id| id.as_str().map(str::to_string))
            .collect();
        if page.is_empty() {
            return Ok(identifiers);
        }
        identifiers.extend(page);
    }
}

/// One round: 32 tasks GET records in turn until the round ends (or, without `wrap`, every
/// record has been read once); requests per second and the p50/p99 latency. Any non-200 answer
/// fails the bench.
async fn get_load(
    http: &reqwest::Client,
    origin: &str,
    token: &str,
    urns: &Arc<Vec<String>>,
    length: Duration,
    wrap: bool,
) -> Result<(f64, f64, f64)> {
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + length;
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        let (http, urns, next) = (http.clone(), urns.clone(), next.clone());
        let (origin, token) = (origin.to_string(), token.to_string());
        tasks.push(tokio::spawn(async move {
            let mut times = Vec::new();
            while Instant::now() < deadline {
                let n = next.fetch_add(1, Ordering::Relaxed) as usize;
                if !wrap && n >= urns.len() {
                    break;
                }
                let urn = &urns[n % urns.len()];
                let at = Instant::now();
                let answer = http
                    .get(format!("{origin}/api/v1/articles/{urn}"))
                    .bearer_auth(&token)
                    .send()
                    .await?;
                let status = answer.status();
                answer.bytes().await?;
                if status != reqwest::StatusCode::OK {
                    bail!("GET {urn} answered {status}");
                }
                times.push(at.elapsed().as_secs_f64() * 1000.0);
            }
            Ok::<_, anyhow::Error>(times)
        }));
    }
    let mut times = Vec::new();
    for task in tasks {
        times.extend(task.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    Ok((
        times.len() as f64 / elapsed,
        median(&times),
        percentile(&times, 99.0),
    ))
}

/// An article with a file of `size` bytes attached (made once; reused by later runs): the
/// record's console path, the artifact's title and id, and a token for the plain fetch.
pub async fn big_artifact(
    origin: &str,
    folder: &std::path::Path,
    size: u64,
) -> Result<(String, String, String, String)> {
    let http = reqwest::Client::new();
    let token = token(&http, origin).await?;
    let urn = "urn:article:bench-download";
    let title = format!("Bench file of {size} bytes");
    let existing: Value = http
        .get(format!(
            "{origin}/api/v1/artifacts?parent_urn={}",
            "urn%3Aarticle%3Abench-download"
        ))
        .bearer_auth(&token)
        .send()
        .await?
        .json()
        .await
        .unwrap_or(Value::Null);
    let found = existing["result"].as_array().and_then(|artifacts| {
        artifacts
            .iter()
            .find(|a| a["title"] == json!(title))
            .and_then(|a| a["id"].as_str().map(str::to_string))
    });
    let id = match found {
        Some(id) => id,
        None => {
            http.post(format!("{origin}/api/v1/articles"))
                .bearer_auth(&token)
                .json(&json!({"urn": "bench-download", "title": "Bench download", "content": "Carries the bench's large file.",
                              "venue": "Bench", "authors": ["B. Ench"]}))
                .send()
                .await?;
            // A sparse file: the size is real, the disk use small; downloads are never compressed.
            let path = folder.join("download.bin");
            std::fs::File::create(&path)?.set_len(size)?;
            let file = tokio::fs::File::open(&path).await?;
            let part =
                reqwest::multipart::Part::stream_with_length(reqwest::Body::from(file), size)
                    .file_name("bench-download.bin")
                    .mime_str("application/octet-stream")?;
            let form = reqwest::multipart::Form::new()
                .text("parent_urn", urn)
                .text("title", title.clone())
                .part("file", part);
            let answer = http
                .post(format!("{origin}/api/v1/artifacts/upload"))
                .bearer_auth(&token)
                .multipart(form)
                .send()
                .await?;
            let status = answer.status();
            let body: Value = answer.json().await?;
            std::fs::remove_file(&path)?;
            if !status.is_success() {
                bail!("upload of the bench file answered {status}: {body}");
            }
            body["result"]["id"]
                .as_str()
                .context("no id in the upload's answer")?
                .to_string()
        }
    };
    Ok((format!("records/articles/{urn}"), title, id, token))
}
