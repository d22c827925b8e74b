//! Accounts, argon2 hashes, signed tokens and the [`Caller`] extractor. Sign-in throttling is in
//! [`crate::throttle`].
//!
//! Roles are read from a token as production reads them: `realm_access.roles` and every client's
//! `resource_access.<client>.roles`, trimmed and lower-cased, decide route gates; the realm roles
//! as spelled decide whether a caller may act on someone else's household.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{ConnectInfo, FromRequestParts};
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
use crate::throttle::Throttle;
use crate::{SharedState, Wire};

/// The longest username or client id; longer ones are refused before anything is looked up.
pub const MAX_NAME: usize = 256;
/// The longest password or secret checked.
pub const MAX_SECRET: usize = 1024;
/// Password checks running at once: each argon2 check takes about 19 MiB and a core.
pub const CONCURRENT_CHECKS: usize = 2;
/// The client under which the production wire puts client roles.
pub const CONSOLE_CLIENT: &str = "larder-console";

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

/// `NAME:SECRET[:ROLE,ROLE]`.
#[derive(Clone, PartialEq)]
pub struct AccountSpec {
    /// Username or client id.
    pub name: String,
    /// Password or client secret.
    pub secret: String,
    /// Roles.
    pub roles: Vec<String>,
}

impl std::fmt::Debug for AccountSpec {
    // Secrets never reach logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AccountSpec({:?}, ***, {:?})", self.name, self.roles)
    }
}

