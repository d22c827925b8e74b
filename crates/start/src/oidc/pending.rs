//! The values of a sign-in under way, from just before the redirect to the provider until the
//! answer: they must outlive the page (a top-level redirect unloads it) but may be kept nowhere
//! at rest (issue 42: no web storage, IndexedDB, cookies or URLs). The carrier is the
//! same-origin service worker (`crates/start/js/oidc-worker.js`), which holds
//! [`Pending::to_text`] in memory under the `state` and gives it back once.
//!
//! The provider's endpoints travel with them: back from the provider the page reads them here
//! instead of asking the discovery document again (a round trip before the code's exchange;
//! back without a password 2,186 → 1,756 ms on the bench's phone line, issue 37, run Q).

use super::config::provider_url;
use super::discovery::Endpoints;
use super::{base64url, form, pkce};

/// The random bytes a sign-in needs (`crypto.getRandomValues`): 16 for `state`, 16 for `nonce`,
/// 32 for the verifier.
pub const RANDOM_BYTES: usize = 64;
/// How long a sign-in may take, from the redirect to the answer: 10 minutes. Older values are
/// refused ([`super::Failure::Expired`]); the worker forgets them too.
pub const PENDING_TTL_MS: u64 = 10 * 60 * 1000;
/// Longest [`Pending::to_text`] read back.
const MAX_TEXT: usize = 4096;
/// The format's version, first in the text (2: with the provider's endpoints).
const VERSION: &str = "2";

/// A sign-in under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Sent to the provider and checked in its answer: the answer is to this tab's request.
    pub state: String,
    /// Sent to the provider and checked in the ID token: the token was issued for this request.
    pub nonce: String,
    /// The PKCE verifier: never leaves the tab but in the token request's body.
    pub verifier: String,
    /// The page to open once signed in (inside the console, with its query; checked by
    /// [`super::return_path::inside`] when made and when read back).
    pub return_to: String,
    /// When the redirect left, in milliseconds since the epoch (`Date.now()`).
    pub created_ms: u64,
    /// Whether this is a silent sign-in (`prompt=none`): a `login_required` answer then shows
    /// the sign-in form without an error.
    pub silent: bool,
    /// The issuer the sign-in went to (config.json's `oidc.issuer` then) and its endpoints as
    /// its discovery document named them; read back without them when they made the text
    /// longer than the carrier keeps (the page then asks the discovery document again).
    pub issuer: String,
    pub endpoints: Option<Endpoints>,
}

impl Pending {
    /// A new sign-in from [`RANDOM_BYTES`] random bytes, returning to `return_to` (a path inside
    /// the console; anything else returns to its start page, `/`), at `issuer`'s `endpoints`.
    pub fn new(
        random: &[u8; RANDOM_BYTES],
        return_to: &str,
        now_ms: u64,
        silent: bool,
        issuer: &str,
        endpoints: &Endpoints,
    ) -> Pending {
        let mut verifier = [0u8; 32];
        verifier.copy_from_slice(&random[32..]);
        Pending {
            state: base64url::encode(&random[..16]),
            nonce: base64url::encode(&random[16..32]),
            verifier: pkce::verifier(&verifier),
            return_to: super::return_path::inside(return_to)
                .unwrap_or("/")
                .to_string(),
            created_ms: now_ms,
            silent,
            issuer: issuer.to_string(),
            endpoints: Some(endpoints.clone()),
        }
    }

    /// The endpoints, when the sign-in went to `issuer` (config.json may have changed since).
    pub fn endpoints_of(&self, issuer: &str) -> Option<&Endpoints> {
        self.endpoints.as_ref().filter(|_| self.issuer == issuer)
    }

    /// Whether it is older than [`PENDING_TTL_MS`] at `now_ms` (or from the future).
    pub fn expired(&self, now_ms: u64) -> bool {
        now_ms < self.created_ms || now_ms - self.created_ms > PENDING_TTL_MS
    }

