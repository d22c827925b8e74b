//! Paths and URLs the console builds or accepts: where sign-in returns to, which `next` it
//! follows, which image addresses it shows. Pure: tested natively.

use larder_api::config::encode_component;
use larder_api::records::path_segment;

/// The sign-in page for a page opened without a session, told to come back to it (path and
/// query, inside the console's `base`): a deep link opened in a new tab lands there after
/// signing in.
pub fn sign_in_path(pathname: &str, search: &str, base: &str) -> String {
    let inside = pathname.strip_prefix(base).unwrap_or(pathname);
    if inside.is_empty() || inside == "/" || inside.starts_with("/sign-in") {
        return "/sign-in".into();
    }
    format!(
        "/sign-in?next={}",
        encode_component(&format!("{inside}{search}"))
    )
}

/// The `next` a sign-in follows: only a path of this console, never another origin (`//host`,
/// `/\host`, which browsers read as `//host`) or a scheme.
pub fn safe_next(next: Option<String>) -> Option<String> {
    next.filter(|n| n.starts_with('/') && !n.starts_with("//") && !n.contains('\\'))
}

/// The detail page of a record of the collection at `path` (inside the console's base).
pub fn record_href(path: &str, identifier: &str) -> String {
    format!("/records/{path}/{}", path_segment(identifier))
}

/// Whether an image address may be shown: only http(s), never `javascript:` or `data:`.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_link_comes_back_with_its_query() {
        assert_eq!(
            sign_in_path("/console/households", "?offset=20&limit=10", "/console"),
            "/sign-in?next=%2Fhouseholds%3Foffset%3D20%26limit%3D10"
        );
        assert_eq!(
            sign_in_path("/records/articles/urn%3Aarticle%3Ax", "", ""),
            "/sign-in?next=%2Frecords%2Farticles%2Furn%253Aarticle%253Ax"
        );
        for start in ["/console", "/console/", "/console/sign-in"] {
            assert_eq!(sign_in_path(start, "?next=%2Fx", "/console"), "/sign-in");
        }
    }

    #[test]
    fn next_stays_inside_the_console() {
        assert_eq!(
            safe_next(Some("/households?offset=20".into())).as_deref(),
            Some("/households?offset=20")
        );
        for outside in [
            "//evil.example",
            "/\\evil.example",
            "https://evil.example",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(safe_next(Some(outside.into())), None, "{outside}");
        }
        assert_eq!(safe_next(None), None);
    }

    #[test]
    fn a_record_page_keeps_its_urn_readable() {
        assert_eq!(
            record_href("guides", "urn:guide:eat well"),
            "/records/guides/urn:guide:eat%20well"
        );
    }

    #[test]
    fn only_web_images() {
        assert!(is_web_url("https://img.example/a.png"));
        assert!(is_web_url("HTTP://img.example/a.png"));
        for bad in [
            "javascript:alert(1)",
            "data:image/png;base64,AA",
            "/local.png",
            "ftp://x",
        ] {
            assert!(!is_web_url(bad), "{bad}");
        }
    }
}
