//! Accounts, argon2 hashes, signed tokens, sign-in throttling and the [`Caller`] extractor.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::error::ApiError;
use crate::store::Store;
use crate::SharedState;

/// Failed sign-ins allowed per account within [`THROTTLE_WINDOW`] before 429.
pub const MAX_FAILED_SIGN_INS: u32 = 5;
/// The window over which failed sign-ins are counted.
pub const THROTTLE_WINDOW: Duration = Duration::from_secs(60);

/// A user signs in with a password; a client (machine) with a secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccountKind {
    /// `system/login`.
    User,
    /// `system/mtm`.
    Client,
}

impl AccountKind {
    fn as_str(self) -> &'static str {
        match self {
            AccountKind::User => "user",
            AccountKind::Client => "client",
        }
    }
}

/// `NAME:SECRET[:ROLE,ROLE]` from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountSpec {
    /// Username or client id.
    pub name: String,
    /// Password or client secret.
    pub secret: String,
    /// Roles.
    pub roles: Vec<String>,
}

impl AccountSpec {
    /// Parses `NAME:SECRET[:ROLE,ROLE]`.
    pub fn parse(spec: &str) -> anyhow::Result<AccountSpec> {
        let mut parts = spec.splitn(3, ':');
        let name = parts.next().unwrap_or_default();
        let secret = parts.next().unwrap_or_default();
        anyhow::ensure!(
            !name.is_empty() && !secret.is_empty(),
            "expected NAME:SECRET[:ROLE,ROLE], got {spec:?}"
        );
        let roles: Vec<String> = parts
            .next()
            .unwrap_or_default()
            .split(',')
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .collect();
        for role in &roles {
            anyhow::ensure!(
                larder_contract::roles::ALL.contains(&role.as_str()),
                "unknown role {role:?}; roles are admin, expert, agent"
            );
        }
        Ok(AccountSpec {
            name: name.to_string(),
            secret: secret.to_string(),
            roles,
        })
    }
}

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
    /// Roles.
    pub roles: Vec<String>,
}

impl Identity {
    /// Whether the identity holds `role`.
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
    /// The owner key of households: users and clients never collide.
    pub fn owner_key(&self) -> String {
        format!("{}:{}", self.kind.as_str(), self.name)
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
    /// The roles, empty when anonymous.
    pub fn roles(&self) -> &[String] {
        match self {
            Caller::Authenticated(identity) => &identity.roles,
            Caller::Anonymous => &[],
        }
    }
}

impl FromRequestParts<SharedState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Caller, ApiError> {
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(Caller::Anonymous);
        };
        let token = header
            .to_str()
            .ok()
            .and_then(|h| {
                h.strip_prefix("Bearer ")
                    .or_else(|| h.strip_prefix("bearer "))
            })
            .ok_or_else(|| {
                ApiError::unauthenticated("The Authorization header must be `Bearer <token>`.")
            })?;
        state.auth.verify(token.trim()).map(Caller::Authenticated)
    }
}

/// Token signing and secret checking.
pub struct Auth {
    key: Vec<u8>,
    ttl: u64,
    failures: Mutex<HashMap<(AccountKind, String), (u32, Instant)>>,
}

type HmacSha256 = Hmac<Sha256>;