    /// The text the carrier holds (at most 4 KB: the endpoints are left out of a longer one).
    pub fn to_text(&self) -> String {
        let created = self.created_ms.to_string();
        let own = [
            ("v", VERSION),
            ("state", self.state.as_str()),
            ("nonce", self.nonce.as_str()),
            ("verifier", self.verifier.as_str()),
            ("return_to", self.return_to.as_str()),
            ("created", created.as_str()),
            ("silent", if self.silent { "1" } else { "0" }),
        ];
        let Some(endpoints) = &self.endpoints else {
            return form::encode_pairs(own);
        };
        let with_endpoints = form::encode_pairs(own.into_iter().chain([
            ("issuer", self.issuer.as_str()),
            ("authorization", endpoints.authorization.as_str()),
            ("token", endpoints.token.as_str()),
            ("jwks", endpoints.jwks.as_str()),
            (
                "end_session",
                endpoints.end_session.as_deref().unwrap_or_default(),
            ),
            ("iss", if endpoints.iss_in_answers { "1" } else { "0" }),
        ]));
        match with_endpoints.len() <= MAX_TEXT {
            true => with_endpoints,
            false => form::encode_pairs(own),
        }
    }

    /// The values of [`Pending::to_text`]; `None` for any other text (another version, a value
    /// missing or of the wrong form, a return path outside the console).
    pub fn from_text(text: &str) -> Option<Pending> {
        if text.len() > MAX_TEXT {
            return None;
        }
        let pairs = form::pairs(text)?;
        let get = |key| form::value(&pairs, key);
        if get("v")? != VERSION {
            return None;
        }
        let flag = |key| match get(key)? {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        // Checked again as discovery checked them: the carrier is the console's, but a value
        // read back is still input.
        let endpoint = |key| get(key).filter(|url| provider_url(url)).map(String::from);
        // Both absent from a text the endpoints would have made too long (`to_text`).
        let (issuer, endpoints) = match get("issuer") {
            None => (String::new(), None),
            Some(_) => (
                endpoint("issuer")?,
                Some(Endpoints {
                    authorization: endpoint("authorization")?,
                    token: endpoint("token")?,
                    jwks: endpoint("jwks")?,
                    end_session: match get("end_session")? {
                        "" => None,
                        _ => Some(endpoint("end_session")?),
                    },
                    iss_in_answers: flag("iss")?,
                }),
            ),
        };
        let pending = Pending {
            state: get("state").filter(|s| is_random(s))?.to_string(),
            nonce: get("nonce").filter(|s| is_random(s))?.to_string(),
            verifier: get("verifier")
                .filter(|s| pkce::is_verifier(s))?
                .to_string(),
            return_to: super::return_path::inside(get("return_to")?)?.to_string(),
            created_ms: get("created")?.parse().ok()?,
            silent: flag("silent")?,
            issuer,
            endpoints,
        };
        Some(pending)
    }
}

/// Whether `state` has the form of this core's states (22 base64url characters): an answer's
/// `state` of another form is not looked up in the carrier at all.
pub fn is_state(state: &str) -> bool {
    is_random(state)
}

/// The form of the state and the nonce this core makes: 16 random bytes, 22 base64url characters.
fn is_random(text: &str) -> bool {
    text.len() == 22 && base64url::decode(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "https://id.example/realms/master";

    fn endpoints() -> Endpoints {
        let at = |path: &str| format!("{ISSUER}/protocol/openid-connect/{path}");
        Endpoints {
            authorization: at("auth"),
            token: at("token"),
            jwks: at("certs"),
            end_session: Some(at("logout")),
            iss_in_answers: true,
        }
    }

    fn new(return_to: &str, now_ms: u64, silent: bool) -> Pending {
        Pending::new(&random(), return_to, now_ms, silent, ISSUER, &endpoints())
    }

    fn random() -> [u8; RANDOM_BYTES] {
        let mut bytes = [0u8; RANDOM_BYTES];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i * 37 + 11) as u8;
        }
        bytes
    }

