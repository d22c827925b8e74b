//! config.json's rules, for both modules: the start-up module checks the file as the console
//! does (`src/config.rs`, which says what is wrong) and takes the form only with a file the
//! console takes too; it uses the system API's base and the timeout for the sign-in it sends.

/// The keys config.json may hold; any other makes the file wrong.
pub const KEYS: [&str; 9] = [
    "data_api_base",
    "system_api_base",
    "timeout_seconds",
    "default_language",
    "languages",
    "picture_hosts",
    // The privacy notice's version the account page asks people to accept.
    "consent_version",
    // The identity provider (`crate::oidc::config`): `{issuer, client_id, scopes?}`.
    "oidc",
    // Where a share link is read ([`share_page`]).
    "share_page",
];

/// What stands for a link's token in `share_page`.
pub const TOKEN_PLACEHOLDER: &str = "{token}";

/// `share_page` as config.json gives it: the address of the page that shows a shared plan to
/// anyone, with [`TOKEN_PLACEHOLDER`] once where the link's token goes (production's own front
/// end reads links at `<its address>/shared/{token}`); trimmed, absolute http(s); `None`
/// otherwise.
pub fn share_page(value: &str) -> Option<String> {
    let url = base_url(value)?;
    (occurrences(&url, TOKEN_PLACEHOLDER) == 1).then_some(url)
}

/// How many times `needle` (not empty) stands in `text`, overlapping ones too. By hand:
/// `str::matches` brings core's two-way string search into the start-up module, 9.3 KB of wasm
/// (4.5 KB brotli before "Sign in" works, measured) for this one check.
fn occurrences(text: &str, needle: &str) -> usize {
    text.as_bytes()
        .windows(needle.len())
        .filter(|window| *window == needle.as_bytes())
        .count()
}

/// A base URL as config.json gives it: trimmed, and absolute http(s); `None` otherwise.
pub fn base_url(value: &str) -> Option<String> {
    let url = value.trim();
    (url.starts_with("https://") || url.starts_with("http://")).then(|| url.to_string())
}

/// `timeout_seconds` in milliseconds: more than 0 and at most 600 s; `None` otherwise.
pub fn timeout_ms(seconds: f64) -> Option<u32> {
    (seconds.is_finite() && seconds > 0.0 && seconds <= 600.0).then_some((seconds * 1000.0) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_http_urls_only() {
        assert_eq!(
            base_url(" https://api.example.org/ ").as_deref(),
            Some("https://api.example.org/")
        );
        assert_eq!(
            base_url("http://127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        for wrong in [
            "",
            "api.example.org",
            "/api",
            "ftp://x",
            "javascript:alert(1)",
        ] {
            assert_eq!(base_url(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn a_share_page_is_an_address_with_one_place_for_the_token() {
        assert_eq!(
            share_page(" https://app.example.org/shared/{token} ").as_deref(),
            Some("https://app.example.org/shared/{token}")
        );
        assert!(share_page("https://app.example.org/s?t={token}&from=larder").is_some());
        assert_eq!(occurrences("{token}{token}", TOKEN_PLACEHOLDER), 2);
        assert_eq!(occurrences("{toke", TOKEN_PLACEHOLDER), 0);
        for wrong in [
            "https://app.example.org/shared/",
            "https://app.example.org/{token}/{token}",
            "/shared/{token}",
            "javascript:alert('{token}')",
        ] {
            assert_eq!(share_page(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn timeouts_between_nothing_and_ten_minutes() {
        assert_eq!(timeout_ms(30.0), Some(30_000));
        assert_eq!(timeout_ms(600.0), Some(600_000));
        assert_eq!(timeout_ms(0.5), Some(500));
        for wrong in [0.0, -1.0, 600.5, f64::NAN, f64::INFINITY] {
            assert_eq!(timeout_ms(wrong), None, "{wrong}");
        }
    }
}
