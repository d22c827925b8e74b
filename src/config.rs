//! The runtime configuration: `config.json` beside `index.html`, read at start, so one static
//! build can be pointed at any service without a rebuild.

use larder_api::config::DEFAULT_TIMEOUT_MS;
use larder_api::ClientConfig;
use serde::Deserialize;

use crate::i18n::Lang;

/// What `config.json` may contain; every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    data_api_base: Option<String>,
    system_api_base: Option<String>,
    timeout_seconds: Option<f64>,
    default_language: Option<String>,
    languages: Option<Vec<String>>,
    picture_hosts: Option<Vec<String>>,
    oidc: Option<OidcFile>,
    consent_version: Option<String>,
    share_page: Option<String>,
}

/// config.json's `oidc`: the identity provider people sign in with (issue 42).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OidcFile {
    issuer: String,
    client_id: String,
    scopes: Option<Vec<String>>,
}

/// The console's configuration: the client's, and the languages.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub client: ClientConfig,
    /// The language for browsers that ask for none the console offers.
    pub default_language: Option<Lang>,
    /// The languages offered (all of them unless the file names some).
    pub languages: Vec<Lang>,
    /// The hosts member pictures may be loaded from (`picture_hosts`, checked and lower-cased;
    /// none unless the file names some). The page's policy must allow the same hosts.
    pub picture_hosts: Vec<String>,
    /// The identity provider people sign in with, when the file names one.
    pub oidc: Option<larder_start::oidc::config::Settings>,
    /// The privacy notice's version the console asks people to accept (`users/me/consent`).
    pub consent_version: String,
    /// The page that shows a shared plan to anyone (`share_page`, with `{token}`), when the file
    /// names one; else a link is the service's own public read.
    pub share_page: Option<String>,
}

/// What a correct file looks like, shown when the file is wrong.
pub const EXAMPLE: &str = r#"{
  "data_api_base": "https://data.example.org",
  "system_api_base": "https://system.example.org",
  "timeout_seconds": 30,
  "default_language": "en",
  "languages": ["en", "hu", "sl", "el"],
  "picture_hosts": [],
  "consent_version": "1.0"
}"#;

