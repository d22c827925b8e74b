//! config.json's `oidc: {issuer, client_id, scopes?}`: which provider signs people in, as which
//! client. Both modules read the file with their own JSON reader and hand the values here, so
//! they take and refuse the same files.

/// The key of config.json that holds the provider's settings.
pub const KEY: &str = "oidc";
/// The keys inside it; any other makes the file wrong.
pub const KEYS: [&str; 3] = ["issuer", "client_id", "scopes"];
/// The scopes asked for when the file names none: `profile` carries `preferred_username`, the
/// name the console shows.
pub const DEFAULT_SCOPES: [&str; 1] = ["profile"];

const MAX_URL: usize = 2048;
const MAX_CLIENT_ID: usize = 255;
const MAX_SCOPES: usize = 20;
const MAX_SCOPE: usize = 100;

/// The provider and the console's client at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The issuer exactly as the provider names itself (`iss`), e.g.
    /// `https://auth.example.org/realms/master`: no slash added or removed.
    pub issuer: String,
    /// The console's client ID at the provider.
    pub client_id: String,
    /// The scopes asked for: `openid` first, then the file's (or [`DEFAULT_SCOPES`]), once each.
    pub scopes: Vec<String>,
}

/// What is wrong with config.json's `oidc`, said as the console says config.json's mistakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    Issuer(String),
    ClientId,
    Scope(String),
    TooManyScopes,
}

impl ConfigError {
    /// The message, naming the key and the value at fault.
    pub fn message(&self) -> String {
        match self {
            ConfigError::Issuer(value) => {
                let mut text = String::from(
                    "oidc.issuer must be an https URL (http only on localhost) without a query or fragment, got \"",
                );
                text.push_str(value);
                text.push_str("\".");
                text
            }
            ConfigError::ClientId => {
                "oidc.client_id must be the console's client ID at the identity provider.".into()
            }
            ConfigError::Scope(value) => {
                let mut text = String::from("oidc.scopes holds \"");
                text.push_str(value);
                text.push_str("\", which is not a scope name.");
                text
            }
            ConfigError::TooManyScopes => "oidc.scopes names more than 20 scopes.".into(),
        }
    }
}

/// Whether `url` is an absolute https URL, or http on a loopback host (a provider on this
/// machine: tests, development), without user info, query or fragment.
pub fn provider_url(url: &str) -> bool {
    let rest = match (url.strip_prefix("https://"), url.strip_prefix("http://")) {
        (Some(rest), _) => rest,
        (None, Some(rest)) if loopback(host_of(rest)) => rest,
        _ => return false,
    };
    let host = host_of(rest);
    url.len() <= MAX_URL
        && !host.is_empty()
        && !rest.contains(['?', '#', '@', '\\'])
        && rest.bytes().all(|b| b.is_ascii_graphic())
}

fn host_of(rest: &str) -> &str {
    let authority = rest.split('/').next().unwrap_or_default();
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    }
}

fn loopback(host: &str) -> bool {
    host == "localhost" || host == "127.0.0.1" || host == "::1"
}

/// A scope token (RFC 6749 §3.3: printable ASCII but space, `"` and `\`).
fn scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope.len() <= MAX_SCOPE
        && scope
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
}

impl Settings {
    /// The settings of config.json's `oidc` (its values as the file has them; `scopes` absent
    /// is `None`), or what is wrong with them. The issuer and client ID are trimmed.
    pub fn new(
        issuer: &str,
        client_id: &str,
        scopes: Option<&[String]>,
    ) -> Result<Settings, ConfigError> {
        let issuer = issuer.trim();
        if !provider_url(issuer) {
            return Err(ConfigError::Issuer(issuer.chars().take(200).collect()));
        }
        let client_id = client_id.trim();
        if client_id.is_empty()
            || client_id.len() > MAX_CLIENT_ID
            || client_id.chars().any(char::is_control)
        {
            return Err(ConfigError::ClientId);
        }
        let named: Vec<String> = match scopes {
            None => DEFAULT_SCOPES.iter().map(|s| s.to_string()).collect(),
            Some(scopes) if scopes.len() > MAX_SCOPES => return Err(ConfigError::TooManyScopes),
            Some(scopes) => scopes.iter().map(|s| s.trim().to_string()).collect(),
        };
        let mut all = vec![String::from("openid")];
        for scope in named {
            if !scope_token(&scope) {
                return Err(ConfigError::Scope(scope.chars().take(100).collect()));
            }
            if !all.contains(&scope) {
                all.push(scope);
            }
        }
        Ok(Settings {
            issuer: issuer.to_string(),
            client_id: client_id.to_string(),
            scopes: all,
        })
    }

