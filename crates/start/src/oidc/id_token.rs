//! The ID token's checks (OpenID Connect Core §3.1.3.7): signed by one of the provider's keys,
//! for this client, this sign-in, now.
//!
//! The signature itself is the browser's: WebCrypto's `importKey('jwk', key, …)` and `verify`
//! with the parameters [`Alg`] names, over [`Jwt::signing_input`]. keycloak-js and
//! oidc-client-ts check no signature at all (the code flow over TLS allows it, §3.1.3.7 6); the
//! issue asks that a bad one be refused, and the browser's check costs no bytes of wasm.

use super::fields::{seconds, Fields};
use super::{base64url, Claim, Failure, LEEWAY_S, MAX_KEYS, MAX_TOKEN};

/// A JWT's three parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jwt<'a> {
    /// The header's JSON, to read with the caller's JSON reader.
    pub header: Vec<u8>,
    /// The claims' JSON, likewise.
    pub payload: Vec<u8>,
    /// What the signature signs: the first two parts as they came, with their dot.
    pub signing_input: &'a str,
    /// The signature's bytes (for ES256 the raw `r‖s`, which is WebCrypto's form too).
    pub signature: Vec<u8>,
}

/// The three parts of `token`, decoded; refused when larger than [`MAX_TOKEN`] or not three
/// base64url parts.
pub fn split(token: &str) -> Result<Jwt<'_>, Failure> {
    if token.len() > MAX_TOKEN {
        return Err(Failure::TooLarge);
    }
    let malformed = Failure::Malformed("id_token");
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed);
    };
    let decode = |part: &str| base64url::decode(part).ok_or(Failure::Malformed("id_token"));
    Ok(Jwt {
        header: decode(header)?,
        payload: decode(payload)?,
        signing_input: &token[..header.len() + 1 + payload.len()],
        signature: decode(signature)?,
    })
}

/// The signature algorithms taken: Keycloak signs with RS256 unless told otherwise, ES256 is
/// its other common choice. Nothing else (`none`, `HS256` with a public key as its secret, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alg {
    Rs256,
    Es256,
}

impl Alg {
    /// The JWS name.
    pub fn name(self) -> &'static str {
        match self {
            Alg::Rs256 => "RS256",
            Alg::Es256 => "ES256",
        }
    }

    fn of_header(name: &str) -> Option<Alg> {
        match name {
            "RS256" => Some(Alg::Rs256),
            "ES256" => Some(Alg::Es256),
            _ => None,
        }
    }

    /// WebCrypto's algorithm for `importKey`: `RSASSA-PKCS1-v1_5` with `hash: SHA-256`, or
    /// `ECDSA` with `namedCurve: P-256` (and `hash: SHA-256` for `verify`).
    pub fn webcrypto_name(self) -> &'static str {
        match self {
            Alg::Rs256 => "RSASSA-PKCS1-v1_5",
            Alg::Es256 => "ECDSA",
        }
    }
}

/// The algorithm a published key signs with, from the key itself (`kty`, `crv`, and `alg` when
/// it says): `None` for a key that signs with neither, or is for encryption (`use: enc`, as
/// Keycloak's `RSA-OAEP` key is).
pub fn key_algorithm(key: &impl Fields) -> Option<Alg> {
    if key.has("use") && key.text("use").as_deref() != Some("sig") {
        return None;
    }
    let alg = match (key.text("kty").as_deref(), key.text("crv").as_deref()) {
        (Some("RSA"), _) => Alg::Rs256,
        (Some("EC"), Some("P-256")) => Alg::Es256,
        _ => return None,
    };
    match key.text("alg") {
        Some(named) if named != alg.name() => None,
        _ if key.has("alg") && key.text("alg").is_none() => None,
        _ => Some(alg),
    }
}

