//! Checks of the string-shaped types: free text, slugs, URNs, UUIDs, language and country codes,
//! URLs, dates and file types. Each answers the value as production stores it (trimmed,
//! normalised) or records why not.

use serde_json::{json, Value};

use super::formats::{
    is_date, is_datetime, is_valid_urn, normalise_file_type, normalise_url, parse_uuid, URN_PATTERN,
};
use super::problems::{fail, fail_ctx, Problems};
use crate::slug::is_valid_slug;

/// The value as a trimmed string, or a `string_type` problem.
pub(super) fn string<'a>(value: &'a Value, problems: &mut Problems) -> Option<&'a str> {
    match value {
        Value::String(s) => Some(s.trim()),
        _ => {
            fail(
                problems,
                "string_type",
                "Input should be a valid string".into(),
                value,
            );
            None
        }
    }
}

/// Checks a string's length in characters against `min` and `max`.
fn lengths(
    s: &str,
    min: u32,
    max: Option<u32>,
    value: &Value,
    problems: &mut Problems,
) -> Option<()> {
    let count = s.chars().count();
    if count < min as usize {
        let plural = if min == 1 { "" } else { "s" };
        return fail_ctx(
            problems,
            "string_too_short",
            format!("String should have at least {min} character{plural}"),
            value,
            json!({ "min_length": min }),
        )
        .map(|_| ());
    }
    if let Some(max) = max.filter(|max| count > *max as usize) {
        return fail_ctx(
            problems,
            "string_too_long",
            format!("String should have at most {max} characters"),
            value,
            json!({ "max_length": max }),
        )
        .map(|_| ());
    }
    Some(())
}

/// A `string_pattern_mismatch` problem unless `ok`.
fn pattern(ok: bool, pattern: &str, value: &Value, problems: &mut Problems) -> Option<()> {
    if ok {
        Some(())
    } else {
        fail_ctx(
            problems,
            "string_pattern_mismatch",
            format!("String should match pattern '{pattern}'"),
            value,
            json!({ "pattern": pattern }),
        )
        .map(|_| ())
    }
}

/// `Type::Str`: a string within its lengths, trimmed first where `trimmed`.
pub(super) fn check_text(
    value: &Value,
    min: u32,
    max: Option<u32>,
    trimmed: bool,
    problems: &mut Problems,
) -> Option<Value> {
    let s = match value.as_str() {
        Some(untouched) if !trimmed => untouched,
        _ => string(value, problems)?,
    };
    lengths(s, min, max, value, problems)?;
    Some(json!(s))
}

/// `Type::Slug`.
pub(super) fn check_slug(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    lengths(s, 1, Some(100), value, problems)?;
    pattern(
        is_valid_slug(s),
        "^[a-z0-9]+(?:[-_][a-z0-9]+)*$",
        value,
        problems,
    )?;
    Some(json!(s))
}

/// `Type::Urn`, of one type when `prefix` is given (`urn:guide:`).
pub(super) fn check_urn(
    value: &Value,
    prefix: Option<&str>,
    problems: &mut Problems,
) -> Option<Value> {
    let s = string(value, problems)?;
    lengths(s, 5, Some(255), value, problems)?;
    pattern(is_valid_urn(s), URN_PATTERN, value, problems)?;
    if let Some(prefix) = prefix.filter(|p| !s.starts_with(p)) {
        return fail(
            problems,
            "value_error",
            format!("Value error, must be a URN starting with {prefix}"),
            value,
        );
    }
    Some(json!(s))
}

/// `Type::Uuid`: any usual form, answered canonical.
pub(super) fn check_uuid(value: &Value, problems: &mut Problems) -> Option<Value> {
    let Some(s) = value.as_str() else {
        return fail(
            problems,
            "uuid_type",
            "UUID input should be a string, bytes or UUID object".into(),
            value,
        );
    };
    match parse_uuid(s) {
        Some(uuid) => Some(json!(uuid)),
        None => fail(
            problems,
            "uuid_parsing",
            "Input should be a valid UUID, invalid character or length".into(),
            value,
        ),
    }
}

/// `Type::Lang`: ISO 639-1.
pub(super) fn check_lang(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    let ok = s.len() == 2 && s.chars().all(|c| c.is_ascii_lowercase());
    pattern(ok, "^[a-z]{2}$", value, problems)?;
    Some(json!(s))
}

