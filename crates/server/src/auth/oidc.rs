//! Access tokens of an OpenID Connect provider (`--oidc-issuer`, issue 42), checked as
//! production's services check Keycloak's (production.md §1.3): signed by one of the issuer's
//! published keys, issued by it exactly, for one of the accepted audiences, not expired. The
//! roles are the union production's gate reads, the household owner the token's `sub`.
//!
//! `jsonwebtoken` checks the signature and the registered claims (HS256 stays hand-written in
//! [`super::tokens`]: its own tokens need no key set). The algorithm is the key's, never the
//! token's alone: RS256 for RSA keys, ES256 for P-256 keys; a header naming another algorithm for
//! the key is refused, so a public key is never used as an HMAC secret and `none` never passes.
//!
//! The keys come from the discovery document's `jwks_uri`. They are fetched in the background at
//! start and every [`REFRESH_EVERY`]; a token with a `kid` not yet known (the provider rotated its
//! keys) fetches them once more, at most every [`REFETCH_AT_MOST_EVERY`], so tokens with made-up
//! `kid`s cannot make this server hammer the provider. A fetch replaces the whole set: a key the
//! provider dropped stops working.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

use super::accounts::AccountKind;
use super::identity::Identity;
use crate::error::ApiError;

/// A token with an unknown `kid` fetches the keys again at most this often.
pub const REFETCH_AT_MOST_EVERY: Duration = Duration::from_secs(30);
/// The keys are fetched again this often in the background.
pub const REFRESH_EVERY: Duration = Duration::from_secs(600);
/// How far the provider's clock may be from this server's, for `exp` and `nbf`.
pub const LEEWAY_S: u64 = 30;
/// The discovery document and the key set are refused when larger.
const MAX_DOCUMENT: usize = 64 << 10;
/// At most this many keys are taken from the key set.
const MAX_KEYS: usize = 64;
/// Longer tokens are refused unread (as [`super::tokens`] does).
const MAX_TOKEN: usize = 16 << 10;
/// How long one request to the provider may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The audience production's services accept besides `master-realm` (`--oidc-audience`'s default).
pub const DEFAULT_AUDIENCE: &str = "account";

/// `--oidc-issuer`: the issuer exactly as the provider names itself. Only plain http: this server
/// builds no TLS library, so an https provider is refused with what to do.
pub fn parse_issuer(value: &str) -> Result<String, String> {
    let issuer = value.trim();
    if issuer.starts_with("https://") {
        return Err(format!(
            "{issuer:?}: larder-server reaches the identity provider over plain http only (it \
             builds no TLS library); reach it through an http address, e.g. inside the same \
             network or through a local proxy, with the provider's issuer set to that address"
        ));
    }
    let Some(rest) = issuer.strip_prefix("http://") else {
        return Err(format!(
            "{value:?} is not an http address like http://localhost:8081/realms/master"
        ));
    };
    if rest.is_empty() || rest.starts_with('/') || issuer.contains(['?', '#', ' ']) {
        return Err(format!(
            "{value:?} is not an issuer: a host, a path, no query or fragment"
        ));
    }
    Ok(issuer.to_string())
}

/// A key of the provider and the one algorithm it signs with.
struct Key {
    algorithm: Algorithm,
    decoding: DecodingKey,
}

#[derive(Default)]
struct KeySet {
    by_kid: HashMap<String, Arc<Key>>,
}

/// Checks the provider's access tokens.
pub struct Checker {
    issuer: String,
    audiences: Vec<String>,
    http: reqwest::Client,
    keys: RwLock<KeySet>,
    /// When the keys were last asked for; held while a fetch runs, so fetches never overlap.
    last_fetch: tokio::sync::Mutex<Option<Instant>>,
}

