//! How an error reads: its title, and whether asking again may help. Shared by the pages'
//! error view and the start-up sign-in form. Pure: tested natively.

use larder_api::ApiError;

use crate::i18n::{t, tf};

/// The title people read, in the console's language: a refusal says "Not allowed" (and the
/// session stays); other failures the service answered keep the service's own title (its
/// words, like its detail); the client's own failures have theirs.
pub fn error_title(error: &ApiError) -> String {
    match error {
        _ if error.maintenance().is_some() => t("Closed for maintenance"),
        _ if error.daily_budget(0).is_some() => t("Daily limit reached"),
        _ if error.is_kind(larder_api::ErrorKind::Authorization) => t("Not allowed"),
        ApiError::Api(failure) if !failure.title.is_empty() => failure.title.clone(),
        ApiError::Api(failure) => tf("Error {status}", &[("status", &failure.status.to_string())]),
        ApiError::Network(_) => t("Network error"),
        ApiError::Timeout { .. } => t("Timed out"),
        ApiError::Decode { .. } => t("Unexpected answer"),
        ApiError::InvalidCredentials(_) => t("Invalid credentials"),
        ApiError::Authentication { .. } => t("Sign-in failed"),
        ApiError::Caller(_) => t("Invalid request"),
        ApiError::Cancelled => t("Cancelled"),
    }
}

/// The sentence people read: the service's own when it gave one, else the client's, in the
/// console's language.
pub fn error_detail(error: &ApiError) -> String {
    if let Some(closed) = error.maintenance() {
        let minutes = closed.retry_after_secs.div_ceil(60).max(1);
        return tf(
            "The service is closed for maintenance. Try again in {minutes} min.",
            &[("minutes", &minutes.to_string())],
        );
    }
    match error {
        ApiError::Api(failure) if failure.detail.is_empty() => tf(
            "The service answered with status {status}.",
            &[("status", &failure.status.to_string())],
        ),
        ApiError::Network(message) => tf(
            "The service could not be reached: {message}",
            &[("message", message)],
        ),
        ApiError::Timeout { after_ms } => tf(
            "No answer within {seconds} s.",
            &[("seconds", &(after_ms / 1000).to_string())],
        ),
        ApiError::Decode { path, message } => tf(
            "The answer could not be read at {path}: {message}",
            &[("path", path), ("message", message)],
        ),
        ApiError::Cancelled => t("The request was cancelled."),
        other => other.detail(),
    }
}

/// What is missing from a sign-in form, checked before anything is sent (the start-up
/// module's rule, `larder_start::login::missing`, in the console's language).
pub fn missing_credentials(machine: bool, name: &str, secret: &str) -> Option<String> {
    larder_start::login::missing(machine, name, secret).map(t)
}

/// Whether asking again may help: the service or the network failed, not the request itself.
/// A used-up daily budget is not: it resets the next day (the clock does not matter to that).
pub fn worth_retrying(error: &ApiError) -> bool {
    if error.daily_budget(0).is_some() {
        return false;
    }
    match error.status() {
        Some(status) => status == 429 || status >= 500 || (200..300).contains(&status),
        None => matches!(
            error,
            ApiError::Network(_) | ApiError::Timeout { .. } | ApiError::Decode { .. }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_not_allowed_and_network_trouble_is_worth_retrying() {
        let answer = |status, body: &str| {
            ApiError::Api(Box::new(larder_api::error::failure_from_answer(
                status, body, None,
            )))
        };
        let refused = answer(
            403,
            r#"{"success":false,"error":{"code":"auth/forbidden","message":"No."}}"#,
        );
        assert_eq!(error_title(&refused), "Not allowed");
        assert!(!worth_retrying(&refused));
        assert!(worth_retrying(&answer(503, "busy")));
        assert!(worth_retrying(&ApiError::Network("offline".into())));
        assert!(!worth_retrying(&answer(422, r#"{"detail":[]}"#)));
        assert_eq!(error_title(&answer(500, "")), "Error 500");
        assert_eq!(
            error_detail(&answer(500, "")),
            "The service answered with status 500."
        );
        assert_eq!(
            missing_credentials(false, " ", ""),
            Some("Give a username and password.".into())
        );
        assert_eq!(
            missing_credentials(true, "id", ""),
            Some("The client secret is missing.".into())
        );
        assert_eq!(missing_credentials(false, "a", "b"), None);
    }

    #[test]
    fn maintenance_and_a_daily_budget_are_said_as_such() {
        let answer = |status, body: &str, retry_after| {
            ApiError::Api(Box::new(larder_api::error::failure_from_answer(
                status,
                body,
                retry_after,
            )))
        };
        let closed = answer(
            503,
            r#"{"success":false,"error":{"code":"platform/maintenance","title":"Maintenance"}}"#,
            Some(300),
        );
        assert_eq!(error_title(&closed), "Closed for maintenance");
        assert_eq!(
            error_detail(&closed),
            "The service is closed for maintenance. Try again in 5 min."
        );
        assert!(worth_retrying(&closed), "Try again is offered");
        let budget = answer(
            429,
            r#"{"error":{"detail":"Create a free account to continue"}}"#,
            Some(40_000),
        );
        assert_eq!(error_title(&budget), "Daily limit reached");
        assert_eq!(error_detail(&budget), "Create a free account to continue");
        assert!(!worth_retrying(&budget));
        let throttled = answer(429, "{}", Some(7));
        assert!(worth_retrying(&throttled));
        assert_ne!(error_title(&throttled), "Daily limit reached");
    }
}