impl Auth {
    /// Loads the database's signing key, creating it on first start.
    pub fn new(store: &Store, ttl: u64) -> anyhow::Result<Auth> {
        let key = store.with(|conn| -> rusqlite::Result<Vec<u8>> {
            if let Some(key) = conn
                .query_row(
                    "SELECT value FROM meta WHERE key = 'token_key'",
                    [],
                    |row| row.get(0),
                )
                .optional()?
            {
                return Ok(key);
            }
            let mut key = vec![0u8; 32];
            rand::thread_rng().fill_bytes(&mut key);
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('token_key', ?1)",
                [&key],
            )?;
            Ok(key)
        })?;
        Ok(Auth {
            key,
            ttl,
            failures: Mutex::new(HashMap::new()),
        })
    }

    /// Lifetime of new tokens in seconds.
    pub fn ttl(&self) -> u64 {
        self.ttl
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

    /// Checks a secret and issues a token; throttles repeated failures per account.
    pub async fn sign_in(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
        secret: &str,
    ) -> Result<Value, ApiError> {
        self.check_throttle(kind, name)?;
        let account = {
            let name = name.to_string();
            store
                .call(move |conn| {
                    conn.query_row(
                        "SELECT secret_hash, roles FROM accounts WHERE kind = ?1 AND name = ?2",
                        params![kind.as_str(), name],
                        |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
                    )
                    .optional()
                })
                .await?
        };
        let secret = secret.to_string();
        let verified = match account {
            Some((hash, roles)) => {
                tokio::task::spawn_blocking(move || verify_secret(&hash, &secret).then_some(roles))
                    .await
                    .map_err(ApiError::internal)?
            }
            None => None,
        };
        let Some(roles) = verified else {
            self.record_failure(kind, name);
            return Err(ApiError::unauthenticated("Invalid credentials."));
        };
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&(kind, name.to_string()));
        let identity = Identity {
            kind,
            name: name.to_string(),
            roles: roles
                .split(',')
                .filter(|r| !r.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let token = self.sign(&identity);
        Ok(json!({ "access_token": token, "token_type": "Bearer", "expires_in": self.ttl }))
    }

    fn check_throttle(&self, kind: AccountKind, name: &str) -> Result<(), ApiError> {
        let failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((count, since)) = failures.get(&(kind, name.to_string())) {
            let elapsed = since.elapsed();
            if *count >= MAX_FAILED_SIGN_INS && elapsed < THROTTLE_WINDOW {
                let wait = (THROTTLE_WINDOW - elapsed).as_secs().max(1);
                return Err(ApiError::new(
                    larder_contract::ErrorKind::RateLimit,
                    format!("Too many failed sign-ins for this account; try again in {wait} s."),
                )
                .retry_after(wait));
            }
        }
        Ok(())
    }

    fn record_failure(&self, kind: AccountKind, name: &str) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let entry = failures
            .entry((kind, name.to_string()))
            .or_insert((0, Instant::now()));
        if entry.1.elapsed() >= THROTTLE_WINDOW {
            *entry = (0, Instant::now());
        }
        entry.0 += 1;
    }

    /// Signs a token for `identity` (HS256 JWT with the per-database key).
    pub fn sign(&self, identity: &Identity) -> String {
        self.sign_claims(&claims_for(identity, unix_now(), self.ttl))
    }

    /// Signs arbitrary claims (tests use it for expired and odd tokens).
    pub fn sign_claims(&self, claims: &Value) -> String {
        let header = B64.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
        let payload = B64.encode(claims.to_string());
        let signing_input = format!("{header}.{payload}");
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(signing_input.as_bytes());
        format!(
            "{signing_input}.{}",
            B64.encode(mac.finalize().into_bytes())
        )
    }

    /// Checks a token's algorithm, signature and expiry.
    pub fn verify(&self, token: &str) -> Result<Identity, ApiError> {
        let invalid = || ApiError::unauthenticated("The token is invalid or has expired.");
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(invalid());
        };
        let header: Value = B64
            .decode(header)
            .ok()
            .and_then(|h| serde_json::from_slice(&h).ok())
            .ok_or_else(invalid)?;
        if header["alg"] != "HS256" {
            return Err(invalid());
        }
        let signature = B64.decode(signature).map_err(|_| invalid())?;
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(format!("{}.{payload}", token.split('.').next().unwrap_or_default()).as_bytes());
        mac.verify_slice(&signature).map_err(|_| invalid())?;
        let claims: Value = B64
            .decode(payload)
            .ok()
            .and_then(|p| serde_json::from_slice(&p).ok())
            .ok_or_else(invalid)?;
        if claims["exp"].as_u64().is_none_or(|exp| exp <= unix_now()) {
            return Err(invalid());
        }
        let kind = if claims["kind"] == "client" {
            AccountKind::Client
        } else {
            AccountKind::User
        };
        let name = match kind {
            AccountKind::User => claims["preferred_username"].as_str(),
            AccountKind::Client => claims["client_id"].as_str(),
        }
        .ok_or_else(invalid)?
        .to_string();
        let roles = claims["realm_access"]["roles"]
            .as_array()
            .map(|roles| {
                roles
                    .iter()
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Identity { kind, name, roles })
    }
}

/// The claims of a token for `identity`, issued at `now` and living `ttl` seconds.
pub fn claims_for(identity: &Identity, now: u64, ttl: u64) -> Value {
    let mut claims = json!({
        "sub": identity.owner_key(),
        "kind": identity.kind.as_str(),
        "realm_access": { "roles": identity.roles },
        "iat": now,
        "exp": now + ttl,
    });
    match identity.kind {
        AccountKind::User => claims["preferred_username"] = json!(identity.name),
        AccountKind::Client => claims["client_id"] = json!(identity.name),
    }
    claims
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// An argon2 hash of `secret` with a fresh salt.
pub fn hash_secret(secret: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(secret.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

fn verify_secret(hash: &str, secret: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok()
    })
}
