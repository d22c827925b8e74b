//! The route handlers, one module per family, and the checks they share.

pub mod account;
pub mod artifacts;
pub mod autocomplete;
pub mod children;
pub mod editorial;
pub mod enrich;
pub mod guidelines;
pub mod household_list;
pub mod households;
pub mod library;
pub mod meal_plans;
pub mod members;
pub mod passages;
pub mod policy;
pub mod records;
pub mod search;
pub mod system;
pub mod users;

use larder_contract::collections::{WriteRoles, ARTIFACTS, GUIDELINES};
use larder_contract::validate::is_canonical_uuid;
use larder_contract::Collection;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult};
use crate::store::{ChildOrder, RecordRow, Viewer};
use crate::SharedState;

/// The largest page of any listing.
pub const MAX_LIMIT: u32 = larder_contract::limits::MAX_PAGE_SIZE;

/// Runs a handler's database work on the blocking pool, off the threads that serve connections.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(ApiError::internal)?
}

/// `limit` and `offset` of a listing.
#[derive(Debug, Deserialize)]
pub struct Page {
    /// Page size, 1..=1000.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// Records to skip.
    #[serde(default)]
    pub offset: u32,
}

fn default_limit() -> u32 {
    100
}

impl Page {
    /// Checks the bounds.
    pub fn validate(&self) -> Result<(), ApiError> {
        if !(1..=MAX_LIMIT).contains(&self.limit) {
            return Err(ApiError::unprocessable(
                "limit",
                "must be between 1 and 1000",
            ));
        }
        Ok(())
    }
}

/// What a signed-in caller may see of the data collections: `admin` and `expert` see everything.
pub fn viewer(identity: &Identity) -> Viewer {
    let privileged = larder_contract::roles::PRIVILEGED_READERS;
    if privileged.iter().any(|role| identity.has_role(role)) {
        Viewer::Curator
    } else {
        Viewer::Public
    }
}

/// The identity of a caller passing `gate`: 401 without a token, 403 without the role.
pub fn require<'a>(caller: &'a Caller, gate: WriteRoles, what: &str) -> ApiResult<&'a Identity> {
    let identity = caller.require()?;
    if !gate.allows(&identity.roles) {
        return Err(ApiError::forbidden(format!(
            "Insufficient permissions: your roles do not allow {what}."
        )));
    }
    Ok(identity)
}

/// A record the viewer may see, by the identifier its path carries; hidden and missing records
/// are both 404. Guidelines and passages are addressed by their canonical UUID only (anything
/// else is production's 422); artifacts answer 404 for anything but a stored id.
pub fn find(
    state: &SharedState,
    collection: &Collection,
    identifier: &str,
    viewer: Viewer,
) -> ApiResult<RecordRow> {
    if !collection.has_urn() && collection.path != ARTIFACTS.path && !is_canonical_uuid(identifier)
    {
        return Err(ApiError::unprocessable(
            "id",
            format!(
                "{} must be referenced by UUID, not {identifier:?}.",
                collection.plural
            ),
        ));
    }
    state
        .store
        .records()
        .get(collection, identifier, viewer)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{} {identifier:?} was not found.",
                collection.singular
            ))
        })
}

/// A record with what the service derives on every read, without what production never
/// answers (the collection's `write_only` fields): embedded artifacts (in production's
/// embedded form, `type: "artifact"`; like any page of records, at most
/// [`larder_contract::limits::MAX_PAGE_BYTES`] of them), and a guide's visible guideline ids in
/// sequence order.
pub fn present(
    state: &SharedState,
    collection: &Collection,
    mut doc: Value,
    viewer: Viewer,
) -> ApiResult<Value> {
    if let Some(map) = doc.as_object_mut() {
        for field in collection.write_only {
            map.remove(*field);
        }
    }
    let Some(urn) = doc["urn"].as_str().map(str::to_string) else {
        return Ok(doc);
    };
    let records = state.store.records();
    for field in collection.derived {
        if field.name == "artifacts" {
            let artifacts = records
                .children(&ARTIFACTS, &urn, viewer, ChildOrder::Created, u32::MAX, 0)?
                .into_iter()
                .map(|mut artifact| {
                    artifact["type"] = Value::String("artifact".into());
                    if artifact.get("file_s3_url").is_none() {
                        artifact["file_s3_url"] = Value::Null;
                    }
                    artifact
                })
                .collect();
            doc["artifacts"] = Value::Array(artifacts);
        } else if field.name == "guidelines" {
            let ids = records.child_ids(&GUIDELINES, &urn, viewer, ChildOrder::Sequence)?;
            doc["guidelines"] = json!(ids);
        }
    }
    Ok(doc)
}
