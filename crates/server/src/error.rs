//! Every failure becomes the envelope of interface.md part 7, here and nowhere else.

use axum::extract::multipart::MultipartRejection;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use larder_contract::{ErrorBody, ErrorEnvelope, ErrorKind};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::sync::Arc;

use crate::wire::Dialect;

/// What an answer needs to know about the request it answers.
#[derive(Clone, Debug)]
pub struct RequestContext {
    /// The envelope's `help`: the request's URL under the configured public address.
    pub help: String,
    /// How the server's wire answers.
    pub dialect: &'static Dialect,
}

tokio::task_local! {
    /// The request being answered.
    pub static REQUEST: RequestContext;
}

fn help_url() -> String {
    REQUEST.try_with(|r| r.help.clone()).unwrap_or_default()
}

/// The dialect of the request being answered (the reference wire's outside a request).
pub fn dialect() -> &'static Dialect {
    REQUEST
        .try_with(|r| r.dialect)
        .unwrap_or(&crate::wire::REFERENCE)
}

/// A failure that the service answers with.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The slash-separated code.
    pub code: &'static str,
    /// A class-like title; the kind's name unless something more precise fits.
    pub title: String,
    /// A sentence for people.
    pub detail: String,
    /// Field-level problems.
    pub errors: Option<Box<Value>>,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
    /// Field problems found but not listed in `errors`.
    pub omitted: u32,
    /// Answered as FastAPI's bare `{"detail": ...}` (routing misses in the production wire).
    pub bare: bool,
    /// From the systemic service, whose validation answers carry no `errors` in production.
    pub systemic: bool,
}

/// What handlers return.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// An error of `kind` with its default title.
    pub fn new(kind: ErrorKind, detail: impl Into<String>) -> ApiError {
        ApiError {
            status: kind.status(),
            code: kind.code(),
            title: kind.name().to_string(),
            detail: detail.into(),
            errors: None,
            retry_after: None,
            omitted: 0,
            bare: false,
            systemic: false,
        }
    }
    /// A request-validation failure: production's 422 with pydantic's problem list.
    pub fn validation(problems: &larder_contract::validate::Problems) -> ApiError {
        ApiError {
            status: 422,
            code: ErrorKind::Data.code(),
            title: "RequestValidationError".into(),
            detail: "Validation failed".into(),
            errors: Some(Box::new(problems.to_json("body"))),
            retry_after: None,
            omitted: u32::try_from(problems.omitted()).unwrap_or(u32::MAX),
            bare: false,
            systemic: false,
        }
    }
    /// One problem at a top-level field, as a validation failure.
    pub fn invalid_field(field: &str, kind: &'static str, message: impl Into<String>) -> ApiError {
        let mut problems = larder_contract::validate::Problems::new();
        problems.at_field(field, kind, message);
        ApiError::validation(&problems)
    }
    /// One problem with query parameter `name`, as a validation failure (`loc` `["query", name]`).
    pub fn invalid_query(name: &str, kind: &str, message: impl Into<String>) -> ApiError {
        let message = message.into();
        let mut error = ApiError::invalid_field(name, "value_error", message.clone());
        error.errors = Some(Box::new(
            json!([{ "type": kind, "loc": ["query", name], "msg": message }]),
        ));
        error
    }
    /// FastAPI's bare answer for a path or method no route serves.
    pub fn bare(status: u16, detail: &str) -> ApiError {
        ApiError {
            bare: true,
            status,
            ..ApiError::new(ErrorKind::NotFound, detail)
        }
    }
    /// A path or method no route serves (`kind` says which), bare where the dialect answers
    /// such misses bare.
    pub fn routing_miss(kind: ErrorKind, detail: String) -> ApiError {
        if dialect().bare_routing_misses {
            ApiError::bare(kind.status(), &detail)
        } else {
            ApiError::new(kind, detail)
        }
    }
    /// Marks a failure of the systemic service.
    pub fn systemic(mut self) -> ApiError {
        self.systemic = true;
        self
    }
    /// 400.
    pub fn invalid(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Invalid, detail)
    }
    /// 401.
    pub fn unauthenticated(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Authentication, detail)
    }
    /// 403.
    pub fn forbidden(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Authorization, detail)
    }
    /// 404.
    pub fn not_found(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::NotFound, detail)
    }
    /// 409.
    pub fn conflict(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Conflict, detail)
    }
    /// 422 with one field problem.
    pub fn unprocessable(field: &str, message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError::new(ErrorKind::Data, format!("{field}: {message}"))
            .with_errors(json!([{ "loc": ["body", field], "msg": message }]))
    }
    /// 500, logging the cause and telling the caller nothing internal.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(%cause, "internal error");
        ApiError::new(
            ErrorKind::Internal,
            "The service failed to answer this request.",
        )
    }
    /// 500 in production's own words, where the production wire fails as production does (a
    /// value its storage cannot hold, a hit its schema refuses: realprod's ANSWERS.md, row 29):
    /// no fault of this service, so nothing is logged.
    pub fn failing_as_production() -> ApiError {
        ApiError::new(ErrorKind::Internal, "Internal Server Error")
    }
    /// Replaces the title.
    pub fn titled(mut self, title: &str) -> ApiError {
        self.title = title.to_string();
        self
    }
    /// Adds field-level problems.
    pub fn with_errors(mut self, errors: Value) -> ApiError {
        self.errors = Some(Box::new(errors));
        self
    }
    /// Adds a `Retry-After`.
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(error: rusqlite::Error) -> ApiError {
        // A member or profile written into a household (or member) deleted in the same instant,
        // by its owner or an erasure: the parent is gone, which is a 404, not a fault.
        if let rusqlite::Error::SqliteFailure(failure, _) = &error {
            if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY {
                return ApiError::not_found("What this write belongs to was deleted meanwhile.");
            }
        }
        if let rusqlite::Error::ToSqlConversionFailure(inner) = &error {
            if let Some(large) = inner.downcast_ref::<crate::store::RecordTooLarge>() {
                let mut answer = too_large();
                answer.detail = large.to_string();
                return answer;
            }
        }
        ApiError::internal(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if self.bare {
            return (status, Json(json!({ "detail": self.detail }))).into_response();
        }
        let mut extra = Map::new();
        if self.omitted > 0 {
            extra.insert("omitted_errors".into(), json!(self.omitted));
        }
        let errors = if self.systemic && !dialect().systemic_field_errors {
            None
        } else {
            self.errors.map(|e| *e)
        };
        let envelope = ErrorEnvelope {
            success: false,
            error: ErrorBody {
                title: self.title,
                detail: self.detail,
                code: self.code.to_string(),
                errors,
                extra,
            },
            help: help_url(),
        };
        let mut response = (status, Json(envelope)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert("retry-after", HeaderValue::from(seconds));
        }
        response
    }
}

