//! Correlation headers (production.md §10.7): every answer carries an `X-Request-Id`, the
//! caller's when it is one production would honour (`^[A-Za-z0-9._:-]{1,64}$`), else a fresh
//! uuid4 in hex as production makes one; `X-Client` (`^[A-Za-z0-9._:/+-]{1,64}$`, such as
//! `larder/0.1.0`) is kept when valid and dropped otherwise. Both are written on the request
//! for the trace span (each answer's log line names them, `app::router`), and never used to
//! decide anything.
//!
//! Production's later systemic service (wisefood-api src/middleware.py, src/context.py) adopts
//! and echoes the id and exposes it to CORS; this layer is outside every other one, CORS
//! included, so preflights, routing misses, maintenance and fault answers carry it too.

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// `X-Request-Id`.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// `X-Client`: who the caller says it is.
pub const CLIENT: HeaderName = HeaderName::from_static("x-client");
/// `X-Client-Session`: a client's session, same rule as the request id.
pub const CLIENT_SESSION: HeaderName = HeaderName::from_static("x-client-session");

fn within(value: &str, extra: &[u8]) -> bool {
    (1..=64).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || extra.contains(&b))
}

/// Whether production would honour `value` as a request id (or a client session).
pub fn is_valid_request_id(value: &str) -> bool {
    within(value, b"._:-")
}

/// Whether production would keep `value` as a client label.
pub fn is_valid_client(value: &str) -> bool {
    within(value, b"._:/+-")
}

/// A fresh request id: a uuid4 in hex, as production makes one.
pub fn fresh() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The request's id, adopted or made, written on the request and on its answer.
pub async fn tag(mut request: Request, next: Next) -> Response {
    let headers = request.headers_mut();
    let id = headers
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_valid_request_id(v))
        .map(str::to_string)
        .unwrap_or_else(fresh);
    let value = HeaderValue::from_str(&id).unwrap_or_else(|_| HeaderValue::from_static("-"));
    headers.insert(REQUEST_ID, value.clone());
    for (name, valid) in [
        (CLIENT, is_valid_client as fn(&str) -> bool),
        (CLIENT_SESSION, is_valid_request_id),
    ] {
        let keep = headers
            .get(&name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(valid);
        if !keep {
            headers.remove(&name);
        }
    }
    let mut response = next.run(request).await;
    response.headers_mut().insert(REQUEST_ID, value);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_patterns() {
        assert!(is_valid_request_id("larder-1.2:abc_DEF"));
        assert!(is_valid_request_id(&"a".repeat(64)));
        for bad in ["", "has space", "slash/no", &"a".repeat(65), "é"] {
            assert!(!is_valid_request_id(bad), "{bad:?}");
        }
        assert!(is_valid_client("larder/0.1.0+build"));
        assert!(!is_valid_client("larder 0.1"));
        assert_eq!(fresh().len(), 32);
        assert!(is_valid_request_id(&fresh()));
    }
}
