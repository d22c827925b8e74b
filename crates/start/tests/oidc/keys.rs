//! Signing keys made in the test, their public JWKs, and tokens signed with them.

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
        self.sign_with_header(claims, &json!({}))
    }

    /// `claims` signed with this key under a header of its algorithm and `kid` with `extra`'s
    /// members over them (`{"kid": "other"}`).
    pub fn sign_with_header(&self, claims: &Value, extra: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid().to_string());
        let signed = jsonwebtoken::encode(&header, claims, &self.encoding).unwrap();
        if extra.as_object().is_none_or(|o| o.is_empty()) {
            return signed;
        }
        // A header changed after signing: the signature is the one of the original header.
        let mut header_json: Value =
            serde_json::from_slice(&B64.decode(signed.split('.').next().unwrap()).unwrap())
                .unwrap();
        for (key, value) in extra.as_object().unwrap() {
            header_json[key] = value.clone();
        }
        let rest = signed.split_once('.').unwrap().1;
        format!("{}.{rest}", B64.encode(header_json.to_string()))
    }
}

/// A JWT with the header and claims given and no signature at all (`alg: none`).
pub fn unsigned(header: &Value, claims: &Value) -> String {
    format!(
        "{}.{}.",
        B64.encode(header.to_string()),
        B64.encode(claims.to_string())
    )
}
