//! `POST {collection}/policy` (production.md §8 row 4): sets `reader_visibility` and/or
//! `indexing_tier` on every record of a selection — `urns`, and/or `q`/`fq` as in search — with
//! `dry_run` answering what would change and writing nothing.
//!
//! As production (newer `src/entities/articles.py`): a selection without `urns`, `q` or `fq`
//! would rewrite the whole corpus and is refused (422 here, as production's schema refuses it);
//! at most `max_docs` (≤ 10,000) records change and `capped` says when more matched; the answer
//! is `{dry_run, matched, updated, capped, max_docs, sample}`, the sample being the first 25
//! matches with `urn`, `title` and their policy fields as they stand before the change.
//! Production also answers `version_conflicts` and `failures` on a real run (its
//! update-by-query's counts); the change here is one transaction, so they are always 0 and [].

use axum::extract::State;
use larder_contract::collections::policy::{
    ReadingPolicy, MAX_POLICY_DOCS, POLICY_BODY, POLICY_SAMPLE,
};
use larder_contract::limits::MAX_PAGE_SIZE;
use larder_contract::validate::Extra;
use larder_contract::Collection;
use serde_json::{json, Map, Value};

use super::{blocking, require};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody};
use crate::model::query::{parse_filter, terms};
use crate::model::{self};
use crate::store::{now, NaturalOrder, SearchQuery, Viewer};
use crate::SharedState;

/// The fields a sample row carries.
const SAMPLE_FIELDS: &[&str] = &[
    "urn",
    "title",
    "reader_visibility",
    "indexing_tier",
    "ai_indexing_tier",
];

