//! Share links (production.md §10.4; production's `routers/shares.py` and `sharing.py`), with
//! production's shapes and words on both wires:
//!
//! - `POST shares` `{kind, id, member_id?, title?, expires_in_days?}`: the owner of the plan's
//!   household (or an administrator) publishes a snapshot scrubbed to the food ([`scrub`]),
//!   taken now and never read back from the plan; answers `{token, kind, title, expires_at}`.
//! - `GET shares?limit=50` (clamped to 1-200): the caller's links, newest first.
//! - `DELETE shares/{token}`: revokes one of the caller's links, keeping the row.
//! - `POST shares/{token}/email`: this service sends no e-mail, so it answers production's 404
//!   for a deployment without it.
//! - `GET shares/public/{token}`, no token needed: the snapshot, counting the view; one 404,
//!   "This link is not available", for a token unknown, revoked, expired or over 64 characters,
//!   and the same three headers on a hit and a miss.
//!
//! A plan is read through [`source::plan_to_share`], the one place that knows the meal-plan store.

pub mod scrub;
pub mod source;

use axum::extract::State;
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use larder_contract::roles::ADMIN;
use larder_contract::shares::{
    DEFAULT_SHARE_LIST, MAX_SHARES_PER_ACCOUNT, MAX_SHARE_LIST, MAX_SHARE_PAYLOAD_BYTES,
    MAX_SHARE_TITLE_CHARS, MAX_SHARE_TOKEN_CHARS, NOT_AVAILABLE, PUBLIC_HEADERS, SHARE_CREATE,
    SHARE_EMAIL, SHARE_KINDS, WEEKLY_MEAL_PLAN,
};
use rand::RngCore;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, PathParams, QueryParams};
use crate::routes::blocking;
use crate::routes::households::systemic_body;
use crate::store::now;
use crate::store::shares::{Share, Stored};
use crate::SharedState;

/// A fresh token: 32 random bytes, URL-safe base64 (43 characters, 256 bits).
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    B64.encode(bytes)
}

/// The stamp `days` days from now.
fn days_from_now(days: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::days(days))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Whether `identity` may share a plan of the household owned by `owner`: its owner, or a
/// realm administrator (production's `kutils.is_admin`).
fn may_share(identity: &Identity, owner: &str) -> bool {
    identity.owner_key() == owner || identity.realm_roles.iter().any(|r| r == ADMIN)
}

/// The plan a create names, with its default title; production's 404s and 403.
fn plan_of(
    state: &SharedState,
    identity: &Identity,
    kind: &str,
    id: &str,
    member_id: Option<&str>,
) -> ApiResult<(Value, String)> {
    if kind == WEEKLY_MEAL_PLAN {
        let Some(member_id) = member_id.filter(|m| !m.is_empty()) else {
            return Err(ApiError::not_found(
                "Sharing a weekly plan needs the member it belongs to",
            ));
        };
        // Ownership first, through the member, as every FoodChat route checks it; this
        // service keeps no FoodChat plans, so no member has a weekly plan to share.
        crate::routes::members::member_for(state, identity, member_id)?;
        return Err(ApiError::not_found(
            "That member has no weekly plan to share",
        ));
    }
    let missing = if kind == larder_contract::shares::MEAL_PLAN {
        "No such meal plan"
    } else {
        "No such saved meal plan"
    };
    let plan = source::plan_to_share(&state.store, kind, id)?
        .ok_or_else(|| ApiError::not_found(missing))?;
    let owner = state.store.households().owner_of(&plan.household_id)?;
    if !owner.is_some_and(|owner| may_share(identity, &owner)) {
        return Err(ApiError::forbidden("You do not have access to this plan"));
    }
    Ok((plan.plan, plan.default_title))
}