/// Which of the provider's `keys` (its JWKS's `keys`, the first [`MAX_KEYS`]) checks a token
/// with `header`, and with which algorithm: the header's `alg` must be RS256 or ES256 and the
/// key's own algorithm; the key is the one with the header's `kid` (or, without a `kid`, the
/// only key of that algorithm). The index is into `keys`.
pub fn choose_key(header: &impl Fields, keys: &[impl Fields]) -> Result<(usize, Alg), Failure> {
    let alg = header
        .text("alg")
        .and_then(|name| Alg::of_header(&name))
        .ok_or(Failure::IdToken(Claim::Algorithm))?;
    let kid = header.text("kid");
    if header.has("kid") && kid.is_none() {
        return Err(Failure::IdToken(Claim::UnknownKey));
    }
    let mut candidates = keys
        .iter()
        .take(MAX_KEYS)
        .enumerate()
        .filter(|(_, key)| key_algorithm(*key) == Some(alg))
        .filter(|(_, key)| kid.is_none() || key.text("kid") == kid);
    match (candidates.next(), candidates.next()) {
        (Some((index, _)), None) => Ok((index, alg)),
        _ => Err(Failure::IdToken(Claim::UnknownKey)),
    }
}

/// What the ID token must say.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    /// The issuer, exactly.
    pub issuer: &'a str,
    /// The console's client ID, which `aud` must hold.
    pub client_id: &'a str,
    /// The nonce rule.
    pub nonce: Nonce<'a>,
    /// After a renewal, the signed-in person's `sub`, which must not change.
    pub subject: Option<&'a str>,
    /// Now, in seconds since the epoch.
    pub now_s: u64,
}

/// What the `nonce` claim must be.
#[derive(Clone, Copy, Debug)]
pub enum Nonce<'a> {
    /// After a sign-in: the pending nonce, which the token must carry.
    Exactly(&'a str),
    /// After a renewal: a renewed ID token carries the first one's nonce or none (Core §12.2).
    IfPresent(&'a str),
}

/// Who signed in, from a valid ID token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The provider's identifier of the person: what the services key their household by.
    pub sub: String,
    /// The token's nonce, kept for the renewals' rule ([`Nonce::IfPresent`]).
    pub nonce: Option<String>,
    /// The name to show, when the token has one.
    pub preferred_username: Option<String>,
    /// When the token expires (seconds since the epoch).
    pub exp: u64,
}

/// The ID token's claims checked against `expected`, in the order of Core §3.1.3.7 (after the
/// signature, which the caller has verified).
pub fn check_claims(claims: &impl Fields, expected: &Expected<'_>) -> Result<Identity, Failure> {
    let refuse = |claim| Err(Failure::IdToken(claim));
    if claims.text("iss").as_deref() != Some(expected.issuer) {
        return refuse(Claim::Issuer);
    }
    let audiences = match (claims.text("aud"), claims.texts("aud")) {
        (Some(one), _) => vec![one],
        (None, Some(many)) => many,
        (None, None) => return refuse(Claim::Audience),
    };
    if !audiences.iter().any(|a| a == expected.client_id) {
        return refuse(Claim::Audience);
    }
    match claims.text("azp") {
        Some(azp) if azp != expected.client_id => return refuse(Claim::AuthorizedParty),
        None if claims.has("azp") || audiences.len() > 1 => return refuse(Claim::AuthorizedParty),
        _ => {}
    }
    let Some(exp) = seconds(claims, "exp") else {
        return refuse(Claim::Expired);
    };
    if exp.saturating_add(LEEWAY_S) <= expected.now_s {
        return refuse(Claim::Expired);
    }
    match seconds(claims, "iat") {
        Some(iat) if iat <= expected.now_s.saturating_add(LEEWAY_S) => {}
        _ => return refuse(Claim::IssuedInFuture),
    }
    let nonce_ok = match (expected.nonce, claims.text("nonce")) {
        (Nonce::Exactly(wanted) | Nonce::IfPresent(wanted), Some(nonce)) => nonce == wanted,
        (Nonce::IfPresent(_), None) => !claims.has("nonce"),
        (Nonce::Exactly(_), None) => false,
    };
    if !nonce_ok {
        return refuse(Claim::Nonce);
    }
    let sub = claims
        .text("sub")
        .filter(|s| !s.is_empty() && s.len() <= 255);
    let Some(sub) = sub else {
        return refuse(Claim::Subject);
    };
    if expected.subject.is_some_and(|wanted| wanted != sub) {
        return refuse(Claim::Subject);
    }
    Ok(Identity {
        sub,
        nonce: claims.text("nonce"),
        preferred_username: claims.text("preferred_username"),
        exp,
    })
}
