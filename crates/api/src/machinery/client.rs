//! Runs requests: token, send, retry, interpret, and one re-sign-in after a 401. Signing in and
//! the token are in `client/session.rs`.

mod session;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures::lock::Mutex as AsyncMutex;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::auth::{Credentials, Token};
use super::config::{Api, ClientConfig};
use super::error::{failure_from_answer, ApiError};
use super::exchange::{dispatch, Answer, Exchange};
use super::limit::Limiter;
use super::request::{Method, Request};
use super::retry::{next_wait_ms, MAINTENANCE_CODE, MAX_RETRIES, MAX_RETRY_AFTER_MS};
use super::transport::{HttpRequest, HttpResponse, Transport, TransportError};

/// Something the caller may want to show while a call is under way.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A retry is about to be made after `wait_ms` ("retrying 2 of 3").
    Retrying {
        /// Which retry this is, from 1.
        attempt: u32,
        /// The most retries there will be.
        of: u32,
        /// The wait before it.
        wait_ms: u64,
        /// The status that caused it.
        status: u16,
        /// The endpoint.
        path: String,
    },
    /// A retried call got its final answer (successful or not).
    RetriesEnded,
    /// The token could not be renewed: the caller must sign in again.
    SessionLost,
    /// The service answered that it is closed for maintenance (a 503 `platform/maintenance`, or
    /// a 503 asking to wait longer than retries do): not retried; try again after
    /// `retry_after_secs`.
    Maintenance {
        /// The answer's `Retry-After` (production's 300 when it sent none).
        retry_after_secs: u64,
    },
    /// The service answered something else than maintenance: it is open (again).
    ServiceAnswered,
}

/// Cancels a call's remaining retries.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }
    /// Cancels.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

type Observer = Arc<dyn Fn(&Notice) + Send + Sync>;

#[derive(Default)]
struct Session {
    credentials: Option<Credentials>,
    token: Option<Token>,
}

struct Inner<T> {
    transport: T,
    // Settable: a console paints its sign-in page before its runtime configuration has arrived.
    config: std::sync::RwLock<ClientConfig>,
    // Held across a sign-in, so concurrent calls needing a token share one sign-in.
    session: AsyncMutex<Session>,
    observer: Mutex<Option<Observer>>,
    // Requests open at once, per API (interface.md §8).
    data_connections: Limiter,
    system_connections: Limiter,
    request_ids: super::correlation::RequestIds,
}

/// The API client. Cheap to clone; clones share the session.
pub struct Client<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for Client<T> {
    fn clone(&self) -> Self {
        Client {
            inner: self.inner.clone(),
        }
    }
}

