//! One exported function that does what a console's sign-in at the provider does, without
//! the HTTP (the answers come in as text): read the discovery document, build the authorization
//! URL with PKCE, check the callback, build the code exchange, read the token answer and check
//! the ID token. Built with exactly one feature; see Cargo.toml.

#![allow(clippy::missing_safety_doc)]

/// The inputs, one text each, joined by NUL: discovery, keys, callback fragment, token answer.
fn parts(ptr: *const u8, len: usize) -> Vec<String> {
    // SAFETY: the caller hands a buffer of `len` bytes it owns.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8_lossy(bytes)
        .split('\0')
        .map(str::to_string)
        .collect()
}

/// A buffer for the caller to write the inputs into.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let at = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    at
}

#[cfg(feature = "hand")]
mod flow {
    use larder_start::oidc::{
        authorize, callback, config::Settings, discovery::Endpoints, id_token, pending::Pending,
        pkce, token, Fields,
    };
    use serde_json::Value;

    pub fn run(parts: &[String], random: &[u8; 64], digest: &[u8; 32], now_ms: u64) -> usize {
        let Ok(settings) = Settings::new("https://auth.example.org/realms/master", "larder", None)
        else {
            return 0;
        };
        let Ok(document) = serde_json::from_str::<Value>(&parts[0]) else {
            return 1;
        };
        let Ok(endpoints) = Endpoints::read(&document, &settings) else {
            return 2;
        };
        let pending = Pending::new(
            random,
            "/records",
            now_ms,
            false,
            &settings.issuer,
            &endpoints,
        );
        let redirect = "https://console.example.org/";
        let url = authorize::url(
            &endpoints,
            &settings,
            redirect,
            &pending,
            &pkce::challenge(digest),
        );
        let Ok(Some(answer)) = callback::Callback::read(&parts[2]) else {
            return 3;
        };
        let Ok(code) = callback::check(
            &answer,
            Some(&pending),
            &settings.issuer,
            endpoints.iss_in_answers,
            now_ms,
        ) else {
            return 4;
        };
        let post = token::code_request(&endpoints, &settings, redirect, &code, &pending.verifier);
        let body = serde_json::from_str::<Value>(&parts[3]).ok();
        let Ok(tokens) = token::read_answer(200, parts[3].len(), body.as_ref()) else {
            return 5;
        };
        let Some(jwt) = tokens
            .id_token
            .as_deref()
            .and_then(|t| id_token::split(t).ok())
        else {
            return 6;
        };
        let (Ok(header), Ok(claims), Ok(keys)) = (
            serde_json::from_slice::<Value>(&jwt.header),
            serde_json::from_slice::<Value>(&jwt.payload),
            serde_json::from_str::<Value>(&parts[1]),
        ) else {
            return 7;
        };
        let keys = keys.objects("keys").unwrap_or_default();
        // The signature itself is the browser's (WebCrypto) in the console.
        let Ok((_key, _alg)) = id_token::choose_key(&header, &keys) else {
            return 8;
        };
        let expected = id_token::Expected {
            issuer: &settings.issuer,
            client_id: &settings.client_id,
            nonce: id_token::Nonce::Exactly(&pending.nonce),
            subject: None,
            now_s: now_ms / 1000,
        };
        match id_token::check_claims(&claims, &expected) {
            Ok(identity) => url.len() + post.body.len() + identity.sub.len(),
            Err(_) => 9,
        }
    }
}

#[cfg(feature = "hand")]
#[no_mangle]
pub extern "C" fn probe(ptr: *const u8, len: usize, now_ms: u64) -> usize {
    let parts = parts(ptr, len);
    if parts.len() < 4 {
        return 0;
    }
    // In the console the browser makes these (crypto.getRandomValues, SHA-256 by WebCrypto).
    let random = [7u8; 64];
    let digest = [9u8; 32];
    flow::run(&parts, &random, &digest, now_ms)
}

#[cfg(feature = "openidconnect")]
mod flow {
    use openidconnect::core::{
        CoreAuthenticationFlow, CoreClient, CoreJsonWebKeySet, CoreProviderMetadata,
        CoreTokenResponse,
    };
    use openidconnect::{
        AuthorizationCode, ClientId, CsrfToken, HttpRequest, HttpResponse, Nonce,
        PkceCodeChallenge, RedirectUrl, Scope, TokenResponse,
    };

    /// An HTTP client whose answer is the probe's token answer.
    fn answering(
        body: String,
    ) -> impl Fn(HttpRequest) -> std::future::Ready<Result<HttpResponse, std::io::Error>> {
        move |_request: HttpRequest| {
            let mut response = HttpResponse::new(body.clone().into_bytes());
            response.headers_mut().insert(
                openidconnect::http::header::CONTENT_TYPE,
                openidconnect::http::HeaderValue::from_static("application/json"),
            );
            std::future::ready(Ok(response))
        }
    }

