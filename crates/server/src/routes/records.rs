//! The generic record routes, mounted once per collection descriptor. Bodies are checked against
//! the contract's create and update schemas; what production checks beyond them (parents, the
//! guide workflow, sequence numbers) is in `children` and `model::rules`.

use axum::extract::State;
use larder_contract::collections::{WriteRoles, ARTIFACTS, CURATORS, GUIDELINES, GUIDES};
use larder_contract::validate::Extra;
use larder_contract::Collection;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

use super::children::{check_update, link_parent};
use super::policy::check_policy_change;
use super::{blocking, find, present, require, viewer, Page};
use crate::auth::Caller;
use crate::error::{
    ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams, RawEnvelope,
};
use crate::model::{self, rules};
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

fn what(verb: &str, collection: &Collection) -> String {
    format!("{verb} {}", collection.plural.to_lowercase())
}

/// `GET {collection}?limit&offset`: identifier strings, oldest first.
pub async fn list(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let page = Page {
        limit: query.limit,
        offset: query.offset,
    };
    page.validate()?;
    blocking(move || {
        let ids =
            state
                .store
                .records()
                .list_identifiers(collection, viewer, page.limit, page.offset)?;
        Ok(Envelope(json!(ids)))
    })
    .await
}

/// `GET artifacts?parent_urn=`: the parent's artifact records (only interface.md has it).
pub async fn artifacts_of(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let page = Page {
        limit: query.limit,
        offset: query.offset,
    };
    page.validate()?;
    let Some(parent) = query.parent_urn else {
        return Err(ApiError::unprocessable(
            "parent_urn",
            "field required: artifacts are listed per parent record",
        ));
    };
    blocking(move || {
        let (_, parent) = state
            .store
            .records()
            .get_by_urn(&parent, viewer)?
            .ok_or_else(|| ApiError::not_found(format!("Record {parent:?} was not found.")))?;
        let artifacts = state.store.records().children(
            &ARTIFACTS,
            parent.urn.as_deref().unwrap_or_default(),
            viewer,
            ChildOrder::Created,
            page.limit,
            page.offset,
        )?;
        Ok(Envelope(Value::Array(artifacts)))
    })
    .await
}

/// `GET {collection}/{identifier}`: from the cache of presented records when no write has
/// happened since the record was last read.
pub async fn get(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
) -> ApiResult<RawEnvelope> {
    let viewer = viewer(caller.require()?);
    let cache = state.store.presented();
    if let Some(json) = cache.get(collection.path, viewer, &identifier) {
        return Ok(RawEnvelope(json));
    }
    blocking(move || {
        let cache = state.store.presented();
        let generation = cache.generation();
        let row = find(&state, collection, &identifier, viewer)?;
        let record = present(&state, collection, row.doc, viewer)?;
        let json: Arc<str> = serde_json::to_string(&record)
            .map_err(ApiError::internal)?
            .into();
        cache.put(
            generation,
            collection.path,
            viewer,
            &identifier,
            json.clone(),
        );
        Ok(RawEnvelope(json))
    })
    .await
}

/// `POST {collection}`: checked against the create schema; the slug `urn` gets its prefix and
/// the collection's defaults apply.
pub async fn create(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = require(
        &caller,
        collection.roles.create,
        &what("creating", collection),
    )?
    .clone();
    blocking(move || {
        let body = model::object(body)?;
        let fields = model::validated(collection.create, Extra::Forbid, &body)?;
        if let Some(slug) = fields.get("urn").and_then(Value::as_str) {
            let urn = collection.full_urn(slug);
            if state.store.records().urn_exists(&urn)? {
                return Err(ApiError::conflict(format!("{urn} already exists.")));
            }
        }
        let mut record = model::new_record(collection, fields, &identity.name, &now())?;
        check_policy_change(collection, &identity, None, &record)?;
        link_parent(&state, collection, &mut record)?;
        if collection.path == GUIDES.path {
            rules::guide_activation(&record, &[])?;
        }
        let doc = Value::Object(record);
        state.store.records().insert(collection, &doc)?;
        Ok(Created(present(
            &state,
            collection,
            doc,
            viewer(&identity),
        )?))
    })
    .await
}