/// Builds the configuration from the file's text (`None` when there is no file); absent base
/// URLs are the page's own origin.
pub fn parse(text: Option<&str>, page_origin: &str) -> Result<Config, String> {
    let file: ConfigFile = match text {
        None => ConfigFile::default(),
        Some(text) => {
            serde_json::from_str(text).map_err(|e| format!("config.json is not valid: {e}."))?
        }
    };
    let base = |value: Option<String>, key: &str| -> Result<String, String> {
        // The start-up module reads the system API's base by the same rule.
        match value {
            None => Ok(page_origin.to_string()),
            Some(value) => larder_start::config::base_url(&value).ok_or_else(|| {
                // Quoted by hand: Debug formatting would bring its escaping tables into the
                // console's main module for this one message.
                let url = value.trim();
                format!("{key} must be an absolute http(s) URL, got \"{url}\".")
            }),
        }
    };
    let timeout_ms = match file.timeout_seconds {
        None => DEFAULT_TIMEOUT_MS,
        Some(seconds) => match larder_start::config::timeout_ms(seconds) {
            Some(ms) => u64::from(ms),
            // The value is not repeated: formatting a float would bring about 10 KB of float
            // printing into the console's main module for this one message.
            None => return Err("timeout_seconds must be a number between 0 and 600.".into()),
        },
    };
    let language = |tag: &str| {
        Lang::from_tag(tag).ok_or_else(|| {
            let known: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
            format!(
                "\"{tag}\" is not a language of the console ({}).",
                known.join(", ")
            )
        })
    };
    let languages = match file.languages {
        None => Lang::ALL.to_vec(),
        Some(tags) if tags.is_empty() => return Err("languages must name at least one.".into()),
        Some(tags) => tags.iter().map(|t| language(t)).collect::<Result<_, _>>()?,
    };
    let oidc = match &file.oidc {
        None => None,
        Some(oidc) => Some(
            larder_start::oidc::config::Settings::new(
                &oidc.issuer,
                &oidc.client_id,
                oidc.scopes.as_deref(),
            )
            .map_err(|problem| problem.message())?,
        ),
    };
    let consent_version = match file.consent_version {
        None => DEFAULT_CONSENT_VERSION.to_string(),
        Some(version) => {
            let version = version.trim().to_string();
            let chars = version.chars().count();
            let max = larder_contract::account::MAX_CONSENT_VERSION_CHARS as usize;
            if chars == 0 || chars > max {
                return Err(format!("consent_version must have 1 to {max} characters."));
            }
            version
        }
    };
    let share_page = match file.share_page.as_deref() {
        None => None,
        Some(value) => Some(larder_start::config::share_page(value).ok_or_else(|| {
            let url = value.trim();
            format!(
                "share_page must be an absolute http(s) URL with {{token}} once, got \"{url}\"."
            )
        })?),
    };
    Ok(Config {
        oidc,
        share_page,
        client: ClientConfig {
            data_base: base(file.data_api_base, "data_api_base")?,
            system_base: base(file.system_api_base, "system_api_base")?,
            timeout_ms,
        },
        default_language: file.default_language.as_deref().map(language).transpose()?,
        languages,
        picture_hosts: file
            .picture_hosts
            .unwrap_or_default()
            .iter()
            .map(|entry| {
                larder_contract::hosting::picture_host(entry).ok_or_else(|| {
                    let entry = entry.trim();
                    format!(
                        "picture_hosts: \"{entry}\" is not a host name (such as pictures.example.org or *.example.org)."
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        consent_version,
    })
}

/// The privacy notice's version when `config.json` names none: production's own front end
/// records `"1.0"` (production.md §10.4).
pub const DEFAULT_CONSENT_VERSION: &str = "1.0";

// What the configuration says for the whole page, put in use once at start (by [`use_settings`])
// and read where it applies: process-wide and never a person's, so it outlives sign-out.
thread_local! {
    static PICTURE_HOSTS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    static CONSENT_VERSION: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static PROVIDER_HOST: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static SHARE_PAGE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Puts `config`'s page-wide settings in use: the picture hosts (read by every member picture)
/// and the privacy notice's version (read by the account page).
pub fn use_settings(config: &Config) {
    PICTURE_HOSTS.with(|h| *h.borrow_mut() = config.picture_hosts.clone());
    CONSENT_VERSION.with(|v| *v.borrow_mut() = Some(config.consent_version.clone()));
    let provider = config.oidc.as_ref().map(|oidc| oidc.host().to_string());
    PROVIDER_HOST.with(|p| *p.borrow_mut() = provider);
    SHARE_PAGE.with(|p| *p.borrow_mut() = config.share_page.clone());
}

/// The page that shows a shared plan to anyone, with `{token}` in it, when config.json names
/// one.
pub fn share_page() -> Option<String> {
    SHARE_PAGE.with(|p| p.borrow().clone())
}

/// The identity provider's host as "Sign in with <provider>" names it (the start-up module's
/// button says the same), when config.json names one.
pub fn provider_host() -> Option<String> {
    PROVIDER_HOST.with(|p| p.borrow().clone())
}

/// The hosts member pictures may be loaded from.
pub fn picture_hosts() -> Vec<String> {
    PICTURE_HOSTS.with(|h| h.borrow().clone())
}

/// The privacy notice's version the console asks people to accept.
pub fn consent_version() -> String {
    CONSENT_VERSION
        .with(|v| v.borrow().clone())
        .unwrap_or_else(|| DEFAULT_CONSENT_VERSION.to_string())
}

/// Fetches `config.json` relative to the document (so a sub-path hosting works) and parses it.
#[cfg(target_arch = "wasm32")]
pub async fn load() -> Result<Config, String> {
    let window = web_sys::window().ok_or("no window")?;
    let origin = window
        .location()
        .origin()
        .map_err(|_| "the page has no origin")?;
    let response = gloo_net::http::Request::get("config.json")
        .send()
        .await
        .map_err(|e| format!("config.json could not be fetched: {e}."))?;
    // Hosts that answer every path with index.html (SPA rewrites) send HTML for a missing file.
    let is_html = response
        .headers()
        .get("content-type")
        .is_some_and(|t| t.starts_with("text/html"));
    match response.status() {
        404 => parse(None, &origin),
        200 if is_html => parse(None, &origin),
        200 => {
            let text = response
                .text()
                .await
                .map_err(|e| format!("config.json could not be read: {e}."))?;
            parse(Some(&text), &origin)
        }
        status => Err(format!("config.json answered status {status}.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_file_or_keys_mean_the_page_origin() {
        let config = parse(None, "https://console.example").unwrap().client;
        assert_eq!(
            (config.data_base.as_str(), config.system_base.as_str()),
            ("https://console.example", "https://console.example")
        );
        assert_eq!(config.timeout_ms, 30_000);
        let partial = parse(
            Some(r#"{"system_api_base": "https://sys.example/"}"#),
            "https://c",
        )
        .unwrap()
        .client;
        assert_eq!(
            (partial.data_base.as_str(), partial.system_base.as_str()),
            ("https://c", "https://sys.example/")
        );
    }

    #[test]
    fn the_example_is_valid() {
        let config = parse(Some(EXAMPLE), "https://c").unwrap();
        assert_eq!(config.client.data_base, "https://data.example.org");
        assert_eq!(config.client.timeout_ms, 30_000);
        assert_eq!(config.default_language, Some(Lang::En));
        assert_eq!(config.languages, Lang::ALL);
        assert!(config.picture_hosts.is_empty());
        assert_eq!(config.consent_version, "1.0");
        let chosen = parse(Some(r#"{"consent_version": " 2.1 "}"#), "https://c").unwrap();
        assert_eq!(chosen.consent_version, "2.1");
        assert_eq!(config.share_page, None);
        let shared = parse(
            Some(r#"{"share_page": "https://app.example.org/shared/{token}"}"#),
            "https://c",
        )
        .unwrap();
        assert_eq!(
            shared.share_page.as_deref(),
            Some("https://app.example.org/shared/{token}")
        );
        let hosts = parse(
            Some(r#"{"picture_hosts": ["Pictures.Example.org", "*.cdn.example"]}"#),
            "https://c",
        )
        .unwrap()
        .picture_hosts;
        assert_eq!(hosts, ["pictures.example.org", "*.cdn.example"]);
    }

    #[test]
    fn the_start_up_module_knows_the_keys_the_console_knows() {
        // Each of its keys is the console's, and the example (every key) names no other.
        for key in larder_start::config::KEYS {
            assert!(
                parse(Some(&format!("{{\"{key}\": null}}")), "https://c").is_ok(),
                "{key}"
            );
        }
        let example: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(EXAMPLE).unwrap();
        let keys: Vec<&str> = example.keys().map(String::as_str).collect();
        // The identity provider is left out of the example: a service without one is the
        // common case, and a copied issuer would send people to a provider that is not theirs.
        // So is the share page: a copied one would send shared plans to a site not theirs.
        let mut ours: Vec<&str> = larder_start::config::KEYS
            .into_iter()
            .filter(|key| !matches!(*key, "oidc" | "share_page"))
            .collect();
        ours.sort();
        let mut keys = keys;
        keys.sort();
        assert_eq!(keys, ours);
    }

    #[test]
    fn mistakes_are_named() {
        for (text, expected) in [
            ("{not json", "not valid"),
            (r#"{"data_api_base": 5}"#, "not valid"),
            (r#"{"data_api": "https://x"}"#, "unknown field"),
            (r#"{"data_api_base": "ftp://x"}"#, "data_api_base must be"),
            (r#"{"timeout_seconds": -1}"#, "timeout_seconds"),
            (r#"{"languages": ["en", "de"]}"#, "\"de\" is not a language"),
            (
                r#"{"share_page": "https://app.example.org/shared/"}"#,
                "share_page must be an absolute http(s) URL with {token} once",
            ),
            (r#"{"default_language": "fr"}"#, "\"fr\" is not a language"),
            (r#"{"languages": []}"#, "at least one"),
            (
                r#"{"picture_hosts": ["https:"]}"#,
                "\"https:\" is not a host",
            ),
            (r#"{"picture_hosts": "x.example"}"#, "not valid"),
            (r#"{"consent_version": " "}"#, "consent_version"),
            (
                r#"{"consent_version": "12345678901234567"}"#,
                "consent_version",
            ),
        ] {
            let error = parse(Some(text), "https://c").unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
