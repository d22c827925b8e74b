//! `POST guidelines/editorial-policy` (administrators; production.md §10.5): sets `status`,
//! `review_status`, `visibility` and/or `applicability_status` on every guideline of a
//! selection (`ids`, `q`, `fq`, combined), with `dry_run` answering what would change and
//! writing nothing. After production's `Guideline.set_editorial_policy` (wisefood-data-api
//! src/entities/guidelines.py @1c14741).
//!
//! As production: a selection naming nothing, or no change, is refused (production's validator
//! raises there, a 500; here the 422 it means, with production's sentence); the change itself is
//! checked with the partial editorial rule only (`visibility: public` alone passes, with
//! `status: draft` or a `review_status` other than verified it is refused, again 422 not 500);
//! deleted guidelines never match; at most `max_docs` (≤ 10,000) change and `capped` says when
//! more matched; `review_status: verified` stamps the caller as `verifier_user_id`, any other
//! review status clears it; the sample is the first 25 matches as they stood, with `id,
//! guide_urn, title, status, review_status, visibility, applicability_status`.
//!
//! Production writes with one update-by-query (`conflicts=proceed`): a guideline changed since
//! the selection was read is skipped and counted in `version_conflicts`, and `failures` lists
//! what its search engine refused. Here the run reads each match's `updated_at` with the
//! selection and writes in batches of 200, each guideline's current document read again inside
//! its batch's transaction: one changed (or deleted) since is skipped and counted in
//! `version_conflicts` the same way. A guideline the change would leave breaking the editorial
//! rule as a whole (public while unreviewed, public and draft, an age range upside down) or the
//! rules of its guide (an active guide's guidelines are active and verified, a published one's
//! public) is not written: production would write it and then fail to read it, or refuse it on
//! a PATCH. Each such guideline is listed in `failures` in the shape of a search engine's bulk
//! failure, `{index, id, cause: {type, reason}, status}`, and the others are written.

use std::collections::{HashMap, HashSet};

use axum::extract::State;
use larder_contract::collections::guidelines::{
    EDITORIAL_FIELDS, EDITORIAL_POLICY, EDITORIAL_POLICY_BODY, EDITORIAL_SAMPLE,
    EDITORIAL_SAMPLE_FIELDS, MAX_EDITORIAL_DOCS,
};
use larder_contract::collections::{GUIDELINES, GUIDES};
use larder_contract::limits::MAX_PAGE_SIZE;
use larder_contract::validate::{Extra, Problems};
use larder_contract::ErrorKind;
use serde_json::{json, Map, Value};

use super::policy::curator_search;
use super::{blocking, require};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody};
use crate::model::query::{parse_filter, terms};
use crate::model::{self, rules};
use crate::store::{now, Viewer};
use crate::SharedState;

/// Guidelines changed per transaction.
const BATCH: usize = 200;

/// What the body asks for, checked.
struct Request {
    ids: Vec<String>,
    q: Vec<String>,
    fq: Vec<String>,
    changes: Map<String, Value>,
    limit: u32,
    dry_run: bool,
}

