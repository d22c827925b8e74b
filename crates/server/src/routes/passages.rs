//! Passages of a textbook: the page listing, and the bulk replacement an extractor sends.

use axum::extract::State;
use larder_contract::collections::{PASSAGE_REPLACE, TEXTBOOKS, TEXTBOOK_PASSAGES};
use larder_contract::validate::{Extra, Loc, Problems};
use serde_json::{json, Value};

use super::children::{belongs, place, textbook_of};
use super::guidelines::{full_urn_only, ChildPage};
use super::{blocking, find, require, viewer};
use crate::auth::Caller;
use crate::bounded_json::BoundedJson;
use crate::error::{ApiError, ApiResult, Envelope, PathParams, QueryParams};
use crate::model;
use crate::model::tree::Locator;
use crate::store::{now, ChildOrder};
use crate::SharedState;

/// `GET textbook-passages/by-textbook/{urn}?limit&offset`: full passages by page, then sequence.
pub async fn by_textbook(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    QueryParams(page): QueryParams<ChildPage>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let page = page.checked()?;
    full_urn_only(&urn, "urn:textbook:")?;
    blocking(move || {
        let textbook = find(&state, &TEXTBOOKS, &urn, viewer)?;
        let passages = state.store.records().children(
            &TEXTBOOK_PASSAGES,
            textbook.urn.as_deref().unwrap_or_default(),
            viewer,
            ChildOrder::Page,
            page.limit,
            page.offset,
        )?;
        Ok(Envelope(Value::Array(passages)))
    })
    .await
}

/// Memory a replacement's parsed body may take: three times its 32 MiB body limit, where 20,000
/// real passages take their text and about a kilobyte each (see [`crate::bounded_json`]).
pub const REPLACE_MEMORY_MIB: usize = 96;

/// `POST textbook-passages/by-textbook/{urn}/replace` with `{artifact_id, page_count?,
/// structure_tree?, extractor_name?, extractor_run_id?, passages?}`: the passages of one artifact
/// are replaced by those sent, placed in the structure tree (the one sent, or the textbook's).
/// Everything is checked first and the replacement is one transaction, so a refused body leaves
/// the old passages in place (production deletes them before checking pages).
pub async fn replace(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    BoundedJson(body): BoundedJson<REPLACE_MEMORY_MIB>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(
        &caller,
        TEXTBOOK_PASSAGES.roles.create,
        "replacing passages",
    )?
    .clone();
    full_urn_only(&urn, "urn:textbook:")?;
    blocking(move || {
        let body = model::object(body)?;
        let request = model::validated(PASSAGE_REPLACE, Extra::Forbid, &body)?;
        let textbook = textbook_of(&state, &urn)?;
        let urn = textbook.urn.clone().unwrap_or_default();
        let artifact_id = request["artifact_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !belongs(&state, &artifact_id, &urn)? {
            return Err(ApiError::unprocessable(
                "artifact_id",
                "is not an artifact of this textbook",
            ));
        }
        let sent_count = request.get("page_count").and_then(Value::as_i64);
        let page_count = sent_count.or_else(|| textbook.doc["page_count"].as_i64());
        let mut textbook_doc = textbook.doc.clone();
        let tree = request
            .get("structure_tree")
            .filter(|t| !t.is_null())
            .cloned();
        if let Some(tree) = &tree {
            textbook_doc["structure_tree"] = tree.clone();
        }
        let passages = request
            .get("passages")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let timestamp = now();
        // Every passage's place in the tree, found in one sweep (not one walk per passage).
        let pages: Vec<i64> = passages
            .iter()
            .map(|p| p["page_no"].as_i64().unwrap_or_default())
            .collect();
        let places = Locator::new(&textbook_doc["structure_tree"], &artifact_id).places(&pages);
        let mut problems = Problems::new();
        let mut docs = Vec::with_capacity(passages.len());
        for (index, passage) in passages.into_iter().enumerate() {
            let mut passage = passage.as_object().cloned().unwrap_or_default();
            let page = passage["page_no"].as_i64().unwrap_or_default();
            let at = |p: &mut Problems, field: &str, msg: String| {
                p.within(Loc::Key("passages".into()), |p| {
                    p.within(Loc::Index(index), |p| p.value_error(field, &msg))
                })
            };
            if let Some(count) = page_count.filter(|count| page > *count) {
                at(
                    &mut problems,
                    "page_no",
                    format!("page_no is beyond page_count {count}"),
                );
            }
            let (start, end) = (passage["char_start"].as_i64(), passage["char_end"].as_i64());
            if end < start {
                at(
                    &mut problems,
                    "char_end",
                    "char_end must not be below char_start".into(),
                );
            }
            if passage.get("sequence_no").is_none_or(Value::is_null) {
                passage.insert("sequence_no".into(), json!(index + 1));
            }
            let (node, path) = places
                .get(&page)
                .cloned()
                .unwrap_or((Value::Null, json!([])));
            passage.insert("textbook_urn".into(), json!(urn));
            passage.insert("artifact_id".into(), json!(artifact_id));
            passage.insert("structure_node_id".into(), node);
            passage.insert("structure_path".into(), path);
            for field in ["extractor_name", "extractor_run_id"] {
                if let Some(value) = request.get(field).filter(|v| !v.is_null()) {
                    passage.insert(field.into(), value.clone());
                }
            }
            if problems.is_empty() {
                match model::new_record(&TEXTBOOK_PASSAGES, passage, &identity.name, &timestamp) {
                    Ok(doc) => docs.push(Value::Object(doc)),
                    Err(error) => at(&mut problems, "page_no", error.detail),
                }
            }
        }
        model::finish(&problems)?;
        if let Some(count) = sent_count {
            textbook_doc["page_count"] = json!(count);
        }
        let textbook_changed = tree.is_some() || sent_count.is_some();
        if textbook_changed {
            textbook_doc["updated_at"] = json!(timestamp);
        }
        let replaced = state.store.records().replace_passages(
            textbook_changed.then_some((&TEXTBOOKS, textbook.id.as_str(), &textbook_doc)),
            &urn,
            &artifact_id,
            &docs,
        )?;
        Ok(Envelope(json!({
            "textbook_urn": urn,
            "artifact_id": artifact_id,
            "replaced_count": replaced,
            "page_count": textbook_doc["page_count"],
            "structure_tree_updated": tree.is_some(),
        })))
    })
    .await
}

/// A stored passage's place, for callers that build passages outside a request (the demo).
pub fn passage_doc(
    textbook: &Value,
    artifact_id: &str,
    page: i64,
    sequence: i64,
    text: &str,
) -> Value {
    let (node, path) = place(textbook, page, artifact_id);
    json!({
        "textbook_urn": textbook["urn"], "artifact_id": artifact_id, "page_no": page,
        "sequence_no": sequence, "text": text, "char_start": 0, "char_end": text.chars().count(),
        "structure_node_id": node, "structure_path": path,
    })
}
