//! The ID token, signed by keys made here: the whole check as a module runs it (split, choose
//! the key, verify the signature, the claims), with `jsonwebtoken` standing in for WebCrypto.

use std::sync::OnceLock;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header};
use larder_start::oidc::id_token::{
    check_claims, choose_key, key_algorithm, split, Alg, Expected, Identity, Nonce,
};
use larder_start::oidc::{base64url, Claim, Failure, Fields};
use serde_json::{json, Value};

use crate::flow::ISSUER;
use crate::keys::{unsigned, Key};
use crate::Json;

const CLIENT: &str = "larder-console";
const NOW: u64 = 1_800_000_000;
const NONCE: &str = "n-0S6_WzA2Mj";

struct Provider {
    rsa: Key,
    ec: Key,
    /// Published under the RSA key's kid, never by the provider: a forged signature.
    foreign: Key,
    /// The provider's JWKS, Keycloak-like: its encryption key first, then the signing keys.
    jwks: Value,
}

fn provider() -> &'static Provider {
    static PROVIDER: OnceLock<Provider> = OnceLock::new();
    PROVIDER.get_or_init(|| {
        let (rsa, ec, foreign) = (Key::rsa("rs-1"), Key::ec("es-1"), Key::rsa("rs-1"));
        let mut encryption = rsa.jwk.clone();
        encryption["use"] = json!("enc");
        encryption["alg"] = json!("RSA-OAEP");
        encryption["kid"] = json!("enc-1");
        let jwks = json!({"keys": [encryption, rsa.jwk, ec.jwk]});
        Provider {
            rsa,
            ec,
            foreign,
            jwks,
        }
    })
}

fn claims() -> Value {
    json!({
        "iss": ISSUER, "aud": CLIENT, "azp": CLIENT, "sub": "f:1b2e:olivia",
        "exp": NOW + 300, "iat": NOW, "auth_time": NOW, "nonce": NONCE,
        "preferred_username": "olivia", "typ": "ID",
    })
}

fn expected() -> Expected<'static> {
    Expected {
        issuer: ISSUER,
        client_id: CLIENT,
        nonce: Nonce::Exactly(NONCE),
        subject: None,
        now_s: NOW,
    }
}

/// The check a module runs on an ID token: the signature by the chosen key (WebCrypto's part,
/// `jsonwebtoken` here), then the claims.
fn verify(token: &str, expected: &Expected<'_>) -> Result<Identity, Failure> {
    let jwt = split(token)?;
    let header = Json(serde_json::from_slice(&jwt.header).map_err(|_| Failure::Malformed("h"))?);
    let keys = Json(provider().jwks.clone()).objects("keys").unwrap();
    let (index, alg) = choose_key(&header, &keys)?;
    let jwk: jsonwebtoken::jwk::Jwk = serde_json::from_value(keys[index].0.clone()).unwrap();
    let algorithm = match alg {
        Alg::Rs256 => Algorithm::RS256,
        Alg::Es256 => Algorithm::ES256,
    };
    let verified = jsonwebtoken::crypto::verify(
        &base64url::encode(&jwt.signature),
        jwt.signing_input.as_bytes(),
        &DecodingKey::from_jwk(&jwk).unwrap(),
        algorithm,
    )
    .unwrap_or(false);
    if !verified {
        return Err(Failure::IdToken(Claim::Signature));
    }
    let claims = Json(serde_json::from_slice(&jwt.payload).map_err(|_| Failure::Malformed("c"))?);
    check_claims(&claims, expected)
}

fn refused(token: &str) -> Claim {
    match verify(token, &expected()) {
        Err(Failure::IdToken(claim)) => claim,
        other => panic!("not refused for a claim: {other:?}"),
    }
}

#[test]
fn a_good_token_by_either_key_says_who_signed_in() {
    for key in [&provider().rsa, &provider().ec] {
        let identity = verify(&key.sign(&claims()), &expected()).unwrap();
        assert_eq!(identity.sub, "f:1b2e:olivia");
        assert_eq!(identity.preferred_username.as_deref(), Some("olivia"));
        assert_eq!(identity.nonce.as_deref(), Some(NONCE));
        assert_eq!(identity.exp, NOW + 300);
    }
    let token = provider().ec.sign(&claims());
    let jwt = split(&token).unwrap();
    assert_eq!(
        jwt.signature.len(),
        64,
        "ES256 is r‖s, as WebCrypto takes it"
    );
}

