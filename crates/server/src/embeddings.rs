//! Embeddings of articles and guidelines: the one module the embedding state, the coverage
//! `system/embeddings` reports and both backfill routes (`POST articles/embeddings/backfill`,
//! `POST guidelines/embeddings/backfill`, production.md §10.5, §10.6) go through.
//!
//! No model runs on this machine, so this service's embedding of a record is honest about what
//! it is: a 384-dimension feature-hashed bag of the words of the fields production embeds
//! ([`larder_contract::status::EMBEDDED`]: an article's title, abstract and content; a
//! guideline's rule text, title and notes), normalised to unit length, kept beside the record
//! (table `record_embeddings`, gone with it) while the record's `embedded_at` says when. The
//! service embeds only when a backfill asks (there is no queue: a backfill computes inline, so the
//! queue's `pending` is 0), so a record is *missing* until one has run, *stale* once its
//! `updated_at` passes its `embedded_at` (production's `embedding_is_stale`), *current* otherwise.
//!
//! A dry run and the backfill it previews walk the same [`plan`], so the preview's `queued` is
//! what the backfill then embeds (nothing changing in between).

use axum::extract::State;
use larder_contract::collections::ADMINS;
use larder_contract::status::{Embedded, EMBEDDED, MAX_BACKFILL_DOCS};
use rusqlite::params;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, QueryParams};
use crate::routes::{blocking, require};
use crate::store::now;
use crate::SharedState;

/// The dimensions of a vector.
pub const DIMENSIONS: usize = 384;
/// Records embedded per transaction: a backfill of 10,000 leaves the writer to others between.
const CHUNK: usize = 500;

/// The text a record's embedding is computed from: its embedded fields' text, one per line.
pub fn embedding_text(embedded: &Embedded, doc: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    for field in embedded.text_fields {
        match doc.get(*field) {
            Some(Value::String(text)) if !text.trim().is_empty() => parts.push(text.trim()),
            Some(Value::Array(items)) => parts.extend(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|t| !t.trim().is_empty()),
            ),
            _ => {}
        }
    }
    parts.join("\n")
}

/// FNV-1a, 64 bits: a stable hash of a word (std's hasher may change between releases, and a
/// stored vector must mean the same tomorrow). Hand-written: five lines, no crate needed.
fn fnv1a(word: &str) -> u64 {
    word.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The embedding of `text`: each word (letters and digits, lower-cased, two or more) adds ±1 to
/// the dimension its hash names (the sign from the hash's top bit), and the sum is scaled to
/// unit length; all zeros for text without words.
pub fn embed(text: &str) -> Vec<f32> {
    let mut vector = vec![0f32; DIMENSIONS];
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
    {
        let hash = fnv1a(&word.to_lowercase());
        let sign = if hash >> 63 == 1 { -1.0 } else { 1.0 };
        vector[(hash % DIMENSIONS as u64) as usize] += sign;
    }
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|v| *v /= norm);
    }
    vector
}

/// Whether a record embedded at `embedded_at` is stale, having been edited at `updated_at`
/// (production's `embedding_is_stale`): never when it has no embedding (that is *missing*) or
/// no `updated_at` (nothing to compare); always when a stamp cannot be read (re-embedding on
/// bad data is the cheaper mistake); otherwise when the edit is later.
pub fn is_stale(updated_at: Option<&str>, embedded_at: Option<&str>) -> bool {
    let (Some(updated), Some(embedded)) = (updated_at, embedded_at) else {
        return false;
    };
    match (
        larder_contract::time::unix_ms(updated),
        larder_contract::time::unix_ms(embedded),
    ) {
        (Some(updated), Some(embedded)) => updated > embedded,
        _ => true,
    }
}