impl AccountSpec {
    /// Parses `NAME:SECRET[:ROLE,ROLE]`.
    pub fn parse(spec: &str) -> anyhow::Result<AccountSpec> {
        let mut parts = spec.splitn(3, ':');
        let name = parts.next().unwrap_or_default().trim();
        let secret = parts.next().unwrap_or_default();
        anyhow::ensure!(
            !name.is_empty() && !secret.is_empty(),
            "expected NAME:SECRET[:ROLE,ROLE], got an entry for {name:?}"
        );
        anyhow::ensure!(
            name.len() <= MAX_NAME && secret.len() <= MAX_SECRET,
            "names are at most {MAX_NAME} bytes and secrets {MAX_SECRET}"
        );
        let roles: Vec<String> = parts
            .next()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
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

/// Every account to create: the command line's, then a file's lines, then an environment
/// variable's lines (`#` starts a comment, blank lines are skipped).
pub fn account_specs(
    specs: &[String],
    file: Option<&Path>,
    variable: &str,
) -> anyhow::Result<Vec<AccountSpec>> {
    let mut lines: Vec<String> = specs.to_vec();
    if let Some(file) = file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
        lines.extend(text.lines().map(str::to_string));
    }
    if let Ok(text) = std::env::var(variable) {
        lines.extend(text.lines().map(str::to_string));
    }
    lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(AccountSpec::parse)
        .collect()
}

/// The signing key from `--token-key-file` or `LARDER_TOKEN_KEY` (hex), if given.
pub fn configured_key(file: Option<&Path>) -> anyhow::Result<Option<Vec<u8>>> {
    let key = match file {
        Some(file) => {
            let bytes = std::fs::read(file)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
            let text = String::from_utf8_lossy(&bytes).trim().to_string();
            Some(decode_hex(&text).unwrap_or(bytes))
        }
        None => match std::env::var("LARDER_TOKEN_KEY") {
            Ok(hex) => Some(
                decode_hex(hex.trim())
                    .ok_or_else(|| anyhow::anyhow!("LARDER_TOKEN_KEY must be hexadecimal"))?,
            ),
            Err(_) => None,
        },
    };
    if let Some(key) = &key {
        anyhow::ensure!(
            key.len() >= 32,
            "the token signing key must be at least 32 bytes"
        );
    }
    Ok(key)
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
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
    /// The roles route gates see: realm and client roles, lower-cased.
    pub roles: Vec<String>,
    /// The realm roles as the token spells them.
    pub realm_roles: Vec<String>,
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

/// Token signing and secret checking.
pub struct Auth {
    key: Vec<u8>,
    ttl: u64,
    wire: Wire,
    throttle: Throttle,
    checks: Arc<tokio::sync::Semaphore>,
    /// Checked for unknown names, so they take as long as known ones.
    dummy_hash: String,
}

type HmacSha256 = Hmac<Sha256>;

impl Auth {
    /// Uses `key` when given, else the database's own key (created on first start).
    pub fn new(store: &Store, ttl: u64, key: Option<Vec<u8>>, wire: Wire) -> anyhow::Result<Auth> {
        let key = match key {
            Some(key) => key,
            None => store.with(|conn| -> rusqlite::Result<Vec<u8>> {
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
            })?,
        };
        Ok(Auth {
            key,
            ttl,
            wire,
            throttle: Throttle::default(),
            checks: Arc::new(tokio::sync::Semaphore::new(CONCURRENT_CHECKS)),
            dummy_hash: hash_secret("no account has this secret")?,
        })
    }

    /// Lifetime of new tokens in seconds.
    pub fn ttl(&self) -> u64 {
        self.ttl
    }

    /// The sign-in throttle.
    pub fn throttle(&self) -> &Throttle {
        &self.throttle
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

    /// Checks a secret and issues a token. The attempt counts against the throttle before the
    /// check runs, so a burst cannot get more checks through than the limit; at most
    /// [`CONCURRENT_CHECKS`] checks run at once; an unknown name is checked against a dummy hash.
    pub async fn sign_in(
        &self,
        store: &Store,
        kind: AccountKind,
        name: &str,
        secret: &str,
        source: Option<IpAddr>,
    ) -> Result<Value, ApiError> {
        let invalid = || ApiError::unauthenticated("Invalid credentials.");
        if name.is_empty() || name.len() > MAX_NAME || secret.len() > MAX_SECRET {
            return Err(invalid());
        }
        let attempt = self.throttle.begin(source, kind, name)?;
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
        let permit = self
            .checks
            .clone()
            .acquire_owned()
            .await
            .map_err(ApiError::internal)?;
        let (hash, roles) = match account {
            Some((hash, roles)) => (hash, Some(roles)),
            None => (self.dummy_hash.clone(), None),
        };
        let secret = secret.to_string();
        let matches = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            verify_secret(&hash, &secret)
        })
        .await
        .map_err(ApiError::internal)?;
        let Some(roles) = roles.filter(|_| matches) else {
            attempt.failed();
            return Err(invalid());
        };
        attempt.succeeded();
        let identity = Identity {
            kind,
            name: name.to_string(),
            realm_roles: Vec::new(),
            roles: roles
                .split(',')
                .filter(|r| !r.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let token = self.sign(&identity);
        Ok(match self.wire {
            Wire::Reference => {
                json!({ "token": token, "token_type": "Bearer", "expires_in": self.ttl })
            }
            // Keycloak's token answer, passed through as production does.
            Wire::Production => json!({
                "access_token": token,
                "expires_in": self.ttl,
                "refresh_expires_in": self.ttl * 2,
                "refresh_token": random_text(),
                "token_type": "Bearer",
                "not-before-policy": 0,
                "session_state": uuid::Uuid::new_v4().to_string(),
                "scope": "profile email",
            }),
        })
    }

    /// Signs a token for `identity` (HS256 JWT). Its `roles` are the account's roles: in the
    /// reference wire all realm roles; in the production wire `expert` is a client role spelled
    /// `Expert` under [`CONSOLE_CLIENT`], as a Keycloak realm set up by hand may have it.
    pub fn sign(&self, identity: &Identity) -> String {
        let mut claims = claims_for(identity, unix_now(), self.ttl);
        if self.wire == Wire::Production {
            let (client, realm): (Vec<&String>, Vec<&String>) = identity
                .roles
                .iter()
                .partition(|r| r.as_str() == larder_contract::roles::EXPERT);
            let client: Vec<String> = client.iter().map(|_| "Expert".to_string()).collect();
            claims["realm_access"] = json!({ "roles": realm });
            claims["resource_access"] = json!({ CONSOLE_CLIENT: { "roles": client } });
        }
        self.sign_claims(&claims)
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
        if token.len() > 16 << 10 {
            return Err(invalid());
        }
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(invalid());
        };
        let header_json: Value = B64
            .decode(header)
            .ok()
            .and_then(|h| serde_json::from_slice(&h).ok())
            .ok_or_else(invalid)?;
        if header_json["alg"] != "HS256" {
            return Err(invalid());
        }
        let signature = B64.decode(signature).map_err(|_| invalid())?;
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(format!("{header}.{payload}").as_bytes());
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
        Ok(Identity {
            kind,
            name,
            roles: larder_contract::roles::from_claims(&claims),
            realm_roles: larder_contract::roles::realm_roles(&claims),
        })
    }
}

fn random_text() -> String {
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    B64.encode(bytes)
}

/// The claims of a token for `identity`, issued at `now` and living `ttl` seconds; every role a
/// realm role.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_lines() {
        let specs =
            account_specs(&["ann:pw:admin".into()], None, "LARDER_TEST_ACCOUNTS_UNSET").unwrap();
        assert_eq!(specs[0].roles, ["admin"]);
        assert!(AccountSpec::parse("x:y:wizard").is_err());
        assert!(AccountSpec::parse(&format!("{}:pw", "n".repeat(300))).is_err());
        assert!(!format!("{:?}", specs[0]).contains("pw"));
        assert_eq!(decode_hex("00ff10"), Some(vec![0, 255, 16]));
        assert_eq!(decode_hex("0g"), None);
    }
}
