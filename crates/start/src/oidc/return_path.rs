//! Where a sign-in returns to: only a page of this console. A return path comes from the page
//! (the link that was opened, `/sign-in?next=`) and travels through the carrier; a crafted one
//! (`//evil.example`, `/\evil.example`, which browsers read as another host, a scheme, `..`
//! climbing out of the console's sub-path) is never followed.

use super::form;

/// The longest return path kept.
const MAX_PATH: usize = 2048;

/// `path` when it is a path inside the console (relative to its base, with its query and
/// fragment): starting with one `/`, no `\`, no control or space characters, no `.` or `..`
/// segment however encoded, at most 2 KB. `None` otherwise.
pub fn inside(path: &str) -> Option<&str> {
    if path.len() > MAX_PATH
        || !path.starts_with('/')
        || path.starts_with("//")
        || !path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
    {
        return None;
    }
    let route = path.split(['?', '#']).next().unwrap_or_default();
    let climbs = route.split('/').any(|segment| {
        let decoded = form::decode(segment).unwrap_or_default();
        decoded == "." || decoded == ".." || decoded.contains(['/', '\\'])
    });
    (!climbs).then_some(path)
}

/// The address of the page at `path` (inside the console) under the console's own address
/// (`super::redirect_uri`, ending in `/`): what the tab shows once signed in.
pub fn address(console: &str, path: &str) -> String {
    let mut url = String::from(console.trim_end_matches('/'));
    url.push_str(inside(path).unwrap_or("/"));
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_of_the_console_with_their_query() {
        for path in [
            "/",
            "/household",
            "/records/articles?q=vitamin%20d&limit=10",
            "/records/articles/urn%3Aarticle%3Ax.y",
            "/households/h-1/members/m-1#top",
            "/records/a?next=//x",
        ] {
            assert_eq!(inside(path), Some(path), "{path}");
        }
    }

    #[test]
    fn never_another_host_a_scheme_or_outside_the_sub_path() {
        for path in [
            "",
            "household",
            "//evil.example/",
            "/\\evil.example",
            "/%5Cevil",
            "https://evil.example/",
            "javascript:alert(1)",
            "/../admin",
            "/records/..",
            "/%2e%2e/admin",
            "/%2E./admin",
            "/./x",
            "/a%2Fb/../c",
            "/a b",
            "/a\tb",
            "/a\u{7f}",
            "/é",
        ] {
            assert_eq!(inside(path), None, "{path:?}");
        }
        assert_eq!(inside(&format!("/{}", "a".repeat(2048))), None);
    }

    #[test]
    fn the_address_stays_under_the_console() {
        assert_eq!(
            address("http://127.0.0.1:8080/console/", "/household?x=1"),
            "http://127.0.0.1:8080/console/household?x=1"
        );
        assert_eq!(
            address("https://c.example.org/", "//evil.example"),
            "https://c.example.org/"
        );
    }
}
