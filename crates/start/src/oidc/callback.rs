//! The provider's answer, back at the console's address: `#code=…&state=…&iss=…`, or
//! `#error=…&state=…` (OpenID Connect Core §3.1.2.5 and §3.1.2.6, RFC 9207).
//!
//! The page clears the fragment from its history entry (`history.replaceState`) before anything
//! else, then takes the pending values from the carrier by the answer's `state`.

use super::pending::{is_state, Pending};
use super::{form, Failure};

/// The longest fragment read as an answer.
const MAX_ANSWER: usize = 8192;
/// The longest code taken.
const MAX_CODE: usize = 2048;
/// The longest error text kept from the provider (it is shown).
pub const MAX_ERROR_TEXT: usize = 300;

/// An answer of the provider, as it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callback {
    pub code: Option<String>,
    pub state: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

/// `text` cut to `max` bytes at a character boundary.
pub(crate) fn cut(text: &str, max: usize) -> String {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

impl Callback {
    /// The answer in a page's fragment (or query): `Ok(None)` when the page was not opened by
    /// the provider (no `code`, `error` or `state`: an ordinary load).
    pub fn read(fragment: &str) -> Result<Option<Callback>, Failure> {
        if fragment.len() > MAX_ANSWER {
            return Err(Failure::TooLarge);
        }
        let pairs = form::pairs(fragment).ok_or(Failure::Malformed("the answer"))?;
        let get = |key| form::value(&pairs, key).map(str::to_string);
        let callback = Callback {
            code: get("code"),
            state: get("state"),
            iss: get("iss"),
            error: get("error"),
            error_description: get("error_description"),
        };
        let ours = callback.code.is_some() || callback.error.is_some() || callback.state.is_some();
        Ok(ours.then_some(callback))
    }

    /// The `state` to look the pending values up by, when it has this core's form.
    pub fn pending_key(&self) -> Option<&str> {
        self.state.as_deref().filter(|s| is_state(s))
    }
}

/// The errors a silent sign-in answers when the provider's session is gone or wants the person
/// (OpenID Connect Core §3.1.2.6): the sign-in form, without an error.
const SESSION_REQUIRED: [&str; 4] = [
    "login_required",
    "interaction_required",
    "consent_required",
    "account_selection_required",
];

/// The code of an answer to `pending` (what the carrier gave back for the answer's `state`,
/// `None` when it had nothing), from the provider `issuer` whose answers carry `iss` when
/// `iss_in_answers`, at `now_ms`. The `state` is checked before anything else is believed, an
/// error answer included.
pub fn check(
    callback: &Callback,
    pending: Option<&Pending>,
    issuer: &str,
    iss_in_answers: bool,
    now_ms: u64,
) -> Result<String, Failure> {
    let pending = pending.ok_or(Failure::NotPending)?;
    if callback.state.as_deref() != Some(pending.state.as_str()) {
        return Err(Failure::StateMismatch);
    }
    if pending.expired(now_ms) {
        return Err(Failure::Expired);
    }
    match callback.iss.as_deref() {
        Some(iss) if iss != issuer => return Err(Failure::IssuerMismatch),
        None if iss_in_answers => return Err(Failure::IssuerMismatch),
        _ => {}
    }
    if let Some(error) = &callback.error {
        if pending.silent && SESSION_REQUIRED.contains(&error.as_str()) {
            return Err(Failure::SessionRequired);
        }
        return Err(Failure::Denied {
            error: cut(error, MAX_ERROR_TEXT),
            description: cut(
                callback.error_description.as_deref().unwrap_or_default(),
                MAX_ERROR_TEXT,
            ),
        });
    }
    match callback.code.as_deref() {
        Some(code) if code.len() > MAX_CODE => Err(Failure::TooLarge),
        Some(code) if !code.is_empty() && code.bytes().all(|b| b.is_ascii_graphic()) => {
            Ok(code.to_string())
        }
        _ => Err(Failure::MissingCode),
    }
}
