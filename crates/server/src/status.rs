//! `GET system/health` (no token) and `GET system/indices` (admin): production's answers
//! (production.md §10.6) with what they mean for a service on SQLite and an in-memory index.
//!
//! - **Search engine** (`elasticsearch`, production's `Cluster`): the in-memory search index
//!   (crate `larder-search`), one node. Each collection is a "shard": *active* when the index
//!   holds exactly the records the database holds of it, *unassigned* when the counts differ.
//!   Status `green` when every collection is in step, `yellow` when one is not (searches may miss
//!   or show records), `red` when the database could not be counted.
//! - **Cache** (`redis`): the cache of records as `GET` presents them, in the server's own
//!   memory; reachable whenever the server answers.
//! - **Storage**: SQLite's `PRAGMA quick_check` (run at most every [`INTEGRITY_EVERY`], its last
//!   result reported with when it ran) and the artifact folder (a file can be created in it).
//! - **Index drift** (`missing_fields`): the contract's value fields of a collection that its
//!   stored records carry but the index holds no value of, so a filter, sort or facet on them
//!   would answer wrongly. The index maps every field as records arrive, so a healthy service
//!   shows none; `mapped_fields` counts the top-level fields the index holds of the collection.
//!
//! An unauthenticated health check costs at most one computation every [`HEALTH_EVERY`]: later
//! callers get the same answer until it is due again.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use axum::extract::State;
use larder_contract::collections::ADMINS;
use larder_contract::limits::MAX_SEARCH_WINDOW;
use larder_contract::status::INDICES;
use larder_contract::{Collection, Type};
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::auth::Caller;
use crate::error::{ApiResult, Envelope};
use crate::routes::{blocking, require};
use crate::SharedState;

/// How long a health answer is reused.
pub const HEALTH_EVERY: Duration = Duration::from_secs(5);
/// How long an integrity check's result is reused.
pub const INTEGRITY_EVERY: Duration = Duration::from_secs(600);

/// The health answer and the integrity check, reused while fresh.
#[derive(Default)]
pub struct Checks {
    health: Mutex<Option<(Instant, Value)>>,
    integrity: std::sync::Mutex<Option<(Instant, String, String)>>,
}

/// `GET system/health`: always 200; `healthy` when the search engine and the cache are reachable
/// and storage is healthy.
pub async fn health(State(state): State<SharedState>) -> ApiResult<Envelope<Value>> {
    let mut cached = state.checks.health.lock().await;
    if let Some((at, answer)) = cached.as_ref() {
        if at.elapsed() < HEALTH_EVERY {
            return Ok(Envelope(answer.clone()));
        }
    }
    let worker = state.clone();
    let answer = blocking(move || {
        let cluster = cluster(&worker);
        let storage = storage(&worker);
        let healthy = cluster["reachable"] == true && storage["healthy"] == true;
        Ok(json!({
            "healthy": healthy,
            "elasticsearch": cluster,
            "redis": { "reachable": true },
            "storage": storage,
        }))
    })
    .await?;
    *cached = Some((Instant::now(), answer.clone()));
    Ok(Envelope(answer))
}

