//! Authentication: accounts, sign-in, signed tokens and the [`Caller`] extractor.
//!
//! [`Auth`] is the facade handlers and `prepare` use; the parts sit below it and never import
//! it: [`accounts`] (declared accounts and their hashes), [`identity`] (who is asking),
//! [`tokens`] (HS256 tokens and the sign-in answer), [`sign_in`] (checking a secret) and
//! [`throttle`] (failed sign-ins per source and account).

pub mod accounts;
pub mod identity;
pub mod sign_in;
pub mod throttle;
pub mod tokens;

use std::net::IpAddr;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

pub use accounts::{account_specs, hash_secret, AccountKind, AccountSpec, MAX_NAME, MAX_SECRET};
pub use identity::{bearer, Caller, Identity, Source};
pub use sign_in::CONCURRENT_CHECKS;
pub use throttle::Throttle;
pub use tokens::{claims_for, configured_key, unix_now, CONSOLE_CLIENT};

use crate::error::ApiError;
use crate::store::Store;
use crate::{SharedState, Wire};

/// Token signing and secret checking.
pub struct Auth {
    signer: tokens::Signer,
    gate: sign_in::Gate,
}

impl Auth {
    /// Uses `key` when given, else the database's own key (created on first start).
    pub fn new(store: &Store, ttl: u64, key: Option<Vec<u8>>, wire: Wire) -> anyhow::Result<Auth> {
        let key = match key {
            Some(key) => key,
            None => tokens::stored_key(store)?,
        };
        Ok(Auth {
            signer: tokens::Signer::new(key, ttl, wire),
            gate: sign_in::Gate::new()?,
        })
    }

    /// Lifetime of new tokens in seconds.
    pub fn ttl(&self) -> u64 {
        self.signer.ttl()
    }

    /// The sign-in throttle.
    pub fn throttle(&self) -> &Throttle {
        self.gate.throttle()
    }

    /// Creates or updates an account.
    pub fn upsert_account(
        &self,
        store: &Store,
        kind: AccountKind,
        spec: &AccountSpec,
    ) -> anyhow::Result<()> {
        let hash = hash_secret(&spec.secret)?;
        self.upsert_hashed(store, kind, &spec.name, &hash, &spec.roles)
    }

    /// Creates or updates an account whose secret is already hashed (see [`hash_secret`]).
    pub fn upsert_hashed(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
        hash: &str,
        roles: &[String],
    ) -> anyhow::Result<()> {
        store.with(|conn| {
            conn.execute(
                "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, roles = excluded.roles",
                params![kind.as_str(), name, hash, roles.join(",")],
            )
        })?;
        Ok(())
    }

    /// Whether an account exists.
    pub fn account_exists(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
    ) -> rusqlite::Result<bool> {
        store.with(|conn| {
            conn.query_row(
                "SELECT 1 FROM accounts WHERE kind = ?1 AND name = ?2",
                params![kind.as_str(), name],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
        })
    }

    /// Checks a secret (see [`sign_in::Gate::check`]) and answers with a token.
    pub async fn sign_in(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
        secret: &str,
        source: Option<IpAddr>,
    ) -> Result<Value, ApiError> {
        let identity = self.gate.check(store, kind, name, secret, source).await?;
        Ok(self.signer.answer(self.signer.sign(&identity)))
    }

    /// Signs a token for `identity` (see [`tokens::Signer::sign`]).
    pub fn sign(&self, identity: &Identity) -> String {
        self.signer.sign(identity)
    }

    /// Signs arbitrary claims (tests use it for expired and odd tokens).
    pub fn sign_claims(&self, claims: &Value) -> String {
        self.signer.sign_claims(claims)
    }

    /// Checks a token's algorithm, signature and expiry.
    pub fn verify(&self, token: &str) -> Result<Identity, ApiError> {
        self.signer.verify(token)
    }
}

impl FromRequestParts<SharedState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Caller, ApiError> {
        // The gate in front of the routes has checked the token already and left the identity.
        if let Some(identity) = parts.extensions.get::<Identity>() {
            return Ok(Caller::Authenticated(identity.clone()));
        }
        match bearer(&parts.headers)? {
            None => Ok(Caller::Anonymous),
            Some(token) => state.auth.verify(token).map(Caller::Authenticated),
        }
    }
}
