//! Credentials, tokens and identities (interface.md part 5), as pure functions over answers.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;

use super::config::Api;
use super::error::ApiError;
use super::request::{Method, Request};
use super::transport::HttpResponse;

/// The lifetime of a token whose sign-in answer gives none, in seconds.
pub const DEFAULT_EXPIRES_IN: f64 = 3600.0;

/// Who signs in: a person or a machine. Kept in memory only, for renewal.
#[derive(Clone, PartialEq)]
pub enum Credentials {
    /// `system/login`.
    User {
        /// Username.
        username: String,
        /// Password.
        password: String,
    },
    /// `system/mtm`.
    Client {
        /// Client id.
        client_id: String,
        /// Client secret.
        client_secret: String,
    },
    /// A sign-in at the service's identity provider (issue 42): renewed with its refresh token
    /// at its token endpoint, the refresh token replaced by the one each answer rotates in.
    Provider(ProviderGrant),
    /// A session another tab of the same console handed over (issue 42 item 3): only its access
    /// token came, never a password or a refresh token, so this tab cannot renew it itself; the
    /// console asks that tab again before it expires ([`Client::adopt_handed`]).
    ///
    /// [`Client::adopt_handed`]: crate::Client::adopt_handed
    Handed,
}

/// What renews a sign-in at the identity provider (OAuth 2.0 refresh grant, RFC 6749 §6):
/// kept in memory only, like the other credentials.
#[derive(Clone, PartialEq)]
pub struct ProviderGrant {
    /// The provider's token endpoint (from its discovery document).
    pub token_endpoint: String,
    /// The console's client ID at the provider (a public client: no secret).
    pub client_id: String,
    /// The refresh token of the last answer.
    pub refresh_token: String,
    /// What signing out at the provider needs (RP-initiated logout), when it offers it.
    pub logout: Option<ProviderLogout>,
}

/// RP-initiated logout: a form posted to the provider's end-session endpoint, so the ID token
/// stays out of URLs (`larder_start::oidc::logout`).
#[derive(Clone, PartialEq)]
pub struct ProviderLogout {
    /// The provider's `end_session_endpoint`.
    pub end_session: String,
    /// The ID token of the sign-in (`id_token_hint`: the provider signs out without asking).
    pub id_token: String,
    /// Where the provider sends the browser back: the console's address.
    pub post_logout_redirect_uri: String,
}

impl ProviderGrant {
    /// The refresh request: a form POST with no custom header, so no CORS preflight (the same
    /// body as `larder_start::oidc::token::refresh_request`).
    pub fn refresh_request(&self, timeout_ms: u64) -> super::transport::HttpRequest {
        let body = format!(
            "grant_type=refresh_token&refresh_token={}&client_id={}",
            super::config::encode_component(&self.refresh_token),
            super::config::encode_component(&self.client_id),
        );
        super::transport::HttpRequest {
            method: "POST",
            url: self.token_endpoint.clone(),
            headers: vec![(
                "Content-Type".to_string(),
                "application/x-www-form-urlencoded".to_string(),
            )],
            body: Some(body),
            timeout_ms,
        }
    }

    /// The grant after `answer` (a refresh answer that succeeded): its new refresh token when
    /// it rotated one in, else this one.
    pub fn after(&self, answer: &HttpResponse) -> ProviderGrant {
        let rotated = serde_json::from_str::<Value>(&answer.body)
            .ok()
            .and_then(|body| body.get("refresh_token")?.as_str().map(str::to_string))
            .filter(|token| !token.is_empty());
        ProviderGrant {
            refresh_token: rotated.unwrap_or_else(|| self.refresh_token.clone()),
            ..self.clone()
        }
    }
}

impl std::fmt::Debug for Credentials {
    // Secrets never reach logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::User { username, .. } => write!(f, "User({username:?}, ***)"),
            Credentials::Client { client_id, .. } => write!(f, "Client({client_id:?}, ***)"),
            Credentials::Provider(grant) => write!(f, "Provider({:?}, ***)", grant.client_id),
            Credentials::Handed => write!(f, "Handed"),
        }
    }
}