    /// The `scope` parameter: the scopes joined by spaces.
    pub fn scope(&self) -> String {
        self.scopes.join(" ")
    }

    /// Where the provider's discovery document is (OpenID Connect Discovery §4).
    pub fn discovery_url(&self) -> String {
        let mut url = String::from(self.issuer.trim_end_matches('/'));
        url.push_str("/.well-known/openid-configuration");
        url
    }

    /// The provider's origin (`https://auth.example.org`), for the page's policy.
    pub fn origin(&self) -> &str {
        let after_scheme = self.issuer.find("://").map_or(0, |i| i + 3);
        let end = self.issuer[after_scheme..]
            .find('/')
            .map_or(self.issuer.len(), |i| after_scheme + i);
        &self.issuer[..end]
    }

    /// The issuer's host (and port), as "Sign in with <provider>" names the provider in the
    /// start-up module's form and in the console's session-ended dialog.
    pub fn host(&self) -> &str {
        let origin = self.origin();
        origin.split_once("://").map_or(origin, |(_, host)| host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_keycloak_realm_and_its_client() {
        let settings = Settings::new(
            " https://auth.example.org/realms/master ",
            " larder-console ",
            None,
        )
        .unwrap();
        assert_eq!(settings.issuer, "https://auth.example.org/realms/master");
        assert_eq!(settings.client_id, "larder-console");
        assert_eq!(settings.scope(), "openid profile");
        assert_eq!(
            settings.discovery_url(),
            "https://auth.example.org/realms/master/.well-known/openid-configuration"
        );
        assert_eq!(settings.origin(), "https://auth.example.org");
        assert_eq!(settings.host(), "auth.example.org");
        let slash = Settings::new("https://auth.example.org/", "c", None).unwrap();
        assert_eq!(slash.issuer, "https://auth.example.org/", "kept as written");
        assert_eq!(
            slash.discovery_url(),
            "https://auth.example.org/.well-known/openid-configuration"
        );
        assert_eq!(slash.origin(), "https://auth.example.org");
    }

    #[test]
    fn openid_comes_first_and_once() {
        let named = scopes(&["roles", "openid", " profile ", "roles"]);
        let settings = Settings::new("http://localhost:8081", "c", Some(&named)).unwrap();
        assert_eq!(settings.scope(), "openid roles profile");
        assert_eq!(
            Settings::new("http://localhost:1", "c", Some(&[]))
                .unwrap()
                .scope(),
            "openid",
            "an empty list asks for openid alone"
        );
    }

    #[test]
    fn plain_http_only_on_this_machine() {
        for ok in [
            "http://localhost:8081",
            "http://127.0.0.1:1/realms/x",
            "http://[::1]:8080",
            "https://auth.example.org:8443/realms/m",
        ] {
            assert!(Settings::new(ok, "c", None).is_ok(), "{ok}");
        }
        for wrong in [
            "",
            "auth.example.org",
            "http://auth.example.org",
            "http://localhost.example.org",
            "https://",
            "https://auth.example.org/realms/x?kc_idp_hint=y",
            "https://auth.example.org/#x",
            "https://user@auth.example.org",
            "https://auth.example.org/a b",
            "ftp://auth.example.org",
            "javascript:alert(1)",
        ] {
            assert!(
                matches!(Settings::new(wrong, "c", None), Err(ConfigError::Issuer(_))),
                "{wrong}"
            );
        }
        let long = format!("https://a.example/{}", "x".repeat(2100));
        assert!(Settings::new(&long, "c", None).is_err());
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(
            Settings::new("https://a.example", "  ", None),
            Err(ConfigError::ClientId)
        );
        assert_eq!(
            Settings::new("https://a.example", "a\u{7}", None),
            Err(ConfigError::ClientId)
        );
        let bad = scopes(&["profile", "two words"]);
        let error = Settings::new("https://a.example", "c", Some(&bad)).unwrap_err();
        assert_eq!(
            error.message(),
            "oidc.scopes holds \"two words\", which is not a scope name."
        );
        let many: Vec<String> = (0..21).map(|i| format!("s{i}")).collect();
        assert_eq!(
            Settings::new("https://a.example", "c", Some(&many)),
            Err(ConfigError::TooManyScopes)
        );
        assert!(Settings::new("http://a.example", "c", None)
            .unwrap_err()
            .message()
            .contains("\"http://a.example\""));
    }
}
