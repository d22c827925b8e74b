//! Base64url without padding (RFC 4648 §5), the alphabet of JWTs, PKCE and the random values.
//!
//! Written by hand because the start-up module carries no encoding crates; the tests hold it to
//! the `base64` crate (the server's) on any bytes, including its refusal of every text that
//! crate refuses.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in base64url, without padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let sextets = chunk.len() + 1;
        for i in 0..sextets {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// The bytes of a base64url text without padding; `None` for any other character, a length no
/// encoding has, or bits left over that are not zero (a second spelling of the same bytes).
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= value(*c)? << (18 - 6 * i);
        }
        let bytes = chunk.len() - 1;
        // The bits below the last whole byte must be zero.
        if n & ((1 << (24 - 8 * bytes)) - 1) != 0 {
            return None;
        }
        for i in 0..bytes {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    use proptest::prelude::*;

    #[test]
    fn rfc_4648_vectors() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg"),
            (b"fo", "Zm8"),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg"),
            (b"fooba", "Zm9vYmE"),
            (b"foobar", "Zm9vYmFy"),
            (&[0xfb, 0xff], "-_8"),
        ] {
            assert_eq!(encode(bytes), text);
            assert_eq!(decode(text).as_deref(), Some(bytes));
        }
        for wrong in ["Z", "Zg==", "Zh", "Zm9v+", "Zm9/", "a b", "Zm8=", "é"] {
            assert_eq!(decode(wrong), None, "{wrong}");
        }
    }

    proptest! {
        #[test]
        fn the_base64_crate_agrees_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let ours = encode(&bytes);
            prop_assert_eq!(&ours, &URL_SAFE_NO_PAD.encode(&bytes));
            prop_assert_eq!(decode(&ours), Some(bytes));
        }

        #[test]
        fn the_base64_crate_agrees_on_any_text(text in "[A-Za-z0-9_=+/ -]{0,12}") {
            prop_assert_eq!(decode(&text), URL_SAFE_NO_PAD.decode(&text).ok(), "{}", text);
        }
    }
}
