//! Households: the caller's own, one by id, the administrator's listing, create, update, delete.
//!
//! Access (production.md §4.1): the owner, or a caller whose realm roles name `admin` or `agent`
//! exactly, reads, changes and deletes a household and what hangs from it; everyone else gets 403.
//! The listing's gate is the route-gate role `admin`. Bodies are checked against the contract's
//! systemic schemas, which ignore unknown keys.

use axum::extract::State;
use larder_contract::households::{HOUSEHOLD_CREATE, HOUSEHOLD_UPDATE};
use larder_contract::limits::MAX_PROFILE_BYTES;
use larder_contract::validate::Extra;
use serde_json::{json, Map, Value};

use super::blocking;
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams};
use crate::model;
use crate::store::{now, Creation};
use crate::wire::{About, Dialect, Said};
use crate::SharedState;

/// A systemic body checked against `fields` (unknown keys dropped).
pub fn systemic_body(
    fields: &[larder_contract::Field],
    body: Value,
) -> ApiResult<Map<String, Value>> {
    let body = model::object(body).map_err(ApiError::systemic)?;
    model::validated(fields, Extra::Ignore, &body).map_err(ApiError::systemic)
}

/// 500 when `body` carries a dietary group the wire cannot store ([`Dialect::cannot_store`]),
/// worded as production's answer was (realprod's ANSWERS.md, row 29); nothing is stored.
pub fn storable(dialect: &Dialect, body: &Map<String, Value>) -> ApiResult<()> {
    if dialect.cannot_store(body) {
        return Err(ApiError::failing_as_production());
    }
    Ok(())
}

/// Whether `identity` may act on a household owned by `owner`; 403 otherwise.
pub fn check_access(dialect: &Dialect, identity: &Identity, owner: &str) -> ApiResult<()> {
    if identity.owner_key() == owner || identity.overrides_ownership() {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            dialect.says(Said::NoHouseholdAccess, About::default()),
        ))
    }
}

/// 404 for household `id`.
fn household_missing(dialect: &Dialect, id: &str) -> ApiError {
    ApiError::not_found(dialect.says(Said::HouseholdMissing, About::id(id)))
}

/// Checks that household `id` exists (404) and that the caller may act on it (403), without
/// composing its members: a member route on a household of a thousand needn't read them all.
pub fn check_household(state: &SharedState, identity: &Identity, id: &str) -> ApiResult<()> {
    let owner = state
        .store
        .households()
        .owner_of(id)?
        .ok_or_else(|| household_missing(state.dialect, id))?;
    check_access(state.dialect, identity, &owner)
}

/// A household the caller may act on: its owner and document (with members).
pub fn household_for(
    state: &SharedState,
    identity: &Identity,
    id: &str,
) -> ApiResult<(String, Value)> {
    let (owner, household) = state
        .store
        .households()
        .get(id)?
        .ok_or_else(|| household_missing(state.dialect, id))?;
    check_access(state.dialect, identity, &owner)?;
    Ok((owner, household))
}

/// A profile document from `changes` over `existing` (or a new one): every field sent replaces
/// the stored one (`null` reads back as empty); `properties` only when `keep_properties`.
pub fn profile_doc(
    member_id: &str,
    changes: &Map<String, Value>,
    existing: Option<&Value>,
    keep_properties: bool,
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
        if field == "properties" && !keep_properties {
            continue;
        }
        profile[field] = match (field.as_str(), value) {
            ("dietary_groups" | "allergies", Value::Null) => json!([]),
            (_, Value::Null) => json!({}),
            (_, value) => value.clone(),
        };
    }
    profile["updated_at"] = json!(timestamp);
    profile
}

/// `profile` when its JSON fits [`MAX_PROFILE_BYTES`]; otherwise a 422 at `field` (the largest
/// field sent, or `profile` where it is nested). Every member's profile is composed into
/// `households/me`, so an unbounded one makes that answer unbounded.
pub fn bounded_profile(profile: Value, field: &str) -> ApiResult<Value> {
    let size = serde_json::to_vec(&profile).map_or(usize::MAX, |json| json.len());
    if size <= MAX_PROFILE_BYTES {
        return Ok(profile);
    }
    Err(ApiError::invalid_field(
        field,
        "value_error",
        format!(
            "Value error, a profile holds at most {MAX_PROFILE_BYTES} bytes of JSON ({size} sent)"
        ),
    )
    .systemic())
}

/// The largest of the fields sent (where a too large profile is reported).
pub fn largest_field(changes: &Map<String, Value>) -> &str {
    changes
        .iter()
        .max_by_key(|(_, value)| value.to_string().len())
        .map_or("profile", |(field, _)| field.as_str())
}

/// What production makes of a profile nested in a new member's body.
pub struct NestedProfile {
    /// The profile's fields it keeps.
    pub kept: &'static [&'static str],
    /// Whether `profile: {}` makes a profile: production reads `POST members` with its defaults
    /// filled in (a non-empty dict), `POST households` with only what was sent (`{}`, falsy).
    pub empty_makes_one: bool,
}

