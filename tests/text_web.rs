//! `larder_contract::text` in real headless Chromium: the browser's case mapping and
//! `parseFloat` give what std gives (the native tests only reach std's side).
#![cfg(target_arch = "wasm32")]

use larder_contract::text::{capitalized, lowercase, parse_f64, uppercase, NUMBER_SAMPLES};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn numbers_read_through_the_browser_as_rust_reads_them() {
    for text in NUMBER_SAMPLES {
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