impl Checker {
    /// A checker of `issuer`'s tokens for `audiences`; no key is fetched yet.
    pub fn new(issuer: &str, audiences: &[String]) -> anyhow::Result<Checker> {
        let http = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Checker {
            issuer: issuer.to_string(),
            audiences: audiences.to_vec(),
            http,
            keys: RwLock::new(KeySet::default()),
            last_fetch: tokio::sync::Mutex::new(None),
        })
    }

    /// The issuer whose tokens are taken.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Fetches the discovery document and the keys now, and takes them; the number of keys.
    pub async fn fetch_keys(&self) -> anyhow::Result<usize> {
        let mut last = self.last_fetch.lock().await;
        *last = Some(Instant::now());
        self.fetch_locked().await
    }

    async fn fetch_locked(&self) -> anyhow::Result<usize> {
        let discovery_url = format!(
            "{}/.well-known/openid-configuration",
            self.issuer.trim_end_matches('/')
        );
        let discovery = self.get_json(&discovery_url).await?;
        // OpenID Connect Discovery §4.3: the document must name exactly the issuer asked.
        if discovery["issuer"].as_str() != Some(self.issuer.as_str()) {
            bail!(
                "{discovery_url} names the issuer {}, not {:?}",
                discovery["issuer"],
                self.issuer
            );
        }
        let jwks_uri = discovery["jwks_uri"]
            .as_str()
            .with_context(|| format!("{discovery_url} has no jwks_uri"))?;
        let jwks = self.get_json(jwks_uri).await?;
        let keys = jwks["keys"]
            .as_array()
            .with_context(|| format!("{jwks_uri} has no keys"))?;
        let mut set = KeySet::default();
        for value in keys.iter().take(MAX_KEYS) {
            // A key this server cannot use (encryption, another type) is left out, not fatal.
            let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone()) else {
                continue;
            };
            if let (Some(kid), Some(key)) = (jwk.common.key_id.clone(), signing_key(&jwk)) {
                set.by_kid.insert(kid, Arc::new(key));
            }
        }
        let count = set.by_kid.len();
        *self.keys.write().expect("the key set's lock") = set;
        Ok(count)
    }

    async fn get_json(&self, url: &str) -> anyhow::Result<Value> {
        if !url.starts_with("http://") {
            bail!("{url}: only plain http is reachable from larder-server");
        }
        let mut response = self
            .http
            .get(url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .with_context(|| format!("fetching {url}"))?;
        if !response.status().is_success() {
            bail!("{url} answered {}", response.status());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_DOCUMENT {
                bail!("{url} is larger than {MAX_DOCUMENT} bytes");
            }
        }
        serde_json::from_slice(&body).map_err(|e| anyhow!("{url} is not JSON: {e}"))
    }

    /// Moves the last fetch `by` into the past, as if that much time had passed (tests: the
    /// rate limit of refetches without waiting 30 s).
    #[doc(hidden)]
    pub async fn backdate_last_fetch(&self, by: Duration) {
        let mut last = self.last_fetch.lock().await;
        *last = last.and_then(|at| at.checked_sub(by));
    }

    fn key(&self, kid: &str) -> Option<Arc<Key>> {
        self.keys
            .read()
            .expect("the key set's lock")
            .by_kid
            .get(kid)
            .cloned()
    }

    /// The key named `kid`, fetching the keys once more when it is unknown and the last fetch
    /// is older than [`REFETCH_AT_MOST_EVERY`] (one fetch at a time; others wait for it).
    async fn key_or_refetch(&self, kid: &str) -> Option<Arc<Key>> {
        if let Some(key) = self.key(kid) {
            return Some(key);
        }
        let mut last = self.last_fetch.lock().await;
        // Another request may have fetched while this one waited.
        if let Some(key) = self.key(kid) {
            return Some(key);
        }
        if last.is_some_and(|at| at.elapsed() < REFETCH_AT_MOST_EVERY) {
            return None;
        }
        *last = Some(Instant::now());
        if let Err(error) = self.fetch_locked().await {
            tracing::warn!("the identity provider's keys could not be fetched: {error:#}");
        }
        self.key(kid)
    }

    /// Checks an access token and reads who it stands for (401 for anything wrong).
    pub async fn verify(&self, token: &str) -> Result<Identity, ApiError> {
        let invalid = || ApiError::unauthenticated("The token is invalid or has expired.");
        if token.len() > MAX_TOKEN {
            return Err(invalid());
        }
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid())?;
        if !matches!(header.alg, Algorithm::RS256 | Algorithm::ES256) {
            return Err(invalid());
        }
        let kid = header.kid.ok_or_else(invalid)?;
        let key = self.key_or_refetch(&kid).await.ok_or_else(|| {
            ApiError::unauthenticated(
                "The token is signed by a key the identity provider does not publish.",
            )
        })?;
        if key.algorithm != header.alg {
            return Err(invalid());
        }
        let mut validation = Validation::new(key.algorithm);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&self.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = LEEWAY_S;
        validation.validate_nbf = true;
        let claims = jsonwebtoken::decode::<Value>(token, &key.decoding, &validation)
            .map_err(|_| invalid())?
            .claims;
        identity(&claims).ok_or_else(invalid)
    }

    /// Fetches the keys every [`REFRESH_EVERY`] (the first time at once) until `shutdown`.
    pub fn spawn_refresher(
        self: Arc<Self>,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(REFRESH_EVERY);
            loop {
                tokio::select! {
                    _ = ticks.tick() => match self.fetch_keys().await {
                        Ok(count) => tracing::info!("{count} signing keys of {}", self.issuer),
                        Err(error) => tracing::warn!(
                            "the identity provider's keys could not be fetched (its tokens are \
                             refused until they are): {error:#}"
                        ),
                    },
                    _ = shutdown.changed() => return,
                }
            }
        })
    }
}