impl Credentials {
    /// User credentials.
    pub fn user(username: impl Into<String>, password: impl Into<String>) -> Credentials {
        Credentials::User {
            username: username.into(),
            password: password.into(),
        }
    }

    /// Client credentials.
    pub fn client(client_id: impl Into<String>, client_secret: impl Into<String>) -> Credentials {
        Credentials::Client {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        }
    }

    /// Builds credentials from whatever a form holds; both kinds, neither, or half a pair is invalid.
    pub fn from_fields(
        username: &str,
        password: &str,
        client_id: &str,
        client_secret: &str,
    ) -> Result<Credentials, ApiError> {
        let user = pair("username", username, "password", password)?;
        let client = pair("client ID", client_id, "client secret", client_secret)?;
        match (user, client) {
            (Some(_), Some(_)) => Err(ApiError::InvalidCredentials(
                "Give either a username and password or a client ID and secret, not both.".into(),
            )),
            (Some((u, p)), None) => Ok(Credentials::user(u, p)),
            (None, Some((id, secret))) => Ok(Credentials::client(id, secret)),
            (None, None) => Err(ApiError::InvalidCredentials(
                "Give a username and password, or a client ID and secret.".into(),
            )),
        }
    }

    /// Checks the pair is complete (for credentials built directly).
    pub fn validate(&self) -> Result<(), ApiError> {
        let (a, b) = match self {
            Credentials::Handed => return Ok(()),
            Credentials::Provider(grant) => {
                return if grant.refresh_token.is_empty() || grant.token_endpoint.is_empty() {
                    Err(ApiError::InvalidCredentials(
                        "The identity provider gave no refresh token.".into(),
                    ))
                } else {
                    Ok(())
                };
            }
            Credentials::User { username, password } => {
                (("username", username), ("password", password))
            }
            Credentials::Client {
                client_id,
                client_secret,
            } => (("client ID", client_id), ("client secret", client_secret)),
        };
        pair(a.0, a.1, b.0, b.1)?.map(|_| ()).ok_or_else(|| {
            ApiError::InvalidCredentials(format!("The {} and {} are empty.", a.0, b.0))
        })
    }

    /// The sign-in request: no bearer token. Its endpoint and keys are the start-up module's
    /// (`larder_start::login::fields`), which sends the same request before this client exists.
    pub fn login_request(&self) -> Request {
        let (machine, name, secret) = match self {
            Credentials::User { username, password } => (false, username, password),
            // Never sent: a provider's grant renews at the provider
            // ([`ProviderGrant::refresh_request`]), a handed session by asking its tab again.
            Credentials::Provider(_) | Credentials::Handed => {
                return Request::new(Api::System, Method::Post(Value::Null), "system/login")
                    .without_token()
            }
            Credentials::Client {
                client_id,
                client_secret,
            } => (true, client_id, client_secret),
        };
        let (path, name_key, secret_key) = larder_start::login::fields(machine);
        let mut body = serde_json::Map::new();
        body.insert(name_key.into(), name.as_str().into());
        body.insert(secret_key.into(), secret.as_str().into());
        Request::new(Api::System, Method::Post(body.into()), path).without_token()
    }
}

fn pair<'a>(
    a_name: &str,
    a: &'a str,
    b_name: &str,
    b: &'a str,
) -> Result<Option<(&'a str, &'a str)>, ApiError> {
    match (a.trim().is_empty(), b.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Ok(Some((a.trim(), b))),
        (true, false) => Err(ApiError::InvalidCredentials(format!(
            "The {a_name} is missing."
        ))),
        (false, true) => Err(ApiError::InvalidCredentials(format!(
            "The {b_name} is missing."
        ))),
    }
}

/// A bearer token and when to stop using it.
#[derive(Clone, PartialEq)]
pub struct Token {
    /// The bearer value.
    pub value: String,
    /// Unix milliseconds after which it counts as expired (the safety margin already taken off).
    pub renew_at_ms: u64,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Token(***, renew_at_ms: {})", self.renew_at_ms)
    }
}

