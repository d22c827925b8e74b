//! Fault injection for tests (`--fault-injection`): a control route, `/__faults`, arms rules
//! that make chosen API requests misbehave the way networks and gateways do, and records every
//! request a rule matched so a test can count what a client really sent (retries, and that a
//! POST or PATCH went out exactly once).
//!
//! - `POST /__faults` with `{"method": "GET", "path": "/api/v1/articles", "faults": [...]}` arms
//!   a rule; each matching request takes the next fault of the list, and once the list is used up
//!   requests pass through (still recorded). `path` matches exactly, or as a prefix when it ends
//!   with `*`; `method` is optional.
//! - A fault is `{"kind": K, ...}`: `status` (`status`, optional `retry_after`), `html` (an HTML
//!   gateway page with `status`, default 502), `truncated` (200 with half a JSON body),
//!   `success_false` (200 whose envelope says `success: false`), `delay` (`delay_ms`, then the
//!   real answer), `drop` (the connection is closed without an answer).
//! - `GET /__faults` returns the rules and the recorded hits; `DELETE /__faults` clears both.
//! - `POST /__faults/maintenance` with `{"on": true}` (or `false`) opens or closes maintenance
//!   mode (see `maintenance`); `POST /__faults/guest-budget` with `{"spent": true}` (or
//!   `false`) spends guests' daily budget (see `guests`); 204. `DELETE /__faults` leaves both.
//!
//! Never enable it on a real deployment: the control route needs no token.

use std::sync::Mutex;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use larder_contract::ErrorKind;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::ApiError;
use crate::SharedState;

/// One way a response can go wrong.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// An error envelope with this status (and `Retry-After` when given).
    Status {
        status: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<String>,
    },
    /// A proxy's HTML error page instead of JSON.
    Html {
        #[serde(default = "bad_gateway")]
        status: u16,
    },
    /// A 200 whose JSON body stops half-way.
    Truncated,
    /// A 200 whose envelope reports a failure.
    SuccessFalse,
    /// The real answer, late.
    Delay { delay_ms: u64 },
    /// The connection closes before any answer.
    Drop,
}

fn bad_gateway() -> u16 {
    502
}

/// Which requests a rule applies to, and the faults still to hand out.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Rule {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    pub path: String,
    pub faults: Vec<Fault>,
}

impl Rule {
    fn matches(&self, method: &Method, path: &str) -> bool {
        let method_ok = self
            .method
            .as_deref()
            .is_none_or(|m| m.eq_ignore_ascii_case(method.as_str()));
        let path_ok = match self.path.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => path == self.path,
        };
        method_ok && path_ok
    }
}

/// A request some rule matched, and the fault it got (none once the rule's list was used up).
#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    pub method: String,
    pub path: String,
    pub fault: Option<Fault>,
}

/// The armed rules and what they saw.
#[derive(Default)]
pub struct Faults {
    state: Mutex<(Vec<Rule>, Vec<Hit>)>,
}

impl Faults {
    /// The fault for this request, if a rule matches it; the request is recorded either way.
    fn take(&self, method: &Method, path: &str) -> Option<Fault> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (rules, hits) = &mut *guard;
        if !rules.iter().any(|r| r.matches(method, path)) {
            return None;
        }
        // The first matching rule with faults left hands out its next one.
        let fault = rules
            .iter_mut()
            .find(|r| !r.faults.is_empty() && r.matches(method, path))
            .map(|rule| rule.faults.remove(0));
        hits.push(Hit {
            method: method.to_string(),
            path: path.to_string(),
            fault: fault.clone(),
        });
        fault
    }
}

/// The control route.
pub fn routes() -> Router<SharedState> {
    Router::new()
        .route("/__faults", get(report).post(arm).delete(clear))
        .route("/__faults/maintenance", post(maintenance))
        .route("/__faults/guest-budget", post(guest_budget))
}

/// The body of `POST /__faults/guest-budget`.
#[derive(Deserialize)]
struct Spent {
    spent: bool,
}

async fn guest_budget(State(state): State<SharedState>, Json(body): Json<Spent>) -> Response {
    state.guest_budget.set(body.spent);
    StatusCode::NO_CONTENT.into_response()
}

/// The body of `POST /__faults/maintenance`.
#[derive(Deserialize)]
struct Switch {
    on: bool,
}

async fn maintenance(State(state): State<SharedState>, Json(switch): Json<Switch>) -> Response {
    state.maintenance.set(switch.on);
    StatusCode::NO_CONTENT.into_response()
}

async fn arm(State(state): State<SharedState>, Json(rule): Json<Rule>) -> Response {
    let mut guard = state.faults.state.lock().unwrap_or_else(|e| e.into_inner());
    guard.0.push(rule);
    StatusCode::NO_CONTENT.into_response()
}

async fn report(State(state): State<SharedState>) -> Response {
    let guard = state.faults.state.lock().unwrap_or_else(|e| e.into_inner());
    Json(json!({ "rules": guard.0, "hits": guard.1 })).into_response()
}

async fn clear(State(state): State<SharedState>) -> Response {
    let mut guard = state.faults.state.lock().unwrap_or_else(|e| e.into_inner());
    *guard = Default::default();
    StatusCode::NO_CONTENT.into_response()
}

/// The middleware: applies a matching rule's next fault, or lets the request through.
pub async fn inject(State(state): State<SharedState>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    if path.starts_with("/__faults") {
        return next.run(request).await;
    }
    match state.faults.take(request.method(), &path) {
        None => next.run(request).await,
        Some(fault) => match fault {
            Fault::Delay { delay_ms } => {
                tokio::time::sleep(Duration::from_millis(delay_ms)).await;
                next.run(request).await
            }
            other => answer(other),
        },
    }
}

fn answer(fault: Fault) -> Response {
    match fault {
        Fault::Status {
            status,
            retry_after,
        } => {
            let kind = ErrorKind::from_status(status).unwrap_or(ErrorKind::Internal);
            let mut response =
                ApiError::new(kind, format!("Injected fault: status {status}.")).into_response();
            *response.status_mut() =
                StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            if let Some(value) = retry_after.and_then(|v| HeaderValue::from_str(&v).ok()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            response
        }
        Fault::Html { status } => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY),
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>\
             <p>The upstream server did not answer.</p></body></html>",
        )
            .into_response(),
        Fault::Truncated => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"help": "", "success": true, "result": [{"id": "urn:article:trunc"#,
        )
            .into_response(),
        Fault::SuccessFalse => Json(json!({
            "help": "",
            "success": false,
            "error": {
                "title": "InternalError",
                "detail": "Injected fault: the service reported a failure in a 200 answer.",
                "code": "server/internal_error"
            }
        }))
        .into_response(),
        // A body that fails before its first byte: hyper closes the connection mid-answer.
        Fault::Drop => Response::new(Body::from_stream(futures_util::stream::once(async {
            Err::<axum::body::Bytes, std::io::Error>(std::io::Error::other("injected drop"))
        }))),
        // Delays are applied by `inject`, which passes the request on.
        Fault::Delay { .. } => ApiError::internal("a delay is not an answer").into_response(),
    }
}
