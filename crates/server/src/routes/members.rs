//! Household members and their profiles, under the ownership rules of their household.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{json, Value};

use super::households::{
    check_access, check_member, household_for, new_member, profile_doc, Access,
};
use super::Page;
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::{self, Problems};
use crate::SharedState;

/// The query of `GET members`.
#[derive(Debug, Deserialize)]
pub struct MemberQuery {
    /// Required: whose members.
    pub household_id: Option<String>,
    /// Page size.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// Members skipped.
    #[serde(default)]
    pub offset: u32,
}

fn default_limit() -> u32 {
    100
}

/// A member the caller may `access`.
fn member_for(
    state: &SharedState,
    identity: &Identity,
    id: &str,
    access: Access,
) -> ApiResult<Value> {
    let (owner, member) = state
        .store
        .households()
        .member(id)?
        .ok_or_else(|| ApiError::not_found(format!("Member {id:?} was not found.")))?;
    check_access(identity, &owner, access)?;
    Ok(member)
}

/// `GET members?household_id=..&limit&offset`.
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<MemberQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    let household_id = query.household_id.ok_or_else(|| {
        ApiError::unprocessable("household_id", "field required")
            .with_errors(json!([{ "loc": ["query", "household_id"], "msg": "field required" }]))
    })?;
    Page {
        limit: query.limit,
        offset: query.offset,
    }
    .validate()?;
    household_for(&state, identity, &household_id, Access::Read)?;
    Ok(Envelope(Value::Array(state.store.households().members(
        &household_id,
        query.limit,
        query.offset,
    )?)))
}

/// `POST members`: `{household_id, name, age_group, image_url?, profile?}`.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?;
    let body = model::object(body)?;
    let Some(household_id) = body.get("household_id").and_then(Value::as_str) else {
        return Err(ApiError::unprocessable(
            "household_id",
            "field required: a string",
        ));
    };
    household_for(&state, identity, household_id, Access::Write)?;
    let mut problems = Problems::default();
    let member = new_member(household_id, &body, "", &mut problems);
    problems.finish()?;
    state.store.households().insert_member(&member)?;
    Ok(Created(member))
}

/// `GET members/{id}`: with `profile` when one exists.
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    member_for(&state, identity, &id, Access::Read).map(Envelope)
}

/// `PATCH members/{id}`: any of `name`, `age_group`, `image_url`.
pub async fn patch(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    let changes = model::object(body)?;
    let mut member = member_for(&state, identity, &id, Access::Write)?;
    let mut problems = Problems::default();
    check_member(&changes, "", false, &mut problems);
    problems.finish()?;
    for field in ["name", "age_group", "image_url"] {
        if let Some(value) = changes.get(field) {
            member[field] = value.clone();
        }
    }
    state.store.households().update_member(&id, &member)?;
    Ok(Envelope(member))
}

/// `DELETE members/{id}`.
pub async fn delete(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    member_for(&state, identity, &id, Access::Write)?;
    state.store.households().delete_member(&id)?;
    Ok(Envelope(
        json!({ "message": format!("Member {id} deleted.") }),
    ))
}

fn no_profile() -> ApiError {
    ApiError::not_found("This member has no profile yet; create it with POST.")
}

/// `GET members/{id}/profile`: 404 when none exists.
pub async fn get_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    member_for(&state, identity, &id, Access::Read)?;
    state
        .store
        .households()
        .profile(&id)?
        .map(Envelope)
        .ok_or_else(no_profile)
}

/// `POST members/{id}/profile`: 409 when one exists.
pub async fn create_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?;
    let body = model::object(body)?;
    member_for(&state, identity, &id, Access::Write)?;
    if state.store.households().profile(&id)?.is_some() {
        return Err(ApiError::conflict(
            "This member already has a profile; update it with PATCH.",
        ));
    }
    let mut problems = Problems::default();
    let profile = profile_doc(&id, &body, None, "", &mut problems);
    problems.finish()?;
    state.store.households().put_profile(&id, &profile)?;
    Ok(Created(profile))
}

/// `PATCH members/{id}/profile`: the changed fields; 404 when none exists.
pub async fn patch_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    let body = model::object(body)?;
    member_for(&state, identity, &id, Access::Write)?;
    let existing = state
        .store
        .households()
        .profile(&id)?
        .ok_or_else(no_profile)?;
    let mut problems = Problems::default();
    let profile = profile_doc(&id, &body, Some(&existing), "", &mut problems);
    problems.finish()?;
    state.store.households().put_profile(&id, &profile)?;
    Ok(Envelope(profile))
}

/// `DELETE members/{id}/profile`.
pub async fn delete_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?;
    member_for(&state, identity, &id, Access::Write)?;
    if !state.store.households().delete_profile(&id)? {
        return Err(no_profile());
    }
    Ok(Envelope(
        json!({ "message": format!("Profile of member {id} deleted.") }),
    ))
}