/// The safety margin in seconds: min(60, max(10, 0.1 * expires_in)).
pub fn safety_margin_secs(expires_in: f64) -> f64 {
    (0.1 * expires_in).clamp(10.0, 60.0)
}

/// Reads the token out of a sign-in answer received at `now_ms`.
pub fn token_from_answer(response: &HttpResponse, now_ms: u64) -> Result<Token, ApiError> {
    let failed = |detail: String| ApiError::Authentication {
        status: Some(response.status),
        detail,
        body: response.body.clone(),
    };
    if response.status != 200 {
        let failure = super::error::failure_from_answer(response.status, &response.body, None);
        let detail = if failure.detail.is_empty() {
            format!("Sign-in answered status {}.", response.status)
        } else {
            failure.detail
        };
        return Err(failed(detail));
    }
    let body: Value = serde_json::from_str(&response.body)
        .map_err(|e| failed(format!("The sign-in answer is not JSON: {e}")))?;
    let result = body.get("result").unwrap_or(&body);
    // The start-up module reads the same keys (`larder_start::token`).
    let value = larder_start::token::TOKEN_KEYS
        .iter()
        .find_map(|key| {
            result
                .get(*key)
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
        })
        .ok_or_else(|| {
            failed("The sign-in answer carries no token (token, access_token or jwt).".into())
        })?;
    let expires_in = match result.get("expires_in") {
        Some(Value::Number(n)) => n.as_f64(),
        // Whole seconds only: a float parser (4 KB) in the start-up module for a fraction of a
        // second in a string is not worth it; such an answer gets the default lifetime.
        Some(Value::String(s)) => s.trim().parse::<u32>().ok().map(f64::from),
        _ => None,
    }
    .filter(|e: &f64| e.is_finite() && *e >= 0.0)
    .unwrap_or(DEFAULT_EXPIRES_IN);
    let usable_secs = (expires_in - safety_margin_secs(expires_in)).max(0.0);
    Ok(Token {
        value: value.to_string(),
        renew_at_ms: now_ms.saturating_add((usable_secs * 1000.0) as u64),
    })
}

/// Who is signed in, for display and for showing or hiding screens (the service still decides).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    /// Whether the service knows the caller.
    pub authenticated: bool,
    /// The username of a person.
    pub username: Option<String>,
    /// The id of a machine client.
    pub client_id: Option<String>,
    /// Roles as production's route gates see them: realm and every client's roles, trimmed
    /// and lower-cased (`Expert` as a client role is `expert` here).
    pub roles: Vec<String>,
    /// The realm roles as the token spells them; only `admin` and `agent` spelled so let a
    /// caller act on households it does not own.
    pub realm_roles: Vec<String>,
    /// Where this came from.
    pub source: IdentitySource,
}

impl Identity {
    /// Whether `other` is the same person or machine client (the same username and client id;
    /// the roles may have changed between two reads).
    pub fn is_same_person(&self, other: &Identity) -> bool {
        self.username == other.username && self.client_id == other.client_id
    }
}

/// Where an [`Identity`] was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum IdentitySource {
    /// `system/ping` answered an object.
    #[default]
    Ping,
    /// Ping gave no identity ("pong"), so the token's claims were read.
    TokenClaims,
}

impl Identity {
    /// The name to show.
    pub fn display_name(&self) -> &str {
        self.username
            .as_deref()
            .or(self.client_id.as_deref())
            .unwrap_or("unknown")
    }
    /// Whether the identity holds `role` (compared lower-cased; ASCII case only: role names are
    /// ASCII, and Unicode's case tables would cost the start-up module 3 KB).
    pub fn has_role(&self, role: &str) -> bool {
        let role = role.trim().to_ascii_lowercase();
        self.roles.contains(&role)
    }

    /// Whether the service lets this caller act on households it does not own.
    pub fn overrides_household_ownership(&self) -> bool {
        self.realm_roles
            .iter()
            .any(|r| larder_contract::roles::HOUSEHOLD_OVERRIDE.contains(&r.as_str()))
    }

