//! The sign-in request, as the API client (`larder_api::Client::sign_in`) sends it.
//!
//! The start-up module sends it before the client's module has arrived and hands the answer
//! over; the client reads the answer (`Client::sign_in_answered_then`), so only the request is
//! written twice, and `tests/request.rs` holds the two equal.

use crate::json::string;

/// The API's path prefix, as in `larder_contract::API_PREFIX` (held equal by the test).
pub(crate) const API_PREFIX: &str = "/api/v1";

/// How long the sign-in may take when config.json says nothing: the contract's 30 s, as the
/// client's `DEFAULT_TIMEOUT_MS` (held equal by the test).
pub const TIMEOUT_MS: u32 = 30_000;

/// A sign-in request: POST `url` with the JSON `body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The URL to post to.
    pub url: String,
    /// The JSON body.
    pub body: String,
}

/// The sign-in for a person (`machine` false: username and password) or a machine client
/// (client ID and secret) at the systemic API's `system_base`. The name is trimmed, the
/// secret sent as typed, as the client does.
pub fn request(system_base: &str, machine: bool, name: &str, secret: &str) -> Request {
    let (endpoint, name_key, secret_key) = if machine {
        ("system/mtm", "client_id", "client_secret")
    } else {
        ("system/login", "username", "password")
    };
    let mut url = String::from(system_base.trim_end_matches('/'));
    url.push_str(API_PREFIX);
    url.push('/');
    url.push_str(endpoint);
    let mut body = String::from("{\"");
    body.push_str(name_key);
    body.push_str("\":");
    body.push_str(&string(name.trim()));
    body.push_str(",\"");
    body.push_str(secret_key);
    body.push_str("\":");
    body.push_str(&string(secret));
    body.push('}');
    Request { url, body }
}

/// Whether the form holds a whole pair: otherwise nothing is sent, and the console says what
/// is missing (the rule of `larder_api::Credentials::from_fields`).
pub fn complete(name: &str, secret: &str) -> bool {
    !name.trim().is_empty() && !secret.is_empty()
}
