//! A user's own account on the systemic API (issue 41, production.md §10.4): the consent ledger
//! (`users/me/consent`) and a guest's claim of their account (`users/me/claim`). Production's
//! households service at S lacks both (a bare 404): each call answers `Ok(None)` there, so a
//! console shows nothing rather than an error.

use std::fmt;

use larder_contract::account::{
    email_problem, normalised_email, password_problem, DEFAULT_CONSENT_TYPE,
    MAX_CONSENT_VERSION_CHARS,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::machinery::auth::{Credentials, Identity};
use crate::machinery::client::{decode, Client};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

/// The caller's consent of one type, as `GET users/me/consent` answers it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Consent {
    /// Whether a consent of this type was ever recorded.
    #[serde(default)]
    pub granted: bool,
    /// The consent's type (`service_data_processing`).
    #[serde(default)]
    pub consent_type: String,
    /// The version last accepted; `None` when never given.
    #[serde(default)]
    pub version: Option<String>,
    /// When it was last accepted; `None` when never given.
    #[serde(default)]
    pub granted_at: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Consent {
    /// Whether `version` is the one on record.
    pub fn covers(&self, version: &str) -> bool {
        self.granted && self.version.as_deref() == Some(version)
    }
}

/// The row `POST users/me/consent` appended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordedConsent {
    /// The consent's type.
    #[serde(default)]
    pub consent_type: String,
    /// The version accepted.
    pub version: String,
    /// When.
    #[serde(default)]
    pub granted_at: Option<String>,
    /// The address the service saw the acceptance come from.
    #[serde(default)]
    pub ip_address: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a guest sends to keep their account: an address, a password of 10–256 characters, and
/// optionally a name. The password never appears in `Debug`.
#[derive(Clone, Default, PartialEq, Serialize)]
pub struct GuestClaim {
    /// The address the account will sign in with.
    pub email: String,
    /// The new password.
    pub password: String,
    /// First name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
}

impl fmt::Debug for GuestClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuestClaim")
            .field("email", &self.email)
            .field("password", &"***")
            .field("first_name", &self.first_name)
            .field("last_name", &self.last_name)
            .finish()
    }
}

impl GuestClaim {
    /// Why the service would refuse this claim's address or password, checked before sending
    /// (the contract's rules), or `None`.
    pub fn problem(&self) -> Option<String> {
        if let Some(problem) = email_problem(&normalised_email(&self.email)) {
            return Some(problem.to_string());
        }
        password_problem(&self.password)
    }
}

/// What `POST users/me/claim` answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Claimed {
    /// The account's id (unchanged by the claim).
    #[serde(default)]
    pub user_id: String,
    /// The address the account now signs in with (trimmed, lower-cased).
    pub email: String,
    /// Whether the address is verified (always `false` right after a claim).
    #[serde(default)]
    pub email_verified: bool,
    /// Whether a verification mail went out.
    #[serde(default)]
    pub verification_sent: bool,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Whether a failure means the route itself is missing (405, or a framework's bare 404 "Not
/// Found"), not a 404 a route answers about a record ("No such share link").
pub(crate) fn route_absent(error: &ApiError) -> bool {
    error.is_not_offered()
        && error
            .failure()
            .is_some_and(|f| f.status == 405 || f.detail.is_empty() || f.detail == "Not Found")
}

/// `Ok(None)` for a route the service lacks.
pub(crate) fn unless_absent<R>(result: Result<R, ApiError>) -> Result<Option<R>, ApiError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(error) if route_absent(&error) => Ok(None),
        Err(error) => Err(error),
    }
}

impl<T: Transport> Client<T> {
    /// `GET users/me/consent?consent_type=`: the caller's consent of `consent_type` (the
    /// default, `service_data_processing`, when `None`). `Ok(None)` where the service lacks it.
    pub async fn consent(&self, consent_type: Option<&str>) -> Result<Option<Consent>, ApiError> {
        let request = Request::new(Api::System, Method::Get, "users/me/consent")
            .query("consent_type", consent_type.unwrap_or(DEFAULT_CONSENT_TYPE));
        match unless_absent(self.execute(request).await)? {
            Some(result) => decode(result).map(Some),
            None => Ok(None),
        }
    }

    /// `POST users/me/consent`: records that the caller accepted `version` (1–16 characters,
    /// checked before sending) of `consent_type` (the default when `None`). `Ok(None)` where
    /// the service lacks it.
    pub async fn accept_consent(
        &self,
        version: &str,
        consent_type: Option<&str>,
    ) -> Result<Option<RecordedConsent>, ApiError> {
        let chars = version.chars().count();
        if chars == 0 || chars > MAX_CONSENT_VERSION_CHARS as usize {
            return Err(ApiError::Caller(format!(
                "a consent version has 1 to {MAX_CONSENT_VERSION_CHARS} characters"
            )));
        }
        let body = json!({
            "version": version,
            "consent_type": consent_type.unwrap_or(DEFAULT_CONSENT_TYPE),
        });
        let request = Request::new(Api::System, Method::Post(body), "users/me/consent");
        match unless_absent(self.execute(request).await)? {
            Some(result) => decode(result).map(Some),
            None => Ok(None),
        }
    }

    /// `POST users/me/claim`: a guest keeps their account under `claim`'s address and
    /// password; then the client signs in with them, so the session no longer carries `guest`
    /// (the old token does until renewed, and the guest's own name no longer signs in).
    /// Address and password are checked before anything is sent. `Ok(None)` where the service
    /// lacks the route. A 409 (the address belongs to another account) and a 403 (not a guest)
    /// are the service's failures, the session untouched.
    pub async fn claim_account(
        &self,
        claim: &GuestClaim,
    ) -> Result<Option<(Claimed, Identity)>, ApiError> {
        if let Some(problem) = claim.problem() {
            return Err(ApiError::Caller(problem));
        }
        let body = serde_json::to_value(claim).map_err(|e| ApiError::Caller(e.to_string()))?;
        let request = Request::new(Api::System, Method::Post(body), "users/me/claim");
        let Some(result) = unless_absent(self.execute(request).await)? else {
            return Ok(None);
        };
        let claimed: Claimed = decode(result)?;
        let identity = self
            .sign_in(Credentials::user(
                claimed.email.clone(),
                claim.password.clone(),
            ))
            .await?;
        Ok(Some((claimed, identity)))
    }
}
