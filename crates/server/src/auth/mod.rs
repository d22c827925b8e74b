//! Authentication: accounts, sign-in, signed tokens and the [`Caller`] extractor.
//!
//! [`Auth`] is the facade handlers and `prepare` use; the parts sit below it and never import
//! it: [`accounts`] (declared accounts and their hashes), [`identity`] (who is asking),
//! [`tokens`] (HS256 tokens and the sign-in answer), [`table`] (the accounts in force, and
//! revocation), [`sign_in`] (checking a secret), [`throttle`] (failed sign-ins per source
//! and account) and [`oidc`] (access tokens of an OpenID Connect provider, `--oidc-issuer`).

pub mod accounts;
pub mod claim;
pub mod identity;
pub mod oidc;
pub mod registry;
pub mod sign_in;
pub mod table;
pub mod throttle;
pub mod tokens;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

pub use accounts::{account_specs, hash_secret, AccountKind, AccountSpec, MAX_NAME, MAX_SECRET};
pub use identity::{bearer, Caller, Identity, Source};
pub use sign_in::CONCURRENT_CHECKS;
pub use table::Changes;
pub use throttle::Throttle;
pub use tokens::{claims_for, configured_key, unix_now, CONSOLE_CLIENT};

use crate::error::ApiError;
use crate::store::Store;
use crate::wire::Dialect;
use crate::SharedState;

/// Token signing and secret checking.
pub struct Auth {
    signer: tokens::Signer,
    gate: sign_in::Gate,
    registry: table::Registry,
    oidc: Option<Arc<oidc::Checker>>,
}

impl Auth {
    /// Uses `key` when given, else the database's own key (created on first start); tokens and
    /// sign-in answers are shaped as `dialect` shapes them.
    pub fn new(
        store: &Store,
        ttl: u64,
        key: Option<Vec<u8>>,
        dialect: &'static Dialect,
    ) -> anyhow::Result<Auth> {
        let key = match key {
            Some(key) => key,
            None => tokens::stored_key(store)?,
        };
        let auth = Auth {
            signer: tokens::Signer::new(key, ttl, dialect),
            gate: sign_in::Gate::new()?,
            registry: table::Registry::default(),
            oidc: None,
        };
        table::load(store, &auth.signer, &auth.registry)?;
        Ok(auth)
    }

    /// Also takes the access tokens `checker` checks (`--oidc-issuer`).
    pub fn with_provider(mut self, checker: oidc::Checker) -> Auth {
        self.oidc = Some(Arc::new(checker));
        self
    }

    /// The identity provider's checker, when `--oidc-issuer` names one.
    pub fn provider(&self) -> Option<&Arc<oidc::Checker>> {
        self.oidc.as_ref()
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
        let hash = self.signer.hash_secret(kind, &spec.name, &spec.secret)?;
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
        table::put(store, &self.signer, &self.registry, kind, name, hash, roles)?;
        Ok(())
    }

    /// Makes the accounts in force exactly the `declared` ones, plus those of `kept` already
    /// there, and says what changed (see [`table::sync`]). Tokens of changed or removed
    /// accounts are refused from then on.
    pub fn sync(
        &self,
        store: &Store,
        declared: &[(AccountKind, AccountSpec)],
        kept: &HashSet<(AccountKind, String)>,
    ) -> anyhow::Result<Changes> {
        table::sync(store, &self.signer, &self.registry, declared, kept)
    }

    /// Erases an account with the household `owner` owns (see [`table::erase`]).
    pub fn erase(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
        owner: &str,
    ) -> rusqlite::Result<table::Erased> {
        table::erase(
            store,
            &self.signer,
            &self.registry,
            kind,
            name,
            owner,
            &crate::store::now(),
        )
    }

    /// Claims the guest account `guest` as `email` with `password` (see [`claim`]).
    pub fn claim(
        &self,
        store: &Store,
        guest: &Identity,
        email: &str,
        password: &str,
    ) -> anyhow::Result<claim::Claimed> {
        claim::claim(store, &self.signer, &self.registry, guest, email, password)
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
        kind: AccountKind,
        name: &str,
        secret: &str,
        source: Option<IpAddr>,
    ) -> Result<Value, ApiError> {
        let identity = self
            .gate
            .check(&self.registry, kind, name, secret, source)
            .await?;
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

    /// Checks a bearer token of either kind: with `--oidc-issuer`, one signed with an asymmetric
    /// algorithm goes to the provider's checker ([`oidc::Checker::verify`]); every other to
    /// [`Auth::verify`], which takes HS256 only. So this server's key never checks a provider's
    /// token, nor a provider's key one of this server's.
    pub async fn authenticate(&self, token: &str) -> Result<Identity, ApiError> {
        match &self.oidc {
            Some(checker) if !tokens::is_hs256(token) => checker.verify(token).await,
            _ => self.verify(token),
        }
    }

    /// Checks one of this server's own tokens: its algorithm, signature and expiry, and that its
    /// account is in force with the fingerprint the token carries, or that it is a claimed
    /// guest's token (see [`registry::Registry::renamed`]); else 401, as for any invalid token.
    pub fn verify(&self, token: &str) -> Result<Identity, ApiError> {
        let mut identity = self.signer.verify(token)?;
        if self
            .registry
            .is_current(identity.kind, &identity.name, &identity.fingerprint)
        {
            return Ok(identity);
        }
        // A guest's token after the guest kept the account: the account under its new name,
        // with the roles the token still carries.
        match self
            .registry
            .renamed(identity.kind, &identity.name, &identity.fingerprint)
        {
            Some(name) => {
                identity.name = name;
                Ok(identity)
            }
            None => Err(ApiError::unauthenticated(
                "The token is invalid or has expired.",
            )),
        }
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
            Some(token) => state
                .auth
                .authenticate(token)
                .await
                .map(Caller::Authenticated),
        }
    }
}
