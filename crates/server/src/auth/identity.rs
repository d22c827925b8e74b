//! Who is asking: the [`Identity`] a valid token stands for, the [`Caller`] handlers receive, the
//! bearer token of a request and the address it came from.
//!
//! Roles are read from a token as production reads them: `realm_access.roles` and every client's
//! `resource_access.<client>.roles`, trimmed and lower-cased, decide route gates; the realm roles
//! as spelled decide whether a caller may act on someone else's household.

use std::net::IpAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::accounts::AccountKind;
use crate::error::ApiError;

/// Who is asking.
#[derive(Clone, Debug, PartialEq)]
pub enum Caller {
    /// No bearer token.
    Anonymous,
    /// A valid token.
    Authenticated(Identity),
}

/// A signed-in account.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    /// User or client.
    pub kind: AccountKind,
    /// Username or client id.
    pub name: String,
    /// The roles route gates see: realm and client roles, lower-cased.
    pub roles: Vec<String>,
    /// The realm roles as the token spells them.
    pub realm_roles: Vec<String>,
    /// The account's fingerprint when the token was issued; a token whose fingerprint is no
    /// longer the account's (secret or roles changed, account removed) is refused.
    pub fingerprint: String,
    /// The `sub` of a token of the identity provider (`--oidc-issuer`): the household owner, as
    /// in production. `None` for this server's own accounts, keyed `kind:name`.
    pub subject: Option<String>,
}

impl Identity {
    /// Whether a route gate sees `role`.
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
    /// Whether the caller may act on households it does not own (realm `admin` or `agent`,
    /// spelled exactly so).
    pub fn overrides_ownership(&self) -> bool {
        self.realm_roles
            .iter()
            .any(|r| larder_contract::roles::HOUSEHOLD_OVERRIDE.contains(&r.as_str()))
    }
    /// The owner key of households: the provider's `sub`, or for this server's own accounts
    /// `kind:name` (users and clients never collide).
    pub fn owner_key(&self) -> String {
        match &self.subject {
            Some(subject) => subject.clone(),
            None => format!("{}:{}", self.kind.as_str(), self.name),
        }
    }
    /// Whether the identity provider vouches for this caller (not an account of this server).
    pub fn from_provider(&self) -> bool {
        self.subject.is_some()
    }
}

impl Caller {
    /// The identity, or 401.
    pub fn require(&self) -> Result<&Identity, ApiError> {
        match self {
            Caller::Authenticated(identity) => Ok(identity),
            Caller::Anonymous => Err(ApiError::unauthenticated(
                "This request needs a bearer token.",
            )),
        }
    }
}

/// The bearer token of a request: `None` without an Authorization header, 401 for another scheme.
pub fn bearer(headers: &axum::http::HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(header) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    header
        .to_str()
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(|t| Some(t.trim()))
        .ok_or_else(|| {
            ApiError::unauthenticated("The Authorization header must be `Bearer <token>`.")
        })
}

/// The address a request came from, when the listener recorded it.
#[derive(Clone, Copy, Debug)]
pub struct Source(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Source {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Source, Self::Rejection> {
        Ok(Source(
            parts
                .extensions
                .get::<ConnectInfo<std::net::SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}
