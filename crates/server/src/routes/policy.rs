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
//! update-by-query's counts). Here the change is applied in batches to each record's current
//! document (see [`apply`]), so nothing conflicts: they are always 0 and [].
//!
//! The reference wire also takes `all: true`, and refuses without it a `q`/`fq` selection that
//! matches every record: production's guard looks at the body only, so `fq: ["urn:*"]` passes it.

use axum::extract::State;
use larder_contract::collections::policy::{
    ReadingPolicy, MAX_POLICY_DOCS, POLICY_BODY, POLICY_BODY_REFERENCE, POLICY_FIELDS,
    POLICY_SAMPLE, PUBLIC_READING, READING_POLICIES,
};
use larder_contract::collections::WriteRoles;
use larder_contract::limits::MAX_PAGE_SIZE;
use larder_contract::validate::Extra;
use larder_contract::Collection;
use serde_json::{json, Map, Value};

use super::{blocking, require};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody};
use crate::model::query::{parse_filter, terms};
use crate::model::{self};
use crate::store::{now, Filter, NaturalOrder, SearchQuery, Viewer};
use crate::wire::Dialect;
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
    all: bool,
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

fn request(body: Value, dialect: &Dialect) -> ApiResult<Request> {
    let body = model::object(body)?;
    let schema = if dialect.policy_takes_all {
        POLICY_BODY_REFERENCE
    } else {
        POLICY_BODY
    };
    let body = model::validated(schema, Extra::Forbid, &body)?;
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
    let all = body.get("all") == Some(&Value::Bool(true));
    if !all && urns.as_ref().is_none_or(Vec::is_empty) && q.is_empty() && fq.is_empty() {
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
        all,
    })
}

/// What a selection matched: the ids of the first `limit` records in the natural order, the
/// sample (the first matches as they stand), and how many matched in all.
struct Matched {
    ids: Vec<String>,
    seen: std::collections::HashSet<String>,
    sample: Vec<Value>,
    total: u64,
}

impl Matched {
    fn new() -> Matched {
        Matched {
            ids: Vec::new(),
            seen: std::collections::HashSet::new(),
            sample: Vec::new(),
            total: 0,
        }
    }

    /// Adds a matching record once, however often the selection names it.
    fn add(&mut self, doc: &Value) {
        let Some(id) = doc["id"].as_str() else {
            return;
        };
        if !self.seen.insert(id.to_string()) {
            return;
        }
        if self.sample.len() < POLICY_SAMPLE {
            self.sample.push(sample_of(doc));
        }
        self.ids.push(id.to_string());
    }
}

/// A search of the collection as a curator sees it, from its first page.
fn curator_search(
    collection: &'static Collection,
    terms: Vec<String>,
    filters: Vec<Filter>,
) -> SearchQuery {
    SearchQuery {
        collection,
        viewer: Viewer::Curator,
        parent: None,
        terms,
        filters,
        sort: Vec::new(),
        natural_order: NaturalOrder::Insertion,
        limit: MAX_PAGE_SIZE,
        offset: 0,
        facets: Vec::new(),
        facet_limit: 1,
    }
}

/// The records the selection matches (at most the search window when `q`/`fq` select). Only
/// ids and the sample are kept: documents are read again, current, when the change is applied.
fn matching(
    state: &SharedState,
    collection: &'static Collection,
    request: &Request,
) -> ApiResult<Matched> {
    let records = state.store.records();
    let mut matched = Matched::new();
    let named = request.urns.as_ref().is_some_and(|urns| !urns.is_empty());
    if request.q.is_empty() && request.fq.is_empty() && (named || !request.all) {
        for urn in request.urns.iter().flatten() {
            if let Some(row) = records.get(collection, urn, Viewer::Curator)? {
                matched.add(&row.doc);
            }
        }
        matched.total = matched.ids.len() as u64;
        return Ok(matched);
    }
    let mut filters = Vec::new();
    for entry in &request.fq {
        filters.push(parse_filter(entry).map_err(|m| ApiError::unprocessable("fq", m))?);
    }
    let mut query = curator_search(collection, request.q.clone(), filters);
    let urns: Option<Vec<String>> = request
        .urns
        .as_ref()
        .filter(|urns| !urns.is_empty())
        .map(|urns| urns.iter().map(|u| collection.full_urn(u)).collect());
    let mut total;
    loop {
        let hits = state.store.search(&query)?;
        total = hits.total;
        for (doc, _) in &hits.results {
            let named = urns.as_ref().is_none_or(|urns| {
                doc["urn"]
                    .as_str()
                    .is_some_and(|urn| urns.iter().any(|u| u == urn))
            });
            if named {
                matched.add(doc);
            }
        }
        // A page may end early at its byte budget: go on from what it returned.
        query.offset += hits.results.len() as u32;
        if hits.results.is_empty()
            || u64::from(query.offset) >= total
            || query.offset >= MAX_POLICY_DOCS
        {
            break;
        }
    }
    if urns.is_some() {
        total = matched.ids.len() as u64;
    } else if !request.all {
        // Production refuses a selection that names nothing; a query or filter that matches
        // every record (`fq: ["urn:*"]`) is the same change and needs `all: true` here too.
        let corpus = state
            .store
            .search(&SearchQuery {
                limit: 1,
                ..curator_search(collection, Vec::new(), Vec::new())
            })?
            .total;
        if total > 0 && total >= corpus {
            return Err(ApiError::unprocessable(
                "all",
                format!(
                    "This selection matches every record ({total}); send all: true to apply a reading policy to all of them."
                ),
            ));
        }
    }
    matched.total = total;
    Ok(matched)
}

