//! Checking a secret at sign-in: throttled, bounded in concurrency, and as slow for an unknown
//! name as for a known one.

use std::net::IpAddr;
use std::sync::Arc;

use super::accounts::{hash_secret, verify_secret, AccountKind, MAX_NAME, MAX_SECRET};
use super::identity::Identity;
use super::table::Registry;
use super::throttle::Throttle;
use crate::error::ApiError;

/// Password checks running at once: each argon2 check takes about 19 MiB and a core.
pub const CONCURRENT_CHECKS: usize = 2;

/// The sign-in gate: the throttle, the semaphore of checks, and the dummy hash.
pub struct Gate {
    throttle: Throttle,
    checks: Arc<tokio::sync::Semaphore>,
    /// Checked for unknown names, so they take as long as known ones.
    dummy_hash: String,
}

impl Gate {
    /// A gate with an empty throttle.
    pub fn new() -> anyhow::Result<Gate> {
        Ok(Gate {
            throttle: Throttle::default(),
            checks: Arc::new(tokio::sync::Semaphore::new(CONCURRENT_CHECKS)),
            dummy_hash: hash_secret("no account has this secret")?,
        })
    }

    /// The sign-in throttle.
    pub fn throttle(&self) -> &Throttle {
        &self.throttle
    }

    /// Checks a secret against the account in force and answers who signed in. The attempt counts against the throttle
    /// before the check runs, so a burst cannot get more checks through than the limit; at most
    /// [`CONCURRENT_CHECKS`] checks run at once; an unknown name is checked against a dummy hash.
    pub async fn check(
        &self,
        registry: &Registry,
        kind: AccountKind,
        name: &str,
        secret: &str,
        source: Option<IpAddr>,
    ) -> Result<Identity, ApiError> {
        let invalid = || ApiError::unauthenticated("Invalid credentials.");
        if name.is_empty() || name.len() > MAX_NAME || secret.len() > MAX_SECRET {
            return Err(invalid());
        }
        let attempt = self
            .throttle
            .begin(source, &format!("{}:{name}", kind.as_str()))?;
        let account = registry.get(kind, name);
        let permit = self
            .checks
            .clone()
            .acquire_owned()
            .await
            .map_err(ApiError::internal)?;
        let hash = match &account {
            Some(account) => account.hash.clone(),
            None => self.dummy_hash.clone(),
        };
        let secret = secret.to_string();
        let matches = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            verify_secret(&hash, &secret)
        })
        .await
        .map_err(ApiError::internal)?;
        let Some(account) = account.filter(|_| matches) else {
            attempt.failed();
            return Err(invalid());
        };
        attempt.succeeded();
        Ok(Identity {
            kind,
            name: name.to_string(),
            realm_roles: Vec::new(),
            roles: account.roles,
            fingerprint: account.fingerprint,
            subject: None,
        })
    }
}
