//! Base URLs and path joining.

use larder_contract::API_PREFIX;

/// Which of the two APIs a request goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// Articles, guides, textbooks and the other collections.
    Data,
    /// Sign-in, ping, households and members.
    System,
}

/// Where the two APIs live and how long a request may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    /// Base URL of the data API, without `/api/v1`.
    pub data_base: String,
    /// Base URL of the systemic API, without `/api/v1`.
    pub system_base: String,
    /// Default timeout per request, in milliseconds (30 s by the contract).
    pub timeout_ms: u64,
}

/// The contract's default timeout.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

impl ClientConfig {
    /// Both APIs on one base URL.
    pub fn new(base: impl Into<String>) -> ClientConfig {
        let base = base.into();
        ClientConfig {
            data_base: base.clone(),
            system_base: base,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }

    /// Each API on its own base URL.
    pub fn split(data_base: impl Into<String>, system_base: impl Into<String>) -> ClientConfig {
        ClientConfig {
            data_base: data_base.into(),
            system_base: system_base.into(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }

    /// The URL of `endpoint` on `api`, with the query encoded.
    pub fn url(&self, api: Api, endpoint: &str, query: &[(String, String)]) -> String {
        let base = match api {
            Api::Data => &self.data_base,
            Api::System => &self.system_base,
        };
        let mut url = format!(
            "{}{}/{}",
            base.trim_end_matches('/'),
            API_PREFIX,
            endpoint.trim_start_matches('/')
        );
        for (index, (key, value)) in query.iter().enumerate() {
            url.push(if index == 0 { '?' } else { '&' });
            url.push_str(&encode_component(key));
            url.push('=');
            url.push_str(&encode_component(value));
        }
        url
    }
}

/// Percent-encodes everything but the unreserved characters of RFC 3986.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slashes_are_ignored_at_the_joins() {
        let config = ClientConfig::split("https://data.example/", "https://sys.example");
        assert_eq!(
            config.url(Api::Data, "/articles", &[]),
            "https://data.example/api/v1/articles"
        );
        assert_eq!(
            config.url(Api::System, "system/ping", &[]),
            "https://sys.example/api/v1/system/ping"
        );
        assert_eq!(
            ClientConfig::new("").url(Api::Data, "articles", &[]),
            "/api/v1/articles"
        );
    }

    #[test]
    fn query_is_encoded() {
        let config = ClientConfig::new("http://h");
        let query = [
            ("q".to_string(), "vitamin d&x=1".to_string()),
            ("limit".to_string(), "5".to_string()),
        ];
        assert_eq!(
            config.url(Api::Data, "articles/search", &query),
            "http://h/api/v1/articles/search?q=vitamin%20d%26x%3D1&limit=5"
        );
        assert_eq!(encode_component("urn:article:é"), "urn%3Aarticle%3A%C3%A9");
    }
}
