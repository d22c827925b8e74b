//! JSON string literals for the sign-in request's body.
//!
//! Written by hand because the start-up module carries no JSON library (serde_json alone is
//! about 25 KB of the console's module); `tests` below hold it to serde_json on any string.

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 0xf] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::string;
    use proptest::prelude::*;

    #[test]
    fn quotes_backslashes_and_control_characters() {
        assert_eq!(string("a\"b\\c\u{1}\n"), r#""a\"b\\c\u0001\n""#);
        assert_eq!(string("Σύνδεση"), "\"Σύνδεση\"");
    }

    proptest! {
        // serde_json is the oracle: it reads back exactly the string that was written.
        #[test]
        fn serde_json_reads_back_any_string(text in any::<String>()) {
            let literal = string(&text);
            prop_assert_eq!(serde_json::from_str::<String>(&literal).unwrap(), text);
        }
    }
}
