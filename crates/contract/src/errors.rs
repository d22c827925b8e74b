//! The error kinds of the API and their status and code, as wire-notes gives them.

/// The twelve error kinds callers recognise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// 400 `request/invalid`.
    Invalid,
    /// 401 `auth/unauthorized`.
    Authentication,
    /// 403 `auth/forbidden`.
    Authorization,
    /// 404 `resource/not_found`.
    NotFound,
    /// 405 `request/not_allowed`.
    NotAllowed,
    /// 409 `resource/conflict`.
    Conflict,
    /// 422 `request/unprocessable`.
    Data,
    /// 429 `quota/rate_limited`.
    RateLimit,
    /// 500 `server/internal`.
    Internal,
    /// 502 `upstream/bad_gateway`.
    BadGateway,
    /// 503 `upstream/unavailable`.
    ServiceUnavailable,
    /// 504 `upstream/timeout`.
    GatewayTimeout,
}

/// Every kind with its status, code and class-like title.
pub const ERROR_TABLE: [(ErrorKind, u16, &str, &str); 12] = [
    (ErrorKind::Invalid, 400, "request/invalid", "InvalidError"),
    (
        ErrorKind::Authentication,
        401,
        "auth/unauthorized",
        "AuthenticationError",
    ),
    (
        ErrorKind::Authorization,
        403,
        "auth/forbidden",
        "AuthorizationError",
    ),
    (
        ErrorKind::NotFound,
        404,
        "resource/not_found",
        "NotFoundError",
    ),
    (
        ErrorKind::NotAllowed,
        405,
        "request/not_allowed",
        "NotAllowedError",
    ),
    (
        ErrorKind::Conflict,
        409,
        "resource/conflict",
        "ConflictError",
    ),
    (ErrorKind::Data, 422, "request/unprocessable", "DataError"),
    (
        ErrorKind::RateLimit,
        429,
        "quota/rate_limited",
        "RateLimitError",
    ),
    (ErrorKind::Internal, 500, "server/internal", "InternalError"),
    (
        ErrorKind::BadGateway,
        502,
        "upstream/bad_gateway",
        "BadGatewayError",
    ),
    (
        ErrorKind::ServiceUnavailable,
        503,
        "upstream/unavailable",
        "ServiceUnavailableError",
    ),
    (
        ErrorKind::GatewayTimeout,
        504,
        "upstream/timeout",
        "GatewayTimeoutError",
    ),
];

impl ErrorKind {
    fn row(self) -> &'static (ErrorKind, u16, &'static str, &'static str) {
        ERROR_TABLE
            .iter()
            .find(|row| row.0 == self)
            .expect("every kind has a row")
    }

    /// The HTTP status of this kind.
    pub fn status(self) -> u16 {
        self.row().1
    }

    /// The slash-separated code, e.g. `resource/not_found`.
    pub fn code(self) -> &'static str {
        self.row().2
    }

    /// The class-like name, e.g. `NotFoundError`.
    pub fn name(self) -> &'static str {
        self.row().3
    }

    /// The kind of a code string, if it is one of the twelve.
    pub fn from_code(code: &str) -> Option<ErrorKind> {
        ERROR_TABLE
            .iter()
            .find(|row| row.2 == code)
            .map(|row| row.0)
    }

    /// The kind of an HTTP status, if it is one of the twelve.
    pub fn from_status(status: u16) -> Option<ErrorKind> {
        ERROR_TABLE
            .iter()
            .find(|row| row.1 == status)
            .map(|row| row.0)
    }

    /// Whether a request that failed this way may succeed when repeated (429 and 5xx).
    pub fn is_retryable(self) -> bool {
        self.status() == 429 || self.status() >= 500
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trips() {
        for (kind, status, code, _) in ERROR_TABLE {
            assert_eq!(ErrorKind::from_code(code), Some(kind));
            assert_eq!(ErrorKind::from_status(status), Some(kind));
            assert_eq!(kind.status(), status);
        }
        assert_eq!(ErrorKind::from_status(418), None);
        assert!(ErrorKind::RateLimit.is_retryable());
        assert!(!ErrorKind::Conflict.is_retryable());
    }
}