/// One collection's coverage, as `system/embeddings` reports it (production's keys, with the
/// `stale` and `current` its later front end reads).
pub fn coverage(state: &SharedState, embedded: &Embedded) -> ApiResult<Value> {
    let stamps: Vec<(Option<String>, Option<String>)> = state.store.read(|conn| {
        conn.prepare_cached(
            "SELECT json_extract(doc, '$.updated_at'), json_extract(doc, '$.embedded_at') FROM records
             WHERE collection = ?1 AND coalesce(json_extract(doc, '$.status'), '') <> 'deleted'",
        )?
        .query_map([embedded.collection.path], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()
    })?;
    let total = stamps.len() as u64;
    let with: Vec<&(Option<String>, Option<String>)> =
        stamps.iter().filter(|(_, e)| e.is_some()).collect();
    let stale = with
        .iter()
        .filter(|(u, e)| is_stale(u.as_deref(), e.as_deref()))
        .count() as u64;
    let embedded_count = with.len() as u64;
    let coverage =
        (total > 0).then(|| (embedded_count as f64 / total as f64 * 10_000.0).round() / 10_000.0);
    Ok(json!({
        "index": embedded.index,
        "identifier_field": embedded.identifier_field,
        "exists": true,
        "total": total,
        "embedded": embedded_count,
        "missing": total - embedded_count,
        "coverage": coverage,
        "stale": stale,
        "current": embedded_count - stale,
    }))
}

/// `GET system/embeddings` (admin): the queue (none here: nothing waits) and each embedded
/// collection's coverage.
pub async fn report(
    State(state): State<SharedState>,
    caller: Caller,
) -> ApiResult<Envelope<Value>> {
    require(&caller, ADMINS, "reading the embedding coverage")?;
    blocking(move || {
        let indices = EMBEDDED
            .iter()
            .map(|embedded| coverage(&state, embedded))
            .collect::<ApiResult<Vec<_>>>()?;
        Ok(Envelope(json!({
            "queue": { "key": "inline", "pending": 0 },
            "indices": indices,
        })))
    })
    .await
}

/// Which records a backfill takes, in storage order, and what it passes over.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    /// Records it embeds.
    pub chosen: Vec<String>,
    /// Records it cannot embed (no text in the embedded fields).
    pub failed: Vec<String>,
    /// Records skipped because they carry an embedding (`only_missing`).
    pub skipped: u64,
    /// Records looked at.
    pub scanned: u64,
}

/// The records a backfill of `embedded` takes: the collection's records that are not deleted
/// (under `parent` when given), in storage order, skipping embedded ones when `only_missing`,
/// until `max_docs` are taken (embeddable or not).
pub fn plan(
    state: &SharedState,
    embedded: &Embedded,
    parent: Option<&str>,
    only_missing: bool,
    max_docs: u32,
) -> ApiResult<Plan> {
    let text = embedded
        .text_fields
        .iter()
        .map(|field| format!("coalesce(json_extract(doc, '$.{field}'), '')"))
        .collect::<Vec<_>>()
        .join(" || ' ' || ");
    let sql = format!(
        "SELECT id, json_extract(doc, '$.embedded_at') IS NOT NULL, length(trim({text})) > 0 FROM records
         WHERE collection = ?1 AND (?2 IS NULL OR parent = ?2)
           AND coalesce(json_extract(doc, '$.status'), '') <> 'deleted' ORDER BY rowid"
    );
    let plan = state.store.read(|conn| -> rusqlite::Result<Plan> {
        let mut plan = Plan::default();
        let mut statement = conn.prepare(&sql)?;
        let mut rows = statement.query(params![embedded.collection.path, parent])?;
        while plan.chosen.len() + plan.failed.len() < max_docs as usize {
            let Some(row) = rows.next()? else { break };
            plan.scanned += 1;
            let (id, has_embedding, has_text): (String, bool, bool) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            if only_missing && has_embedding {
                plan.skipped += 1;
            } else if has_text {
                plan.chosen.push(id);
            } else {
                plan.failed.push(id);
            }
        }
        Ok(plan)
    })?;
    Ok(plan)
}

/// Embeds the records `ids` of `embedded` now, in transactions of [`CHUNK`]: each gets its
/// vector and `embedded_at`, its `updated_at` untouched. Answers how many were embedded and how
/// many could not be (their text gone since the plan).
pub fn apply(state: &SharedState, embedded: &Embedded, ids: &[String]) -> ApiResult<(u64, u64)> {
    let mut done = 0u64;
    let mut failed = 0u64;
    for chunk in ids.chunks(CHUNK) {
        let stamp = now();
        done += state.store.records().update_each_with(
            embedded.collection,
            chunk,
            |tx, id, doc| {
                let text = embedding_text(embedded, doc);
                if text.is_empty() {
                    failed += 1;
                    return Ok(false);
                }
                let bytes: Vec<u8> = embed(&text).iter().flat_map(|v| v.to_le_bytes()).collect();
                tx.execute(
                    "INSERT INTO record_embeddings (record_id, embedded_at, vector) VALUES (?1, ?2, ?3)
                     ON CONFLICT (record_id) DO UPDATE SET embedded_at = excluded.embedded_at, vector = excluded.vector",
                    params![id, stamp, bytes],
                )?;
                doc.insert("embedded_at".into(), json!(stamp));
                Ok(true)
            },
        )? as u64;
    }
    Ok((done, failed))
}

/// The query of a backfill, read as FastAPI reads it (any other parameter is ignored).
#[derive(Debug, Default, Deserialize)]
pub struct BackfillQuery {
    only_missing: Option<String>,
    max_docs: Option<String>,
    dry_run: Option<String>,
    guide_urn: Option<String>,
}

