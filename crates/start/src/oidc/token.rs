//! The token endpoint: the code exchange and the renewal (OpenID Connect Core §3.1.3, §12;
//! RFC 6749 §4.1.3, §6), and their answers.
//!
//! A public client sends no secret: the PKCE verifier proves the code is its own. The body is
//! `application/x-www-form-urlencoded` and nothing else is set but `Accept`, so the cross-origin
//! POST is a simple request, without a CORS preflight's round trip.

use super::callback::{cut, MAX_ERROR_TEXT};
use super::config::Settings;
use super::discovery::Endpoints;
use super::fields::{seconds, Fields};
use super::{form, Failure, MAX_ANSWER, MAX_TOKEN};

/// The content type of [`FormPost::body`].
pub const FORM_TYPE: &str = "application/x-www-form-urlencoded";

/// A POST of a form: to `url`, with `body` as [`FORM_TYPE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormPost {
    pub url: String,
    pub body: String,
}

/// The exchange of `code` (from [`super::callback::check`]) with the pending `verifier`, for the
/// same `redirect_uri` the authorization URL named.
pub fn code_request(
    endpoints: &Endpoints,
    settings: &Settings,
    redirect_uri: &str,
    code: &str,
    verifier: &str,
) -> FormPost {
    FormPost {
        url: endpoints.token.clone(),
        body: form::encode_pairs([
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("client_id", settings.client_id.as_str()),
            ("code_verifier", verifier),
        ]),
    }
}

/// The renewal with `refresh_token`. The provider rotates it: the answer's replaces it, and the
/// old one must never be sent again (a replay revokes the whole session at Keycloak with
/// "Revoke Refresh Token", and at the journeys' provider), so one tab renews at a time.
pub fn refresh_request(
    endpoints: &Endpoints,
    settings: &Settings,
    refresh_token: &str,
) -> FormPost {
    FormPost {
        url: endpoints.token.clone(),
        body: form::encode_pairs([
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", settings.client_id.as_str()),
        ]),
    }
}

/// The tokens of a successful answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    /// For the API (`Authorization: Bearer`).
    pub access_token: String,
    /// Seconds the access token lives, when the answer says.
    pub expires_in: Option<u64>,
    /// For the next renewal, when the provider gives one.
    pub refresh_token: Option<String>,
    /// The ID token: who signed in, for whom ([`super::id_token`]); also the sign-out's hint.
    pub id_token: Option<String>,
}

/// The answer of the token endpoint: its `status`, the length of its body in bytes, and the
/// body read as a JSON object (`None` when it is not one). A code exchange must bring an ID
/// token ([`Tokens::id_token`]); a renewal may not.
pub fn read_answer(
    status: u16,
    body_len: usize,
    body: Option<&impl Fields>,
) -> Result<Tokens, Failure> {
    if body_len > MAX_ANSWER {
        return Err(Failure::TooLarge);
    }
    let refused = |body: &dyn Fn(&str) -> Option<String>| {
        body("error").map(|error| Failure::Refused {
            error: cut(&error, MAX_ERROR_TEXT),
            description: cut(
                &body("error_description").unwrap_or_default(),
                MAX_ERROR_TEXT,
            ),
        })
    };
    let Some(body) = body else {
        return Err(match status {
            200..=299 | 400..=499 => Failure::Malformed("the token answer"),
            _ => Failure::Unavailable(status),
        });
    };
    if !(200..=299).contains(&status) {
        // RFC 6749 §5.2: 400 (or 401) with `error`; anything else is the provider failing.
        return Err(match (status, refused(&|key| body.text(key))) {
            (400..=499, Some(failure)) => failure,
            (400..=499, None) => Failure::Malformed("the token answer"),
            _ => Failure::Unavailable(status),
        });
    }
    let token = |key| -> Result<Option<String>, Failure> {
        match body.text(key) {
            Some(token) if token.len() > MAX_TOKEN => Err(Failure::TooLarge),
            Some(token) if !token.is_empty() && token.bytes().all(|b| b.is_ascii_graphic()) => {
                Ok(Some(token))
            }
            None if !body.has(key) => Ok(None),
            _ => Err(Failure::Malformed(key)),
        }
    };
    let access_token = token("access_token")?.ok_or(Failure::Malformed("access_token"))?;
    if !body
        .text("token_type")
        .is_some_and(|t| t.eq_ignore_ascii_case("bearer"))
    {
        return Err(Failure::Malformed("token_type"));
    }
    let expires_in = match body.has("expires_in") {
        true => Some(seconds(body, "expires_in").ok_or(Failure::Malformed("expires_in"))?),
        false => None,
    };
    Ok(Tokens {
        access_token,
        expires_in,
        refresh_token: token("refresh_token")?,
        id_token: token("id_token")?,
    })
}
