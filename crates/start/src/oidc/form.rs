//! `application/x-www-form-urlencoded`: the query of the authorization URL, the token requests'
//! bodies, the provider's answer in the fragment, and the pending values' text.

/// Percent-encodes everything but RFC 3986's unreserved characters, as the API client's
/// `encode_component` does (held equal by the tests).
pub fn encode(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => {
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 15)] as char);
            }
        }
    }
    out
}

/// `key=value` pairs joined with `&`, each encoded.
pub fn encode_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    for (key, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&encode(key));
        out.push('=');
        out.push_str(&encode(value));
    }
    out
}

/// Decodes one component as `URLSearchParams` does: `+` is a space, `%XX` a byte, a `%` not
/// followed by two hex digits stays as it is; `None` when the bytes are not UTF-8.
pub fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The pairs of a query or fragment (a leading `?` or `#` is skipped), in order; `None` when a
/// component is not UTF-8 once decoded.
pub fn pairs(text: &str) -> Option<Vec<(String, String)>> {
    let text = text.strip_prefix(['?', '#']).unwrap_or(text);
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(key)?, decode(value)?))
        })
        .collect()
}

/// The value of the first pair named `key`.
pub fn value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pairs_decode_as_url_search_params_does() {
        assert_eq!(
            pairs("#code=a%2Bb&state=x+y&iss=http%3A%2F%2Flocalhost%3A1&flag&=v&%zz=100%").unwrap(),
            [
                ("code".to_string(), "a+b".to_string()),
                ("state".into(), "x y".into()),
                ("iss".into(), "http://localhost:1".into()),
                ("flag".into(), "".into()),
                ("".into(), "v".into()),
                ("%zz".into(), "100%".into()),
            ]
        );
        assert_eq!(pairs("?a=%C3%A9").unwrap(), [("a".into(), "é".into())]);
        assert_eq!(pairs("a=%FF"), None, "not UTF-8");
        assert_eq!(pairs("").unwrap(), []);
    }

    proptest! {
        // The API client's encoder is the oracle for encoding; decoding reads back any text.
        #[test]
        fn the_clients_encoding_and_back(text in any::<String>()) {
            let ours = encode(&text);
            prop_assert_eq!(&ours, &larder_api::config::encode_component(&text));
            prop_assert_eq!(decode(&ours), Some(text.clone()));
            let pair = encode_pairs([("k", text.as_str())]);
            let read = pairs(&pair).unwrap();
            prop_assert_eq!(value(&read, "k"), Some(text.as_str()));
        }
    }
}
