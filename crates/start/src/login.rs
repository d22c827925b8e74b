//! The sign-in, one rule for both modules: the start-up module sends it before the console's
//! module has arrived, and the API client (`larder_api::Credentials::login_request`) builds its
//! own from the same [`fields`] when it signs in again (a renewal, the re-sign-in dialog).
//! What a form lacks ([`missing`]) and what a refused sign-in says ([`failure_detail`]) are the
//! client's rules too, so the start-up module shows them without waiting for the console.

use crate::json::string;

/// How long the sign-in may take when config.json says nothing: the contract's 30 s, as the
/// client's `DEFAULT_TIMEOUT_MS` (held equal by the test).
pub const TIMEOUT_MS: u32 = 30_000;

/// The endpoint and the body's two keys of a person's sign-in (`machine` false) or a machine
/// client's.
pub fn fields(machine: bool) -> (&'static str, &'static str, &'static str) {
    if machine {
        ("system/mtm", "client_id", "client_secret")
    } else {
        ("system/login", "username", "password")
    }
}

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
    let (endpoint, name_key, secret_key) = fields(machine);
    let url = crate::token::system_url(system_base, endpoint);
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

/// What the form lacks, as the key of the sentence that says so (an English text of the
/// catalogs); `None` for a whole pair, the only form that is sent. The console says the same
/// (`larder::error_text::missing_credentials`).
pub fn missing(machine: bool, name: &str, secret: &str) -> Option<&'static str> {
    match (machine, name.trim().is_empty(), secret.is_empty()) {
        (_, false, false) => None,
        (false, true, true) => Some("Give a username and password."),
        (false, true, false) => Some("The username is missing."),
        (false, false, true) => Some("The password is missing."),
        (true, true, true) => Some("Give a client ID and secret."),
        (true, true, false) => Some("The client ID is missing."),
        (true, false, true) => Some("The client secret is missing."),
    }
}

/// The sentence a refused sign-in (`status`, not 200) shows, as the client reads it: what the
/// service `said` (its `error.detail`, its `error` when that is a text, or its `detail` when
/// that is a text: `said` is the first of them), else the text of an answer that is not JSON
/// (`text`, `None` for JSON), whitespace collapsed and cut at 300 characters, else the status.
/// An HTML page (a proxy's) says nothing here: the client reads its words, the start-up module
/// shows the status. `tests/request.rs` holds this to the client's own reading.
pub fn failure_detail(status: u16, said: Option<String>, text: Option<&str>) -> String {
    if let Some(said) = said.filter(|s| !s.is_empty()) {
        return said;
    }
    if let Some(text) = text.filter(|t| !t.trim_start().starts_with('<')) {
        let mut words = String::new();
        for word in text.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
        if words.chars().count() > 300 {
            words = words.chars().take(300).collect();
            words.push('…');
        }
        if !words.is_empty() {
            return words;
        }
    }
    let mut detail = String::from("Sign-in answered status ");
    let mut digits = [0u8; 5];
    let mut n = status;
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for d in &digits[at..] {
        detail.push(char::from(*d));
    }
    detail.push('.');
    detail
}

/// Whether a refused sign-in is the service's word on the credentials (a 4xx but a throttle):
/// shown as it is. Other answers (5xx, 429, none) are the client's to try again with its
/// retries.
pub fn refused(status: u16) -> bool {
    (400..500).contains(&status) && status != 429 && status != 408
}