/// FastAPI's booleans: `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`, letter case aside.
fn boolean(name: &str, value: Option<&str>, default: bool) -> ApiResult<bool> {
    let Some(value) = value else {
        return Ok(default);
    };
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" | "t" | "y" => Ok(true),
        "false" | "0" | "no" | "off" | "f" | "n" => Ok(false),
        _ => Err(ApiError::invalid_query(
            name,
            "bool_parsing",
            "Input should be a valid boolean, unable to interpret input",
        )),
    }
}

fn max_docs(value: Option<&str>) -> ApiResult<u32> {
    let Some(value) = value else {
        return Ok(MAX_BACKFILL_DOCS);
    };
    let parsed: i64 = value.trim().parse().map_err(|_| {
        ApiError::invalid_query(
            "max_docs",
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
        )
    })?;
    if !(1..=i64::from(MAX_BACKFILL_DOCS)).contains(&parsed) {
        let message = format!("Input should be between 1 and {MAX_BACKFILL_DOCS}");
        return Err(ApiError::invalid_query(
            "max_docs",
            "less_than_equal",
            &message,
        ));
    }
    Ok(parsed as u32)
}

/// `POST {articles, guidelines}/embeddings/backfill?only_missing=true&max_docs=&dry_run=false`
/// (admin; guidelines also `guide_urn=`): embeds the records [`plan`] takes, or with `dry_run`
/// says what it would. Answers production's counts.
pub async fn backfill(
    embedded: &'static Embedded,
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<BackfillQuery>,
) -> ApiResult<Envelope<Value>> {
    require(&caller, ADMINS, "backfilling embeddings")?;
    let only_missing = boolean("only_missing", query.only_missing.as_deref(), true)?;
    let dry_run = boolean("dry_run", query.dry_run.as_deref(), false)?;
    let limit = max_docs(query.max_docs.as_deref())?;
    let parent = embedded
        .parent_filter
        .and(query.guide_urn)
        .filter(|urn| !urn.is_empty());
    blocking(move || {
        let plan = plan(&state, embedded, parent.as_deref(), only_missing, limit)?;
        let (queued, late_failures) = if dry_run {
            (plan.chosen.len() as u64, 0)
        } else {
            apply(&state, embedded, &plan.chosen)?
        };
        let mut answer = json!({
            "dry_run": dry_run,
            "only_missing": only_missing,
            "queued": queued,
            "failed": plan.failed.len() as u64 + late_failures,
            "skipped_already_embedded": plan.skipped,
            "scanned": plan.scanned,
            "max_docs": limit,
        });
        if let Some(filter) = embedded.parent_filter {
            answer[filter] = json!(parent);
        }
        Ok(Envelope(answer))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_is_unit_length_and_stable() {
        let a = embed("Vitamin D and bone health");
        let norm: f32 = a.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);
        assert_eq!(a, embed("vitamin d AND bone health!"));
        assert_ne!(a, embed("Iron and anaemia"));
        assert!(embed("").iter().all(|v| *v == 0.0));
        // The same word always lands in the same place, with the same sign.
        let one = embed("lentils");
        assert_eq!(one.iter().filter(|v| **v != 0.0).count(), 1);
    }

    #[test]
    fn staleness_follows_production() {
        let t1 = Some("2026-11-26T10:00:00.000Z");
        let t2 = Some("2026-11-26T11:00:00Z");
        assert!(!is_stale(t1, None), "never embedded is missing, not stale");
        assert!(!is_stale(None, t1), "no edit stamp: assumed current");
        assert!(is_stale(t2, t1));
        assert!(!is_stale(t1, t2));
        assert!(!is_stale(t1, t1));
        // Production's naive stamps read as UTC.
        assert!(is_stale(Some("2026-11-26T12:00:00.000000"), t2));
        assert!(is_stale(Some("yesterday"), t1));
    }

    #[test]
    fn booleans_and_bounds_as_fastapi_reads_them() {
        assert!(boolean("x", Some("ON"), false).unwrap());
        assert!(!boolean("x", Some("0"), true).unwrap());
        assert!(boolean("x", None, true).unwrap());
        assert_eq!(boolean("x", Some("maybe"), true).unwrap_err().status, 422);
        assert_eq!(max_docs(None).unwrap(), MAX_BACKFILL_DOCS);
        assert_eq!(max_docs(Some("25")).unwrap(), 25);
        for bad in ["0", "10001", "-3", "x", "2.5"] {
            assert_eq!(max_docs(Some(bad)).unwrap_err().status, 422, "{bad}");
        }
    }
}
