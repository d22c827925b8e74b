//! A user's own account (production.md §10.4), with production's shapes and words on both wires:
//!
//! - `GET users/me/consent?consent_type=service_data_processing`: the latest consent recorded,
//!   or `granted: false` with `version` and `granted_at` null.
//! - `POST users/me/consent` `{version, consent_type?}`: appends a row to the ledger with the
//!   time and the client's address (the first `X-Forwarded-For` entry that is an address, else
//!   the connection's peer).
//! - `POST users/me/claim` `{email, password, first_name?, last_name?}`: a guest keeps their
//!   account (see `auth::claim`). The names are checked and not stored: this service keeps no
//!   names for accounts. It sends no e-mail, so `verification_sent` is false.
//!
//! The user is always the token's; machine clients may record consent, and are no guest.

use std::net::IpAddr;

use axum::extract::State;
use axum::http::HeaderMap;
use larder_contract::account::{
    email_problem, normalised_email, password_problem, CONSENT_CREATE, DEFAULT_CONSENT_TYPE,
    GUEST_CLAIM, MAX_CONSENTS_PER_ACCOUNT, MAX_CONSENT_TYPE_CHARS,
};
use larder_contract::validate::{check_object, Extra, Problems};
use serde::Deserialize;
use serde_json::{json, Value};

use super::blocking;
use super::households::systemic_body;
use crate::auth::claim::Claimed;
use crate::auth::{Caller, Source};
use crate::error::{ApiError, ApiResult, Created, Envelope, JsonBody, QueryParams};
use crate::model;
use crate::store::ledger::{Consent, Recorded};
use crate::store::now;
use crate::SharedState;

/// Production's 403 for a claim by an account that is not a guest's.
pub const NOT_A_GUEST: &str = "This account is not a guest account";
/// Production's 409 for a claim of an address another account has.
pub const EMAIL_TAKEN: &str = "That email already has a WiseFood account. Sign in to it instead — you can share this plan to yourself from here first.";

/// The query of `GET users/me/consent`.
#[derive(Debug, Deserialize)]
pub struct ConsentQuery {
    consent_type: Option<String>,
}

/// `GET users/me/consent`.
pub async fn consent(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ConsentQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let consent_type = query
        .consent_type
        .unwrap_or_else(|| DEFAULT_CONSENT_TYPE.to_string());
    let length = consent_type.chars().count();
    if length == 0 || length > MAX_CONSENT_TYPE_CHARS as usize {
        let kind = if length == 0 {
            "string_too_short"
        } else {
            "string_too_long"
        };
        let message = format!("String should have 1 to {MAX_CONSENT_TYPE_CHARS} characters");
        let error = ApiError::invalid_query("consent_type", kind, message);
        return Err(error.systemic());
    }
    blocking(move || {
        let answer = match state
            .store
            .latest_consent(&identity.owner_key(), &consent_type)?
        {
            Some(row) => json!({
                "granted": true,
                "consent_type": row.consent_type,
                "version": row.version,
                "granted_at": row.granted_at,
            }),
            None => json!({
                "granted": false,
                "consent_type": consent_type,
                "version": null,
                "granted_at": null,
            }),
        };
        Ok(Envelope(answer))
    })
    .await
}

/// The client's address as production records it: the first entry of `X-Forwarded-For` (the
/// ingress appends the real client), when it is an address, else the connection's peer.
pub fn client_address(headers: &HeaderMap, peer: Option<IpAddr>) -> Option<String> {
    let forwarded = headers
        .get("x-forwarded-for")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(',').next())
        .and_then(|first| first.trim().parse::<IpAddr>().ok());
    forwarded.or(peer).map(|address| address.to_string())
}

/// `POST users/me/consent`: the row appended.
pub async fn record_consent(
    State(state): State<SharedState>,
    caller: Caller,
    Source(peer): Source,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Created<Value>> {
    let identity = caller.require()?.clone();
    let body = systemic_body(CONSENT_CREATE, body)?;
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_string);
    let consent = Consent {
        consent_type: text("consent_type").unwrap_or_else(|| DEFAULT_CONSENT_TYPE.to_string()),
        version: text("version").unwrap_or_default(),
        granted_at: now(),
        ip_address: client_address(&headers, peer),
    };
    blocking(move || {
        match state
            .store
            .record_consent(&identity.owner_key(), consent, MAX_CONSENTS_PER_ACCOUNT)?
        {
            Recorded::Row(row) => Ok(Created(json!({
                "consent_type": row.consent_type,
                "version": row.version,
                "granted_at": row.granted_at,
                "ip_address": row.ip_address,
            }))),
            Recorded::Full => Err(ApiError::conflict(format!(
                "This account has recorded {MAX_CONSENTS_PER_ACCOUNT} consents, the most this service keeps."
            ))),
        }
    })
    .await
}

/// A claim's body checked: the address (normalised) and the password (as sent).
fn claim_body(body: Value) -> ApiResult<(String, String)> {
    let body = model::object(body).map_err(ApiError::systemic)?;
    let mut problems = Problems::new();
    let fields = check_object(GUEST_CLAIM, Extra::Ignore, &body, &mut problems);
    let password = match body.get("password") {
        Some(Value::String(password)) => {
            if let Some(message) = password_problem(password) {
                problems.at_field("password", "string_length", message);
            }
            password.clone()
        }
        None | Some(Value::Null) => {
            problems.at_field("password", "missing", "Field required");
            String::new()
        }
        Some(_) => {
            problems.at_field("password", "string_type", "Input should be a valid string");
            String::new()
        }
    };
    let email = normalised_email(fields.get("email").and_then(Value::as_str).unwrap_or(""));
    if fields.contains_key("email") {
        if let Some(reason) = email_problem(&email) {
            problems.at_field(
                "email",
                "value_error",
                format!("value is not a valid email address: {reason}"),
            );
        }
    }
    model::finish(&problems).map_err(ApiError::systemic)?;
    Ok((email, password))
}

/// `POST users/me/claim`: `{user_id, email, email_verified: false, verification_sent: false}`.
pub async fn claim(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let (email, password) = claim_body(body)?;
    blocking(move || {
        let claimed = state
            .auth
            .claim(&state.store, &identity, &email, &password)
            .map_err(ApiError::internal)?;
        match claimed {
            Claimed::Done { name } => Ok(Envelope(json!({
                "user_id": format!("user:{name}"),
                "email": name,
                "email_verified": false,
                "verification_sent": false,
            }))),
            Claimed::NotGuest => Err(ApiError::forbidden(NOT_A_GUEST)),
            Claimed::Taken => Err(ApiError::conflict(EMAIL_TAKEN)),
            Claimed::Gone => Err(ApiError::unauthenticated(
                "The token is invalid or has expired.",
            )),
        }
    })
    .await
}