fn read(body: Value) -> ApiResult<Request> {
    let body = model::object(body)?;
    let body = model::validated(EDITORIAL_POLICY_BODY, Extra::Forbid, &body)?;
    let strings = |key: &str| -> Vec<String> {
        body.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let ids = strings("ids");
    let q = body.get("q").and_then(Value::as_str).unwrap_or_default();
    let fq = strings("fq");
    let mut problems = Problems::new();
    if ids.is_empty() && q.trim().is_empty() && fq.is_empty() {
        problems.value_error(
            "ids",
            "Provide at least one selector: ids, q, or fq. Applying a policy to the entire corpus is not supported.",
        );
    }
    let changes: Map<String, Value> = EDITORIAL_FIELDS
        .iter()
        .filter_map(|f| {
            body.get(*f)
                .filter(|v| !v.is_null())
                .map(|v| (f.to_string(), v.clone()))
        })
        .collect();
    if changes.is_empty() {
        problems.value_error(
            "status",
            "Specify at least one of status, review_status, visibility, or applicability_status.",
        );
    }
    // Production's partial rule (`validate_editorial_state(changes, partial=True)`).
    if changes.get("visibility").and_then(Value::as_str) == Some("public") {
        if let Some(review) = changes.get("review_status").and_then(Value::as_str) {
            if review != "verified" {
                problems.value_error(
                    "review_status",
                    "public resources must have review_status='verified'",
                );
            }
        }
        if matches!(
            changes.get("status").and_then(Value::as_str),
            Some("draft" | "deleted")
        ) {
            problems.value_error(
                "status",
                "public resources cannot have status 'draft' or 'deleted'",
            );
        }
    }
    model::finish(&problems)?;
    let limit = body
        .get("max_docs")
        .and_then(Value::as_u64)
        .map_or(MAX_EDITORIAL_DOCS, |m| (m as u32).min(MAX_EDITORIAL_DOCS));
    Ok(Request {
        ids,
        q: terms(q),
        fq,
        changes,
        limit,
        dry_run: body.get("dry_run") == Some(&Value::Bool(true)),
    })
}

/// What the selection matched: every match counted, the first `limit` kept with the
/// `updated_at` they were read with, and the sample.
#[derive(Default)]
struct Matched {
    /// Each kept match: its id, the `updated_at` it was read with, its guide.
    kept: Vec<(String, Value, String)>,
    seen: HashSet<String>,
    sample: Vec<Value>,
    total: u64,
}

impl Matched {
    fn add(&mut self, doc: &Value, limit: u32) {
        if doc["status"] == "deleted" {
            return;
        }
        let Some(id) = doc["id"].as_str() else {
            return;
        };
        if !self.seen.insert(id.to_string()) {
            return;
        }
        self.total += 1;
        if self.sample.len() < EDITORIAL_SAMPLE {
            let row: Map<String, Value> = EDITORIAL_SAMPLE_FIELDS
                .iter()
                .map(|f| (f.to_string(), doc.get(*f).cloned().unwrap_or(Value::Null)))
                .collect();
            self.sample.push(Value::Object(row));
        }
        if self.kept.len() < limit as usize {
            let guide = doc["guide_urn"].as_str().unwrap_or_default().to_string();
            self.kept
                .push((id.to_string(), doc["updated_at"].clone(), guide));
        }
    }
}

/// The guidelines the selection matches, as a curator sees them.
fn matching(state: &SharedState, request: &Request) -> ApiResult<Matched> {
    let mut matched = Matched::default();
    let records = state.store.records();
    if request.q.is_empty() && request.fq.is_empty() {
        for id in &request.ids {
            if larder_contract::validate::is_canonical_uuid(id) {
                if let Some(row) = records.get(&GUIDELINES, id, Viewer::Curator)? {
                    matched.add(&row.doc, request.limit);
                }
            }
        }
        return Ok(matched);
    }
    let mut filters = Vec::new();
    for entry in &request.fq {
        filters.push(parse_filter(entry).map_err(|m| ApiError::unprocessable("fq", m))?);
    }
    let named: Option<HashSet<&str>> =
        (!request.ids.is_empty()).then(|| request.ids.iter().map(String::as_str).collect());
    let mut query = curator_search(&GUIDELINES, request.q.clone(), filters);
    query.limit = MAX_PAGE_SIZE;
    loop {
        let hits = state.store.search(&query)?;
        for (doc, _) in &hits.results {
            let wanted = named
                .as_ref()
                .is_none_or(|ids| doc["id"].as_str().is_some_and(|id| ids.contains(id)));
            if wanted {
                matched.add(doc, request.limit);
            }
        }
        // A page may end early at its byte budget: go on from what it returned.
        query.offset += hits.results.len() as u32;
        if hits.results.is_empty() || u64::from(query.offset) >= hits.total {
            break;
        }
    }
    Ok(matched)
}

/// A failure in the shape of a search engine's bulk failure.
fn failure(id: &str, error: &ApiError) -> Value {
    json!({
        "index": GUIDELINES.path,
        "id": id,
        "cause": {"type": error.title, "reason": error.detail},
        "status": error.status,
    })
}

/// Why `doc` may not be stored: the editorial rule on the whole guideline, and its guide's.
fn refused(doc: &Map<String, Value>, guide: Option<&Value>) -> Option<ApiError> {
    let mut problems = Problems::new();
    rules::editorial(&GUIDELINES, doc, &mut problems);
    if !problems.is_empty() {
        let reasons: Vec<String> = problems
            .shown()
            .iter()
            .map(|p| format!("{}: {}", p.dotted(), p.msg))
            .collect();
        return Some(ApiError::new(ErrorKind::Data, reasons.join("; ")));
    }
    guide.and_then(|guide| rules::guideline_under(guide, doc).err())
}

/// Runs a checked request.
fn run(state: &SharedState, request: Request, verifier: String) -> ApiResult<Value> {
    let Matched {
        kept,
        sample,
        total: matched,
        ..
    } = matching(state, &request)?;
    let capped = matched > u64::from(request.limit);
    let mut answer = json!({
        "dry_run": request.dry_run,
        "matched": matched,
        "updated": 0,
        "capped": capped,
        "max_docs": request.limit,
        "changes": request.changes,
        "sample": sample,
    });
    if request.dry_run {
        return Ok(answer);
    }
    let stamp = now();
    let review = request.changes.get("review_status").and_then(Value::as_str);
    let records = state.store.records();
    let mut guides: HashMap<String, Option<Value>> = HashMap::new();
    let (mut updated, mut conflicts, mut failures) = (0usize, 0usize, Vec::new());
    for batch in kept.chunks(BATCH) {
        // The guides of the batch, read before its transaction (a read takes no writer).
        for (_, _, urn) in batch {
            if !guides.contains_key(urn) {
                let guide = records.get(&GUIDES, urn, Viewer::Curator)?.map(|g| g.doc);
                guides.insert(urn.clone(), guide);
            }
        }
        let read_at: HashMap<&str, &Value> =
            batch.iter().map(|(id, at, _)| (id.as_str(), at)).collect();
        let ids: Vec<String> = batch.iter().map(|(id, _, _)| id.clone()).collect();
        updated += records.decide_each(&GUIDELINES, &ids, |id, doc| {
            let Some(doc) = doc else {
                conflicts += 1;
                return false;
            };
            if doc.get("updated_at").unwrap_or(&Value::Null) != read_at[id] {
                conflicts += 1;
                return false;
            }
            let mut after = doc.clone();
            for (field, value) in &request.changes {
                after.insert(field.clone(), value.clone());
            }
            match review {
                Some("verified") => {
                    after.insert("verifier_user_id".into(), json!(verifier));
                }
                Some(_) => {
                    after.insert("verifier_user_id".into(), Value::Null);
                }
                None => {}
            }
            after.insert("updated_at".into(), json!(stamp));
            let guide = after["guide_urn"]
                .as_str()
                .and_then(|urn| guides.get(urn))
                .and_then(Option::as_ref);
            if let Some(error) = refused(&after, guide) {
                failures.push(failure(id, &error));
                return false;
            }
            *doc = after;
            true
        })?;
        std::thread::yield_now();
    }
    answer["updated"] = json!(updated);
    answer["version_conflicts"] = json!(conflicts);
    answer["failures"] = json!(failures);
    Ok(answer)
}

/// `POST guidelines/editorial-policy`.
pub async fn editorial_policy(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(
        &caller,
        EDITORIAL_POLICY.roles,
        "changing the editorial state of guidelines",
    )?
    .clone();
    let request = read(body)?;
    let verifier = identity.owner_key();
    blocking(move || run(&state, request, verifier).map(Envelope)).await
}