/// The key and algorithm of a published signing key: RSA signs with RS256, P-256 with ES256; a
/// key for encryption, of another algorithm, or another type is none.
fn signing_key(jwk: &Jwk) -> Option<Key> {
    if matches!(&jwk.common.public_key_use, Some(u) if *u != PublicKeyUse::Signature) {
        return None;
    }
    let algorithm = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Algorithm::RS256,
        AlgorithmParameters::EllipticCurve(ec) if ec.curve == EllipticCurve::P256 => {
            Algorithm::ES256
        }
        _ => return None,
    };
    let named = match &jwk.common.key_algorithm {
        None => true,
        Some(KeyAlgorithm::RS256) => algorithm == Algorithm::RS256,
        Some(KeyAlgorithm::ES256) => algorithm == Algorithm::ES256,
        Some(_) => false,
    };
    if !named {
        return None;
    }
    let decoding = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        algorithm,
        decoding,
    })
}

/// Who a valid token stands for: a person when it names one (`preferred_username`), else a
/// machine client (`client_id`, `azp`); roles as production's gate reads them; the household
/// owner is `sub`.
fn identity(claims: &Value) -> Option<Identity> {
    let subject = claims["sub"].as_str().filter(|s| !s.is_empty())?;
    let (kind, name) = match claims["preferred_username"].as_str() {
        Some(name) => (AccountKind::User, name),
        None => (
            AccountKind::Client,
            claims["client_id"].as_str().or(claims["azp"].as_str())?,
        ),
    };
    Some(Identity {
        kind,
        name: name.to_string(),
        roles: larder_contract::roles::from_claims(claims),
        realm_roles: larder_contract::roles::realm_roles(claims),
        fingerprint: String::new(),
        subject: Some(subject.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_are_plain_http_addresses() {
        assert_eq!(
            parse_issuer(" http://localhost:8081/realms/master ").as_deref(),
            Ok("http://localhost:8081/realms/master")
        );
        assert!(parse_issuer("https://auth.example.org/realms/master")
            .unwrap_err()
            .contains("plain http only"));
        for wrong in [
            "",
            "localhost:8081",
            "http://",
            "http:///x",
            "http://a/?x",
            "http://a/#x",
        ] {
            assert!(parse_issuer(wrong).is_err(), "{wrong}");
        }
    }
}