/// A profile nested in a member of `POST households` (`api/v1/households.py`,
/// `_add_member_in_session`: the preferences and dietary groups, its allergies dropped; the
/// body read with `exclude_unset`, so an empty profile makes none).
pub const IN_A_NEW_HOUSEHOLD: NestedProfile = NestedProfile {
    kept: &["nutritional_preferences", "dietary_groups"],
    empty_makes_one: false,
};
/// A profile nested in `POST members` (`api/v1/household_members.py`,
/// `_create_member_profile_in_session`: the allergies too; never `properties`).
pub const IN_A_NEW_MEMBER: NestedProfile = NestedProfile {
    kept: &["nutritional_preferences", "dietary_groups", "allergies"],
    empty_makes_one: true,
};

/// A new member document for `household_id` from a checked member body, its profile included
/// when sent as production makes it (`nested`); 422 when that profile is larger than
/// [`MAX_PROFILE_BYTES`].
pub fn new_member(
    household_id: &str,
    map: &Map<String, Value>,
    nested: &NestedProfile,
) -> ApiResult<Value> {
    let id = uuid::Uuid::new_v4().to_string();
    let mut member = json!({
        "id": id,
        "household_id": household_id,
        "name": map.get("name").cloned().unwrap_or(Value::Null),
        "age_group": map.get("age_group").cloned().unwrap_or(Value::Null),
        "image_url": map.get("image_url").cloned().unwrap_or(Value::Null),
        "joined_at": now(),
    });
    let sent = map
        .get("profile")
        .and_then(Value::as_object)
        .filter(|profile| nested.empty_makes_one || !profile.is_empty());
    if let Some(profile) = sent {
        let kept: Map<String, Value> = profile
            .iter()
            .filter(|(k, _)| nested.kept.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        member["profile"] = bounded_profile(profile_doc(&id, &kept, None, false), "profile")?;
    }
    Ok(member)
}

/// `GET households/me`: the caller's household with its members and their profiles.
pub async fn me(State(state): State<SharedState>, caller: Caller) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        state
            .store
            .households()
            .by_owner(&identity.owner_key())?
            .map(|household| Envelope(state.dialect.read_back(household)))
            .ok_or_else(|| {
                ApiError::not_found(state.dialect.says(Said::NoOwnHousehold, About::default()))
            })
    })
    .await
}

/// `POST households`: the caller becomes the owner; 409 when they already own one.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?.clone();
    let body = systemic_body(HOUSEHOLD_CREATE, body)?;
    blocking(move || {
        let id = uuid::Uuid::new_v4().to_string();
        let members: Vec<Value> = body
            .get("members")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .map(|member| new_member(&id, member, &IN_A_NEW_HOUSEHOLD))
            .collect::<ApiResult<_>>()?;
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
        // Production checks its one household per owner first (its 409), then fails on storing.
        let households = state.store.households();
        let owner = identity.owner_key();
        if state.dialect.cannot_store(&body) && households.by_owner(&owner)?.is_none() {
            storable(state.dialect, &body)?;
        }
        let creation = if identity.from_provider() {
            households.create_for_provider(&owner, &household, &members)?
        } else {
            households.create(&owner, &household, &members)?
        };
        let created = match creation {
            Creation::Created(created) => created,
            Creation::Taken => {
                return Err(ApiError::conflict(
                    state
                        .dialect
                        .says(Said::AlreadyOwnsHousehold, About::owner(&owner)),
                ));
            }
            // Erased (or removed) after this request's token was checked.
            Creation::NoAccount => {
                return Err(ApiError::unauthenticated(
                    "The token is invalid or has expired.",
                ))
            }
        };
        Ok(Created(state.dialect.household_outside_me(created, false)))
    })
    .await
}

/// `GET households/{id}`.
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        let (_, household) = household_for(&state, &identity, &id)?;
        Ok(Envelope(
            state.dialect.household_outside_me(household, false),
        ))
    })
    .await
}

/// `PATCH households/me`: production has no such route, and its `households/{id}` reads `me` as
/// a household's id (production.md §4.1), so this answers as that route does: the body checked,
/// then 404 for household `me`, not a 405.
pub async fn patch_me(
    state: State<SharedState>,
    caller: Caller,
    body: JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    patch(state, caller, PathParams("me".to_string()), body).await
}

/// `DELETE households/me`: as [`patch_me`], a 404 for household `me`.
pub async fn delete_me(state: State<SharedState>, caller: Caller) -> ApiResult<Envelope<Value>> {
    delete(state, caller, PathParams("me".to_string())).await
}

/// `PATCH households/{id}`: any of `name`, `region` (`null` clears it), `metadata` (replaced
/// whole); a null name or metadata is ignored.
pub async fn patch(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let changes = systemic_body(HOUSEHOLD_UPDATE, body)?;
    blocking(move || {
        let (_, mut household) = household_for(&state, &identity, &id)?;
        for (field, value) in &changes {
            let clears = larder_contract::households::CLEARABLE.contains(&field.as_str());
            if !value.is_null() || clears {
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
        let updated_at = household["updated_at"].clone();
        let mut answer = state.dialect.household_outside_me(household, true);
        // Production sets this one in Python: it keeps its zone.
        answer["updated_at"] = updated_at;
        Ok(Envelope(answer))
    })
    .await
}

/// `DELETE households/{id}`: with its members and their profiles.
pub async fn delete(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        check_household(&state, &identity, &id)?;
        state.store.households().delete(&id)?;
        Ok(Envelope(
            json!({ "message": "Household deleted successfully" }),
        ))
    })
    .await
}
