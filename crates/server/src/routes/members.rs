//! Household members and their profiles, under the access rule of their household.

use axum::extract::State;
use larder_contract::households::{MEMBER_CREATE, MEMBER_UPDATE, PROFILE_CREATE, PROFILE_UPDATE};
use larder_contract::limits::MAX_MEMBERS_PER_HOUSEHOLD;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::households::{
    bounded_profile, check_access, check_household, largest_field, new_member, profile_doc,
    storable, systemic_body, IN_A_NEW_MEMBER,
};
use super::{blocking, Page};
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams};
use crate::wire::{About, Dialect, Said};
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

/// A member the caller may act on.
pub(crate) fn member_for(state: &SharedState, identity: &Identity, id: &str) -> ApiResult<Value> {
    let dialect = state.dialect;
    let (owner, member) = state
        .store
        .households()
        .member(id)?
        .ok_or_else(|| ApiError::not_found(dialect.says(Said::MemberMissing, About::id(id))))?;
    check_access(dialect, identity, &owner)
        .map_err(|_| ApiError::forbidden(dialect.says(Said::NoMemberAccess, About::default())))?;
    Ok(member)
}

/// A member as the dialect reads it back (see [`Dialect::read_back`]).
fn member_read_back(state: &SharedState, identity: &Identity, id: &str) -> ApiResult<Value> {
    Ok(state.dialect.read_back(member_for(state, identity, id)?))
}

/// The 404 of a profile that is not there, as `GET` (`patching`: as `PATCH`) words it.
fn profile_missing(dialect: &Dialect, id: &str, patching: bool) -> ApiError {
    let said = if patching {
        Said::ProfileMissingOnPatch
    } else {
        Said::ProfileMissing
    };
    ApiError::not_found(dialect.says(said, About::id(id)))
}

/// `GET members?household_id=..&limit&offset` (production lists the newest first).
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<MemberQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    // Production's FastAPI refuses it as every request validation: "Validation failed" (realprod's
    // ANSWERS.md, row 28), the problem at the query's key.
    let household_id = query.household_id.ok_or_else(|| {
        ApiError::invalid_field("household_id", "missing", "Field required")
            .with_errors(json!([{ "type": "missing", "loc": ["query", "household_id"], "msg": "Field required" }]))
            .systemic()
    })?;
    Page {
        limit: query.limit,
        offset: query.offset,
    }
    .validate()?;
    blocking(move || {
        check_household(&state, &identity, &household_id)?;
        let members = state.store.households().members(
            &household_id,
            state.dialect.member_order,
            query.limit,
            query.offset,
        )?;
        Ok(Envelope(state.dialect.read_back(Value::Array(members))))
    })
    .await
}

/// `POST members`: `{household_id, name, age_group, image_url?, profile?}`.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?.clone();
    let body = systemic_body(MEMBER_CREATE, body)?;
    blocking(move || {
        let household_id = body["household_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        check_household(&state, &identity, &household_id)?;
        storable(state.dialect, &body)?;
        let member = new_member(&household_id, &body, &IN_A_NEW_MEMBER)?;
        let stored = state
            .store
            .households()
            .insert_member_within(&member, MAX_MEMBERS_PER_HOUSEHOLD as u64)?;
        if !stored {
            return Err(ApiError::conflict(format!(
                "A household holds at most {MAX_MEMBERS_PER_HOUSEHOLD} members."
            )));
        }
        let id = member["id"].as_str().unwrap_or_default().to_string();
        Ok(Created(member_read_back(&state, &identity, &id)?))
    })
    .await
}

/// `GET members/{id}`: with `profile` (`null` when there is none).
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || member_read_back(&state, &identity, &id).map(Envelope)).await
}

