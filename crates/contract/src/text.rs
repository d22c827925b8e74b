//! Case mapping and decimal parsing, through the browser in the console's wasm.
//!
//! `str::to_lowercase`, `str::to_uppercase` and `str::parse::<f64>` are small calls with large
//! tables behind them: the Unicode case tables (11.7 KB and 12.4 KB) and the float parser with
//! its table of powers of five (11 KB), about 15 KB brotli together in the modules the household
//! page needs (issue 24). The browser has both already: in wasm these go through JavaScript's
//! `String.prototype.toLowerCase`/`toUpperCase` (the same Unicode default full case mapping,
//! final sigma included) and `parseFloat` (correctly rounded, as Rust's parser is); natively
//! (larder-server, tests) through std, so the server's behaviour does not change.

/// `text` in lower case (Unicode's full mapping, as `str::to_lowercase`).
pub fn lowercase(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        if text.is_ascii() {
            return text.to_ascii_lowercase();
        }
        String::from(js_sys::JsString::from(text).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_lowercase()
    }
}

/// `text` in upper case (Unicode's full mapping, as `str::to_uppercase`).
pub fn uppercase(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        if text.is_ascii() {
            return text.to_ascii_uppercase();
        }
        String::from(js_sys::JsString::from(text).to_upper_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_uppercase()
    }
}

/// `text` with its first letter in capitals ("article" → "Article").
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => {
            let mut out = uppercase(first.encode_utf8(&mut [0; 4]));
            out.push_str(chars.as_str());
            out
        }
        None => String::new(),
    }
}

/// `text` as a number: exactly what `str::parse::<f64>` accepts, with the same value.
pub fn parse_f64(text: &str) -> Option<f64> {
    #[cfg(target_arch = "wasm32")]
    {
        match decimal_form(text)? {
            Form::Infinite { negative: false } => Some(f64::INFINITY),
            Form::Infinite { negative: true } => Some(f64::NEG_INFINITY),
            Form::NotANumber => Some(f64::NAN),
            // A literal that passed the grammar is read whole by parseFloat, rounded correctly.
            Form::Finite => Some(js_sys::parse_float(text)),
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.parse().ok()
    }
}

/// What kind of number a text that `str::parse::<f64>` accepts is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Digits, an optional point and an optional exponent.
    Finite,
    /// `inf` or `infinity` (any case), with its sign.
    Infinite { negative: bool },
    /// `nan` (any case).
    NotANumber,
}

/// Whether `text` is in Rust's float grammar (`core::num::dec2flt`), and what it is:
/// `[+-]? (inf | infinity | nan | Number)`, the words in any case, where
/// `Number = (Digit+ | Digit+ '.' Digit* | Digit* '.' Digit+) ([eE] [+-]? Digit+)?`.
/// No spaces, no underscores. Hand-written: a dozen lines, and the point is not to link a parser.
pub fn decimal_form(text: &str) -> Option<Form> {
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Some(Form::Infinite { negative });
    }
    if body.eq_ignore_ascii_case("nan") {
        return Some(Form::NotANumber);
    }
    let bytes = body.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut at = whole;
    let mut fraction = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction = digits(at + 1);
        at += 1 + fraction;
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return None;
        }
        at += exponent;
    }
    (at == bytes.len()).then_some(Form::Finite)
}

/// Texts at the float grammar's edges, values that round hard, and ones people type: what the
/// native tests here and the browser's (`tests/text_web.rs` in the console) read both ways.
#[doc(hidden)]
pub const NUMBER_SAMPLES: &[&str] = &[
    "",
    " ",
    "1",
    "-1",
    "+1",
    "1.",
    ".5",
    "-.5",
    "+.5e3",
    ".",
    "-.",
    "+",
    "-",
    "1e",
    "1e+",
    "1e-",
    "1e5",
    "1E5",
    "1e+5",
    "1e-5",
    "1.5e10",
    "1.e3",
    ".e3",
    "e3",
    "1 ",
    " 1",
    "1_000",
    "1,5",
    "0x10",
    "inf",
    "-inf",
    "+Inf",
    "INFINITY",
    "-Infinity",
    "infinit",
    "infinityy",
    "nan",
    "NaN",
    "-nan",
    "+NAN",
    "nana",
    "00012",
    "1.2.3",
    "1e5.5",
    "--1",
    "+-1",
    "1e--5",
    "12abc",
    "١٢",
    "1e400",
    "-1e400",
    "1e-400",
    "0.1",
    "3.14159265358979323846264338327950288",
    "9007199254740993",
    "2.2250738585072011e-308",
    "-0",
    "-0.0",
    "1ee5",
    "1e5e5",
    "१",
    "Infinity1",
    "4.9e-324",
    "2.4703282292062327e-324",
    "179769313486231580793728971405301e276",
    "0.30000000000000004",
    "123456789012345678901234567890",
    "7.038531e-26",
    "92.5",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_accepts_exactly_what_rust_parses() {
        for text in NUMBER_SAMPLES {
            assert_eq!(
                decimal_form(text).is_some(),
                text.parse::<f64>().is_ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_grammar_sorts_the_special_values() {
        assert_eq!(
            decimal_form("-INF"),
            Some(Form::Infinite { negative: true })
        );
        assert_eq!(
            decimal_form("+infinity"),
            Some(Form::Infinite { negative: false })
        );
        assert_eq!(decimal_form("-NaN"), Some(Form::NotANumber));
        assert_eq!(decimal_form("-1.5e-3"), Some(Form::Finite));
        assert_eq!(decimal_form("1.5 e3"), None);
    }

    #[test]
    fn every_short_text_of_the_grammar_s_characters_agrees_with_rust() {
        // All texts of up to four characters over the characters that matter.
        let alphabet: Vec<char> = "01.eE+-ni ".chars().collect();
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            for text in &longer {
                assert_eq!(
                    decimal_form(text).is_some(),
                    text.parse::<f64>().is_ok(),
                    "{text:?}"
                );
            }
            texts = longer;
        }
    }

    #[test]
    fn case_mapping_and_capitals_follow_unicode() {
        assert_eq!(lowercase("ΟΔΥΣΣΕΥΣ"), "οδυσσευς");
        assert_eq!(uppercase("straße"), "STRASSE");
        assert_eq!(lowercase("Élelmiszer"), "élelmiszer");
        assert_eq!(capitalized("article"), "Article");
        assert_eq!(capitalized("ßa"), "SSa");
        assert_eq!(capitalized("ένα"), "Ένα");
        assert_eq!(capitalized(""), "");
    }

    #[test]
    fn numbers_read_as_rust_reads_them() {
        for text in NUMBER_SAMPLES {
            let ours = parse_f64(text);
            let rust = text.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), rust.map(f64::to_bits), "{text:?}");
        }
    }
}
