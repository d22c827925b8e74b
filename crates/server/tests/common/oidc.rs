//! An identity provider's side for `--oidc-issuer` tests: signing keys made in the test, and a
//! small issuer serving its discovery document and key set (swappable, its fetches counted).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::EncodePrivateKey;
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use serde_json::{json, Value};

/// A private key and its public JWK.
pub struct Key {
    pub encoding: EncodingKey,
    pub alg: Algorithm,
    pub jwk: Value,
}

impl Key {
    /// A new 2048-bit RSA key published under `kid`.
    pub fn rsa(kid: &str) -> Key {
        let private = rsa::RsaPrivateKey::new(&mut rand::rngs::OsRng, 2048).expect("an RSA key");
        let public = private.to_public_key();
        Key {
            encoding: EncodingKey::from_rsa_der(private.to_pkcs1_der().unwrap().as_bytes()),
            alg: Algorithm::RS256,
            jwk: json!({
                "kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
                "n": B64.encode(public.n().to_bytes_be()),
                "e": B64.encode(public.e().to_bytes_be()),
            }),
        }
    }

    /// A new P-256 key published under `kid`.
    pub fn ec(kid: &str) -> Key {
        let private = p256::SecretKey::random(&mut rand::rngs::OsRng);
        let point = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(
            &private.public_key(),
            false,
        );
        Key {
            encoding: EncodingKey::from_ec_der(private.to_pkcs8_der().unwrap().as_bytes()),
            alg: Algorithm::ES256,
            jwk: json!({
                "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
                "x": B64.encode(point.x().unwrap()),
                "y": B64.encode(point.y().unwrap()),
            }),
        }
    }

    pub fn kid(&self) -> &str {
        self.jwk["kid"].as_str().unwrap()
    }

    /// `claims` signed with this key, its `kid` in the header.
    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid().to_string());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }

    /// `claims` signed with this key, the header then replaced by `header` (the signature is
    /// the original header's).
    pub fn sign_then_swap_header(&self, claims: &Value, header: &Value) -> String {
        let signed = self.sign(claims);
        let rest = signed.split_once('.').unwrap().1;
        format!("{}.{rest}", B64.encode(header.to_string()))
    }
}

/// A JWT with `header` and `claims` and an empty signature.
pub fn unsigned(header: &Value, claims: &Value) -> String {
    format!(
        "{}.{}.",
        B64.encode(header.to_string()),
        B64.encode(claims.to_string())
    )
}

/// Seconds since the epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

struct Published {
    issuer: Mutex<String>,
    keys: Mutex<Value>,
    key_fetches: AtomicUsize,
}

/// A provider's published side on a free port: discovery and the key set.
pub struct Issuer {
    pub url: String,
    published: Arc<Published>,
    task: tokio::task::JoinHandle<()>,
}

impl Issuer {
    /// Serves `keys` (public JWKs) under an issuer of its own address.
    pub async fn start(keys: &[&Key]) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let published = Arc::new(Published {
            issuer: Mutex::new(url.clone()),
            keys: Mutex::new(json!([])),
            key_fetches: AtomicUsize::new(0),
        });
        let discovery = |State(p): State<Arc<Published>>| async move {
            let issuer = p.issuer.lock().unwrap().clone();
            Json(json!({
                "issuer": issuer,
                "jwks_uri": format!("{issuer}/keys"),
                "authorization_endpoint": format!("{issuer}/auth"),
                "token_endpoint": format!("{issuer}/token"),
                "id_token_signing_alg_values_supported": ["RS256", "ES256"],
            }))
        };
        let jwks = |State(p): State<Arc<Published>>| async move {
            p.key_fetches.fetch_add(1, Ordering::SeqCst);
            Json(json!({ "keys": p.keys.lock().unwrap().clone() }))
        };
        let app = Router::new()
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/keys", get(jwks))
            .with_state(published.clone());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        let issuer = Issuer {
            url,
            published,
            task,
        };
        issuer.publish(keys);
        issuer
    }

    /// Publishes exactly `keys` from now on (a rotation).
    pub fn publish(&self, keys: &[&Key]) {
        let jwks: Vec<Value> = keys.iter().map(|k| k.jwk.clone()).collect();
        *self.published.keys.lock().unwrap() = json!(jwks);
    }

    /// Publishes `jwks` (the `keys` array) as it is.
    pub fn publish_raw(&self, jwks: Value) {
        *self.published.keys.lock().unwrap() = jwks;
    }

    /// Makes the discovery document name another issuer.
    pub fn misname(&self, issuer: &str) {
        *self.published.issuer.lock().unwrap() = issuer.to_string();
    }

    /// How many times the key set was fetched.
    pub fn key_fetches(&self) -> usize {
        self.published.key_fetches.load(Ordering::SeqCst)
    }
}

impl Drop for Issuer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// An access token's claims as Keycloak writes them, for `issuer`: a person with no roles but
/// the realm's defaults, `sub` the provider's identifier.
pub fn claims(issuer: &str) -> Value {
    let now = now();
    json!({
        "iss": issuer, "aud": "account", "sub": "f:5c1a:olivia", "azp": "larder-console",
        "typ": "Bearer", "exp": now + 300, "iat": now, "jti": "j-1",
        "preferred_username": "olivia",
        "realm_access": {"roles": ["offline_access", "uma_authorization"]},
        "resource_access": {"account": {"roles": ["manage-account", "view-profile"]}},
        "scope": "openid profile",
    })
}