#[test]
fn a_changed_byte_or_a_foreign_key_breaks_the_signature() {
    let token = provider().rsa.sign(&claims());
    let (head, signature) = token.rsplit_once('.').unwrap();
    let mut bytes = base64url::decode(signature).unwrap();
    bytes[10] ^= 1;
    let flipped = format!("{head}.{}", base64url::encode(&bytes));
    assert_eq!(refused(&flipped), Claim::Signature);
    // The claims changed after signing (an admin's name put in).
    let mut changed = claims();
    changed["sub"] = json!("f:admin");
    let payload = base64url::encode(changed.to_string().as_bytes());
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(
        refused(&format!("{}.{payload}.{}", parts[0], parts[2])),
        Claim::Signature
    );
    assert_eq!(
        refused(&provider().foreign.sign(&claims())),
        Claim::Signature
    );
    assert_eq!(
        refused(
            &provider()
                .ec
                .sign_with_header(&claims(), &json!({"kid": "rs-1"}))
        ),
        Claim::UnknownKey
    );
}

#[test]
fn only_rs256_and_es256_by_a_published_key_of_that_algorithm() {
    // alg none, with and without a signature part.
    for header in [
        json!({"alg": "none"}),
        json!({"alg": "none", "kid": "rs-1"}),
    ] {
        assert_eq!(refused(&unsigned(&header, &claims())), Claim::Algorithm);
    }
    // HS256 with the RSA key's public modulus as the secret (the classic confusion).
    let modulus = provider().rsa.jwk["n"].as_str().unwrap().to_string();
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("rs-1".into());
    let hs = jsonwebtoken::encode(
        &header,
        &claims(),
        &EncodingKey::from_secret(modulus.as_bytes()),
    )
    .unwrap();
    assert_eq!(refused(&hs), Claim::Algorithm);
    // An ES256 header on the RSA key's kid, and the other way round.
    let rsa = &provider().rsa;
    assert_eq!(
        refused(&rsa.sign_with_header(&claims(), &json!({"alg": "ES256"}))),
        Claim::UnknownKey
    );
    let ec = &provider().ec;
    assert_eq!(
        refused(&ec.sign_with_header(&claims(), &json!({"alg": "RS256"}))),
        Claim::UnknownKey
    );
    for alg in ["RS384", "PS256", "ES384", "EdDSA", ""] {
        assert_eq!(
            refused(&rsa.sign_with_header(&claims(), &json!({"alg": alg}))),
            Claim::Algorithm,
            "{alg}"
        );
    }
    // An unknown kid; the encryption key's kid.
    assert_eq!(
        refused(&rsa.sign_with_header(&claims(), &json!({"kid": "rs-2"}))),
        Claim::UnknownKey
    );
    assert_eq!(
        refused(&rsa.sign_with_header(&claims(), &json!({"kid": "enc-1"}))),
        Claim::UnknownKey
    );
    assert_eq!(
        refused(&rsa.sign_with_header(&claims(), &json!({"kid": 7}))),
        Claim::UnknownKey
    );
    // No kid: the only key of the algorithm.
    let mut header = Header::new(Algorithm::ES256);
    header.kid = None;
    let no_kid = jsonwebtoken::encode(&header, &claims(), &ec.encoding).unwrap();
    assert!(verify(&no_kid, &expected()).is_ok());
}

#[test]
fn keys_sign_with_their_own_algorithm() {
    let key = |jwk: Value| key_algorithm(&Json(jwk));
    assert_eq!(key(json!({"kty": "RSA"})), Some(Alg::Rs256));
    assert_eq!(
        key(json!({"kty": "RSA", "use": "sig", "alg": "RS256"})),
        Some(Alg::Rs256)
    );
    assert_eq!(key(json!({"kty": "EC", "crv": "P-256"})), Some(Alg::Es256));
    assert_eq!(key(json!({"kty": "RSA", "use": "enc"})), None);
    assert_eq!(key(json!({"kty": "RSA", "alg": "RSA-OAEP"})), None);
    assert_eq!(key(json!({"kty": "RSA", "alg": "RS512"})), None);
    assert_eq!(key(json!({"kty": "RSA", "alg": null})), None);
    assert_eq!(key(json!({"kty": "EC", "crv": "P-384"})), None);
    assert_eq!(key(json!({"kty": "oct", "k": "c2VjcmV0"})), None);
    assert_eq!(key(json!({"kty": "OKP", "crv": "Ed25519"})), None);
    // Two RSA keys and a token without a kid: which one is not for the core to guess.
    let keys = [
        Json(json!({"kty": "RSA", "kid": "a"})),
        Json(json!({"kty": "RSA", "kid": "b"})),
    ];
    let header = Json(json!({"alg": "RS256"}));
    assert_eq!(
        choose_key(&header, &keys),
        Err(Failure::IdToken(Claim::UnknownKey))
    );
    let header = Json(json!({"alg": "RS256", "kid": "b"}));
    assert_eq!(choose_key(&header, &keys), Ok((1, Alg::Rs256)));
}