/// `PATCH members/{id}`: any of `name`, `age_group`, `image_url` (`null` clears it), and
/// `profile` (an upsert of the profile).
pub async fn patch(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let changes = systemic_body(MEMBER_UPDATE, body)?;
    blocking(move || {
        let mut member = member_for(&state, &identity, &id)?;
        storable(state.dialect, &changes)?;
        for field in ["name", "age_group", "image_url"] {
            if let Some(value) = changes.get(field) {
                let clears = larder_contract::households::CLEARABLE.contains(&field);
                if !value.is_null() || clears {
                    member[field] = value.clone();
                }
            }
        }
        let mut profile_created = false;
        if let Some(Value::Object(profile)) = changes.get("profile") {
            let existing = state.store.households().profile(&id)?;
            profile_created = existing.is_none();
            let updated = profile_doc(&id, profile, existing.as_ref(), false);
            let updated = bounded_profile(updated, "profile")?;
            state.store.households().put_profile(&id, &updated)?;
        }
        state.store.households().update_member(&id, &member)?;
        let mut answer = member_read_back(&state, &identity, &id)?;
        if profile_created && state.dialect.member_patch_hides_new_profile {
            answer["profile"] = Value::Null;
        }
        Ok(Envelope(answer))
    })
    .await
}

/// `DELETE members/{id}`.
pub async fn delete(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_for(&state, &identity, &id)?;
        state.store.households().delete_member(&id)?;
        Ok(Envelope(
            json!({ "message": "Member deleted successfully" }),
        ))
    })
    .await
}

/// `GET members/{id}/profile`: 404 when there is none.
pub async fn get_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_for(&state, &identity, &id)?;
        state
            .store
            .households()
            .profile(&id)?
            .map(|profile| Envelope(state.dialect.read_back(profile)))
            .ok_or_else(|| profile_missing(state.dialect, &id, false))
    })
    .await
}

/// `POST members/{id}/profile`: an upsert, as production's: it creates the profile or updates
/// the one there is, and never answers 409. `properties` is ignored here (production keeps it
/// only from a PATCH).
pub async fn create_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?.clone();
    let body = systemic_body(PROFILE_CREATE, body)?;
    blocking(move || {
        member_for(&state, &identity, &id)?;
        storable(state.dialect, &body)?;
        let existing = state.store.households().profile(&id)?;
        let created = existing.is_none();
        let profile = profile_doc(&id, &body, existing.as_ref(), false);
        let profile = bounded_profile(profile, largest_field(&body))?;
        state.store.households().put_profile(&id, &profile)?;
        if created {
            // Both stamps were just set in Python: they keep their zone.
            return Ok(Created(profile));
        }
        Ok(Created(just_updated(state.dialect, profile)))
    })
    .await
}

/// `PATCH members/{id}/profile`: each field sent replaces the stored one; 404 when there is none.
pub async fn patch_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let body: Map<String, Value> = systemic_body(PROFILE_UPDATE, body)?;
    blocking(move || {
        member_for(&state, &identity, &id)?;
        let existing = state
            .store
            .households()
            .profile(&id)?
            .ok_or_else(|| profile_missing(state.dialect, &id, true))?;
        storable(state.dialect, &body)?;
        let profile = profile_doc(&id, &body, Some(&existing), true);
        let profile = bounded_profile(profile, largest_field(&body))?;
        state.store.households().put_profile(&id, &profile)?;
        Ok(Envelope(just_updated(state.dialect, profile)))
    })
    .await
}

/// `DELETE members/{id}/profile`: answers the same whether or not there was one.
pub async fn delete_profile(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_for(&state, &identity, &id)?;
        state.store.households().delete_profile(&id)?;
        Ok(Envelope(
            json!({ "message": "Profile deleted successfully" }),
        ))
    })
    .await
}

/// An updated profile as production answers it: `created_at` read back (naive), `updated_at`
/// just set in Python (with its zone).
fn just_updated(dialect: &Dialect, profile: Value) -> Value {
    let updated_at = profile["updated_at"].clone();
    let mut answer = dialect.read_back(profile);
    answer["updated_at"] = updated_at;
    answer
}
