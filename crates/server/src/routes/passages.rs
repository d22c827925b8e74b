//! Passages of a textbook: the page listing, and the bulk replacement an extractor sends.

use std::collections::HashMap;

use axum::extract::State;
use larder_contract::collections::{ARTIFACTS, TEXTBOOKS, TEXTBOOK_PASSAGES};
use serde_json::{json, Map, Value};

use super::{find, require_writer, viewer, Page};
use crate::auth::Caller;
use crate::error::{ApiResult, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::{self, tree, Problems};
use crate::store::{now, ChildOrder, Viewer};
use crate::SharedState;

/// Whether artifact `id` hangs from the textbook `urn`.
pub fn belongs(state: &SharedState, id: &str, urn: &str) -> ApiResult<bool> {
    Ok(state
        .store
        .records()
        .get(&ARTIFACTS, id, Viewer::Curator)?
        .is_some_and(|artifact| artifact.doc["parent_urn"] == urn))
}

/// `structure_node_id` and `structure_path` of a passage on `page`: the deepest node of the
/// textbook's tree covering the page, and the titles from the root down to it.
pub fn place(textbook: &Value, page: i64, artifact_id: &str) -> (Value, Value) {
    match tree::locate(&textbook["structure_tree"], page, artifact_id) {
        Some((node, path)) => (json!(node), json!(path)),
        None => (Value::Null, json!([])),
    }
}

/// `GET textbook-passages/by-textbook/{urn}?limit&offset`: full passages by page, then sequence.
pub async fn by_textbook(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    QueryParams(page): QueryParams<Page>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    page.validate()?;
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
}

fn int_field(
    map: &Map<String, Value>,
    field: &str,
    at: &str,
    problems: &mut Problems,
) -> Option<i64> {
    match map.get(field) {
        None | Some(Value::Null) => None,
        Some(value) => {
            let n = value.as_i64();
            if n.is_none() {
                problems.add(format!("{at}{field}"), "must be an integer");
            }
            n
        }
    }
}

/// `POST textbook-passages/by-textbook/{urn}/replace`: the passages of one artifact are replaced
/// by those sent, placed in the structure tree (the one sent, or the textbook's).
pub async fn replace(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require_writer(&caller, &TEXTBOOK_PASSAGES, false)?;
    let textbook = find(&state, &TEXTBOOKS, &urn, Viewer::Curator)?;
    let urn = textbook.urn.clone().unwrap_or_default();
    let mut request = match body {
        Value::Array(passages) => {
            let mut map = Map::new();
            map.insert("passages".into(), Value::Array(passages));
            map
        }
        other => model::object(other)?,
    };
    let mut problems = Problems::default();
    let artifact_id = match request.get("artifact_id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => {
            problems.add("artifact_id", "must be a string");
            String::new()
        }
        None => {
            let artifacts = state.store.records().all_children(&ARTIFACTS, &urn)?;
            match artifacts.as_slice() {
                [only] => only.id.clone(),
                _ => {
                    problems.add("artifact_id", "field required");
                    String::new()
                }
            }
        }
    };
    if !artifact_id.is_empty() && !belongs(&state, &artifact_id, &urn)? {
        problems.add("artifact_id", "is not an artifact of this textbook");
    }
    let sent_count = int_field(&request, "page_count", "", &mut problems);
    if sent_count.is_some_and(|n| n < 1) {
        problems.add("page_count", "must be at least 1");
    }
    let page_count = sent_count.or_else(|| textbook.doc["page_count"].as_i64());
    let mut textbook_doc = textbook.doc.clone();
    let tree_sent = !request.get("structure_tree").is_none_or(Value::is_null);
    if tree_sent {
        match tree::normalize(&request["structure_tree"]) {
            Ok(canonical) => textbook_doc["structure_tree"] = canonical,
            Err(found) => found
                .into_iter()
                .for_each(|(at, message)| problems.add(at, message)),
        }
    }
    for field in ["extractor_name", "extractor_run_id"] {
        if request
            .get(field)
            .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            problems.add(field, "must be a string");
        }
    }
    let passages = match request.remove("passages") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(passages)) => passages,
        Some(_) => {
            problems.add("passages", "must be a list of passages");
            Vec::new()
        }
    };
    problems.finish()?;

    let timestamp = now();
    let mut next_sequence: HashMap<i64, i64> = HashMap::new();
    let mut docs = Vec::with_capacity(passages.len());
    for (index, passage) in passages.into_iter().enumerate() {
        let at = format!("passages.{index}.");
        let Value::Object(mut passage) = passage else {
            problems.add(format!("passages.{index}"), "must be an object");
            continue;
        };
        if !passage.get("text").is_some_and(Value::is_string) {
            problems.add(format!("{at}text"), "field required: a string");
        }
        int_field(&passage, "char_start", &at, &mut problems);
        int_field(&passage, "char_end", &at, &mut problems);
        let page = int_field(&passage, "page_no", &at, &mut problems);
        match page {
            None => problems.add(format!("{at}page_no"), "field required: an integer"),
            Some(page) if page < 1 => problems.add(format!("{at}page_no"), "must be at least 1"),
            Some(page) if page_count.is_some_and(|count| page > count) => problems.add(
                format!("{at}page_no"),
                format!("is beyond page_count {}", page_count.unwrap_or_default()),
            ),
            _ => {}
        }
        let sequence = int_field(&passage, "sequence_no", &at, &mut problems);
        let page = page.unwrap_or_default();
        let counter = next_sequence.entry(page).or_insert(0);
        let sequence = sequence.unwrap_or(counter.saturating_add(1));
        *counter = (*counter).max(sequence);
        let (node, path) = place(&textbook_doc, page, &artifact_id);
        for field in TEXTBOOK_PASSAGES.immutable {
            passage.remove(*field);
        }
        passage.insert("textbook_urn".into(), json!(urn));
        passage.insert("artifact_id".into(), json!(artifact_id));
        passage.insert("sequence_no".into(), json!(sequence));
        passage.insert("structure_node_id".into(), node);
        passage.insert("structure_path".into(), path);
        for field in ["extractor_name", "extractor_run_id"] {
            if let Some(value) = request.get(field) {
                passage.entry(field).or_insert_with(|| value.clone());
            }
        }
        match model::new_record(
            &TEXTBOOK_PASSAGES,
            passage,
            None,
            &identity.name,
            &timestamp,
        ) {
            Ok(doc) => docs.push(Value::Object(doc)),
            Err(error) => problems.add(format!("passages.{index}"), error.detail),
        }
    }
    problems.finish()?;
    if let Some(count) = sent_count {
        textbook_doc["page_count"] = json!(count);
    }
    let textbook_changed = tree_sent || sent_count.is_some();
    if textbook_changed {
        textbook_doc["updated_at"] = json!(timestamp);
    }
    let replaced = state.store.records().replace_passages(
        textbook_changed.then_some((textbook.id.as_str(), &textbook_doc)),
        &urn,
        &artifact_id,
        &docs,
    )?;
    Ok(Envelope(json!({
        "textbook_urn": urn,
        "artifact_id": artifact_id,
        "replaced_count": replaced,
        "page_count": page_count,
        "structure_tree_updated": tree_sent,
    })))
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
