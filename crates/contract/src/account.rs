//! A user's own account on the systemic service (production.md §10.4): the consent ledger and a
//! guest's claim of their account. Both work for any valid token; the user is always the token's.
//! Unlike the data service, these bodies ignore unknown keys.

use crate::types::{Field, Type};

/// The consent a console records when it names none (production's default `consent_type`).
pub const DEFAULT_CONSENT_TYPE: &str = "service_data_processing";
/// Characters of a `consent_type` (body and query alike).
pub const MAX_CONSENT_TYPE_CHARS: u32 = 64;
/// Characters of a consent `version` (`"1.0"`).
pub const MAX_CONSENT_VERSION_CHARS: u32 = 16;
/// Fewest characters of a claimed account's password.
pub const MIN_CLAIM_PASSWORD_CHARS: usize = 10;
/// Most characters of a claimed account's password.
pub const MAX_CLAIM_PASSWORD_CHARS: usize = 256;
/// Most characters of an e-mail address (RFC 5321's path limit, as production's `EmailStr`).
pub const MAX_EMAIL_CHARS: usize = 254;
/// Most characters of a first or a last name in a claim.
pub const MAX_CLAIM_NAME_CHARS: u32 = 100;
/// Consents one account may record (the reference service's cap; production has none): the
/// ledger is append-only, so it must end somewhere.
pub const MAX_CONSENTS_PER_ACCOUNT: usize = 1000;

/// `POST users/me/consent`: `{version, consent_type?}`.
pub const CONSENT_CREATE: &[Field] = &[
    Field::req(
        "version",
        Type::Str {
            min: 1,
            max: Some(MAX_CONSENT_VERSION_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "consent_type",
        Type::Str {
            min: 1,
            max: Some(MAX_CONSENT_TYPE_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
];

/// `POST users/me/claim` beside its password (checked untrimmed, see
/// [`password_problem`]): `{email, first_name?, last_name?}`.
pub const GUEST_CLAIM: &[Field] = &[
    Field::req(
        "email",
        Type::Str {
            min: 3,
            max: Some(MAX_EMAIL_CHARS as u32),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "first_name",
        Type::Str {
            min: 0,
            max: Some(MAX_CLAIM_NAME_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "last_name",
        Type::Str {
            min: 0,
            max: Some(MAX_CLAIM_NAME_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
];

/// The address a claim stores: trimmed and lower-cased, as production answers it.
pub fn normalised_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Why `email` (already normalised) is not an address a claim takes, or `None`. The rule is the
/// shape production's `EmailStr` insists on, without its deliverability lookups (no machine here
/// reaches a mail server): one `@`; a local part of 1–64 characters without spaces; a domain of
/// dot-separated labels of letters, digits and hyphens, at least two, none empty or edged by a
/// hyphen.
pub fn email_problem(email: &str) -> Option<&'static str> {
    if email.chars().count() > MAX_EMAIL_CHARS {
        return Some("The email address is too long.");
    }
    let Some((local, domain)) = email.split_once('@') else {
        return Some("An email address must have an @-sign.");
    };
    if local.is_empty() || local.chars().count() > 64 {
        return Some("The part before the @-sign is empty or too long.");
    }
    if local.chars().any(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '@' | '(' | ')' | ',' | ':' | ';' | '<' | '>' | '[' | ']' | '"' | '\\'
            )
    }) || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return Some("The part before the @-sign has characters an address cannot hold.");
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |label: &&str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    if labels.len() < 2 || !labels.iter().all(label_ok) {
        return Some("The part after the @-sign is not a valid domain name.");
    }
    None
}

/// Why `password` is not one a claim takes, or `None`: 10–256 characters, counted as sent.
pub fn password_problem(password: &str) -> Option<String> {
    let count = password.chars().count();
    if count < MIN_CLAIM_PASSWORD_CHARS {
        return Some(format!(
            "String should have at least {MIN_CLAIM_PASSWORD_CHARS} characters"
        ));
    }
    if count > MAX_CLAIM_PASSWORD_CHARS {
        return Some(format!(
            "String should have at most {MAX_CLAIM_PASSWORD_CHARS} characters"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        for good in [
            "ana@example.org",
            "a.b+c@sub.example.co.uk",
            "ω@παράδειγμα.ελ",
        ] {
            assert_eq!(email_problem(good), None, "{good}");
        }
        for bad in [
            "ana",
            "@example.org",
            "ana@",
            "ana@example",
            "ana@@example.org",
            "an a@example.org",
            "ana@exa mple.org",
            "ana@-example.org",
            "ana@example..org",
            ".ana@example.org",
            "ana:x@example.org",
        ] {
            assert!(email_problem(bad).is_some(), "{bad}");
        }
        assert!(email_problem(&format!("{}@example.org", "a".repeat(65))).is_some());
        assert_eq!(normalised_email("  Ana@Example.ORG "), "ana@example.org");
    }

    #[test]
    fn passwords_are_counted_as_sent() {
        assert!(password_problem("123456789").is_some());
        assert_eq!(password_problem(" 123456789"), None);
        assert_eq!(password_problem("ωωωωωωωωωω"), None);
        assert!(password_problem(&"x".repeat(257)).is_some());
    }
}