/// `PATCH {collection}/{identifier}`: only keys of the update allow-list; `null` leaves a field
/// as it is (but where production lets it clear). Where the dialect says so (production's), an
/// artifact update is checked and then answered with `null`.
pub async fn patch(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(
        &caller,
        collection.roles.update,
        &what("changing", collection),
    )?
    .clone();
    blocking(move || {
        let body = model::object(body)?;
        let changes = model::validated(collection.update, Extra::Forbid, &body)?;
        if collection.path == ARTIFACTS.path && state.dialect.artifact_patch_answers_null {
            return Ok(Envelope(Value::Null));
        }
        let viewer = viewer(&identity);
        let row = find(&state, collection, &identifier, viewer)?;
        let changes = model::effective_changes(collection, changes);
        let mut doc = model::patched(collection, &row.doc, &changes, &now())?;
        check_policy_change(collection, &identity, Some(&row.doc), &doc)?;
        check_update(&state, collection, &row, &changes, &mut doc)?;
        let doc = Value::Object(doc);
        state.store.records().replace(collection, &row.id, &doc)?;
        Ok(Envelope(present(&state, collection, doc, viewer)?))
    })
    .await
}

/// `PUT {collection}/{identifier}` (only interface.md has it): every updatable field becomes the
/// body's; the others are kept.
pub async fn put(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(
        &caller,
        collection.roles.update,
        &what("changing", collection),
    )?
    .clone();
    blocking(move || {
        let body = model::object(body)?;
        let fields = model::validated(collection.update, Extra::Forbid, &body)?;
        let viewer = viewer(&identity);
        let row = find(&state, collection, &identifier, viewer)?;
        let mut doc = model::replaced(collection, &row.doc, fields.clone(), &now())?;
        check_policy_change(collection, &identity, Some(&row.doc), &doc)?;
        check_update(&state, collection, &row, &fields, &mut doc)?;
        let doc = Value::Object(doc);
        state.store.records().replace(collection, &row.id, &doc)?;
        Ok(Envelope(present(&state, collection, doc, viewer)?))
    })
    .await
}

/// `DELETE {collection}/{identifier}`: also removes what hangs from the record (guidelines,
/// passages, artifacts and their files). A published guide, and a guideline of one, stay (409).
/// Removing artifacts along with a record takes the role that deletes artifacts: a caller who may
/// delete a food composition table but not its files gets 403 while files hang from it.
pub async fn delete(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(
        &caller,
        collection.roles.delete,
        &what("deleting", collection),
    )?
    .clone();
    let removed = blocking({
        let state = state.clone();
        move || {
            let row = find(&state, collection, &identifier, viewer(&identity))?;
            if collection.path == GUIDES.path {
                rules::guide_unfrozen(&row.doc)?;
            }
            if collection.path == GUIDELINES.path {
                let guide_urn = row.doc["guide_urn"].as_str().unwrap_or_default();
                if let Some(guide) = state.store.records().get(&GUIDES, guide_urn, Viewer::Curator)? {
                    rules::guide_unfrozen(&guide.doc)?;
                }
            }
            if let Some(urn) = &row.urn {
                let artifact_gate: WriteRoles = ARTIFACTS.roles.delete;
                let has_files = !state.store.records().all_children(&ARTIFACTS, urn)?.is_empty();
                if has_files && !artifact_gate.allows(&identity.roles) && artifact_gate == CURATORS {
                    return Err(ApiError::forbidden(format!(
                        "Insufficient permissions: {urn} has artifacts, and deleting them takes an admin or expert role."
                    )));
                }
            }
            let artifacts = state.store.records().delete_cascade(collection, &row)?;
            Ok((row.urn.unwrap_or(row.id), artifacts))
        }
    })
    .await?;
    let (deleted, artifacts) = removed;
    for artifact in artifacts {
        super::artifacts::remove_file(&state, &artifact).await;
    }
    Ok(Envelope(json!({ "deleted": deleted })))
}
