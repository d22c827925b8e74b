//! How an error reads: its title, and whether asking again may help. Shared by the pages'
//! error view and the start-up sign-in form. Pure: tested natively.

use larder_api::ApiError;

/// The title people read: a refusal says "Not allowed" (and the session stays).
pub fn error_title(error: &ApiError) -> String {
    if error.is_kind(larder_api::ErrorKind::Authorization) {
        "Not allowed".into()
    } else {
        error.title()
    }
}

/// Whether asking again may help: the service or the network failed, not the request itself.
pub fn worth_retrying(error: &ApiError) -> bool {
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
    }
}
