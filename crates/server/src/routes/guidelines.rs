//! Guidelines of a guide: the ordered listing and the bulk import.

use axum::extract::State;
use larder_contract::collections::{GUIDELINES, GUIDES};
use serde_json::{json, Value};

use super::{find, require_writer, viewer, Page};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::{self, Problems};
use crate::store::{now, ChildOrder, Viewer};
use crate::SharedState;

/// The most guidelines one import takes.
pub const MAX_IMPORT: usize = larder_contract::limits::MAX_GUIDELINE_IMPORT;

/// `GET guidelines/by-guide/{urn}?limit&offset`: full guidelines by `sequence_no`.
pub async fn by_guide(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    QueryParams(page): QueryParams<Page>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    page.validate()?;
    let guide = find(&state, &GUIDES, &urn, viewer)?;
    let guidelines = state.store.records().children(
        &GUIDELINES,
        guide.urn.as_deref().unwrap_or_default(),
        viewer,
        ChildOrder::Sequence,
        page.limit,
        page.offset,
    )?;
    Ok(Envelope(Value::Array(guidelines)))
}

/// `POST guidelines/by-guide/{urn}/import` with `{guidelines: [...]}` (or the bare list): all are
/// stored or none; missing sequence numbers continue after the guide's last.
pub async fn import(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require_writer(&caller, &GUIDELINES, false)?;
    let guide = find(&state, &GUIDES, &urn, Viewer::Curator)?;
    let urn = guide.urn.clone().unwrap_or_default();
    let items = match body {
        Value::Array(items) => items,
        Value::Object(mut map) => match map.remove("guidelines") {
            Some(Value::Array(items)) => items,
            _ => {
                return Err(ApiError::unprocessable(
                    "guidelines",
                    "field required: a list of guidelines",
                ))
            }
        },
        _ => {
            return Err(ApiError::unprocessable(
                "guidelines",
                "must be a list of guidelines",
            ))
        }
    };
    let mut problems = Problems::default();
    if items.len() > MAX_IMPORT {
        problems.add("guidelines", format!("at most {MAX_IMPORT} per import"));
        problems.finish()?;
    }
    let mut next = state
        .store
        .records()
        .max_sequence(&GUIDELINES, &urn, None)?;
    let timestamp = now();
    let mut docs = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let mut record = match item {
            Value::Object(map) => map,
            _ => {
                problems.add(format!("guidelines.{index}"), "must be an object");
                continue;
            }
        };
        record.insert("guide_urn".into(), json!(urn));
        if let Some(region) = guide.doc.get("region").filter(|r| r.is_string()) {
            record.insert("guide_region".into(), region.clone());
        }
        match record.get("sequence_no").and_then(Value::as_i64) {
            Some(sequence) => next = next.max(sequence),
            None => {
                next = next.saturating_add(1);
                record.insert("sequence_no".into(), json!(next));
            }
        }
        match model::new_record(&GUIDELINES, record, None, &identity.name, &timestamp) {
            Ok(doc) => docs.push(Value::Object(doc)),
            Err(error) => problems.add(format!("guidelines.{index}"), error.detail),
        }
    }
    problems.finish()?;
    state.store.records().insert_many(&GUIDELINES, &docs)?;
    let ids: Vec<Value> = docs.iter().map(|d| d["id"].clone()).collect();
    Ok(Envelope(json!({
        "guide_urn": urn,
        "imported_count": ids.len(),
        "ids": ids,
    })))
}
