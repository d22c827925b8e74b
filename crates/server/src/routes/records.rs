//! The generic record routes, mounted once and driven by the collection descriptors.

use axum::extract::{Path, State};
use larder_contract::{slug::is_valid_slug, Collection, IdentifierKind};
use serde_json::{Map, Value};

use super::Page;
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, QueryParams};
use crate::store::{now, RecordRow};
use crate::SharedState;

fn collection(path: &str) -> ApiResult<&'static Collection> {
    Collection::by_path(path)
        .ok_or_else(|| ApiError::not_found(format!("There is no collection {path:?}.")))
}

fn find(state: &SharedState, collection: &Collection, identifier: &str) -> ApiResult<RecordRow> {
    state
        .store
        .records()
        .get(collection, identifier)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{} {identifier:?} was not found.",
                collection.singular
            ))
        })
}

fn require_writer<'a>(
    caller: &'a Caller,
    collection: &Collection,
    deleting: bool,
) -> ApiResult<&'a Identity> {
    let identity = caller.require()?;
    let roles = if deleting {
        collection.delete_roles
    } else {
        collection.write_roles
    };
    if !roles.allows(&identity.roles) {
        return Err(ApiError::forbidden(format!(
            "Your roles do not allow changing {}.",
            collection.path
        )));
    }
    Ok(identity)
}

fn object(body: Value) -> ApiResult<Map<String, Value>> {
    match body {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::unprocessable("body", "must be a JSON object")),
    }
}

/// `GET {collection}?limit&offset`: identifier strings, oldest first.
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    Path(path): Path<String>,
    QueryParams(page): QueryParams<Page>,
) -> ApiResult<Envelope<Vec<String>>> {
    caller.require()?;
    let collection = collection(&path)?;
    page.validate()?;
    Ok(Envelope(state.store.records().list_identifiers(
        collection,
        page.limit,
        page.offset,
    )?))
}

/// `GET {collection}/{identifier}`.
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    Path((path, identifier)): Path<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    caller.require()?;
    let collection = collection(&path)?;
    Ok(Envelope(find(&state, collection, &identifier)?.doc))
}

/// `POST {collection}`: the slug `urn` (or `identifier`) gets its prefix; defaults are applied.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    Path(path): Path<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let collection = collection(&path)?;
    let identity = require_writer(&caller, collection, false)?;
    let mut record = object(body)?;
    let slug = record.remove("identifier").or_else(|| record.remove("urn"));
    let id = uuid::Uuid::new_v4().to_string();
    if let IdentifierKind::Urn { .. } = collection.identifier {
        let urn = match slug {
            Some(Value::String(slug)) => {
                let bare = collection
                    .urn_prefix()
                    .and_then(|p| slug.strip_prefix(&p).map(str::to_string));
                let bare = bare.unwrap_or(slug);
                if !is_valid_slug(&bare) {
                    return Err(ApiError::unprocessable(
                        "urn",
                        "must be a slug of lower-case letters and digits separated by - or _",
                    ));
                }
                collection.full_urn(&bare)
            }
            Some(_) => return Err(ApiError::unprocessable("urn", "must be a string")),
            None => collection.full_urn(&id),
        };
        if state.store.records().urn_exists(&urn)? {
            return Err(ApiError::conflict(format!("{urn} already exists.")));
        }
        record.insert("urn".into(), Value::String(urn));
    }
    let timestamp = now();
    record.insert("id".into(), Value::String(id));
    record.insert("creator".into(), Value::String(identity.name.clone()));
    record.insert("created_at".into(), Value::String(timestamp.clone()));
    record.insert("updated_at".into(), Value::String(timestamp));
    if let Some(record_type) = collection.record_type {
        record.insert("type".into(), Value::String(record_type.into()));
    }
    if let Some(status) = collection.default_status {
        record
            .entry("status")
            .or_insert_with(|| Value::String(status.into()));
    }
    if collection.has_review {
        record
            .entry("review_status")
            .or_insert_with(|| "unreviewed".into());
        record
            .entry("visibility")
            .or_insert_with(|| "internal".into());
        record
            .entry("applicability_status")
            .or_insert_with(|| "unknown".into());
    }
    let doc = Value::Object(record);
    state.store.records().insert(collection, &doc, None)?;
    Ok(Created(doc))
}

/// `PATCH {collection}/{identifier}`: changes the given mutable fields; immutable ones are ignored.
pub async fn patch(
    State(state): State<SharedState>,
    caller: Caller,
    Path((path, identifier)): Path<(String, String)>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let collection = collection(&path)?;
    require_writer(&caller, collection, false)?;
    let changes = object(body)?;
    let row = find(&state, collection, &identifier)?;
    let mut doc = row.doc;
    for (field, value) in changes {
        if collection.is_mutable(&field) {
            doc[field] = value;
        }
    }
    doc["updated_at"] = Value::String(now());
    state.store.records().replace(&row.id, &doc)?;
    Ok(Envelope(doc))
}

/// `DELETE {collection}/{identifier}`.
pub async fn delete(
    State(state): State<SharedState>,
    caller: Caller,
    Path((path, identifier)): Path<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    let collection = collection(&path)?;
    require_writer(&caller, collection, true)?;
    let row = find(&state, collection, &identifier)?;
    state.store.records().delete(&row.id)?;
    Ok(Envelope(
        serde_json::json!({ "deleted": row.urn.unwrap_or(row.id) }),
    ))
}
