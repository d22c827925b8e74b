//! The one error type of the client, and the interpretation of failing answers.

use std::fmt;

use larder_contract::ErrorKind;
use serde_json::{Map, Value};

/// Everything a call can fail with.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// The service answered with a failure (status >= 400, or `success: false`).
    Api(Box<ApiFailure>),
    /// The request never got an answer (connection refused, DNS, CORS, dropped connection).
    Network(String),
    /// No answer within the timeout.
    Timeout {
        /// The timeout that ran out, in milliseconds.
        after_ms: u64,
    },
    /// The answer was a success but its body was not what the contract promises.
    Decode {
        /// Where in the JSON it failed, e.g. `result[3].title`.
        path: String,
        /// What was wrong there.
        message: String,
    },
    /// Credentials that cannot be used: both kinds at once, or an incomplete pair. Nothing was sent.
    InvalidCredentials(String),
    /// Sign-in failed, or a token could not be had.
    Authentication {
        /// The sign-in's HTTP status, when there was an answer.
        status: Option<u16>,
        /// What the service said, or why no token was found.
        detail: String,
        /// The raw body of the sign-in answer.
        body: String,
    },
    /// The call itself was wrong (e.g. a body on GET); nothing was sent.
    Caller(String),
    /// The caller cancelled the call (e.g. during a retry wait).
    Cancelled,
}

/// A failure answered by the service, with everything the envelope carried.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ApiFailure {
    /// One of the twelve kinds, or `None` for another failing status.
    pub kind: Option<ErrorKind>,
    /// The HTTP status.
    pub status: u16,
    /// The class-like title, e.g. `NotFoundError` or `InvalidPagination`.
    pub title: String,
    /// The service's sentence.
    pub detail: String,
    /// The slash-separated code.
    pub code: String,
    /// Field-level problems (`errors`, or a bare validation body's `detail` list).
    pub errors: Option<Value>,
    /// Further keys of the `error` object.
    pub extra: Map<String, Value>,
    /// The envelope's `help` URL.
    pub help: Option<String>,
    /// The raw body.
    pub body: String,
    /// `Retry-After`, in seconds, when the answer had one.
    pub retry_after_secs: Option<u64>,
    /// The `X-Request-Id` of the attempt this answers (the service's echo, else the id sent):
    /// what the service's log names it by, for support.
    pub request_id: Option<String>,
}

impl ApiFailure {
    /// Whether repeating the request may succeed (429 and 5xx).
    pub fn is_retryable(&self) -> bool {
        self.status == 429 || self.status >= 500
    }

    /// The kind's class-like name (`NotFoundError`), or `ApiError` for other statuses.
    pub fn kind_name(&self) -> &'static str {
        self.kind.map(ErrorKind::name).unwrap_or("ApiError")
    }

    /// Field problems as `(field, message)` pairs, for putting errors next to form fields.
    pub fn field_errors(&self) -> Vec<(String, String)> {
        let Some(Value::Array(items)) = &self.errors else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| {
                let message = item
                    .get("msg")
                    .or_else(|| item.get("message"))?
                    .as_str()?
                    .to_string();
                // The top-level field the problem is in: `["body", "geographic_context",
                // "income_setting"]` belongs to the form's `geographic_context`.
                let field = match item.get("loc") {
                    Some(Value::Array(loc)) => loc
                        .iter()
                        .filter_map(Value::as_str)
                        .find(|s| !matches!(*s, "body" | "query" | "path"))?,
                    _ => item.get("field")?.as_str()?,
                };
                Some((field.to_string(), message))
            })
            .collect()
    }
}

impl ApiError {
    /// The failure, when the service answered one.
    pub fn failure(&self) -> Option<&ApiFailure> {
        match self {
            ApiError::Api(failure) => Some(failure),
            _ => None,
        }
    }