impl<T: Transport> Client<T> {
    /// A client with no session.
    pub fn new(transport: T, config: ClientConfig) -> Client<T> {
        Client {
            inner: Arc::new(Inner {
                transport,
                config: std::sync::RwLock::new(config),
                session: AsyncMutex::new(Session::default()),
                observer: Mutex::new(None),
                data_connections: Limiter::new(larder_contract::limits::DATA_CONNECTIONS),
                system_connections: Limiter::new(larder_contract::limits::SYSTEM_CONNECTIONS),
                request_ids: Default::default(),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> ClientConfig {
        self.inner
            .config
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn with_config<R>(&self, read: impl FnOnce(&ClientConfig) -> R) -> R {
        read(&self.inner.config.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Replaces the configuration; later requests use it.
    pub fn set_config(&self, config: ClientConfig) {
        *self.inner.config.write().unwrap_or_else(|p| p.into_inner()) = config;
    }

    /// The limit on requests open at once to `api`.
    pub(crate) fn connections(&self, api: Api) -> &Limiter {
        match api {
            Api::Data => &self.inner.data_connections,
            Api::System => &self.inner.system_connections,
        }
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.inner.transport
    }

    /// Calls `observer` with every [`Notice`].
    pub fn set_observer(&self, observer: impl Fn(&Notice) + Send + Sync + 'static) {
        *self
            .inner
            .observer
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(observer));
    }

    fn notify(&self, notice: Notice) {
        let observer = self
            .inner
            .observer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(observer) = observer {
            observer(&notice);
        }
    }

    /// `GET system/ping`'s raw result (an identity object, or "pong" in production).
    pub async fn ping(&self) -> Result<Value, ApiError> {
        self.execute(Request::new(Api::System, Method::Get, "system/ping"))
            .await
    }

    /// Runs a request and decodes its `result` into `R`, naming the JSON path on failure.
    pub async fn call<R: DeserializeOwned>(&self, request: Request) -> Result<R, ApiError> {
        let result = self.execute(request).await?;
        decode(result)
    }

    /// Runs a request and returns its `result`.
    pub async fn execute(&self, request: Request) -> Result<Value, ApiError> {
        self.execute_cancellable(request, None).await
    }

    /// Runs a request whose retries `cancel` can stop.
    pub async fn execute_cancellable(
        &self,
        request: Request,
        cancel: Option<&CancelToken>,
    ) -> Result<Value, ApiError> {
        let response = self.respond(&request, cancel).await?;
        interpret(response)
    }

    /// Runs a request through token, retries and re-sign-in, returning the final answer.
    pub(crate) async fn respond(
        &self,
        request: &Request,
        cancel: Option<&CancelToken>,
    ) -> Result<HttpResponse, ApiError> {
        self.respond_via(request, &Exchange::Send, cancel).await
    }

    /// [`Client::respond`] for a chosen way of sending; an answer left unread is read here.
    pub(crate) async fn respond_via(
        &self,
        request: &Request,
        how: &Exchange<'_, T::File>,
        cancel: Option<&CancelToken>,
    ) -> Result<HttpResponse, ApiError> {
        match self.exchange(request, how, cancel).await? {
            Answer::Full(response) => Ok(response),
            Answer::Streamed(response) => Ok(HttpResponse {
                status: response.status,
                headers: response.headers,
                body: self.inner.transport.stream_text(response.stream).await,
            }),
        }
    }

    /// [`Client::respond`] for any way of sending.
    pub(crate) async fn exchange(
        &self,
        request: &Request,
        how: &Exchange<'_, T::File>,
        cancel: Option<&CancelToken>,
    ) -> Result<Answer<T::Stream>, ApiError> {
        let mut signed_in_again = false;
        loop {
            let token = if request.authenticated {
                self.current_token().await?
            } else {
                None
            };
            let answer = self
                .send_with_retries(request, how, token.as_deref(), cancel)
                .await?;
            if answer.status() == 401 && token.is_some() {
                if !signed_in_again && self.drop_token(token.as_deref()).await {
                    signed_in_again = true;
                    continue;
                }
                self.notify(Notice::SessionLost);
            }
            return Ok(answer);
        }
    }

    async fn send_with_retries(
        &self,
        request: &Request,
        how: &Exchange<'_, T::File>,
        token: Option<&str>,
        cancel: Option<&CancelToken>,
    ) -> Result<Answer<T::Stream>, ApiError> {
        let mut retries_done = 0;
        loop {
            let http = self.http_request(request, token);
            let request_id = http
                .header(super::correlation::REQUEST_ID)
                .map(str::to_string);
            // Held while the request is open, released before any wait to retry.
            let permit = self.connections(request.api).acquire().await;
            let mut answer = dispatch(self.transport(), http, how)
                .await
                .map_err(|error| self.transport_error(request, error))?;
            drop(permit);
            if let Some(id) = request_id {
                answer.remember_request_id(id);
            }
            // Maintenance is said at once, whatever its Retry-After (issue 22).
            let wait = next_wait_ms(
                retries_done,
                &request.method,
                answer.status(),
                answer.header("retry-after"),
                self.inner.transport.now_ms(),
            )
            .filter(|_| !is_maintenance_answer(&answer));
            let Some(wait_ms) = wait else {
                if retries_done > 0 {
                    self.notify(Notice::RetriesEnded);
                }
                self.notify(match maintenance_wait_secs(&answer) {
                    Some(retry_after_secs) => Notice::Maintenance { retry_after_secs },
                    None => Notice::ServiceAnswered,
                });
                return Ok(answer);
            };
            if cancel.is_some_and(CancelToken::is_cancelled) {
                return Err(ApiError::Cancelled);
            }
            retries_done += 1;
            self.notify(Notice::Retrying {
                attempt: retries_done,
                of: MAX_RETRIES,
                wait_ms,
                status: answer.status(),
                path: request.path.clone(),
            });
            if wait_ms > 0 {
                self.inner.transport.sleep(wait_ms).await;
            }
            if cancel.is_some_and(CancelToken::is_cancelled) {
                self.notify(Notice::RetriesEnded);
                return Err(ApiError::Cancelled);
            }
        }
    }

    fn transport_error(&self, request: &Request, error: TransportError) -> ApiError {
        match error {
            TransportError::Network(message) => ApiError::Network(message),
            TransportError::Timeout => ApiError::Timeout {
                after_ms: self.timeout_of(request),
            },
        }
    }

    fn timeout_of(&self, request: &Request) -> u64 {
        request
            .timeout_ms
            .unwrap_or_else(|| self.with_config(|c| c.timeout_ms))
    }

    /// The request as it goes on the wire. A caller never sets Authorization: only the token does.
    pub(crate) fn http_request(&self, request: &Request, token: Option<&str>) -> HttpRequest {
        use super::correlation::{CLIENT, CLIENT_LABEL, REQUEST_ID};
        let mut headers = vec![
            ("Accept".to_string(), "application/json".to_string()),
            (REQUEST_ID.to_string(), self.inner.request_ids.next()),
            (CLIENT.to_string(), CLIENT_LABEL.to_string()),
        ];
        let body = request.method.body().map(Value::to_string);
        if body.is_some() {
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        if let Some(token) = token {
            headers.push(("Authorization".to_string(), format!("Bearer {token}")));
        }
        HttpRequest {
            method: request.method.as_str(),
            url: self.with_config(|c| c.url(request.api, &request.path, &request.query)),
            headers,
            body,
            timeout_ms: self.timeout_of(request),
        }
    }
}

/// Whether a complete answer is production's maintenance 503 (`error.code` is
/// [`MAINTENANCE_CODE`]); a streamed answer's body is not read here.
fn is_maintenance_answer<S>(answer: &Answer<S>) -> bool {
    match answer {
        Answer::Full(response) => {
            response.status == 503
                && serde_json::from_str::<Value>(&response.body).is_ok_and(|body| {
                    body.pointer("/error/code").and_then(Value::as_str) == Some(MAINTENANCE_CODE)
                })
        }
        Answer::Streamed(_) => false,
    }
}

/// The seconds to wait when `answer` says the service is closed for maintenance (see
/// [`super::standing`]): its code, or a 503 asking to wait longer than retries do.
fn maintenance_wait_secs<S>(answer: &Answer<S>) -> Option<u64> {
    if answer.status() != 503 {
        return None;
    }
    let asked = answer
        .header("retry-after")
        .and_then(|v| v.trim().parse::<u64>().ok());
    let long_wait = asked.is_some_and(|secs| secs.saturating_mul(1000) > MAX_RETRY_AFTER_MS);
    (is_maintenance_answer(answer) || long_wait)
        .then(|| asked.unwrap_or(super::standing::MAINTENANCE_RETRY_AFTER_SECS))
}

/// Turns an answer into its `result`, or the error it carries.
pub fn interpret(response: HttpResponse) -> Result<Value, ApiError> {
    let retry_after = response
        .header("retry-after")
        .and_then(|v| v.trim().parse().ok());
    let failure = |response: &HttpResponse| {
        let mut failure = failure_from_answer(response.status, &response.body, retry_after);
        failure.request_id = response
            .header(super::correlation::REQUEST_ID)
            .filter(|id| super::correlation::is_valid_request_id(id))
            .map(str::to_string);
        ApiError::Api(Box::new(failure))
    };
    if response.status >= 400 || response.status < 200 {
        return Err(failure(&response));
    }
    if response.body.trim().is_empty() {
        return Ok(Value::Null);
    }
    let body: Value = serde_json::from_str(&response.body).map_err(|e| ApiError::Decode {
        path: "$".into(),
        message: format!("not JSON ({e})"),
    })?;
    match body {
        Value::Object(mut object) => {
            if object.get("success") == Some(&Value::Bool(false)) {
                return Err(failure(&response));
            }
            Ok(match object.remove("result") {
                Some(result) => result,
                None => Value::Object(object),
            })
        }
        other => Ok(other),
    }
}

/// Decodes a `result` into `R`, naming the JSON path that failed.
pub fn decode<R: DeserializeOwned>(value: Value) -> Result<R, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        ApiError::Decode {
            path: format!(
                "result{}",
                if path == "." {
                    String::new()
                } else {
                    format!(".{path}")
                }
            ),
            message: error.into_inner().to_string(),
        }
    })
}