    #[test]
    fn made_from_random_bytes_and_read_back_exactly() {
        let pending = new("/records/articles?q=vitamin%20d&limit=10", 1_000, true);
        assert_eq!(pending.state.len(), 22);
        assert_eq!(pending.nonce.len(), 22);
        assert_ne!(pending.state, pending.nonce);
        assert!(crate::oidc::pkce::is_verifier(&pending.verifier));
        assert!(is_state(&pending.state));
        assert_eq!(
            Pending::from_text(&pending.to_text()),
            Some(pending.clone())
        );
        let other = Pending {
            silent: false,
            endpoints: Some(Endpoints {
                end_session: None,
                iss_in_answers: false,
                ..endpoints()
            }),
            ..pending
        };
        assert_eq!(Pending::from_text(&other.to_text()), Some(other));
    }

    #[test]
    fn the_endpoints_come_back_for_the_issuer_they_were_read_from() {
        let pending = Pending::from_text(&new("/", 0, true).to_text()).unwrap();
        assert_eq!(pending.endpoints_of(ISSUER), Some(&endpoints()));
        assert_eq!(
            pending.endpoints_of("https://other.example/realms/master"),
            None
        );
    }

    #[test]
    fn endpoints_too_long_for_the_carrier_are_left_out() {
        let long = format!("{ISSUER}/{}", "p".repeat(1900));
        let pending = Pending::new(
            &random(),
            "/",
            0,
            false,
            ISSUER,
            &Endpoints {
                authorization: long.clone(),
                token: long.clone(),
                ..endpoints()
            },
        );
        let text = pending.to_text();
        assert!(text.len() <= MAX_TEXT, "{}", text.len());
        let read = Pending::from_text(&text).unwrap();
        assert_eq!(read.endpoints, None);
        assert_eq!(read.endpoints_of(ISSUER), None);
        assert_eq!(read.state, pending.state);
    }

    #[test]
    fn an_endpoint_that_is_no_provider_url_is_nothing() {
        let good = new("/", 0, false).to_text();
        for (from, to) in [
            ("token=https", "token=javascript"),
            ("jwks=https%3A%2F%2F", "jwks=ftp%3A%2F%2F"),
            ("end_session=https", "end_session=data"),
            ("issuer=https", "issuer=http"),
        ] {
            let changed = good.replacen(from, to, 1);
            assert_ne!(changed, good, "{from}");
            assert_eq!(Pending::from_text(&changed), None, "{to}");
        }
    }

    #[test]
    fn a_return_outside_the_console_returns_to_its_start() {
        for outside in [
            "https://evil.example/",
            "//evil.example",
            "/\\evil.example",
            "/../x",
        ] {
            assert_eq!(new(outside, 0, false).return_to, "/", "{outside}");
        }
        let text = new("/household", 0, false)
            .to_text()
            .replace("return_to=%2Fhousehold", "return_to=%2F%2Fevil.example");
        assert_eq!(Pending::from_text(&text), None);
    }

    #[test]
    fn any_other_text_is_nothing() {
        let good = new("/", 5, false).to_text();
        assert!(Pending::from_text(&good).is_some());
        for (from, to) in [
            ("v=2", "v=1"),
            ("iss=1", "iss=yes"),
            ("silent=0", "silent=yes"),
            ("created=5", "created=-5"),
            ("&nonce=", "&nonce=x&old="),
        ] {
            let changed = good.replace(from, to);
            assert_ne!(changed, good, "{from}");
            assert_eq!(Pending::from_text(&changed), None, "{to}");
        }
        assert_eq!(Pending::from_text(""), None);
        assert_eq!(Pending::from_text(&"a".repeat(5000)), None);
        let state = Pending::from_text(&good).unwrap().state;
        assert_eq!(Pending::from_text(&good.replace(&state, "short")), None);
    }

    #[test]
    fn ten_minutes_at_most() {
        let pending = new("/", 1_000_000, false);
        assert!(!pending.expired(1_000_000));
        assert!(!pending.expired(1_000_000 + PENDING_TTL_MS));
        assert!(pending.expired(1_000_001 + PENDING_TTL_MS));
        assert!(pending.expired(999_999), "from the future");
    }
}