    /// The HTTP status, when there was an answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Api(failure) => Some(failure.status),
            ApiError::Authentication { status, .. } => *status,
            _ => None,
        }
    }

    /// Whether the service has no such route: a 405, or a 404 without the envelope (a web
    /// framework's bare `{"detail": "Not Found"}`), as production answers for what only the
    /// interface asks for (artifact listing, enhance beyond articles). A missing record is a 404
    /// in the envelope and is not this.
    pub fn is_not_offered(&self) -> bool {
        self.failure()
            .is_some_and(|f| f.status == 405 || (f.status == 404 && f.code.is_empty()))
    }

    /// Whether this is one of the twelve kinds.
    pub fn is_kind(&self, kind: ErrorKind) -> bool {
        self.failure().is_some_and(|f| f.kind == Some(kind))
    }

    /// Whether repeating the request may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            ApiError::Api(failure) => failure.is_retryable(),
            ApiError::Network(_) | ApiError::Timeout { .. } => true,
            _ => false,
        }
    }

    /// A short title for a toast.
    pub fn title(&self) -> String {
        match self {
            ApiError::Api(failure) if !failure.title.is_empty() => failure.title.clone(),
            ApiError::Api(failure) => failure.kind_name().to_string(),
            ApiError::Network(_) => "Network error".into(),
            ApiError::Timeout { .. } => "Timed out".into(),
            ApiError::Decode { .. } => "Unexpected answer".into(),
            ApiError::InvalidCredentials(_) => "Invalid credentials".into(),
            ApiError::Authentication { .. } => "Sign-in failed".into(),
            ApiError::Caller(_) => "Invalid request".into(),
            ApiError::Cancelled => "Cancelled".into(),
        }
    }

    /// A sentence for people.
    pub fn detail(&self) -> String {
        match self {
            ApiError::Api(failure) if !failure.detail.is_empty() => failure.detail.clone(),
            ApiError::Api(failure) => {
                format!("The service answered with status {}.", failure.status)
            }
            ApiError::Network(message) => format!("The service could not be reached: {message}"),
            ApiError::Timeout { after_ms } => format!("No answer within {} s.", after_ms / 1000),
            ApiError::Decode { path, message } => {
                format!("The answer could not be read at {path}: {message}")
            }
            ApiError::InvalidCredentials(message) | ApiError::Caller(message) => message.clone(),
            ApiError::Authentication { detail, .. } => detail.clone(),
            ApiError::Cancelled => "The request was cancelled.".into(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.title(), self.detail())
    }
}

impl std::error::Error for ApiError {}

/// Builds the failure for an answer with a failing status (or `success: false`).
pub fn failure_from_answer(status: u16, body: &str, retry_after_secs: Option<u64>) -> ApiFailure {
    let mut failure = ApiFailure {
        status,
        body: body.to_string(),
        retry_after_secs,
        ..ApiFailure::default()
    };
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(mut object)) => {
            failure.help = object
                .get("help")
                .and_then(Value::as_str)
                .map(str::to_string);
            match object.remove("error") {
                Some(Value::Object(mut error)) => {
                    failure.title = take_string(&mut error, "title");
                    failure.detail = take_string(&mut error, "detail");
                    failure.code = take_string(&mut error, "code");
                    failure.errors = error.remove("errors").filter(|e| !e.is_null());
                    failure.extra = error;
                }
                Some(Value::String(message)) => failure.detail = message,
                _ => match object.remove("detail") {
                    // FastAPI's bare validation body: {"detail": [{loc, msg}, ...]}.
                    Some(Value::Array(items)) => {
                        failure.detail = validation_detail(&items);
                        failure.errors = Some(Value::Array(items));
                        failure.kind = Some(ErrorKind::Data);
                    }
                    Some(Value::String(message)) => failure.detail = message,
                    _ => {}
                },
            }
        }
        _ => failure.detail = summarise_text(body),
    }
    if failure.kind.is_none() {
        failure.kind =
            ErrorKind::from_code(&failure.code).or_else(|| ErrorKind::from_status(status));
    }
    failure
}

