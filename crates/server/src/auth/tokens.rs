//! Signed tokens: the signing key, HS256 JWTs for an [`Identity`], their checking, and the
//! sign-in answer that carries them (in the dialect's shape, see [`crate::wire`]).
//!
//! Hand-written on `hmac` and `sha2` rather than with `jsonwebtoken` (issue 25 asked): that crate
//! is not in the lockfile, and its current releases sign nothing without a whole crypto backend
//! (`aws-lc-rs`, or RustCrypto's RSA, P-256, P-384 and Ed25519), all for the one HMAC below. The
//! format is small and fixed: header `{"alg":"HS256","typ":"JWT"}`, the claims of [`claims_for`],
//! unpadded base64url; clients (`crates/api`, the console) decode the payload's claims.

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};
use sha2::Sha256;

use super::accounts::{hash_secret_salted, AccountKind};
use super::identity::Identity;
use crate::error::ApiError;
use crate::store::Store;
use crate::wire::Dialect;

pub use crate::wire::shapes::CONSOLE_CLIENT;
/// Longer tokens are refused unread.
const MAX_TOKEN: usize = 16 << 10;

type HmacSha256 = Hmac<Sha256>;

/// The signing key from `--token-key-file` or `LARDER_TOKEN_KEY` (hex), if given.
pub fn configured_key(file: Option<&std::path::Path>) -> anyhow::Result<Option<Vec<u8>>> {
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

/// The database's own key, created on first start.
pub fn stored_key(store: &Store) -> rusqlite::Result<Vec<u8>> {
    store.with(|conn| {
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
    })
}

/// Signs and checks tokens with one key.
pub struct Signer {
    key: Vec<u8>,
    ttl: u64,
    dialect: &'static Dialect,
}

impl Signer {
    /// A signer of tokens living `ttl` seconds, shaped as `dialect` shapes them.
    pub fn new(key: Vec<u8>, ttl: u64, dialect: &'static Dialect) -> Signer {
        Signer { key, ttl, dialect }
    }

    /// Lifetime of new tokens in seconds.
    pub fn ttl(&self) -> u64 {
        self.ttl
    }

    fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length")
    }

    /// A keyed digest of `parts`, each followed by a NUL (no part holds one: names and roles
    /// are text from lines, hashes are PHC strings), under a label saying what it is for.
    fn digest(&self, label: &str, parts: &[&str]) -> Vec<u8> {
        let mut mac = self.mac();
        mac.update(label.as_bytes());
        for part in parts {
            mac.update(b"\0");
            mac.update(part.as_bytes());
        }
        mac.finalize().into_bytes().to_vec()
    }

    /// The argon2 hash of an account's secret, salted from the key and the account: the same
    /// declaration gives the same hash, so a reload or restart can tell what changed and an
    /// unchanged account keeps its fingerprint (and tokens).
    pub fn hash_secret(
        &self,
        kind: AccountKind,
        name: &str,
        secret: &str,
    ) -> anyhow::Result<String> {
        let salt = self.digest("larder account salt", &[kind.as_str(), name]);
        hash_secret_salted(secret, &salt[..16])
    }

    /// What an account's tokens carry: a keyed digest of everything that, changed, must refuse
    /// them. Keyed, so a token reveals nothing about the secret's hash.
    pub fn fingerprint(
        &self,
        kind: AccountKind,
        name: &str,
        hash: &str,
        roles: &[String],
    ) -> String {
        let roles = roles.join(",");
        let digest = self.digest(
            "larder account fingerprint",
            &[kind.as_str(), name, hash, &roles],
        );
        B64.encode(&digest[..16])
    }

    /// What an erasure keeps of the declaration it erased: a keyed digest of the account's kind,
    /// name and secret hash (never the hash itself), enough to recognise the same declaration
    /// when it is read again and nothing to check a password against without the signing key.
    pub fn erasure_tag(&self, kind: AccountKind, name: &str, hash: &str) -> String {
        let digest = self.digest("larder erased declaration", &[kind.as_str(), name, hash]);
        B64.encode(&digest[..16])
    }

    /// Signs a token for `identity` (HS256 JWT). Its `roles` are the account's roles, where the
    /// dialect's tokens carry them ([`Dialect::place_roles`]).
    pub fn sign(&self, identity: &Identity) -> String {
        let mut claims = claims_for(identity, unix_now(), self.ttl);
        self.dialect.place_roles(&mut claims, &identity.roles);
        self.sign_claims(&claims)
    }

    /// Signs arbitrary claims (tests use it for expired and odd tokens).
    pub fn sign_claims(&self, claims: &Value) -> String {
        let header = B64.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
        let payload = B64.encode(claims.to_string());
        let signing_input = format!("{header}.{payload}");
        let mut mac = self.mac();
        mac.update(signing_input.as_bytes());
        format!(
            "{signing_input}.{}",
            B64.encode(mac.finalize().into_bytes())
        )
    }

    /// Checks a token's algorithm, signature and expiry, and reads its identity (whether the
    /// account still stands behind it is the registry's to say).
    pub fn verify(&self, token: &str) -> Result<Identity, ApiError> {
        let invalid = || ApiError::unauthenticated("The token is invalid or has expired.");
        if token.len() > MAX_TOKEN {
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
        let mut mac = self.mac();
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
            fingerprint: claims["fingerprint"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            subject: None,
        })
    }

    /// The sign-in answer carrying `token`, in the dialect's shape.
    pub fn answer(&self, token: String) -> Value {
        self.dialect.sign_in_answer(token, self.ttl)
    }
}

/// Whether `token`'s header names HS256, the algorithm of this server's own tokens.
pub fn is_hs256(token: &str) -> bool {
    token.len() <= MAX_TOKEN
        && token
            .split('.')
            .next()
            .and_then(|header| B64.decode(header).ok())
            .and_then(|header| serde_json::from_slice::<Value>(&header).ok())
            .is_some_and(|header| header["alg"] == "HS256")
}

/// The claims of a token for `identity`, issued at `now` and living `ttl` seconds; every role a
/// realm role. `fingerprint` is ours (clients ignore it): see `table`.
pub fn claims_for(identity: &Identity, now: u64, ttl: u64) -> Value {
    let mut claims = json!({
        "sub": identity.owner_key(),
        "kind": identity.kind.as_str(),
        "realm_access": { "roles": identity.roles },
        "iat": now,
        "exp": now + ttl,
        "fingerprint": identity.fingerprint,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_keys() {
        assert_eq!(decode_hex("00ff10"), Some(vec![0, 255, 16]));
        assert_eq!(decode_hex("0g"), None);
    }
}
