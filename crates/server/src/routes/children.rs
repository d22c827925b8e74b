//! What production checks about a record's place beyond its schema: a guideline's guide and
//! sequence number, a passage's textbook, artifact and page, an artifact's parent, and the guide
//! workflow on updates (production.md §2.2-2.3, §3.3-3.7).

use larder_contract::collections::{ARTIFACTS, GUIDELINES, GUIDES, TEXTBOOKS, TEXTBOOK_PASSAGES};
use larder_contract::validate::Problems;
use larder_contract::Collection;
use serde_json::{json, Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::model::{self, rules};
use crate::store::{RecordRow, Viewer};
use crate::SharedState;

/// The guide a guideline hangs from, or 404.
pub fn guide_of(state: &SharedState, urn: &str) -> ApiResult<RecordRow> {
    state
        .store
        .records()
        .get(&GUIDES, urn, Viewer::Curator)?
        .ok_or_else(|| ApiError::not_found(format!("Guide {urn:?} was not found.")))
}

/// The textbook a passage hangs from, or 404.
pub fn textbook_of(state: &SharedState, urn: &str) -> ApiResult<RecordRow> {
    state
        .store
        .records()
        .get(&TEXTBOOKS, urn, Viewer::Curator)?
        .ok_or_else(|| ApiError::not_found(format!("Textbook {urn:?} was not found.")))
}

/// Whether artifact `id` hangs from `urn`.
pub fn belongs(state: &SharedState, id: &str, urn: &str) -> ApiResult<bool> {
    Ok(state
        .store
        .records()
        .get(&ARTIFACTS, id, Viewer::Curator)?
        .is_some_and(|artifact| artifact.doc["parent_urn"] == urn))
}

/// `structure_node_id` and `structure_path` of a passage on `page` of `artifact_id`.
pub fn place(textbook: &Value, page: i64, artifact_id: &str) -> (Value, Value) {
    match crate::model::tree::locate(&textbook["structure_tree"], page, artifact_id) {
        Some((node, path)) => (json!(node), json!(path)),
        None => (Value::Null, json!([])),
    }
}

/// The sequence numbers the guide's guidelines hold (not deleted, not `except`). One rule for
/// a single create, an update and an import: a number already held is a 409.
pub fn taken_sequences(
    state: &SharedState,
    guide_urn: &str,
    except: &str,
) -> ApiResult<std::collections::HashSet<i64>> {
    Ok(state
        .store
        .records()
        .all_children(&GUIDELINES, guide_urn)?
        .iter()
        .filter(|g| g.id != except && g.doc["status"] != "deleted")
        .filter_map(|g| g.doc["sequence_no"].as_i64())
        .collect())
}

/// Whether another guideline of the guide (not deleted, not `except`) has this number.
fn sequence_taken(
    state: &SharedState,
    guide_urn: &str,
    sequence: i64,
    except: &str,
) -> ApiResult<bool> {
    Ok(taken_sequences(state, guide_urn, except)?.contains(&sequence))
}

/// A passage's page and characters against its textbook (422s).
fn check_passage(textbook: &Value, passage: &Map<String, Value>) -> ApiResult<()> {
    let mut problems = Problems::new();
    let page = passage.get("page_no").and_then(Value::as_i64);
    if let (Some(page), Some(count)) = (page, textbook["page_count"].as_i64()) {
        if page > count {
            problems.value_error(
                "page_no",
                &format!("page_no is beyond the textbook's page_count {count}"),
            );
        }
    }
    let start = passage.get("char_start").and_then(Value::as_i64);
    let end = passage.get("char_end").and_then(Value::as_i64);
    if let (Some(start), Some(end)) = (start, end) {
        if end < start {
            problems.value_error("char_end", "char_end must not be below char_start");
        }
    }
    model::finish(&problems)
}

/// Completes a new child record from its parent: a guideline's guide (404 when missing), region,
/// title, action and sequence number (409 when taken); a passage's textbook (404), artifact (422
/// when not the textbook's), page and place in the structure; an artifact's parent (404 for a
/// missing record of a known collection; a textbook takes one artifact).
pub fn link_parent(
    state: &SharedState,
    collection: &Collection,
    record: &mut Map<String, Value>,
) -> ApiResult<()> {
    let records = state.store.records();
    if collection.path == GUIDELINES.path {
        let urn = record["guide_urn"].as_str().unwrap_or_default().to_string();
        let guide = guide_of(state, &urn)?;
        record.insert(
            "guide_region".into(),
            guide.doc.get("region").cloned().unwrap_or(Value::Null),
        );
        let rule = record["rule_text"].as_str().unwrap_or_default().to_string();
        if record.get("title").is_none_or(Value::is_null) {
            record.insert("title".into(), json!(rules::default_title(&rule)));
        }
        if record.get("action_type").is_none_or(Value::is_null) {
            record.insert("action_type".into(), json!(rules::action_type_of(&rule)));
        }
        match record.get("sequence_no").and_then(Value::as_i64) {
            Some(sequence) => {
                if sequence_taken(state, &urn, sequence, "")? {
                    return Err(ApiError::conflict(format!(
                        "sequence_no {sequence} is taken in {urn}."
                    )));
                }
            }
            None => {
                let next = records
                    .max_sequence(&GUIDELINES, &urn, None)?
                    .saturating_add(1);
                record.insert("sequence_no".into(), json!(next));
            }
        }
        rules::guideline_under(&guide.doc, record)?;
    } else if collection.path == TEXTBOOK_PASSAGES.path {
        let urn = record["textbook_urn"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let textbook = textbook_of(state, &urn)?;
        let artifact = record["artifact_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !belongs(state, &artifact, &urn)? {
            return Err(ApiError::unprocessable(
                "artifact_id",
                "is not an artifact of this textbook",
            ));
        }
        check_passage(&textbook.doc, record)?;
        if record.get("sequence_no").is_none_or(Value::is_null) {
            let next = records
                .max_sequence(&TEXTBOOK_PASSAGES, &urn, Some(&artifact))?
                .saturating_add(1);
            record.insert("sequence_no".into(), json!(next));
        }
        let page = record["page_no"].as_i64().unwrap_or_default();
        let (node, path) = place(&textbook.doc, page, &artifact);
        record.insert("structure_node_id".into(), node);
        record.insert("structure_path".into(), path);
    } else if collection.path == ARTIFACTS.path {
        let urn = record["parent_urn"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        check_artifact_parent(state, &urn)?;
    }
    Ok(())
}

/// An artifact's parent must exist when it is a record of a known collection (production leaves
/// URNs of other types unchecked); a textbook holds one artifact only.
pub fn check_artifact_parent(state: &SharedState, urn: &str) -> ApiResult<()> {
    let Some(parent_collection) = Collection::of_urn(urn) else {
        return Ok(());
    };
    let parent = state
        .store
        .records()
        .get(parent_collection, urn, Viewer::Curator)?
        .ok_or_else(|| ApiError::not_found(format!("Record {urn:?} was not found.")))?;
    if parent_collection.path == TEXTBOOKS.path
        && !state
            .store
            .records()
            .all_children(&ARTIFACTS, parent.urn.as_deref().unwrap_or_default())?
            .is_empty()
    {
        return Err(ApiError::unprocessable(
            "parent_urn",
            "a textbook holds one artifact only",
        ));
    }
    Ok(())
}

/// The rules an update must keep beyond its schema: a published guide can't change and an active
/// one needs its guidelines ready (409s); a guideline keeps a free sequence number and the rule of
/// a published guide's active guideline stays (409s); a passage's page stays within the textbook
/// and its place in the structure follows its page.
pub fn check_update(
    state: &SharedState,
    collection: &Collection,
    row: &RecordRow,
    changes: &Map<String, Value>,
    doc: &mut Map<String, Value>,
) -> ApiResult<()> {
    if collection.path == GUIDES.path {
        rules::guide_unfrozen(&row.doc)?;
        let urn = row.urn.as_deref().unwrap_or_default();
        let guidelines: Vec<Value> = state
            .store
            .records()
            .all_children(&GUIDELINES, urn)?
            .into_iter()
            .map(|g| g.doc)
            .collect();
        rules::guide_activation(doc, &guidelines)?;
    } else if collection.path == GUIDELINES.path {
        let guide_urn = row.doc["guide_urn"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let guide = guide_of(state, &guide_urn)?;
        if changes.contains_key("rule_text")
            && row.doc["status"] == "active"
            && rules::is_published(&guide.doc)
        {
            return Err(ApiError::conflict(
                "The rule of an active guideline of a published guide can't change.",
            ));
        }
        if let Some(sequence) = changes.get("sequence_no").and_then(Value::as_i64) {
            if sequence_taken(state, &guide_urn, sequence, &row.id)? {
                return Err(ApiError::conflict(format!(
                    "sequence_no {sequence} is taken in {guide_urn}."
                )));
            }
        }
        rules::guideline_under(&guide.doc, doc)?;
    } else if collection.path == TEXTBOOK_PASSAGES.path {
        let urn = row.doc["textbook_urn"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let textbook = textbook_of(state, &urn)?;
        check_passage(&textbook.doc, doc)?;
        let page = doc
            .get("page_no")
            .and_then(Value::as_i64)
            .unwrap_or_default();
        let artifact = row.doc["artifact_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let (node, path) = place(&textbook.doc, page, &artifact);
        doc.insert("structure_node_id".into(), node);
        doc.insert("structure_path".into(), path);
    }
    Ok(())
}