/// What the body asks for, checked.
struct Request {
    urns: Option<Vec<String>>,
    q: Vec<String>,
    fq: Vec<String>,
    changes: Map<String, Value>,
    clear_tier: bool,
    limit: u32,
    dry_run: bool,
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn request(body: Value) -> ApiResult<Request> {
    let body = model::object(body)?;
    let body = model::validated(POLICY_BODY, Extra::Forbid, &body)?;
    let mut changes = Map::new();
    for field in ["reader_visibility", "indexing_tier"] {
        if let Some(value) = body.get(field).filter(|v| !v.is_null()) {
            changes.insert(field.to_string(), value.clone());
        }
    }
    let clear_tier = body.get("clear_indexing_tier") == Some(&Value::Bool(true));
    if changes.is_empty() && !clear_tier {
        return Err(ApiError::unprocessable(
            "reader_visibility",
            "Specify reader_visibility and/or indexing_tier (or clear_indexing_tier).",
        ));
    }
    if clear_tier && changes.contains_key("indexing_tier") {
        return Err(ApiError::unprocessable(
            "clear_indexing_tier",
            "indexing_tier and clear_indexing_tier exclude each other.",
        ));
    }
    let urns = body
        .get("urns")
        .filter(|v| !v.is_null())
        .map(|v| strings(Some(v)));
    let q = terms(body.get("q").and_then(Value::as_str).unwrap_or_default());
    let fq = strings(body.get("fq"));
    if urns.as_ref().is_none_or(Vec::is_empty) && q.is_empty() && fq.is_empty() {
        return Err(ApiError::unprocessable(
            "urns",
            "Refusing to apply a reading policy to every record: provide urns, a query or filters.",
        ));
    }
    let limit = body
        .get("max_docs")
        .and_then(Value::as_u64)
        .map_or(MAX_POLICY_DOCS, |m| (m as u32).min(MAX_POLICY_DOCS));
    Ok(Request {
        urns,
        q,
        fq,
        changes,
        clear_tier,
        limit,
        dry_run: body.get("dry_run") == Some(&Value::Bool(true)),
    })
}

/// The stored records the selection matches, in the natural order (at most the search window
/// when `q`/`fq` select), and how many matched in all.
fn matching(
    state: &SharedState,
    collection: &'static Collection,
    request: &Request,
) -> ApiResult<(Vec<Value>, u64)> {
    let records = state.store.records();
    if request.q.is_empty() && request.fq.is_empty() {
        let mut found = Vec::new();
        for urn in request.urns.iter().flatten() {
            if let Some(row) = records.get(collection, urn, Viewer::Curator)? {
                if !found.iter().any(|d: &Value| d["id"] == row.doc["id"]) {
                    found.push(row.doc);
                }
            }
        }
        let total = found.len() as u64;
        return Ok((found, total));
    }
    let mut filters = Vec::new();
    for entry in &request.fq {
        filters.push(parse_filter(entry).map_err(|m| ApiError::unprocessable("fq", m))?);
    }
    let mut query = SearchQuery {
        collection,
        viewer: Viewer::Curator,
        parent: None,
        terms: request.q.clone(),
        filters,
        sort: Vec::new(),
        natural_order: NaturalOrder::Insertion,
        limit: MAX_PAGE_SIZE,
        offset: 0,
        facets: Vec::new(),
        facet_limit: 1,
    };
    let mut found = Vec::new();
    let total = loop {
        let hits = state.store.search(&query)?;
        let short = hits.results.len() < query.limit as usize;
        found.extend(hits.results.iter().map(|(doc, _)| doc.clone()));
        query.offset += query.limit;
        if short || query.offset >= MAX_POLICY_DOCS {
            break hits.total;
        }
    };
    let Some(urns) = &request.urns else {
        return Ok((found, total));
    };
    found.retain(|doc| {
        doc["urn"]
            .as_str()
            .is_some_and(|urn| urns.iter().any(|u| collection.full_urn(u) == urn))
    });
    let total = found.len() as u64;
    Ok((found, total))
}

fn sample_of(doc: &Value) -> Value {
    let picked: Map<String, Value> = SAMPLE_FIELDS
        .iter()
        .filter_map(|f| doc.get(*f).map(|v| (f.to_string(), v.clone())))
        .collect();
    Value::Object(picked)
}

/// Runs a checked request.
fn apply(
    state: &SharedState,
    collection: &'static Collection,
    request: Request,
) -> ApiResult<Value> {
    let (found, matched) = matching(state, collection, &request)?;
    let affected: Vec<Value> = found.into_iter().take(request.limit as usize).collect();
    let sample: Vec<Value> = affected.iter().take(POLICY_SAMPLE).map(sample_of).collect();
    let capped = matched > u64::from(request.limit);
    let mut updated = 0;
    if !request.dry_run && !affected.is_empty() {
        let stamp = now();
        let docs: Vec<(String, Value)> = affected
            .into_iter()
            .filter_map(|mut doc| {
                let id = doc["id"].as_str()?.to_string();
                let map = doc.as_object_mut()?;
                for (field, value) in &request.changes {
                    map.insert(field.clone(), value.clone());
                }
                if request.clear_tier {
                    map.remove("indexing_tier");
                }
                map.insert("updated_at".into(), Value::String(stamp.clone()));
                Some((id, doc))
            })
            .collect();
        updated = state.store.records().replace_many(collection, &docs)?;
    }
    let mut answer = json!({
        "dry_run": request.dry_run,
        "matched": matched,
        "updated": updated,
        "capped": capped,
        "max_docs": request.limit,
        "sample": sample,
    });
    if !request.dry_run {
        answer["version_conflicts"] = json!(0);
        answer["failures"] = json!([]);
    }
    Ok(answer)
}

/// `POST {collection}/{policy.route}`.
pub async fn set_policy(
    collection: &'static Collection,
    policy: &'static ReadingPolicy,
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    require(
        &caller,
        policy.roles,
        &format!(
            "changing the reading policy of {}",
            collection.plural.to_lowercase()
        ),
    )?;
    let request = request(body)?;
    blocking(move || apply(&state, collection, request).map(Envelope)).await
}