/// A success: `{"help", "success": true, "result"}`.
pub struct Envelope<T>(pub T);

/// The envelope's fields in the order a JSON object of them is written (by name), serialised
/// straight from the result rather than through a copy of it as a `Value`.
#[derive(Serialize)]
struct EnvelopeBody<'a, T> {
    help: String,
    result: &'a T,
    success: bool,
}

impl<T: Serialize> IntoResponse for Envelope<T> {
    fn into_response(self) -> Response {
        Json(EnvelopeBody {
            help: help_url(),
            result: &self.0,
            success: true,
        })
        .into_response()
    }
}

/// A success whose result is JSON text already (a record from the cache of presented records).
pub struct RawEnvelope(pub Arc<str>);

impl IntoResponse for RawEnvelope {
    fn into_response(self) -> Response {
        let help = serde_json::to_string(&help_url()).unwrap_or_else(|_| "\"\"".into());
        let body = format!(r#"{{"help":{help},"result":{},"success":true}}"#, self.0);
        (
            [(
                axum::http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response()
    }
}

/// A created record: the envelope with the dialect's status for a create (201; production
/// answers every success with 200).
pub struct Created<T>(pub T);

impl<T: Serialize> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        (dialect().created, Envelope(self.0)).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let unreadable = |kind: &'static str, msg: String| {
            let mut problems = larder_contract::validate::Problems::new();
            problems.add(None, kind, msg, None, None);
            ApiError::validation(&problems)
        };
        match rejection {
            JsonRejection::JsonDataError(e) => ApiError::new(ErrorKind::Data, e.body_text())
                .with_errors(
                    json!([{ "type": "value_error", "loc": ["body"], "msg": e.body_text() }]),
                ),
            // FastAPI answers a body it cannot parse with a 422 `json_invalid`.
            JsonRejection::JsonSyntaxError(e) => unreadable(
                "json_invalid",
                format!("JSON decode error: {}", e.body_text()),
            ),
            JsonRejection::MissingJsonContentType(_) => unreadable(
                "model_attributes_type",
                "Expected a JSON body with Content-Type: application/json.".into(),
            ),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                too_large()
            }
            other => ApiError::invalid(other.body_text()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::new(ErrorKind::Data, rejection.body_text())
            .with_errors(json!([{ "loc": ["query"], "msg": rejection.body_text() }]))
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::invalid(rejection.body_text())
    }
}

impl From<MultipartRejection> for ApiError {
    fn from(rejection: MultipartRejection) -> ApiError {
        ApiError::invalid(format!(
            "Expected a multipart/form-data body: {}",
            rejection.body_text()
        ))
    }
}

/// 413: a body over the limit. No kind of the twelve has this status, so it is a generic failure.
pub fn too_large() -> ApiError {
    ApiError {
        status: 413,
        code: "request/too_large",
        title: "PayloadTooLarge".into(),
        detail: "The request body is larger than this service accepts.".into(),
        errors: None,
        retry_after: None,
        omitted: 0,
        bare: false,
        systemic: false,
    }
}

/// A body the parser refused, as the service answers it.
impl From<crate::bounded_json::ParseError> for ApiError {
    fn from(error: crate::bounded_json::ParseError) -> ApiError {
        use crate::bounded_json::ParseError;
        match error {
            ParseError::Syntax(error) => {
                let mut problems = larder_contract::validate::Problems::new();
                problems.add(
                    None,
                    "json_invalid",
                    format!("JSON decode error: {error}"),
                    None,
                    None,
                );
                ApiError::validation(&problems)
            }
            ParseError::OverBudget => {
                let mut answer = too_large();
                answer.detail = "The request body holds more values than this service parses \
                                 at once; send fewer items per call."
                    .into();
                answer
            }
            ParseError::TooDeep => {
                let mut answer = too_large();
                answer.detail = "The request body nests deeper than this service parses.".into();
                answer
            }
            ParseError::NotJson => {
                let mut problems = larder_contract::validate::Problems::new();
                problems.add(
                    None,
                    "model_attributes_type",
                    "Expected a JSON body with Content-Type: application/json.",
                    None,
                    None,
                );
                ApiError::validation(&problems)
            }
            ParseError::TooLarge => too_large(),
            ParseError::Unreadable(text) => ApiError::invalid(text),
        }
    }
}

impl IntoResponse for crate::bounded_json::ParseError {
    fn into_response(self) -> Response {
        ApiError::from(self).into_response()
    }
}

/// JSON body extractor whose rejections are envelopes. The body is parsed within
/// [`JSON_MEMORY_MIB`] of memory ([`crate::bounded_json`]) before it becomes a `T`: a body's
/// bytes alone say little about what its values take once built.
pub struct JsonBody<T>(pub T);

/// Memory one ordinary JSON body's values may take (bodies are at most 2 MiB): twelve times the
/// body limit, past what the largest real body (a structure tree of 10,000 nodes) costs, far
/// under what 2 MiB of empty objects would.
pub const JSON_MEMORY_MIB: usize = 24;

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let crate::bounded_json::BoundedJson(value) =
            crate::bounded_json::BoundedJson::<JSON_MEMORY_MIB>::from_request(request, state)
                .await?;
        // The same words as axum's `Json` rejection: the path to the value, then what is wrong.
        serde_path_to_error::deserialize(value)
            .map(JsonBody)
            .map_err(|error| {
                let text = format!(
                    "Failed to deserialize the JSON body into the target type: {}: {}",
                    error.path(),
                    error.inner()
                );
                ApiError::new(ErrorKind::Data, text.clone())
                    .with_errors(json!([{ "type": "value_error", "loc": ["body"], "msg": text }]))
            })
    }
}

/// Query extractor whose rejections are envelopes.
#[derive(axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct QueryParams<T>(pub T);

/// Path extractor whose rejections are envelopes.
#[derive(axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct PathParams<T>(pub T);
