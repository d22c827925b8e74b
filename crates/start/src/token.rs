//! The owner's household, read by the start-up module the moment its sign-in's token arrives
//! (issue 24, the bookmark to "My household"): the request, as the API client sends it, and
//! the token it needs, as the client reads it from the sign-in's answer. The module shows the
//! household's name and its members' names at once, and hands the answer over to the console,
//! whose page reads it (`larder_api::households::own_household_answered`) instead of asking
//! again. `tests/request.rs` holds both rules to the client's own.

use crate::login::API_PREFIX;

/// `GET households/me` at the systemic API's `system_base`.
pub fn own_household_url(system_base: &str) -> String {
    let mut url = String::from(system_base.trim_end_matches('/'));
    url.push_str(API_PREFIX);
    url.push_str("/households/me");
    url
}

/// Where the sign-in's answer may hold its token, in the client's order
/// (`larder_api::auth::token_from_answer`), inside `result` when the answer has one.
pub const TOKEN_KEYS: [&str; 3] = ["token", "access_token", "jwt"];

/// The token of a sign-in answer, `read(key)` giving the text of each key of its `result` (or
/// of the answer itself, when it has no `result`): the first that is not empty.
pub fn token(read: impl Fn(&str) -> Option<String>) -> Option<String> {
    TOKEN_KEYS
        .iter()
        .find_map(|key| read(key).filter(|t| !t.is_empty()))
}

/// The `Authorization` header's value for `token`.
pub fn bearer(token: &str) -> String {
    let mut value = String::from("Bearer ");
    value.push_str(token);
    value
}