/// `POST shares`.
pub async fn create(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?.clone();
    let body = systemic_body(SHARE_CREATE, body)?;
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_string);
    let kind = text("kind").unwrap_or_default();
    if !SHARE_KINDS.contains(&kind.as_str()) {
        return Err(ApiError::not_found(format!("Cannot share a {kind}")));
    }
    let id = text("id").unwrap_or_default();
    let member_id = text("member_id");
    let title = text("title").unwrap_or_default();
    let days = body.get("expires_in_days").and_then(Value::as_i64);
    blocking(move || {
        let (plan, default_title) = plan_of(&state, &identity, &kind, &id, member_id.as_deref())?;
        let payload = scrub::scrub_meal_plan(&plan);
        let size = payload.to_string().len();
        if size > MAX_SHARE_PAYLOAD_BYTES {
            return Err(ApiError::invalid_field(
                "id",
                "value_error",
                format!("Value error, this plan takes {size} bytes; a share holds at most {MAX_SHARE_PAYLOAD_BYTES}"),
            )
            .systemic());
        }
        let chosen = if title.is_empty() { default_title } else { title };
        let title: String = chosen.trim().chars().take(MAX_SHARE_TITLE_CHARS as usize).collect();
        let stamp = now();
        let share = Share {
            token: new_token(),
            kind,
            source_id: Some(id),
            title: (!title.is_empty()).then_some(title),
            payload,
            created_at: stamp.clone(),
            expires_at: days.map(days_from_now),
            revoked_at: None,
            view_count: 0,
            last_viewed_at: None,
        };
        let owner = identity.owner_key();
        if state.store.insert_share(&owner, &share, MAX_SHARES_PER_ACCOUNT, &stamp)? == Stored::Full {
            return Err(ApiError::conflict(format!(
                "You hold {MAX_SHARES_PER_ACCOUNT} live share links, the most this service keeps; revoke one to share another."
            )));
        }
        Ok(Created(json!({
            "token": share.token,
            "kind": share.kind,
            "title": share.title,
            "expires_at": share.expires_at,
        })))
    })
    .await
}

/// The query of `GET shares`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    limit: Option<String>,
}

/// `GET shares?limit=50`: the caller's links, newest first; `limit` clamped to 1-200 (a value
/// that is not an integer is a 422, as FastAPI's).
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let limit = match query.limit.as_deref() {
        None => DEFAULT_SHARE_LIST,
        Some(text) => text.trim().parse::<i64>().map_err(|_| {
            ApiError::invalid_field(
                "limit",
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer",
            )
            .systemic()
        })?,
    }
    .clamp(1, MAX_SHARE_LIST) as u32;
    blocking(move || {
        let stamp = now();
        let shares: Vec<Value> = state
            .store
            .shares_of(&identity.owner_key(), limit)?
            .into_iter()
            .map(|share| {
                json!({
                    "token": share.token,
                    "kind": share.kind,
                    "title": share.title,
                    "created_at": share.created_at,
                    "expires_at": share.expires_at,
                    "revoked": share.revoked_at.is_some(),
                    "live": share.is_live(&stamp),
                    "view_count": share.view_count,
                    "last_viewed_at": share.last_viewed_at,
                })
            })
            .collect();
        Ok(Envelope(json!({ "shares": shares })))
    })
    .await
}

/// `DELETE shares/{token}`: `{revoked: true}`; 404 for a link not the caller's, unknown or
/// revoked already.
pub async fn revoke(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(token): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        if state
            .store
            .revoke_share(&identity.owner_key(), &token, &now())?
        {
            Ok(Envelope(json!({ "revoked": true })))
        } else {
            Err(ApiError::not_found("No such share link"))
        }
    })
    .await
}

/// `POST shares/{token}/email`: production's answer for a deployment that sends no e-mail (its
/// first check, after the body's).
pub async fn email(
    caller: Caller,
    PathParams(_token): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    caller.require()?;
    systemic_body(SHARE_EMAIL, body)?;
    Err(ApiError::not_found(
        "Email is not configured for this deployment",
    ))
}

/// `response` with the headers every public read carries.
fn with_share_headers(mut response: Response) -> Response {
    for (name, value) in PUBLIC_HEADERS {
        response.headers_mut().insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// `GET shares/public/{token}`, without a token: `{kind, title, created_at, payload}`, the view
/// counted; closed like every route during maintenance.
pub async fn public(
    State(state): State<SharedState>,
    PathParams(token): PathParams<String>,
) -> Response {
    if state.maintenance.is_on() {
        return crate::maintenance::answer();
    }
    let not_available = || with_share_headers(ApiError::not_found(NOT_AVAILABLE).into_response());
    if token.is_empty() || token.chars().count() > MAX_SHARE_TOKEN_CHARS {
        return not_available();
    }
    let read = blocking(move || Ok(state.store.read_share(&token, &now())?)).await;
    match read {
        Ok(Some(share)) => with_share_headers(
            Envelope(json!({
                "kind": share.kind,
                "title": share.title,
                "created_at": share.created_at,
                "payload": share.payload,
            }))
            .into_response(),
        ),
        Ok(None) => not_available(),
        Err(error) => with_share_headers(error.into_response()),
    }
}
