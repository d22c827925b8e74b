//! The route handlers, one module per family, and the checks they share.

pub mod artifacts;
pub mod guidelines;
pub mod households;
pub mod members;
pub mod passages;
pub mod records;
pub mod search;
pub mod system;

use larder_contract::roles::{ADMIN, EXPERT};
use larder_contract::Collection;
use serde::Deserialize;
use serde_json::Value;

use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult};
use crate::store::{RecordRow, Viewer};
use crate::SharedState;

/// The largest page of any listing.
pub const MAX_LIMIT: u32 = larder_contract::limits::MAX_PAGE_SIZE;

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
    /// Checks the bounds of wire-notes.
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

/// What a signed-in caller may see of the data collections.
pub fn viewer(identity: &Identity) -> Viewer {
    if identity.has_role(ADMIN) || identity.has_role(EXPERT) {
        Viewer::Curator
    } else {
        Viewer::Public
    }
}

/// The identity of a caller allowed to write (or delete) in `collection`: 401 without a token,
/// 403 without the role.
pub fn require_writer<'a>(
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

/// A record the viewer may see, by slug, URN or UUID; hidden and missing records are both 404.
pub fn find(
    state: &SharedState,
    collection: &Collection,
    identifier: &str,
    viewer: Viewer,
) -> ApiResult<RecordRow> {
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

/// A record with its derived fields: embedded artifacts, and a guide's guideline ids.
pub fn present(
    state: &SharedState,
    collection: &Collection,
    mut doc: Value,
    viewer: Viewer,
) -> ApiResult<Value> {
    use crate::store::ChildOrder;
    use larder_contract::collections::{ARTIFACTS, GUIDELINES};
    let derived = crate::model::schema::derived(collection.path);
    let Some(urn) = doc["urn"].as_str().map(str::to_string) else {
        return Ok(doc);
    };
    let records = state.store.records();
    if derived.contains(&"artifacts") {
        let artifacts =
            records.children(&ARTIFACTS, &urn, viewer, ChildOrder::Created, u32::MAX, 0)?;
        doc["artifacts"] = Value::Array(artifacts);
    }
    if derived.contains(&"guidelines") {
        let guidelines =
            records.children(&GUIDELINES, &urn, viewer, ChildOrder::Sequence, u32::MAX, 0)?;
        doc["guidelines"] = guidelines.iter().map(|g| g["id"].clone()).collect();
    }
    Ok(doc)
}
