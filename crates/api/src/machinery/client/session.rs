//! The client's session: signing in (by itself, or with an answer the start-up module got), a
//! session handed over by another tab, the token to send (renewed once it is due, one renewal
//! shared by concurrent callers), and who signed in.

use serde_json::Value;

use super::{interpret, Client, Notice, Session};
use crate::machinery::auth::{token_from_answer, Credentials, Identity, ProviderGrant, Token};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::{HttpRequest, HttpResponse, Transport, TransportError};

impl<T: Transport> Client<T> {
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
    pub async fn provider_grant(&self) -> Option<ProviderGrant> {
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
    pub(super) async fn identity_from(&self, result: Value) -> Result<Identity, ApiError> {
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

    /// The token to send: the held one while fresh, else a new sign-in (shared by concurrent callers).
    pub(super) async fn current_token(&self) -> Result<Option<String>, ApiError> {
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
    pub(super) async fn drop_token(&self, used: Option<&str>) -> bool {
        let mut session = self.inner.session.lock().await;
        if session.token.as_ref().map(|t| t.value.as_str()) == used {
            session.token = None;
        }
        session.credentials.is_some()
    }

    /// A new token for `credentials`, and the credentials to keep when they changed (a
    /// provider's rotated refresh token).
    pub(super) async fn obtain_token(
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
}
