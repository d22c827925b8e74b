//! Households: the caller's own, one by id, the admin listing, create, update and delete.
//!
//! Ownership: the owner reads and changes their household; `admin` reads and changes any;
//! `agent` reads any. Everyone else gets 403, and only `admin` lists them all.

use axum::extract::State;
use larder_contract::enums::{AGE_GROUP, DIETARY_GROUPS};
use larder_contract::roles::{ADMIN, AGENT};
use serde_json::{json, Map, Value};

use super::Page;
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::{self, Problems};
use crate::store::now;
use crate::SharedState;

/// What a caller wants to do with a household or what hangs from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read it.
    Read,
    /// Change or delete it.
    Write,
}

/// Whether `identity` may `access` a household owned by `owner`; 403 otherwise.
pub fn check_access(identity: &Identity, owner: &str, access: Access) -> ApiResult<()> {
    let allowed = identity.owner_key() == owner
        || identity.has_role(ADMIN)
        || (access == Access::Read && identity.has_role(AGENT));
    if allowed {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "This household belongs to someone else.",
        ))
    }
}

/// A household the caller may `access`: its owner and document.
pub fn household_for(
    state: &SharedState,
    identity: &Identity,
    id: &str,
    access: Access,
) -> ApiResult<(String, Value)> {
    let (owner, household) = state
        .store
        .households()
        .get(id)?
        .ok_or_else(|| ApiError::not_found(format!("Household {id:?} was not found.")))?;
    check_access(identity, &owner, access)?;
    Ok((owner, household))
}

fn optional_string(map: &Map<String, Value>, field: &str, problems: &mut Problems) {
    if map
        .get(field)
        .is_some_and(|v| !v.is_string() && !v.is_null())
    {
        problems.add(field, "must be a string");
    }
}

fn required_string(map: &Map<String, Value>, field: &str, at: &str, problems: &mut Problems) {
    match map.get(field) {
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        Some(Value::String(_)) => problems.add(format!("{at}{field}"), "must not be empty"),
        Some(_) => problems.add(format!("{at}{field}"), "must be a string"),
        None => problems.add(format!("{at}{field}"), "field required"),
    }
}

/// Checks member fields; `creating` requires name and age_group.
pub fn check_member(map: &Map<String, Value>, at: &str, creating: bool, problems: &mut Problems) {
    if creating || map.contains_key("name") {
        required_string(map, "name", at, problems);
    }
    if creating || map.contains_key("age_group") {
        match map.get("age_group").and_then(Value::as_str) {
            Some(group) if AGE_GROUP.contains(&group) => {}
            _ => problems.add(
                format!("{at}age_group"),
                format!("must be one of {}", AGE_GROUP.join(", ")),
            ),
        }
    }
    if map
        .get("image_url")
        .is_some_and(|v| !v.is_string() && !v.is_null())
    {
        problems.add(format!("{at}image_url"), "must be a string");
    }
}

/// A profile document from `changes` over `existing` (or a new one), checked.
pub fn profile_doc(
    member_id: &str,
    changes: &Map<String, Value>,
    existing: Option<&Value>,
    at: &str,
    problems: &mut Problems,
) -> Value {
    let timestamp = now();
    let mut profile = existing.cloned().unwrap_or_else(|| {
        json!({
            "id": uuid::Uuid::new_v4().to_string(),
            "household_member_id": member_id,
            "nutritional_preferences": {}, "dietary_groups": [], "allergies": [], "properties": {},
            "created_at": timestamp,
        })
    });
    for (field, value) in changes {
        let ok = match field.as_str() {
            "dietary_groups" => value.as_array().is_some_and(|groups| {
                groups
                    .iter()
                    .all(|g| g.as_str().is_some_and(|g| DIETARY_GROUPS.contains(&g)))
            }),
            "allergies" => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            "nutritional_preferences" | "properties" => value.is_object(),
            _ => continue,
        };
        if ok {
            profile[field] = value.clone();
        } else {
            let message = match field.as_str() {
                "dietary_groups" => format!("must list values among {}", DIETARY_GROUPS.join(", ")),
                "allergies" => "must be a list of strings".into(),
                _ => "must be an object".into(),
            };
            problems.add(format!("{at}{field}"), message);
        }
    }
    profile["updated_at"] = json!(timestamp);
    profile
}