    pub fn run(parts: &[String]) -> usize {
        let Ok(metadata) = serde_json::from_str::<CoreProviderMetadata>(&parts[0]) else {
            return 1;
        };
        let Ok(keys) = serde_json::from_str::<CoreJsonWebKeySet>(&parts[1]) else {
            return 2;
        };
        let metadata = metadata.set_jwks(keys);
        let Ok(redirect) = RedirectUrl::new("https://console.example.org/".into()) else {
            return 3;
        };
        let client =
            CoreClient::from_provider_metadata(metadata, ClientId::new("larder".into()), None)
                .set_redirect_uri(redirect);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("profile".into()))
            .set_pkce_challenge(challenge)
            .url();
        // The callback: its state must be ours.
        let fragment: Vec<(String, String)> = url::form_urlencoded::parse(parts[2].as_bytes())
            .into_owned()
            .collect();
        let field = |key: &str| {
            fragment
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        if field("state").as_deref() != Some(state.secret().as_str()) {
            return 4;
        }
        let Some(code) = field("code") else {
            return 5;
        };
        let Ok(exchange) = client.exchange_code(AuthorizationCode::new(code)) else {
            return 6;
        };
        let http = answering(parts[3].clone());
        let future = exchange.set_pkce_verifier(verifier).request_async(&http);
        let mut future = std::pin::pin!(future);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        let std::task::Poll::Ready(Ok(answer)) = future.as_mut().poll(&mut context) else {
            return 7;
        };
        let answer: CoreTokenResponse = answer;
        let Some(id_token) = answer.id_token() else {
            return 8;
        };
        let verifier = client.id_token_verifier();
        let checked = match id_token.claims(&verifier, &nonce) {
            Ok(claims) => url.as_str().len() + claims.subject().len(),
            Err(_) => 9,
        };
        checked
    }
    use std::future::Future;
}

#[cfg(feature = "openidconnect")]
#[no_mangle]
pub extern "C" fn probe(ptr: *const u8, len: usize, _now_ms: u64) -> usize {
    let parts = parts(ptr, len);
    if parts.len() < 4 {
        return 0;
    }
    flow::run(&parts)
}

#[cfg(feature = "oauth2")]
mod flow {
    use oauth2::basic::BasicClient;
    use oauth2::{
        AuthUrl, AuthorizationCode, ClientId, CsrfToken, HttpRequest, HttpResponse,
        PkceCodeChallenge, RedirectUrl, Scope, TokenResponse, TokenUrl,
    };
    use std::future::Future;

    pub fn run(parts: &[String]) -> usize {
        let Ok(document) = serde_json::from_str::<serde_json::Value>(&parts[0]) else {
            return 1;
        };
        let endpoint = |key: &str| {
            document
                .get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let (Some(authorization), Some(token)) = (
            endpoint("authorization_endpoint"),
            endpoint("token_endpoint"),
        ) else {
            return 2;
        };
        let (Ok(auth), Ok(token), Ok(redirect)) = (
            AuthUrl::new(authorization),
            TokenUrl::new(token),
            RedirectUrl::new("https://console.example.org/".into()),
        ) else {
            return 3;
        };
        let client = BasicClient::new(ClientId::new("larder".into()))
            .set_auth_uri(auth)
            .set_token_uri(token)
            .set_redirect_uri(redirect);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state) = client
            .authorize_url(CsrfToken::new_random)
            .add_scope(Scope::new("openid".into()))
            .set_pkce_challenge(challenge)
            .url();
        let fragment: Vec<(String, String)> = url::form_urlencoded::parse(parts[2].as_bytes())
            .into_owned()
            .collect();
        let field = |key: &str| {
            fragment
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        if field("state").as_deref() != Some(state.secret().as_str()) {
            return 4;
        }
        let Some(code) = field("code") else {
            return 5;
        };
        let body = parts[3].clone();
        let http = move |_request: HttpRequest| {
            let mut response = HttpResponse::new(body.clone().into_bytes());
            response.headers_mut().insert(
                oauth2::http::header::CONTENT_TYPE,
                oauth2::http::HeaderValue::from_static("application/json"),
            );
            std::future::ready(Ok::<_, std::io::Error>(response))
        };
        let future = client
            .exchange_code(AuthorizationCode::new(code))
            .set_pkce_verifier(verifier)
            .request_async(&http);
        let mut future = std::pin::pin!(future);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut context) {
            std::task::Poll::Ready(Ok(answer)) => {
                url.as_str().len() + answer.access_token().secret().len()
            }
            _ => 7,
        }
    }
}

#[cfg(feature = "oauth2")]
#[no_mangle]
pub extern "C" fn probe(ptr: *const u8, len: usize, _now_ms: u64) -> usize {
    let parts = parts(ptr, len);
    if parts.len() < 4 {
        return 0;
    }
    flow::run(&parts)
}