#[test]
fn each_claim_broken_in_turn_is_named() {
    let signed = |change: &dyn Fn(&mut Value)| {
        let mut claims = claims();
        change(&mut claims);
        provider().rsa.sign(&claims)
    };
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Change, Claim)> = vec![
        (
            "another issuer",
            Box::new(|c| c["iss"] = json!("https://evil.example/realms/master")),
            Claim::Issuer,
        ),
        (
            "the issuer with a slash",
            Box::new(|c| c["iss"] = json!(format!("{ISSUER}/"))),
            Claim::Issuer,
        ),
        (
            "no issuer",
            Box::new(|c| c["iss"] = json!(null)),
            Claim::Issuer,
        ),
        (
            "another audience",
            Box::new(|c| c["aud"] = json!("account")),
            Claim::Audience,
        ),
        (
            "audiences without us",
            Box::new(|c| c["aud"] = json!(["account", "master-realm"])),
            Claim::Audience,
        ),
        (
            "no audience",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("aud");
            }),
            Claim::Audience,
        ),
        (
            "a number as audience",
            Box::new(|c| c["aud"] = json!(1)),
            Claim::Audience,
        ),
        (
            "another authorized party",
            Box::new(|c| c["azp"] = json!("other")),
            Claim::AuthorizedParty,
        ),
        (
            "several audiences without azp",
            Box::new(|c| {
                c["aud"] = json!([CLIENT, "account"]);
                c.as_object_mut().unwrap().remove("azp");
            }),
            Claim::AuthorizedParty,
        ),
        (
            "expired",
            Box::new(|c| c["exp"] = json!(NOW - 61)),
            Claim::Expired,
        ),
        (
            "no expiry",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("exp");
            }),
            Claim::Expired,
        ),
        (
            "an expiry as text",
            Box::new(|c| c["exp"] = json!("1900000000")),
            Claim::Expired,
        ),
        (
            "issued in the future",
            Box::new(|c| c["iat"] = json!(NOW + 61)),
            Claim::IssuedInFuture,
        ),
        (
            "never issued",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("iat");
            }),
            Claim::IssuedInFuture,
        ),
        (
            "another nonce",
            Box::new(|c| c["nonce"] = json!("n-other")),
            Claim::Nonce,
        ),
        (
            "no nonce",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("nonce");
            }),
            Claim::Nonce,
        ),
        (
            "no subject",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("sub");
            }),
            Claim::Subject,
        ),
        (
            "an empty subject",
            Box::new(|c| c["sub"] = json!("")),
            Claim::Subject,
        ),
    ];
    for (what, change, claim) in cases {
        assert_eq!(refused(&signed(&*change)), claim, "{what}");
    }
    // Within the leeway (the provider's clock a little off) the token holds.
    let skewed = signed(&|c: &mut Value| {
        c["exp"] = json!(NOW - 59);
        c["iat"] = json!(NOW + 59);
    });
    assert!(verify(&skewed, &expected()).is_ok());
    // Several audiences with azp: taken.
    let several = signed(&|c: &mut Value| c["aud"] = json!(["account", CLIENT]));
    assert!(verify(&several, &expected()).is_ok());
}

#[test]
fn a_renewed_token_keeps_the_person_and_its_nonce_if_any() {
    let renewal = Expected {
        nonce: Nonce::IfPresent(NONCE),
        subject: Some("f:1b2e:olivia"),
        ..expected()
    };
    assert!(verify(&provider().rsa.sign(&claims()), &renewal).is_ok());
    let mut without = claims();
    without.as_object_mut().unwrap().remove("nonce");
    assert!(verify(&provider().rsa.sign(&without), &renewal).is_ok());
    let mut other = claims();
    other["nonce"] = json!("n-other");
    assert_eq!(
        verify(&provider().rsa.sign(&other), &renewal),
        Err(Failure::IdToken(Claim::Nonce))
    );
    let mut someone = claims();
    someone["sub"] = json!("f:admin");
    assert_eq!(
        verify(&provider().rsa.sign(&someone), &renewal),
        Err(Failure::IdToken(Claim::Subject))
    );
}

#[test]
fn what_is_not_a_jwt_is_refused_unread() {
    for token in ["", "a.b", "a.b.c.d", "%%.e30.", "e30.%%.", "e30.e30.%%"] {
        assert!(
            matches!(split(token), Err(Failure::Malformed(_))),
            "{token}"
        );
    }
    let huge = format!("e30.{}.", "a".repeat(16 << 10));
    assert_eq!(split(&huge), Err(Failure::TooLarge));
    let token = provider().ec.sign(&claims());
    let jwt = split(&token).unwrap();
    assert_eq!(jwt.signing_input, token.rsplit_once('.').unwrap().0);
}
