//! The contract of the Nutrition Data & Household API, written down once.
//!
//! Both the client (`larder-api`) and the reference service (`larder-server`), and the console's
//! screens, read these tables, so a collection, a schema, an enumeration or an error code is
//! described in one place. The tables follow production.md (the production service as its code
//! defines it); what only interface.md asks for is marked as such. This crate does no I/O.

pub mod account;
pub mod allergens;
pub mod collections;
pub mod enums;
pub mod envelope;
pub mod errors;
pub mod households;
pub mod limits;
pub mod member_data;
pub mod profile;
pub mod shares;
pub mod slug;
pub mod status;
pub mod text;
pub mod time;
pub mod types;
pub mod validate;

pub use collections::{Browsing, Collection, IdentifierKind, Offered, COLLECTIONS};
pub use envelope::{ErrorBody, ErrorEnvelope, SuccessEnvelope};
pub use errors::ErrorKind;
pub use types::{Field, Type};

/// The path prefix under every base URL.
pub const API_PREFIX: &str = "/api/v1";

/// The roles the service knows, and how production reads them from a token.
pub mod roles {
    /// Full access, including the list of every household.
    pub const ADMIN: &str = "admin";
    /// A curator of the knowledge base.
    pub const EXPERT: &str = "expert";
    /// A machine client that enhances records.
    pub const AGENT: &str = "agent";
    /// A guest account of production (production.md §8 row 2): a daily budget, then 429; a
    /// household of one adult. larder-server takes it in account specs.
    pub const GUEST: &str = "guest";
    /// Every role, in display order.
    pub const ALL: [&str; 4] = [ADMIN, EXPERT, AGENT, GUEST];
    /// Roles that see every record, whatever its review state (production.md §1.7).
    pub const PRIVILEGED_READERS: [&str; 2] = [ADMIN, EXPERT];
    /// Realm roles, spelled exactly so, that let a caller act on households they do not own
    /// (production.md §1.3: client roles and other spellings do not count here).
    pub const HOUSEHOLD_OVERRIDE: [&str; 2] = [ADMIN, AGENT];

    /// The roles production's route gates see in a token's claims: `realm_access.roles` and the
    /// `roles` of every client in `resource_access`, trimmed and lower-cased, without repeats.
    pub fn from_claims(claims: &serde_json::Value) -> Vec<String> {
        let mut roles: Vec<String> = Vec::new();
        let mut add = |list: &serde_json::Value| {
            for role in list.as_array().into_iter().flatten() {
                if let Some(role) = role.as_str() {
                    let role = role.trim().to_ascii_lowercase();
                    if !role.is_empty() && !roles.contains(&role) {
                        roles.push(role);
                    }
                }
            }
        };
        add(&claims["realm_access"]["roles"]);
        if let Some(clients) = claims["resource_access"].as_object() {
            for client in clients.values() {
                add(&client["roles"]);
            }
        }
        roles
    }

    /// The realm roles exactly as the token spells them (for the household override).
    pub fn realm_roles(claims: &serde_json::Value) -> Vec<String> {
        claims["realm_access"]["roles"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_string))
            .collect()
    }

    #[cfg(test)]
    mod tests {
        use serde_json::json;

        #[test]
        fn realm_and_every_client_lower_cased() {
            let claims = json!({
                "realm_access": {"roles": ["offline_access", "Admin "]},
                "resource_access": {"larder": {"roles": ["Expert"]}, "account": {"roles": ["admin"]}}
            });
            assert_eq!(
                super::from_claims(&claims),
                ["offline_access", "admin", "expert"]
            );
            assert_eq!(super::realm_roles(&claims), ["offline_access", "Admin "]);
            assert!(super::from_claims(&json!({})).is_empty());
        }
    }
}

/// How the console is hosted: the one Content-Security-Policy that `cargo xtask dist` writes into
/// the page and `larder-server --static` sends as a header, so the two stay in step.
pub mod hosting {
    /// The policy's directives without `connect-src` and `img-src`, which depend on where the
    /// APIs are and which picture hosts the operator allows.
    pub const POLICY_BASE: &[&str] = &[
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ];

    /// `config.json`'s key for the hosts member pictures may be loaded from (issue 36 finding
    /// 10): empty by default, so whoever views a member (an administrator looking at someone
    /// else's household above all) loads nothing from a host the owner chose, and the owner
    /// cannot learn when, or from where, they looked.
    pub const PICTURE_HOSTS_KEY: &str = "picture_hosts";

    /// The longest picture host accepted, in bytes (a DNS name is at most 253).
    const MAX_HOST_BYTES: usize = 260;

