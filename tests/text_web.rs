//! `larder_contract::text` in real headless Chromium: the browser's case mapping and
//! `parseFloat` give what std gives (the native tests only reach std's side).
#![cfg(target_arch = "wasm32")]

use larder_contract::text::{capitalized, lowercase, parse_f64, uppercase};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Texts at the float grammar's edges, values that round hard, and ones people type.
const NUMBERS: &[&str] = &[
    "",
    "1",
    "-1",
    "+1",
    "1.",
    ".5",
    "-.5",
    "+.5e3",
    ".",
    "1e",
    "1e5",
    "1E-5",
    "1.e3",
    "1 ",
    " 1",
    "1_000",
    "1,5",
    "0x10",
    "inf",
    "-Infinity",
    "NaN",
    "-nan",
    "Infinity1",
    "1e400",
    "-1e400",
    "1e-400",
    "0.1",
    "3.14159265358979323846264338327950288",
    "9007199254740993",
    "2.2250738585072011e-308",
    "4.9e-324",
    "2.4703282292062327e-324",
    "179769313486231580793728971405301e276",
    "-0",
    "0.30000000000000004",
    "123456789012345678901234567890",
    "7.038531e-26",
    "92.5",
];

#[wasm_bindgen_test]
fn numbers_read_through_the_browser_as_rust_reads_them() {
    for text in NUMBERS {
        let rust = text.parse::<f64>().ok();
        let ours = parse_f64(text);
        match (ours, rust) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
            (a, b) => assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{text:?}"),
        }
    }
}

#[wasm_bindgen_test]
fn case_mapping_through_the_browser_is_unicode_s() {
    for text in [
        "ΟΔΥΣΣΕΥΣ",
        "Σ",
        "ΑΣ ΒΣ",
        "straße",
        "Élelmiszer",
        "ŐRZÖTT",
        "Čebula",
        "İstanbul",
        "ǅungla",
        "ﬁsh",
        "plain ascii",
        "",
    ] {
        assert_eq!(lowercase(text), text.to_lowercase(), "{text:?}");
        assert_eq!(uppercase(text), text.to_uppercase(), "{text:?}");
    }
    assert_eq!(capitalized("ένα"), "Ένα");
    assert_eq!(capitalized("ßa"), "SSa");
}