/// A new member document for `household_id`, its profile included when sent.
pub fn new_member(
    household_id: &str,
    map: &Map<String, Value>,
    at: &str,
    problems: &mut Problems,
) -> Value {
    check_member(map, at, true, problems);
    let id = uuid::Uuid::new_v4().to_string();
    let mut member = json!({
        "id": id,
        "household_id": household_id,
        "name": map.get("name").cloned().unwrap_or(Value::Null),
        "age_group": map.get("age_group").cloned().unwrap_or(Value::Null),
        "image_url": map.get("image_url").cloned().unwrap_or(Value::Null),
        "joined_at": now(),
    });
    match map.get("profile") {
        None | Some(Value::Null) => {}
        Some(Value::Object(profile)) => {
            member["profile"] = profile_doc(&id, profile, None, &format!("{at}profile."), problems);
        }
        Some(_) => problems.add(format!("{at}profile"), "must be an object"),
    }
    member
}

/// `GET households/me`: the caller's household, 404 when they own none.
pub async fn me(State(state): State<SharedState>, caller: Caller) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    state
        .store
        .households()
        .by_owner(&identity.owner_key())?
        .map(Envelope)
        .ok_or_else(|| ApiError::not_found("You do not own a household."))
}

/// `GET households?limit&offset`: every household, for `admin` only.
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(page): QueryParams<Page>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    if !identity.has_role(ADMIN) {
        return Err(ApiError::forbidden("Only an admin lists households."));
    }
    page.validate()?;
    Ok(Envelope(Value::Array(
        state.store.households().list(page.limit, page.offset)?,
    )))
}

/// `POST households`: the caller becomes the owner; 409 when they already own one.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?;
    let body = model::object(body)?;
    let mut problems = Problems::default();
    required_string(&body, "name", "", &mut problems);
    optional_string(&body, "region", &mut problems);
    if body
        .get("metadata")
        .is_some_and(|m| !m.is_object() && !m.is_null())
    {
        problems.add("metadata", "must be an object");
    }
    let id = uuid::Uuid::new_v4().to_string();
    let members: Vec<Value> = match body.get("members") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(members)) => members
            .iter()
            .enumerate()
            .map(|(index, member)| match member {
                Value::Object(map) => {
                    new_member(&id, map, &format!("members.{index}."), &mut problems)
                }
                _ => {
                    problems.add(format!("members.{index}"), "must be an object");
                    Value::Null
                }
            })
            .collect(),
        Some(_) => {
            problems.add("members", "must be a list of members");
            Vec::new()
        }
    };
    problems.finish()?;
    let timestamp = now();
    let household = json!({
        "id": id,
        "name": body["name"],
        "owner_id": identity.owner_key(),
        "region": body.get("region").cloned().unwrap_or(Value::Null),
        "metadata": body.get("metadata").filter(|m| m.is_object()).cloned().unwrap_or(json!({})),
        "created_at": timestamp,
        "updated_at": timestamp,
    });
    state
        .store
        .households()
        .create(&identity.owner_key(), &household, &members)?
        .map(Created)
        .ok_or_else(|| ApiError::conflict("You already own a household."))
}

/// `GET households/{id}`.
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    household_for(&state, identity, &id, Access::Read).map(|(_, household)| Envelope(household))
}

/// `PATCH households/{id}`: any of `name`, `region`, `metadata`.
pub async fn patch(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    let changes = model::object(body)?;
    let (_, mut household) = household_for(&state, identity, &id, Access::Write)?;
    let mut problems = Problems::default();
    if changes.contains_key("name") {
        required_string(&changes, "name", "", &mut problems);
    }
    optional_string(&changes, "region", &mut problems);
    if changes.get("metadata").is_some_and(|m| !m.is_object()) {
        problems.add("metadata", "must be an object");
    }
    problems.finish()?;
    for field in ["name", "region", "metadata"] {
        if let Some(value) = changes.get(field) {
            household[field] = value.clone();
        }
    }
    household["updated_at"] = json!(now());
    let mut stored = household.clone();
    if let Some(map) = stored.as_object_mut() {
        map.remove("members");
        map.remove("member_count");
    }
    state.store.households().update(&id, &stored)?;
    Ok(Envelope(household))
}

/// `DELETE households/{id}`: with its members and their profiles.
pub async fn delete(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    household_for(&state, identity, &id, Access::Write)?;
    state.store.households().delete(&id)?;
    Ok(Envelope(
        json!({ "message": format!("Household {id} deleted.") }),
    ))
}
