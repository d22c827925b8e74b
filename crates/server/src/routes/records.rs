//! The generic record routes, mounted once per collection descriptor.

use axum::extract::State;
use larder_contract::collections::{ARTIFACTS, GUIDELINES, GUIDES, TEXTBOOKS, TEXTBOOK_PASSAGES};
use larder_contract::Collection;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::{find, present, require_writer, viewer, Page};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::{self, Problems};
use crate::store::{now, ChildOrder, Viewer};
use crate::SharedState;

/// Query of a listing: the page, and for artifacts the parent.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// Page size, 1..=1000.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// Records to skip.
    #[serde(default)]
    pub offset: u32,
    /// Artifacts only: those of this parent, as full records.
    pub parent_urn: Option<String>,
}

fn default_limit() -> u32 {
    100
}

/// `GET {collection}?limit&offset`: identifier strings, oldest first. For artifacts with
/// `parent_urn`, the parent's artifact records.
pub async fn list(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    let viewer = viewer(identity);
    let page = Page {
        limit: query.limit,
        offset: query.offset,
    };
    page.validate()?;
    if let (true, Some(parent)) = (collection.path == ARTIFACTS.path, &query.parent_urn) {
        let (_, parent) = state
            .store
            .records()
            .get_by_urn(parent, viewer)?
            .ok_or_else(|| ApiError::not_found(format!("Record {parent:?} was not found.")))?;
        let parent = parent.urn.unwrap_or_default();
        let artifacts = state.store.records().children(
            collection,
            &parent,
            viewer,
            ChildOrder::Created,
            page.limit,
            page.offset,
        )?;
        return Ok(Envelope(Value::Array(artifacts)));
    }
    let ids =
        state
            .store
            .records()
            .list_identifiers(collection, viewer, page.limit, page.offset)?;
    Ok(Envelope(json!(ids)))
}

/// `GET {collection}/{identifier}`.
pub async fn get(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let row = find(&state, collection, &identifier, viewer)?;
    Ok(Envelope(present(&state, collection, row.doc, viewer)?))
}

/// Ties a new child record to its parent: the parent must exist; a guideline takes its guide's
/// region and the next sequence number; a passage gets its place in the textbook's structure.
fn link_parent(
    state: &SharedState,
    collection: &Collection,
    record: &mut Map<String, Value>,
) -> ApiResult<()> {
    let records = state.store.records();
    let mut problems = Problems::default();
    match collection.path {
        "guidelines" => {
            let Some(urn) = record.get("guide_urn").and_then(Value::as_str) else {
                return Ok(());
            };
            let urn = GUIDES.full_urn(urn);
            match records.get(&GUIDES, &urn, Viewer::Curator)? {
                Some(guide) => {
                    if let Some(region) = guide.doc.get("region").filter(|r| r.is_string()) {
                        record.insert("guide_region".into(), region.clone());
                    }
                    if record.get("sequence_no").is_none_or(Value::is_null) {
                        let next = records
                            .max_sequence(&GUIDELINES, &urn, None)?
                            .saturating_add(1);
                        record.insert("sequence_no".into(), json!(next));
                    }
                    record.insert("guide_urn".into(), json!(urn));
                }
                None => problems.add("guide_urn", "no such guide"),
            }
        }
        "textbook-passages" => {
            let Some(urn) = record.get("textbook_urn").and_then(Value::as_str) else {
                return Ok(());
            };
            let urn = TEXTBOOKS.full_urn(urn);
            match records.get(&TEXTBOOKS, &urn, Viewer::Curator)? {
                Some(textbook) => {
                    let artifact = record
                        .get("artifact_id")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    if !artifact.is_empty() && !super::passages::belongs(state, &artifact, &urn)? {
                        problems.add("artifact_id", "is not an artifact of this textbook");
                    }
                    if let Some(page) = record.get("page_no").and_then(Value::as_i64) {
                        if record.get("sequence_no").is_none_or(Value::is_null) {
                            let next = records
                                .max_sequence(&TEXTBOOK_PASSAGES, &urn, Some(page))?
                                .saturating_add(1);
                            record.insert("sequence_no".into(), json!(next));
                        }
                        let (node, path) = super::passages::place(&textbook.doc, page, &artifact);
                        record.insert("structure_node_id".into(), node);
                        record.insert("structure_path".into(), path);
                    }
                    record.insert("textbook_urn".into(), json!(urn));
                }
                None => problems.add("textbook_urn", "no such textbook"),
            }
        }
        "artifacts" => {
            if let Some(urn) = record.get("parent_urn").and_then(Value::as_str) {
                if records.get_by_urn(urn, Viewer::Curator)?.is_none() {
                    problems.add("parent_urn", "no such record");
                }
            } else {
                problems.add("parent_urn", "field required");
            }
        }
        _ => {}
    }
    problems.finish()
}

/// `POST {collection}`: the slug `urn` (or `identifier`) gets its prefix; defaults are applied.
pub async fn create(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = require_writer(&caller, collection, false)?;
    let mut record = model::object(body)?;
    let urn = model::requested_urn(collection, &mut record)?;
    if let Some(urn) = &urn {
        if state.store.records().urn_exists(urn)? {
            return Err(ApiError::conflict(format!("{urn} already exists.")));
        }
    }
    link_parent(&state, collection, &mut record)?;
    let record = model::new_record(collection, record, urn, &identity.name, &now())?;
    let doc = Value::Object(record);
    state.store.records().insert(collection, &doc)?;
    Ok(Created(present(&state, collection, doc, viewer(identity))?))
}

/// `PATCH {collection}/{identifier}`: changes the given mutable fields; immutable ones are ignored.
pub async fn patch(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require_writer(&caller, collection, false)?;
    let changes = model::object(body)?;
    if collection.path == ARTIFACTS.path && !changes.contains_key("file_type") {
        return Err(ApiError::unprocessable(
            "file_type",
            "field required: an artifact update always carries file_type",
        ));
    }
    let viewer = viewer(identity);
    let row = find(&state, collection, &identifier, viewer)?;
    let doc = model::patched(collection, &row.doc, changes, &now())?;
    state.store.records().replace(&row.id, &doc)?;
    Ok(Envelope(present(&state, collection, doc, viewer)?))
}

/// `PUT {collection}/{identifier}`: replaces every mutable field; immutable ones are kept.
pub async fn put(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require_writer(&caller, collection, false)?;
    let body = model::object(body)?;
    let viewer = viewer(identity);
    let row = find(&state, collection, &identifier, viewer)?;
    let doc = model::replaced(collection, &row.doc, body, &now())?;
    state.store.records().replace(&row.id, &doc)?;
    Ok(Envelope(present(&state, collection, doc, viewer)?))
}

/// `DELETE {collection}/{identifier}`: also removes what hangs from the record (guidelines,
/// passages, artifacts and their files).
pub async fn delete(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = require_writer(&caller, collection, true)?;
    let row = find(&state, collection, &identifier, viewer(identity))?;
    let artifacts = state.store.records().delete_cascade(collection, &row)?;
    for artifact in artifacts {
        super::artifacts::remove_file(&state, &artifact).await;
    }
    Ok(Envelope(json!({ "deleted": row.urn.unwrap_or(row.id) })))
}
