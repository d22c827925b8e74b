//! `POST guidelines/embeddings/backfill?guide_urn=&only_missing=true&max_docs=&dry_run=false`
//! (administrators; production.md §10.5, §10.6), after production's
//! `Guideline.backfill_embeddings` (wisefood-data-api src/entities/guidelines.py @1c14741).
//!
//! Production queues each guideline for its embedding worker, which computes a vector of the
//! rule's text, title, guide and facets and stamps `embedded_at`. This service runs no model and
//! keeps no vectors: its search is the full-text index, always current with every write. Here a
//! guideline is "embedded" when a backfill has stamped its `embedded_at`, so the count of
//! embedded records, what a status page reads, moves as production's does; the stamp is written
//! at once rather than by a worker later, and `queued` counts the guidelines stamped.
//!
//! As production: deleted guidelines are never scanned; the scan goes by `id`; with
//! `only_missing` (the default) a guideline with any `embedded_at` is skipped and counted in
//! `skipped_already_embedded`; at most `max_docs` (≤ 10,000, the default) are queued; `dry_run`
//! counts what would be queued and writes nothing. `scanned` counts the guidelines looked at.
//! Stricter than production: `max_docs` outside 1-10,000 and a `guide_urn` that is no guide URN
//! are 422s (production takes any value, and a slug there selects nothing); a guideline deleted
//! between the scan and its stamp counts in `failed`.

use axum::extract::State;
use larder_contract::collections::guidelines::{
    BACKFILL_QUERY, EMBEDDINGS_BACKFILL, MAX_EDITORIAL_DOCS,
};
use larder_contract::collections::GUIDELINES;
use larder_contract::limits::MAX_PAGE_SIZE;
use larder_contract::validate::{check_value, Loc, Problems};
use larder_contract::ErrorKind;
use serde::Deserialize;
use serde_json::{json, Value};

use super::policy::curator_search;
use super::{blocking, require};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, QueryParams};
use crate::store::{now, Filter, SortKey};
use crate::SharedState;

/// Guidelines stamped per transaction.
const BATCH: usize = 200;

/// The query as sent: every value a string, read as FastAPI reads it.
#[derive(Debug, Default, Deserialize)]
pub struct BackfillQuery {
    guide_urn: Option<String>,
    only_missing: Option<String>,
    max_docs: Option<String>,
    dry_run: Option<String>,
}

/// What the query asks for, checked.
struct Request {
    guide_urn: Option<String>,
    only_missing: bool,
    limit: u32,
    dry_run: bool,
}

/// pydantic's reading of a boolean in a query string.
fn boolean(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
        "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
        _ => None,
    }
}

fn read(query: BackfillQuery) -> ApiResult<Request> {
    let mut problems = Problems::new();
    let mut flag = |name: &str, text: &Option<String>, default: bool| match text {
        None => default,
        Some(text) => boolean(text).unwrap_or_else(|| {
            problems.add(
                Some(Loc::Key(name.into())),
                "bool_parsing",
                "Input should be a valid boolean, unable to interpret input",
                Some(&json!(text)),
                None,
            );
            default
        }),
    };
    let only_missing = flag("only_missing", &query.only_missing, true);
    let dry_run = flag("dry_run", &query.dry_run, false);
    let mut limit = MAX_EDITORIAL_DOCS;
    if let Some(text) = &query.max_docs {
        let field = BACKFILL_QUERY.iter().find(|f| f.name == "max_docs");
        match (text.trim().parse::<i64>(), field) {
            (Ok(n), Some(field)) => {
                problems.within(Loc::Key("max_docs".into()), |p| {
                    if let Some(checked) = check_value(&field.ty, &json!(n), p) {
                        limit = checked.as_u64().unwrap_or(u64::from(limit)) as u32;
                    }
                });
            }
            _ => problems.add(
                Some(Loc::Key("max_docs".into())),
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer",
                Some(&json!(text)),
                None,
            ),
        }
    }
    if let (Some(urn), Some(field)) = (
        &query.guide_urn,
        BACKFILL_QUERY.iter().find(|f| f.name == "guide_urn"),
    ) {
        problems.within(Loc::Key("guide_urn".into()), |p| {
            check_value(&field.ty, &json!(urn), p)
        });
    }
    if !problems.is_empty() {
        return Err(ApiError::new(ErrorKind::Data, "Validation failed")
            .titled("RequestValidationError")
            .with_errors(problems.to_json("query")));
    }
    Ok(Request {
        guide_urn: query.guide_urn.map(|u| u.trim().to_string()),
        only_missing,
        limit,
        dry_run,
    })
}

fn run(state: &SharedState, request: Request) -> ApiResult<Value> {
    let filters = request
        .guide_urn
        .iter()
        .map(|urn| Filter::Equals {
            field: "guide_urn".into(),
            value: urn.clone(),
        })
        .collect();
    let mut query = curator_search(&GUIDELINES, Vec::new(), filters);
    query.sort = vec![SortKey::Field {
        field: "id".into(),
        descending: false,
    }];
    query.limit = MAX_PAGE_SIZE;
    let (mut queued, mut skipped, mut scanned) = (0usize, 0usize, 0usize);
    let mut chosen: Vec<String> = Vec::new();
    'scan: loop {
        let hits = state.store.search(&query)?;
        for (doc, _) in &hits.results {
            if chosen.len() >= request.limit as usize {
                break 'scan;
            }
            if doc["status"] == "deleted" {
                continue;
            }
            scanned += 1;
            let embedded = doc.get("embedded_at").is_some_and(|at| !at.is_null());
            if request.only_missing && embedded {
                skipped += 1;
                continue;
            }
            if let Some(id) = doc["id"].as_str() {
                chosen.push(id.to_string());
            }
        }
        query.offset += hits.results.len() as u32;
        if hits.results.is_empty() || u64::from(query.offset) >= hits.total {
            break;
        }
    }
    let mut failed = 0usize;
    if request.dry_run {
        queued = chosen.len();
    } else {
        let stamp = now();
        for batch in chosen.chunks(BATCH) {
            queued +=
                state
                    .store
                    .records()
                    .update_each_with(&GUIDELINES, batch, |_, doc| match doc {
                        Some(doc)
                            if doc.get("status").and_then(Value::as_str) != Some("deleted") =>
                        {
                            doc.insert("embedded_at".into(), json!(stamp));
                            true
                        }
                        _ => {
                            failed += 1;
                            false
                        }
                    })?;
            std::thread::yield_now();
        }
    }
    Ok(json!({
        "dry_run": request.dry_run,
        "guide_urn": request.guide_urn,
        "only_missing": request.only_missing,
        "queued": queued,
        "failed": failed,
        "skipped_already_embedded": skipped,
        "scanned": scanned,
        "max_docs": request.limit,
    }))
}

/// `POST guidelines/embeddings/backfill`.
pub async fn backfill(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<BackfillQuery>,
) -> ApiResult<Envelope<Value>> {
    require(&caller, EMBEDDINGS_BACKFILL.roles, "backfilling embeddings")?;
    let request = read(query)?;
    blocking(move || run(&state, request).map(Envelope)).await
}
