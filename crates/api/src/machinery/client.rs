//! Runs requests: token, send, retry, interpret, and one re-sign-in after a 401.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures::lock::Mutex as AsyncMutex;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::auth::{token_from_answer, Credentials, Identity, Token};
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

    /// Signs in, keeps the credentials in memory for renewal, and returns who signed in.
    pub async fn sign_in(&self, credentials: Credentials) -> Result<Identity, ApiError> {
        self.sign_in_from(credentials, None, None).await
    }

    /// The request [`Client::sign_in`] sends for `credentials`. The console's start-up module
    /// sends the same one before this client's module has arrived (`larder_start::login`) and
    /// hands the answer to [`Client::sign_in_answered`].
    pub fn sign_in_request(&self, credentials: &Credentials) -> HttpRequest {
        self.http_request(&credentials.login_request(), None)
    }

    /// [`Client::sign_in`] with the answer to [`Client::sign_in_request`] already in hand, and
    /// the answer to `system/ping` sent with its token when there is one: read here as the
    /// client reads its own, and the credentials kept for renewal. What the client would have
    /// tried again (no ping answer, a 5xx, a throttle, a 401 before renewal) it asks itself.
    pub async fn sign_in_answered(
        &self,
        credentials: Credentials,
        answer: HttpResponse,
        ping: Option<HttpResponse>,
    ) -> Result<Identity, ApiError> {
        self.sign_in_from(credentials, Some(answer), ping).await
    }

    async fn sign_in_from(
        &self,
        mut credentials: Credentials,
        answer: Option<HttpResponse>,
        ping: Option<HttpResponse>,
    ) -> Result<Identity, ApiError> {
        credentials.validate()?;
        {
            let mut session = self.inner.session.lock().await;
            let token = match answer {
                Some(answer) => token_from_answer(&answer, self.inner.transport.now_ms())?,
                None => {
                    let (token, renewed) = self.obtain_token(&credentials).await?;
                    credentials = renewed.unwrap_or(credentials);
                    token
                }
            };
            *session = Session {
                credentials: Some(credentials),
                token: Some(token),
            };
        }
        // An answer the client would have sent again (renewal after a 401, a throttle, a 5xx)
        // is asked again.
        let answered = ping.filter(|p| p.status < 500 && ![401, 408, 429].contains(&p.status));
        match answered {
            Some(ping) => self.identity_from(interpret(ping)?).await,
            None => self.identity().await,
        }
    }

    /// Forgets the token and the credentials.
    pub async fn sign_out(&self) {
        *self.inner.session.lock().await = Session::default();
    }

    /// The sign-in at the identity provider, when that is how the session signed in (for its
    /// sign-out, and for other tabs).
    pub async fn provider_grant(&self) -> Option<super::auth::ProviderGrant> {
        match &self.inner.session.lock().await.credentials {
            Some(Credentials::Provider(grant)) => Some(grant.clone()),
            _ => None,
        }
    }

    /// Takes a session another tab of the console handed over (issue 42 item 3): its access
    /// token, valid for `valid_for_ms` more, with no means of renewal here. With `ask_who`, asks
    /// the service who the caller is; the identity, or the service's refusal of the token.
    pub async fn adopt_handed(
        &self,
        token: String,
        valid_for_ms: u64,
        ask_who: bool,
    ) -> Result<Option<Identity>, ApiError> {
        let renew_at_ms = self.inner.transport.now_ms().saturating_add(valid_for_ms);
        {
            let mut session = self.inner.session.lock().await;
            // A tab that signed in meanwhile keeps its own session.
            if matches!(
                session.credentials,
                Some(ref c) if *c != Credentials::Handed
            ) {
                return Err(ApiError::Caller("This tab is signed in already.".into()));
            }
            *session = Session {
                credentials: Some(Credentials::Handed),
                token: Some(Token {
                    value: token,
                    renew_at_ms,
                }),
            };
        }
        if !ask_who {
            return Ok(None);
        }
        match self.identity().await {
            Ok(identity) => Ok(Some(identity)),
            Err(error) => {
                self.sign_out().await;
                Err(error)
            }
        }
    }

    /// The access token to hand to another tab of the console, with how long it stays valid:
    /// renewed first when less than `at_least_ms` of it is left and this tab can renew it.
    /// `None` when signed out, or when what is held cannot last that long.
    pub async fn token_to_hand_over(&self, at_least_ms: u64) -> Option<(String, u64)> {
        let mut session = self.inner.session.lock().await;
        let now = self.inner.transport.now_ms();
        let left = |token: &Token| token.renew_at_ms.saturating_sub(now);
        if let Some(token) = session.token.as_ref().filter(|t| left(t) >= at_least_ms) {
            return Some((token.value.clone(), left(token)));
        }
        let credentials = session.credentials.clone()?;
        if credentials == Credentials::Handed {
            return None;
        }
        let (token, renewed) = self.obtain_token(&credentials).await.ok()?;
        let handed = (token.value.clone(), left(&token));
        session.token = Some(token);
        if let Some(renewed) = renewed {
            session.credentials = Some(renewed);
        }
        Some(handed).filter(|(_, left)| *left > 0)
    }

    /// Whether credentials are held.
    pub async fn is_signed_in(&self) -> bool {
        self.inner.session.lock().await.credentials.is_some()
    }

    /// Who the service says the caller is: ping's identity, else the token's claims.
    pub async fn identity(&self) -> Result<Identity, ApiError> {
        let result = self
            .execute(Request::new(Api::System, Method::Get, "system/ping"))
            .await?;
        self.identity_from(result).await
    }

    /// The identity in ping's `result`, else the held token's claims.
    async fn identity_from(&self, result: Value) -> Result<Identity, ApiError> {
        if let Some(identity) =
            Identity::from_ping(&result).filter(|i| i.username.is_some() || i.client_id.is_some())
        {
            return Ok(identity);
        }
        let token = self.inner.session.lock().await.token.clone();
        Ok(token
            .and_then(|t| Identity::from_token(&t.value))
            .or_else(|| Identity::from_ping(&result))
            .unwrap_or_default())
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

    /// The token to send: the held one while fresh, else a new sign-in (shared by concurrent callers).
    async fn current_token(&self) -> Result<Option<String>, ApiError> {
        let mut session = self.inner.session.lock().await;
        let now = self.inner.transport.now_ms();
        if let Some(token) = session.token.as_ref().filter(|t| now < t.renew_at_ms) {
            return Ok(Some(token.value.clone()));
        }
        let Some(credentials) = session.credentials.clone() else {
            return Ok(None);
        };
        session.token = None;
        match self.obtain_token(&credentials).await {
            Ok((token, renewed)) => {
                let value = token.value.clone();
                session.token = Some(token);
                if let Some(renewed) = renewed {
                    session.credentials = Some(renewed);
                }
                Ok(Some(value))
            }
            Err(error) => {
                self.notify(Notice::SessionLost);
                Err(error)
            }
        }
    }

    /// Drops `used` if it is still the held token; true when credentials allow signing in again.
    async fn drop_token(&self, used: Option<&str>) -> bool {
        let mut session = self.inner.session.lock().await;
        if session.token.as_ref().map(|t| t.value.as_str()) == used {
            session.token = None;
        }
        session.credentials.is_some()
    }

    /// A new token for `credentials`, and the credentials to keep when they changed (a
    /// provider's rotated refresh token).
    async fn obtain_token(
        &self,
        credentials: &Credentials,
    ) -> Result<(Token, Option<Credentials>), ApiError> {
        if let Credentials::Handed = credentials {
            return Err(ApiError::InvalidCredentials(
                "This tab's session came from another tab of the console, which no longer hands it on: sign in again."
                    .into(),
            ));
        }
        if let Credentials::Provider(grant) = credentials {
            let timeout_ms = self.with_config(|c| c.timeout_ms);
            let response = self
                .inner
                .transport
                .send(grant.refresh_request(timeout_ms))
                .await
                .map_err(|error| match error {
                    TransportError::Network(message) => ApiError::Network(message),
                    TransportError::Timeout => ApiError::Timeout {
                        after_ms: timeout_ms,
                    },
                })?;
            let token = token_from_answer(&response, self.inner.transport.now_ms())?;
            return Ok((token, Some(Credentials::Provider(grant.after(&response)))));
        }
        let request = credentials.login_request();
        let http = self.http_request(&request, None);
        let permit = self.connections(request.api).acquire().await;
        let response = self
            .inner
            .transport
            .send(http)
            .await
            .map_err(|error| self.transport_error(&request, error))?;
        drop(permit);
        Ok((
            token_from_answer(&response, self.inner.transport.now_ms())?,
            None,
        ))
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