fn sample_of(doc: &Value) -> Value {
    let picked: Map<String, Value> = SAMPLE_FIELDS
        .iter()
        .filter_map(|f| doc.get(*f).map(|v| (f.to_string(), v.clone())))
        .collect();
    Value::Object(picked)
}

/// Records changed per transaction: the writing connection is let go between batches, so other
/// writes wait for one batch, not for the whole run.
const BATCH: usize = 200;

/// Runs a checked request. The change is applied to each record's current document, read again
/// inside the batch's transaction: a write acknowledged while the run goes on (a curator hiding
/// an article) is never overwritten by a copy read earlier, and only the policy fields change.
/// A record deleted meanwhile is skipped. Nothing conflicts, so `version_conflicts` is 0.
fn apply(
    state: &SharedState,
    collection: &'static Collection,
    request: Request,
) -> ApiResult<Value> {
    let Matched {
        mut ids,
        sample,
        total: matched,
        ..
    } = matching(state, collection, &request)?;
    ids.truncate(request.limit as usize);
    let capped = matched > u64::from(request.limit);
    let mut updated = 0;
    if !request.dry_run {
        let stamp = now();
        let change = |map: &mut Map<String, Value>| {
            for (field, value) in &request.changes {
                map.insert(field.clone(), value.clone());
            }
            if request.clear_tier {
                map.remove("indexing_tier");
            }
            map.insert("updated_at".into(), Value::String(stamp.clone()));
        };
        for batch in ids.chunks(BATCH) {
            updated += state
                .store
                .records()
                .update_each(collection, batch, change)?;
            std::thread::yield_now();
        }
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

/// One rule for the reading policy, whichever route writes it: a create, PATCH or PUT that would
/// change a record's `reader_visibility` or `indexing_tier` needs the roles of the collection's
/// bulk policy route (`admin`, `expert`), else 403. `before` is the stored record (`None` on a
/// create); an absent visibility reads as `public`.
///
/// Production differs here: its `PATCH articles/{urn}` (`admin`, `expert`, `agent`, with
/// `ArticleUpdateSchema` taking both fields) lets an agent set them one article at a time, while
/// `POST articles/policy` takes `admin` and `expert` only (wisefood-data-api
/// src/routers/articles.py, `api_patch_article` and `api_set_article_policy`), and its
/// tests/test_article_editorial_policy.py `test_prime_is_editorial_only` says `prime` "is always a
/// human decision". The reference service keeps the stricter rule on every path.
pub fn check_policy_change(
    collection: &Collection,
    caller: &crate::auth::Identity,
    before: Option<&Value>,
    after: &Map<String, Value>,
) -> ApiResult<()> {
    let Some(policy) = READING_POLICIES
        .iter()
        .find(|p| p.collection == collection.path)
    else {
        return Ok(());
    };
    if policy.roles.allows(&caller.roles) {
        return Ok(());
    }
    let read = |doc: Option<&Map<String, Value>>, field: &str| {
        let value = doc.and_then(|d| d.get(field)).filter(|v| !v.is_null());
        match (field, value) {
            ("reader_visibility", None) => Some(Value::String(PUBLIC_READING.into())),
            (_, value) => value.cloned(),
        }
    };
    let before = before.and_then(Value::as_object);
    for field in POLICY_FIELDS.iter().map(|f| f.name) {
        if read(before, field) != read(Some(after), field) {
            return Err(ApiError::forbidden(format!(
                "Insufficient permissions: your roles do not allow changing {field}; the reading policy is set by {}.",
                match policy.roles {
                    WriteRoles::Roles(roles) => roles.join(" or "),
                    WriteRoles::AnySignedIn => "any signed-in caller".into(),
                }
            )));
        }
    }
    Ok(())
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
    let request = request(body, state.dialect)?;
    blocking(move || apply(&state, collection, request).map(Envelope)).await
}
