//! `system/login`, `system/mtm`, `system/ping`.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::{AccountKind, Caller, Source};
use crate::error::{ApiError, ApiResult, Envelope, JsonBody};
use crate::wire::{About, Said};
use crate::SharedState;

/// `POST system/login` body.
#[derive(Deserialize)]
pub struct UserLogin {
    username: String,
    password: String,
}

/// `POST system/mtm` body.
#[derive(Deserialize)]
pub struct ClientLogin {
    client_id: String,
    client_secret: String,
}

/// `POST system/login`.
pub async fn login(
    State(state): State<SharedState>,
    Source(source): Source,
    JsonBody(body): JsonBody<UserLogin>,
) -> ApiResult<Envelope<Value>> {
    state
        .auth
        .sign_in(AccountKind::User, &body.username, &body.password, source)
        .await
        .map(Envelope)
        .map_err(|error| match error.status {
            // A wrong password and an unknown user alike (the only 401s here).
            401 => ApiError {
                detail: state
                    .dialect
                    .says(Said::InvalidCredentials, About::default()),
                ..error
            },
            _ => error,
        })
}

/// `POST system/mtm`.
pub async fn mtm(
    State(state): State<SharedState>,
    Source(source): Source,
    JsonBody(body): JsonBody<ClientLogin>,
) -> ApiResult<Envelope<Value>> {
    state
        .auth
        .sign_in(
            AccountKind::Client,
            &body.client_id,
            &body.client_secret,
            source,
        )
        .await
        .map(Envelope)
}

/// `GET system/ping`: who the caller is, or what the dialect answers instead.
pub async fn ping(State(state): State<SharedState>, caller: Caller) -> Envelope<Value> {
    Envelope(state.dialect.ping.answer(|| who_asks(caller)))
}

fn who_asks(caller: Caller) -> Value {
    match caller {
        Caller::Anonymous => json!({ "authenticated": false, "roles": [] }),
        Caller::Authenticated(identity) => match identity.kind {
            AccountKind::User => json!({
                "authenticated": true, "kind": "user", "username": identity.name, "roles": identity.roles,
            }),
            AccountKind::Client => json!({
                "authenticated": true, "kind": "client", "client_id": identity.name, "roles": identity.roles,
            }),
        },
    }
}