    /// From ping's `result`: an identity object, or `None` for a bare string such as "pong".
    pub fn from_ping(result: &Value) -> Option<Identity> {
        let object = result.as_object()?;
        let username = object
            .get("username")
            .and_then(Value::as_str)
            .map(str::to_string);
        let client_id = object
            .get("client_id")
            .and_then(Value::as_str)
            .map(str::to_string);
        let authenticated = object
            .get("authenticated")
            .and_then(Value::as_bool)
            .unwrap_or(username.is_some() || client_id.is_some());
        let roles = string_list(object.get("roles"));
        Some(Identity {
            authenticated,
            username,
            client_id,
            roles: roles
                .iter()
                .map(|r| r.trim().to_ascii_lowercase())
                .collect(),
            realm_roles: roles,
            source: IdentitySource::Ping,
        })
    }

    /// From a JWT's claims (`preferred_username`, `client_id`/`azp`, and the roles of
    /// `realm_access` and every client of `resource_access`); unverified.
    pub fn from_token(token: &str) -> Option<Identity> {
        let payload = token.split('.').nth(1)?;
        let claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?)
                .ok()?;
        let username = claims
            .get("preferred_username")
            .and_then(Value::as_str)
            .map(str::to_string);
        let client_id = if username.is_none() {
            claims
                .get("client_id")
                .or_else(|| claims.get("azp"))
                .and_then(Value::as_str)
                .map(str::to_string)
        } else {
            None
        };
        Some(Identity {
            authenticated: true,
            username,
            client_id,
            roles: larder_contract::roles::from_claims(&claims),
            realm_roles: larder_contract::roles::realm_roles(&claims),
            source: IdentitySource::TokenClaims,
        })
    }
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(result: Value) -> HttpResponse {
        HttpResponse::json(200, &json!({ "success": true, "result": result }))
    }

    #[test]
    fn the_same_person_whatever_their_roles_and_no_one_else() {
        let who = |username: Option<&str>, client_id: Option<&str>, role: &str| Identity {
            authenticated: true,
            username: username.map(Into::into),
            client_id: client_id.map(Into::into),
            roles: vec![role.into()],
            ..Identity::default()
        };
        let olivia = who(Some("olivia"), None, "user");
        assert!(olivia.is_same_person(&who(Some("olivia"), None, "admin")));
        assert!(!olivia.is_same_person(&who(Some("admin"), None, "admin")));
        assert!(!olivia.is_same_person(&who(None, Some("olivia"), "user")));
    }

    #[test]
    fn margin_for_several_lifetimes() {
        for (expires_in, margin) in [
            (50.0, 10.0),
            (120.0, 12.0),
            (1000.0, 60.0),
            (3600.0, 60.0),
            (0.0, 10.0),
        ] {
            assert_eq!(safety_margin_secs(expires_in), margin, "{expires_in}");
        }
        let cases = [
            (json!({"token": "t", "expires_in": 50}), 40_000),
            (json!({"token": "t", "expires_in": 120}), 108_000),
            (json!({"token": "t", "expires_in": 1000}), 940_000),
            (json!({"token": "t", "expires_in": 3600}), 3_540_000),
            (json!({"token": "t"}), 3_540_000),
            (json!({"token": "t", "expires_in": "120"}), 108_000),
            (json!({"token": "t", "expires_in": 5}), 0),
        ];
        for (result, usable_ms) in cases {
            assert_eq!(
                token_from_answer(&answer(result.clone()), 1_000)
                    .unwrap()
                    .renew_at_ms,
                1_000 + usable_ms,
                "{result}"
            );
        }
    }

    #[test]
    fn token_keys_in_order() {
        let read = |result: Value| token_from_answer(&answer(result), 0).map(|t| t.value);
        assert_eq!(
            read(json!({"token": "a", "access_token": "b", "jwt": "c"})).unwrap(),
            "a"
        );
        assert_eq!(read(json!({"access_token": "b", "jwt": "c"})).unwrap(), "b");
        assert_eq!(read(json!({"jwt": "c"})).unwrap(), "c");
        assert!(matches!(
            read(json!({"other": "x"})),
            Err(ApiError::Authentication {
                status: Some(200),
                ..
            })
        ));
        assert!(matches!(
            read(json!("pong")),
            Err(ApiError::Authentication { .. })
        ));
    }

    #[test]
    fn any_status_but_200_fails_with_status_and_body() {
        for status in [201, 204, 302, 401, 500] {
            let response = HttpResponse::json(
                status,
                &json!({"error": {"detail": "bad password"}, "result": {"token": "t"}}),
            );
            match token_from_answer(&response, 0) {
                Err(ApiError::Authentication {
                    status: Some(s),
                    body,
                    detail,
                }) => {
                    assert_eq!(s, status);
                    assert!(body.contains("bad password"));
                    if status >= 400 {
                        assert_eq!(detail, "bad password");
                    }
                }
                other => panic!("{status}: {other:?}"),
            }
        }
        let not_json = token_from_answer(&HttpResponse::text(200, "<html>"), 0);
        assert!(matches!(not_json, Err(ApiError::Authentication { .. })));
    }

    #[test]
    fn credential_combinations() {
        assert_eq!(
            Credentials::from_fields("ann", "pw", "", ""),
            Ok(Credentials::user("ann", "pw"))
        );
        assert_eq!(
            Credentials::from_fields("", "", "bot", "s"),
            Ok(Credentials::client("bot", "s"))
        );
        for (u, p, c, s) in [
            ("ann", "pw", "bot", "s"),
            ("", "", "", ""),
            ("ann", "", "", ""),
            ("", "pw", "", ""),
            ("", "", "bot", ""),
            ("", "", "", "s"),
            ("ann", "pw", "bot", ""),
        ] {
            assert!(
                matches!(
                    Credentials::from_fields(u, p, c, s),
                    Err(ApiError::InvalidCredentials(_))
                ),
                "{u} {p} {c} {s}"
            );
        }
        assert!(Credentials::user("", "x").validate().is_err());
        assert!(Credentials::client("a", "b").validate().is_ok());
        assert!(!format!("{:?}", Credentials::user("ann", "secret")).contains("secret"));
    }

    #[test]
    fn login_requests_carry_no_token() {
        let user = Credentials::user("ann", "pw").login_request();
        assert_eq!(
            (user.path.as_str(), user.authenticated),
            ("system/login", false)
        );
        assert_eq!(
            user.method,
            Method::Post(json!({"username": "ann", "password": "pw"}))
        );
        let client = Credentials::client("bot", "s").login_request();
        assert_eq!(client.path, "system/mtm");
        assert_eq!(
            client.method,
            Method::Post(json!({"client_id": "bot", "client_secret": "s"}))
        );
    }

    #[test]
    fn identity_from_ping_or_claims() {
        let ping = Identity::from_ping(
            &json!({"authenticated": true, "kind": "user", "username": "ann", "roles": ["admin"]}),
        )
        .unwrap();
        assert_eq!((ping.display_name(), ping.has_role("admin")), ("ann", true));
        assert_eq!(Identity::from_ping(&json!("pong")), None);
        let claims = URL_SAFE_NO_PAD.encode(
            json!({"preferred_username": "bob", "realm_access": {"roles": ["expert"]}}).to_string(),
        );
        let from_token = Identity::from_token(&format!("h.{claims}.s")).unwrap();
        assert_eq!(from_token.username.as_deref(), Some("bob"));
        assert_eq!(from_token.roles, vec!["expert".to_string()]);
        assert_eq!(from_token.source, IdentitySource::TokenClaims);
        let claims = URL_SAFE_NO_PAD.encode(
            json!({"preferred_username": "eve", "realm_access": {"roles": ["offline_access"]},
                   "resource_access": {"larder-console": {"roles": ["Expert"]}}})
            .to_string(),
        );
        let curator = Identity::from_token(&format!("h.{claims}.s")).unwrap();
        assert!(
            curator.has_role("expert"),
            "a client role, any case, counts for the gates"
        );
        assert!(!curator.overrides_household_ownership());
        assert_eq!(Identity::from_token("garbage"), None);
        assert_eq!(Identity::from_token("a.!!!.b"), None);
    }
}