/// `GET system/indices` (admin): the search engine, each collection's index, and those that
/// drifted.
pub async fn indices(
    State(state): State<SharedState>,
    caller: Caller,
) -> ApiResult<Envelope<Value>> {
    require(&caller, ADMINS, "reading the search indices")?;
    blocking(move || {
        let mut indices = Vec::new();
        let mut drifted = Vec::new();
        for (collection, name) in INDICES {
            let index = index_state(&state, collection, name)?;
            if index["missing_fields"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
            {
                drifted.push(name);
            }
            indices.push(index);
        }
        Ok(Envelope(json!({
            "cluster": cluster(&state),
            "indices": indices,
            "drifted": drifted,
        })))
    })
    .await
}

/// Records per collection in the database, as the index names them.
fn stored_counts(state: &SharedState) -> rusqlite::Result<Vec<(&'static Collection, u64)>> {
    state.store.read(|conn| {
        INDICES
            .iter()
            .map(|(collection, _)| {
                conn.query_row(
                    "SELECT count(*) FROM records WHERE collection = ?1",
                    [collection.path],
                    |row| row.get(0),
                )
                .map(|count| (*collection, count))
            })
            .collect()
    })
}

/// The search engine as production's `Cluster` reports it (see the module's documentation).
fn cluster(state: &SharedState) -> Value {
    let stored = match stored_counts(state) {
        Ok(stored) => stored,
        Err(error) => {
            tracing::error!(%error, "counting records for the health check");
            return json!({
                "reachable": true, "cluster_name": "larder-search", "status": "red",
                "number_of_nodes": 1, "active_shards": 0, "unassigned_shards": INDICES.len(),
            });
        }
    };
    let in_step = {
        let index = state.store.index();
        stored
            .iter()
            .filter(|(collection, count)| index.all_of(collection).len() as u64 == *count)
            .count()
    };
    let out_of_step = stored.len() - in_step;
    json!({
        "reachable": true,
        "cluster_name": "larder-search",
        "status": if out_of_step == 0 { "green" } else { "yellow" },
        "number_of_nodes": 1,
        "active_shards": in_step,
        "unassigned_shards": out_of_step,
    })
}

/// The database's integrity (reused for [`INTEGRITY_EVERY`]) and whether the artifact folder
/// takes a file.
fn storage(state: &SharedState) -> Value {
    let (integrity, checked_at) = integrity(state);
    let folder = state.store.files();
    let artifacts = match tempfile::Builder::new()
        .prefix(".larder-health-")
        .tempfile_in(folder)
    {
        Ok(_) => "ok".to_string(),
        // The error names the folder's path: the log has it, the unauthenticated answer not.
        Err(error) => {
            tracing::warn!(%error, "the artifact folder takes no file");
            "the artifact folder takes no file".to_string()
        }
    };
    let healthy = integrity == "ok" && artifacts == "ok";
    let mut answer = json!({
        "healthy": healthy,
        "database": { "integrity": integrity, "checked_at": checked_at },
        "artifacts": artifacts,
    });
    if !healthy {
        let problem = if integrity != "ok" {
            format!("database: {integrity}")
        } else {
            artifacts
        };
        answer["error"] = json!(problem);
    }
    answer
}

/// `PRAGMA quick_check`'s first line (`ok` when sound) and when it ran, run again when older
/// than [`INTEGRITY_EVERY`].
fn integrity(state: &SharedState) -> (String, String) {
    let mut last = state
        .checks
        .integrity
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some((at, result, checked_at)) = last.as_ref() {
        if at.elapsed() < INTEGRITY_EVERY {
            return (result.clone(), checked_at.clone());
        }
    }
    let result = state
        .store
        .read(|conn| conn.query_row("PRAGMA quick_check", [], |row| row.get::<_, String>(0)))
        .unwrap_or_else(|error| format!("the database could not be checked: {error}"));
    let checked_at = crate::store::now();
    *last = Some((Instant::now(), result.clone(), checked_at.clone()));
    (result, checked_at)
}

/// Whether the index keeps a value of a field of type `ty` (one scalar, or a list of them).
fn kept_by_index(ty: &Type) -> bool {
    match ty {
        Type::List { item, .. } => item.is_scalar(),
        other => other.is_scalar(),
    }
}

/// One collection's index as production's `Index` reports it: records indexed, soft-deleted
/// records among them, bytes of the stored documents, fields mapped and missing.
fn index_state(
    state: &SharedState,
    collection: &'static Collection,
    name: &str,
) -> ApiResult<Value> {
    let (mapped, indexed) = state.store.index().fields_of(collection);
    let contract: BTreeSet<&str> = collection
        .create
        .iter()
        .chain(collection.update)
        .chain(collection.service_set)
        .filter(|field| kept_by_index(&field.ty))
        .map(|field| field.name)
        .collect();
    let (deleted, bytes, stored_fields) = state.store.read(|conn| -> rusqlite::Result<_> {
        let (deleted, bytes): (u64, u64) = conn.query_row(
            "SELECT count(CASE WHEN json_extract(doc, '$.status') = 'deleted' THEN 1 END),
                    coalesce(sum(length(CAST(doc AS BLOB))), 0)
             FROM records WHERE collection = ?1",
            [collection.path],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        // The top-level fields the stored records hold a value the index would keep of: a
        // number, a boolean, text of at most MAX_VALUE_LEN bytes, or a list holding one.
        let limit = larder_search::MAX_VALUE_LEN;
        let fields = conn
            .prepare(&format!(
                "SELECT DISTINCT j.key FROM records r, json_each(r.doc) j WHERE r.collection = ?1 AND (
                    j.type IN ('integer', 'real', 'true', 'false')
                    OR (j.type = 'text' AND length(CAST(j.value AS BLOB)) <= {limit})
                    OR (j.type = 'array' AND EXISTS (SELECT 1 FROM json_each(j.value) t WHERE
                        t.type IN ('integer', 'real', 'true', 'false')
                        OR (t.type = 'text' AND length(CAST(t.value AS BLOB)) <= {limit}))))"
            ))?
            .query_map([collection.path], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<BTreeSet<String>>>()?;
        Ok((deleted, bytes, fields))
    })?;
    let missing: Vec<&str> = contract
        .iter()
        .filter(|field| stored_fields.contains(**field) && !mapped.contains(**field))
        .copied()
        .collect();
    Ok(json!({
        "index": name,
        "exists": true,
        "doc_count": indexed,
        "deleted_docs": deleted,
        "size_bytes": bytes,
        "mapped_fields": mapped.len(),
        "missing_fields": missing,
        "max_result_window": MAX_SEARCH_WINDOW,
        "expected_max_result_window": MAX_SEARCH_WINDOW,
    }))
}