    /// An entry of [`PICTURE_HOSTS_KEY`] checked and lower-cased: a host name, optionally
    /// `*.` before it (any subdomain) and `:port` after it; no scheme, path or anything a
    /// policy would read as another source. `None` when it is not one.
    pub fn picture_host(entry: &str) -> Option<String> {
        let entry = entry.trim();
        if entry.is_empty() || entry.len() > MAX_HOST_BYTES {
            return None;
        }
        let entry = entry.to_ascii_lowercase();
        let (host, port) = match entry.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (entry.as_str(), None),
        };
        if port
            .is_some_and(|p| p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let name = host.strip_prefix("*.").unwrap_or(host);
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        };
        (name.split('.').all(label_ok)).then_some(entry)
    }

    /// Whether a picture at `url` may be loaded under `hosts` (checked entries, see
    /// [`picture_host`]), as the policy's `img-src` decides it: `https://` only, the host equal
    /// to an entry or, for `*.example.org`, below it; the port the entry's, else the default.
    pub fn picture_allowed(url: &str, hosts: &[String]) -> bool {
        let Some((host, port)) = picture_url_host(url) else {
            return false;
        };
        hosts.iter().any(|entry| {
            let (name, entry_port) = split_port(entry);
            let host_ok = match name.strip_prefix("*.") {
                Some(parent) => host
                    .strip_suffix(parent)
                    .is_some_and(|below| below.len() > 1 && below.ends_with('.')),
                None => host == name,
            };
            host_ok && entry_port == port.as_deref()
        })
    }

    /// `host:port` as the host and the port, the default port (443) as none.
    fn split_port(authority: &str) -> (&str, Option<&str>) {
        match authority.rsplit_once(':') {
            Some((host, "443")) => (host, None),
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    }

    /// The host (lower-cased) and port of an `https://` address, for naming it and checking it.
    /// `None` for any other scheme, or an address with credentials.
    pub fn picture_url_host(url: &str) -> Option<(String, Option<String>)> {
        let rest = url.trim();
        let scheme_end = rest.find("://")?;
        if !rest[..scheme_end].eq_ignore_ascii_case("https") {
            return None;
        }
        let authority = rest[scheme_end + 3..]
            .split(['/', '?', '#', '\\'])
            .next()
            .filter(|a| !a.is_empty() && !a.contains('@'))?
            .to_ascii_lowercase();
        let (host, port) = split_port(&authority);
        Some((host.to_string(), port.map(str::to_string)))
    }

    /// The page's own inline script and style, allowed by their hashes (`'sha256-…'`): the
    /// start-up set comes inside `index.html`, so "Sign in" works after one round trip, not two
    /// (issue 24). Nothing else inline is allowed.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Inline {
        pub script: Vec<String>,
        pub style: Vec<String>,
    }

    impl Inline {
        /// The hashes a built page's own `<meta>` policy allows, for the header that must allow
        /// them too (a browser enforces both). None when the page has no such policy.
        pub fn of_page(html: &str) -> Inline {
            let mut inline = Inline::default();
            let Some(content) = meta_policy(html) else {
                return inline;
            };
            for directive in content.split(';') {
                let mut words = directive.split_whitespace();
                let into = match words.next() {
                    Some("script-src") => &mut inline.script,
                    Some("style-src") => &mut inline.style,
                    _ => continue,
                };
                into.extend(words.filter(|w| is_hash(w)).map(str::to_string));
            }
            inline
        }
    }

    /// `'sha256-<base64>'` and nothing else: a page cannot widen the header with other sources.
    fn is_hash(word: &str) -> bool {
        word.strip_prefix("'sha256-")
            .and_then(|rest| rest.strip_suffix('\''))
            .is_some_and(|b64| {
                b64.len() == 44
                    && b64
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            })
    }

    fn meta_policy(html: &str) -> Option<&str> {
        let at = html.find("http-equiv=\"Content-Security-Policy\"")?;
        let rest = &html[at..];
        let start = rest.find("content=\"")? + "content=\"".len();
        let len = rest[start..].find('"')?;
        Some(&rest[start..start + len])
    }

    /// The whole policy: `connect-src 'self'` plus `api_origins`, `img-src 'self' data:` plus
    /// `https://` each of `picture_hosts` (checked with [`picture_host`]; others are left out),
    /// the page's `inline` hashes, and `frame-ancestors 'none'` when sent as a header (a
    /// `<meta>` policy cannot carry it).
    pub fn policy(
        api_origins: &[String],
        picture_hosts: &[String],
        inline: &Inline,
        header: bool,
    ) -> String {
        policy_with_provider(api_origins, picture_hosts, None, inline, header)
    }

    /// [`policy`] for a console that signs in at an identity provider (config.json's `oidc`):
    /// the provider's origin also in `connect-src` (its discovery document, keys and token
    /// endpoint) and in `form-action` (the sign-out is a form posted there, so the ID token
    /// stays out of URLs). The sign-in itself is a top-level navigation, which no directive
    /// governs.
    pub fn policy_with_provider(
        api_origins: &[String],
        picture_hosts: &[String],
        provider: Option<&str>,
        inline: &Inline,
        header: bool,
    ) -> String {
        let mut connect = String::from("connect-src 'self'");
        for origin in api_origins.iter().map(String::as_str).chain(provider) {
            connect.push(' ');
            connect.push_str(origin);
        }
        let mut img = String::from("img-src 'self' data:");
        for host in picture_hosts.iter().filter_map(|h| picture_host(h)) {
            img.push_str(" https://");
            img.push_str(&host);
        }
        let mut directives: Vec<String> = POLICY_BASE
            .iter()
            .map(|d| {
                let hashes = match d.split_whitespace().next() {
                    Some("script-src") => &inline.script,
                    Some("style-src") => &inline.style,
                    Some("form-action") => {
                        return provider.map_or(d.to_string(), |p| format!("{d} {p}"))
                    }
                    _ => return d.to_string(),
                };
                std::iter::once(*d)
                    .chain(hashes.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        directives.insert(3, connect);
        directives.insert(4, img);
        if header {
            directives.push("frame-ancestors 'none'".into());
        }
        directives.join("; ")
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const SCRIPT: &str = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
        const STYLE: &str = "'sha256-RFWPLDbv2BY+rCkDzsE+0fr8ylGr2R2faWMhq4lfEQc='";

        #[test]
        fn the_pages_hashes_reach_the_header_and_nothing_else_does() {
            let inline = Inline {
                script: vec![SCRIPT.into()],
                style: vec![STYLE.into()],
            };
            let meta = policy(&[], &[], &inline, false);
            let page = format!(
                "<head><meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{meta}\"></head>"
            );
            assert_eq!(Inline::of_page(&page), inline);
            let header = policy(
                &["https://api.example.org".into()],
                &[],
                &Inline::of_page(&page),
                true,
            );
            assert!(header.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {SCRIPT};")));
            assert!(header.contains(&format!("style-src 'self' {STYLE};")));
            assert!(header.ends_with("frame-ancestors 'none'"));
            // A page's policy that names other sources does not widen the header.
            let wide = page.replace(
                SCRIPT,
                &format!("'unsafe-inline' https://evil.example {SCRIPT} 'sha256-short='"),
            );
            assert_eq!(Inline::of_page(&wide).script, vec![SCRIPT.to_string()]);
            assert_eq!(Inline::of_page("<html></html>"), Inline::default());
            assert_eq!(
                policy(&[], &[], &Inline::default(), false),
                "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"
            );
        }

        /// Issue 36 finding 10: pictures load only from the hosts the operator allows, and the
        /// policy says the same (it allowed every `https:` host before).
        #[test]
        fn pictures_load_only_from_allowed_hosts_and_the_policy_follows_the_list() {
            let img = |hosts: &[&str]| {
                let hosts: Vec<String> = hosts.iter().map(|h| h.to_string()).collect();
                let whole = policy(&[], &hosts, &Inline::default(), true);
                whole
                    .split("; ")
                    .find(|d| d.starts_with("img-src"))
                    .unwrap()
                    .to_string()
            };
            assert_eq!(img(&[]), "img-src 'self' data:");
            assert_eq!(
                img(&["Pictures.Example.org", "*.cdn.example", "img.example:8443"]),
                "img-src 'self' data: https://pictures.example.org https://*.cdn.example https://img.example:8443"
            );
            // What is not a host never reaches the policy.
            for bad in [
                "https:",
                "*",
                "'unsafe-inline'",
                "a.example; script-src *",
                "a b",
                "https://x.example",
                "x.example/p",
                "x:port",
                "",
            ] {
                assert_eq!(picture_host(bad), None, "{bad}");
                assert_eq!(img(&[bad]), "img-src 'self' data:", "{bad}");
            }
            let allowed: Vec<String> =
                ["pictures.example.org", "*.cdn.example", "img.example:8443"]
                    .iter()
                    .filter_map(|h| picture_host(h))
                    .collect();
            for (url, ok) in [
                ("https://pictures.example.org/a.png", true),
                ("HTTPS://Pictures.Example.org:443/a.png", true),
                ("https://pictures.example.org:444/a.png", false),
                ("http://pictures.example.org/a.png", false),
                ("https://evil.example/?pictures.example.org", false),
                ("https://pictures.example.org.evil.example/a.png", false),
                ("https://user@pictures.example.org/a.png", false),
                ("https://a.cdn.example/x.png", true),
                ("https://a.b.cdn.example/x.png", true),
                ("https://cdn.example/x.png", false),
                ("https://xcdn.example/x.png", false),
                ("https://img.example:8443/x.png", true),
                ("https://img.example/x.png", false),
                ("avatar:3", false),
            ] {
                assert_eq!(picture_allowed(url, &allowed), ok, "{url}");
                assert!(!picture_allowed(url, &[]), "{url}");
            }
            assert_eq!(
                picture_url_host("https://Img.Example:8443/a"),
                Some(("img.example".into(), Some("8443".into())))
            );
        }
    }
}
