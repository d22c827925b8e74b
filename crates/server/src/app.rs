//! The router: the route tree and its layers (help URL, CORS, body limit, compression, tracing, static files).

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

use crate::error::{ApiError, HELP_URL};
use crate::routes::{records, system};
use crate::SharedState;

/// Largest JSON body accepted (uploads have their own limit).
pub const JSON_BODY_LIMIT: usize = 16 << 20;

/// Which APIs a listener serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apis {
    /// Data and systemic API on one address.
    Both,
    /// The data API only (the systemic API has its own address).
    Data,
    /// The systemic API only.
    System,
}

/// The whole application for one listener; `own` are the server's addresses (always allowed by CORS).
pub fn router(state: SharedState, apis: Apis, own: &[SocketAddr]) -> Router {
    let mut api = Router::new();
    if apis != Apis::Data {
        api = api.merge(system_routes());
    }
    if apis != Apis::System {
        api = api.merge(data_routes());
    }
    let api = api
        .fallback(unknown_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT));
    let mut app = Router::new()
        .nest("/api/v1", api)
        .route("/api", get(unknown_route))
        .route("/api/{*rest}", get(unknown_route));
    app = match &state.options.static_dir {
        Some(dir) if apis != Apis::System => app.fallback_service(
            ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(ServeFile::new(dir.join("index.html"))),
        ),
        _ => app.fallback(unknown_route),
    };
    app.layer(middleware::from_fn(cache_headers))
        .layer(middleware::from_fn(help_url))
        .layer(CompressionLayer::new())
        .layer(cors(&state.options.cors_origins, own))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

fn system_routes() -> Router<SharedState> {
    Router::new()
        .route("/system/login", post(system::login))
        .route("/system/mtm", post(system::mtm))
        .route("/system/ping", get(system::ping))
}

fn data_routes() -> Router<SharedState> {
    Router::new()
        .route("/{collection}", get(records::list).post(records::create))
        .route(
            "/{collection}/{identifier}",
            get(records::get)
                .patch(records::patch)
                .delete(records::delete),
        )
}

async fn unknown_route(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "No route {} {}.",
        request.method(),
        request.uri().path()
    ))
}

async fn wrong_method(request: Request) -> ApiError {
    ApiError::new(
        larder_contract::ErrorKind::NotAllowed,
        format!(
            "{} is not allowed on {}.",
            request.method(),
            request.uri().path()
        ),
    )
}

/// Keeps the request's URL for the envelope's `help` while the request is answered.
async fn help_url(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost")
        .to_string();
    let url = format!("http://{host}{}", request.uri());
    HELP_URL.scope(url, next.run(request)).await
}

/// Hashed assets (trunk names them `name-<hash>.ext`) never change; index.html always may.
async fn cache_headers(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    if path.starts_with("/api/") {
        return response;
    }
    let file = path.rsplit('/').next().unwrap_or_default();
    let hashed = file
        .rsplit_once('.')
        .and_then(|(stem, _)| stem.rsplit_once('-'))
        .is_some_and(|(_, hash)| hash.len() >= 16 && hash.chars().all(|c| c.is_ascii_hexdigit()));
    let value = if hashed {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response.into_response()
}

fn cors(origins: &[String], own: &[SocketAddr]) -> CorsLayer {
    let allow_origin = if origins.iter().any(|o| o == "*") {
        AllowOrigin::mirror_request()
    } else {
        let mut allowed: Vec<HeaderValue> = origins
            .iter()
            .filter_map(|o| o.trim_end_matches('/').parse().ok())
            .collect();
        for addr in own {
            allowed.extend(format!("http://{addr}").parse());
            if addr.ip().is_loopback() {
                allowed.extend(format!("http://localhost:{}", addr.port()).parse());
            }
        }
        AllowOrigin::list(allowed)
    };
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
            Method::HEAD,
        ])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([
            header::CONTENT_DISPOSITION,
            header::CONTENT_LENGTH,
            header::RETRY_AFTER,
        ])
        .max_age(Duration::from_secs(600))
}