fn take_string(object: &mut Map<String, Value>, key: &str) -> String {
    match object.remove(key) {
        Some(Value::String(text)) => text,
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `body.title: field required; query.limit: must be positive`.
fn validation_detail(items: &[Value]) -> String {
    items
        .iter()
        .map(|item| {
            let location = match item.get("loc") {
                Some(Value::Array(parts)) => parts
                    .iter()
                    .map(|p| {
                        p.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| p.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join("."),
                _ => String::new(),
            };
            let message = item.get("msg").and_then(Value::as_str).unwrap_or("invalid");
            if location.is_empty() {
                message.to_string()
            } else {
                format!("{location}: {message}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The first part of a non-JSON body (an HTML error page, say), as plain text.
/// The readable text of a non-JSON body, shortened: a proxy's HTML error page becomes its words
/// (the markup is dropped, never interpreted), so people read "Bad Gateway", not tags.
fn summarise_text(body: &str) -> String {
    let text = if body.trim_start().starts_with('<') {
        words_of_markup(body)
    } else {
        body.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The text between tags, whitespace collapsed, without the content of `<script>` and `<style>`.
fn words_of_markup(markup: &str) -> String {
    let mut words = String::new();
    let mut rest = markup;
    let mut inside_code = false;
    while let Some(open) = rest.find('<') {
        if !inside_code {
            words.push_str(&rest[..open]);
            words.push(' ');
        }
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[open + 1..open + close].trim().to_ascii_lowercase();
        let closing = tag.starts_with('/');
        let name = tag.trim_start_matches('/');
        if name.starts_with("script") || name.starts_with("style") {
            inside_code = !closing;
        }
        rest = &rest[open + close + 1..];
    }
    if !inside_code {
        words.push_str(rest);
    }
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::errors::ERROR_TABLE;

    #[test]
    fn an_html_error_page_reads_as_its_words() {
        let page =
            "<html><head><title>502 Bad Gateway</title><style>h1{color:red}</style></head>\n\
                    <body><h1>Bad  Gateway</h1><script>alert(1)</script><p>nginx</p></body></html>";
        let failure = failure_from_answer(502, page, None);
        assert_eq!(failure.detail, "502 Bad Gateway Bad Gateway nginx");
        assert_eq!(failure.body, page, "the raw body is kept as it came");
        assert_eq!(failure.kind, Some(ErrorKind::BadGateway));
        assert_eq!(summarise_text("  plain\n text  "), "plain text");
        assert_eq!(summarise_text("<unclosed"), "");
    }

    #[test]
    fn every_code_and_status_maps_to_its_kind() {
        for (kind, status, code, _) in ERROR_TABLE {
            let body = format!(
                r#"{{"success":false,"error":{{"title":"T","detail":"D","code":"{code}"}},"help":"h"}}"#
            );
            let failure = failure_from_answer(status, &body, None);
            assert_eq!(failure.kind, Some(kind));
            assert_eq!(
                (
                    failure.title.as_str(),
                    failure.detail.as_str(),
                    failure.help.as_deref()
                ),
                ("T", "D", Some("h"))
            );
            // The code wins over the status.
            assert_eq!(failure_from_answer(400, &body, None).kind, Some(kind));
            // Without a code, the status decides.
            assert_eq!(failure_from_answer(status, "{}", None).kind, Some(kind));
        }
        let other = failure_from_answer(418, "{}", None);
        assert_eq!(other.kind, None);
        assert_eq!(other.kind_name(), "ApiError");
    }

    #[test]
    fn non_json_and_odd_bodies_keep_status_and_text() {
        let html = failure_from_answer(502, "<html><body>Bad gateway</body></html>", None);
        assert_eq!(html.kind, Some(ErrorKind::BadGateway));
        assert!(html.detail.contains("Bad gateway"));
        assert_eq!(html.body, "<html><body>Bad gateway</body></html>");
        let list = failure_from_answer(500, "[1,2]", None);
        assert_eq!(list.status, 500);
        let string_error = failure_from_answer(400, r#"{"error":"nope"}"#, None);
        assert_eq!(string_error.detail, "nope");
    }

    #[test]
    fn bare_validation_bodies_are_data_errors() {
        let body = r#"{"detail":[{"loc":["body","title"],"msg":"field required"},{"loc":["query","limit",0],"msg":"bad"}]}"#;
        let failure = failure_from_answer(400, body, None);
        assert_eq!(failure.kind, Some(ErrorKind::Data));
        assert_eq!(
            failure.detail,
            "body.title: field required; query.limit.0: bad"
        );
        assert_eq!(
            failure.field_errors()[0],
            ("title".to_string(), "field required".to_string())
        );
    }

    #[test]
    fn extra_keys_are_kept() {
        let body = r#"{"error":{"title":"X","detail":"Y","code":"request/invalid","errors":[{"loc":["body","urn"],"msg":"bad slug"}],"hint":"z"}}"#;
        let failure = failure_from_answer(400, body, Some(3));
        assert_eq!(failure.extra.get("hint"), Some(&Value::from("z")));
        assert_eq!(
            failure.field_errors(),
            vec![("urn".to_string(), "bad slug".to_string())]
        );
        assert_eq!(failure.retry_after_secs, Some(3));
        assert!(!failure.is_retryable());
        assert!(failure_from_answer(503, "", None).is_retryable());
    }
}