/// `Type::Country`: ISO 3166-1 alpha-2.
pub(super) fn check_country(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    let ok = s.len() == 2 && s.chars().all(|c| c.is_ascii_uppercase());
    pattern(ok, "^[A-Z]{2}$", value, problems)?;
    Some(json!(s))
}

/// `Type::Url`: an absolute http(s) URL, normalised.
pub(super) fn check_url(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    if s.len() > 2083 {
        return fail_ctx(
            problems,
            "url_too_long",
            "URL should have at most 2083 characters".into(),
            value,
            json!({"max_length": 2083}),
        );
    }
    match normalise_url(s) {
        Ok(url) => Some(json!(url)),
        Err("scheme") => fail_ctx(
            problems,
            "url_scheme",
            "URL scheme should be 'http' or 'https'".into(),
            value,
            json!({"expected_schemes": "'http' or 'https'"}),
        ),
        Err(error) => fail_ctx(
            problems,
            "url_parsing",
            format!("Input should be a valid URL, {error}"),
            value,
            json!({ "error": error }),
        ),
    }
}

/// `Type::Email`: what pydantic's `EmailStr` (email-validator) takes, in the parts a form can
/// get wrong: one `@`, a local part of at most 64 characters without spaces, and a domain of
/// dot-separated letter, digit and hyphen labels ending in a name of two or more letters. The
/// domain is stored lower-cased, as email-validator normalises it.
pub(super) fn check_email(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    match email_problem(s) {
        None => {
            let (local, domain) = s.rsplit_once('@').unwrap_or((s, ""));
            Some(json!(format!("{local}@{}", domain.to_ascii_lowercase())))
        }
        Some(reason) => fail(
            problems,
            "value_error",
            format!("value is not a valid email address: {reason}"),
            value,
        ),
    }
}

/// Why `s` is not an e-mail address, or `None`.
fn email_problem(s: &str) -> Option<&'static str> {
    let Some((local, domain)) = s.split_once('@') else {
        return Some("An email address must have an @-sign.");
    };
    if domain.contains('@') {
        return Some("An email address can only have one @-sign.");
    }
    if local.is_empty() {
        return Some("There must be something before the @-sign.");
    }
    if local.chars().count() > 64 {
        return Some("The email address is too long before the @-sign.");
    }
    let bad_local = |c: char| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '(' | ')' | ',' | ':' | ';' | '<' | '>' | '[' | ']' | '\\' | '"'
            )
    };
    if local.chars().any(bad_local)
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return Some("The email address contains invalid characters before the @-sign.");
    }
    if domain.is_empty() {
        return Some("There must be something after the @-sign.");
    }
    if domain.len() > 253 {
        return Some("The email address is too long after the @-sign.");
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return Some("The part after the @-sign is not valid. It should have a period.");
    }
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    if !labels.iter().all(label_ok) {
        return Some("The part after the @-sign contains invalid characters.");
    }
    let last = labels[labels.len() - 1];
    if last.chars().count() < 2 || !last.chars().all(char::is_alphabetic) {
        return Some(
            "The part after the @-sign is not valid. It is not within a valid top-level domain.",
        );
    }
    None
}

/// `Type::Date`: `YYYY-MM-DD`.
pub(super) fn check_date(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    if is_date(s) {
        Some(json!(s))
    } else {
        fail(
            problems,
            "date_from_datetime_parsing",
            "Input should be a valid date in the format YYYY-MM-DD".into(),
            value,
        )
    }
}

/// `Type::DateTime`: ISO-8601 date and time, or a date alone.
pub(super) fn check_datetime(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    if is_datetime(s) {
        Some(json!(s))
    } else {
        fail(
            problems,
            "datetime_from_date_parsing",
            "Input should be a valid datetime".into(),
            value,
        )
    }
}

/// `Type::FileType`: an extension, not empty.
pub(super) fn check_file_type(value: &Value, problems: &mut Problems) -> Option<Value> {
    let s = string(value, problems)?;
    let normalised = normalise_file_type(s);
    if normalised.is_empty() {
        return fail(
            problems,
            "value_error",
            "Value error, file_type must not be empty".into(),
            value,
        );
    }
    Some(json!(normalised))
}
