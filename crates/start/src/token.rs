//! The token of a sign-in's answer and the requests made with it, one rule for both modules:
//! the API client reads the answer's token with [`TOKEN_KEYS`] (`larder_api::auth`), and the
//! start-up module reads the same keys when it sends the first reads the token allows
//! (`system/ping` and, for "My household", `households/me`) the moment it arrives.

/// The API's path prefix, as in `larder_contract::API_PREFIX` (held equal by the test).
const API_PREFIX: &str = "/api/v1";

/// Where the sign-in's answer may hold its token, in order, inside `result` when the answer has
/// one: the reference service's `token`, Keycloak's `access_token` (production), `jwt`.
pub const TOKEN_KEYS: [&str; 3] = ["token", "access_token", "jwt"];

/// The token of a sign-in answer, `read(key)` giving the text of each key of its `result` (or
/// of the answer itself, when it has no `result`): the first that is not empty.
pub fn token(read: impl Fn(&str) -> Option<String>) -> Option<String> {
    TOKEN_KEYS
        .iter()
        .find_map(|key| read(key).filter(|t| !t.is_empty()))
}

/// `GET <path>` of the systemic API at `system_base`: `system/ping`, `households/me`.
pub fn system_url(system_base: &str, path: &str) -> String {
    let mut url = String::from(system_base.trim_end_matches('/'));
    url.push_str(API_PREFIX);
    url.push('/');
    url.push_str(path);
    url
}

/// Who signed in (the client's identity question).
pub const PING: &str = "system/ping";
/// The caller's own household.
pub const OWN_HOUSEHOLD: &str = "households/me";

/// The `Authorization` header's value for `token`.
pub fn bearer(token: &str) -> String {
    let mut value = String::from("Bearer ");
    value.push_str(token);
    value
}
