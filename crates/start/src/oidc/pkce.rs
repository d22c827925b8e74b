//! PKCE (RFC 7636) with S256: the verifier stays in the tab (and the carrier), only its SHA-256
//! travels in the authorization URL, and the code is worth nothing without the verifier.

use super::base64url;

/// The code verifier of 32 random bytes: 43 base64url characters (RFC 7636 §4.1 asks 43 to
/// 128 of the unreserved characters, and 256 bits of entropy).
pub fn verifier(random: &[u8; 32]) -> String {
    base64url::encode(random)
}

/// The `code_challenge` for the SHA-256 `digest` of the verifier's ASCII (WebCrypto's
/// `crypto.subtle.digest('SHA-256', verifier)` in the browser).
pub fn challenge(digest: &[u8; 32]) -> String {
    base64url::encode(digest)
}

/// Whether `text` can be a verifier this core made: 43 base64url characters.
pub fn is_verifier(text: &str) -> bool {
    text.len() == 43 && base64url::decode(text).is_some()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// RFC 7636 Appendix B: these 32 octets, their verifier, and its S256 challenge.
    #[test]
    fn rfc_7636_appendix_b() {
        let octets: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let verifier = verifier(&octets);
        assert_eq!(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert!(is_verifier(&verifier));
        let digest: [u8; 32] = Sha256::digest(verifier.as_bytes()).into();
        assert_eq!(
            challenge(&digest),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn only_43_base64url_characters_are_a_verifier() {
        assert!(!is_verifier(""));
        assert!(!is_verifier(&"a".repeat(44)));
        assert!(!is_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjX+"));
    }
}
