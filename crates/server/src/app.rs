//! The router: the route tree and its layers (help URL, CORS, body limit, compression, tracing, static files).

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue, Method, StatusCode, Version};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, patch, post, MethodRouter};
use axum::Router;
use larder_contract::collections::{ARTICLES, TEXTBOOK_PASSAGES};
use larder_contract::{Collection, IdentifierKind, COLLECTIONS};
use serde_json::Value;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::auth::Caller;
use crate::error::{ApiError, JsonBody, PathParams, QueryParams, HELP_URL};
use crate::routes::{
    artifacts, guidelines, households, members, passages, records, search, system,
};
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
        .route("/api", any(unknown_route))
        .route("/api/{*rest}", any(unknown_route));
    app = match &state.options.static_dir {
        Some(dir) if apis != Apis::System => {
            let console = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(console_pages(dir.join("index.html")));
            match state.options.static_prefix.as_str() {
                "/" => app.fallback_service(console),
                // Under a prefix: the console there (with its fallback), nothing outside it.
                prefix => app.nest_service(prefix, console).fallback(unknown_route),
            }
        }
        _ => app.fallback(unknown_route),
    };
    if state.options.fault_injection {
        // Inside CORS, so a browser on another origin reads the injected answers.
        app = app
            .merge(crate::faults::routes())
            .layer(middleware::from_fn_with_state(
                state.clone(),
                crate::faults::inject,
            ));
    }
    app.layer(middleware::from_fn(cache_headers))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(middleware::from_fn(help_url))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(not_a_download)))
        .layer(cors(&state.options.cors_origins, own))
        .layer(
            // Every request at info level, so the default log filter shows the traffic.
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .with_state(state)
}

fn system_routes() -> Router<SharedState> {
    Router::new()
        .route("/system/login", post(system::login))
        .route("/system/mtm", post(system::mtm))
        .route("/system/ping", get(system::ping))
        .route("/households/me", get(households::me))
        .route(
            "/households",
            get(households::list).post(households::create),
        )
        .route(
            "/households/{id}",
            get(households::get)
                .patch(households::patch)
                .delete(households::delete),
        )
        .route("/members", get(members::list).post(members::create))
        .route(
            "/members/{id}",
            get(members::get)
                .patch(members::patch)
                .delete(members::delete),
        )
        .route(
            "/members/{id}/profile",
            get(members::get_profile)
                .post(members::create_profile)
                .patch(members::patch_profile)
                .delete(members::delete_profile),
        )
}

type Shared = State<SharedState>;

/// The routes of one collection, generated from its descriptor.
fn collection_routes(c: &'static Collection) -> Router<SharedState> {
    let mut root: MethodRouter<SharedState> =
        post(move |s: Shared, who: Caller, body: JsonBody<Value>| records::create(c, s, who, body));
    // Passages are only listed per textbook.
    if c.path != TEXTBOOK_PASSAGES.path {
        root = root.get(
            move |s: Shared, who: Caller, q: QueryParams<records::ListQuery>| {
                records::list(c, s, who, q)
            },
        );
    }
    let one =
        get(move |s: Shared, who: Caller, id: PathParams<String>| records::get(c, s, who, id))
            .patch(
                move |s: Shared, who: Caller, id: PathParams<String>, body: JsonBody<Value>| {
                    records::patch(c, s, who, id, body)
                },
            )
            .put(
                move |s: Shared, who: Caller, id: PathParams<String>, body: JsonBody<Value>| {
                    records::put(c, s, who, id, body)
                },
            )
            .delete(move |s: Shared, who: Caller, id: PathParams<String>| {
                records::delete(c, s, who, id)
            });
    let mut router = Router::new()
        .route(&format!("/{}", c.path), root)
        .route(&format!("/{}/{{identifier}}", c.path), one);
    if c.searchable {
        let mut route = post(
            move |s: Shared, who: Caller, body: JsonBody<search::SearchBody>| {
                search::search(c, s, who, body)
            },
        );
        if c.path == ARTICLES.path {
            route = route.get(search::search_articles_get);
        }
        router = router.route(&format!("/{}/search", c.path), route);
    }
    if let IdentifierKind::Urn { .. } = c.identifier {
        router = router.route(
            &format!("/{}/{{identifier}}/enhance", c.path),
            patch(
                move |s: Shared, who: Caller, id: PathParams<String>, body: JsonBody<Value>| {
                    crate::enhance::enhance(c, s, who, id, body)
                },
            ),
        );
    }
    router
}

fn data_routes() -> Router<SharedState> {
    let mut router = Router::new();
    for collection in COLLECTIONS.iter() {
        router = router.merge(collection_routes(collection));
    }
    router
        .route(
            "/artifacts/upload",
            // The upload enforces --max-upload itself while streaming to disk.
            post(artifacts::upload).layer(DefaultBodyLimit::disable()),
        )
        .route("/artifacts/{id}/download", get(artifacts::download))
        .route("/guidelines/by-guide/{urn}", get(guidelines::by_guide))
        .route("/guidelines/by-guide/{urn}/search", post(search::by_guide))
        .route(
            "/guidelines/by-guide/{urn}/import",
            post(guidelines::import),
        )
        .route(
            "/textbook-passages/by-textbook/{urn}",
            get(passages::by_textbook),
        )
        .route(
            "/textbook-passages/by-textbook/{urn}/search",
            post(search::by_textbook),
        )
        .route(
            "/textbook-passages/by-textbook/{urn}/replace",
            post(passages::replace),
        )
}

/// Paths that are not files are pages of the console (deep links): they get index.html. A path
/// that names a missing file (an old asset, an absent config.json) is a plain 404, so the console
/// and browsers are never handed HTML in place of a file.
fn console_pages(
    index: std::path::PathBuf,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone {
    tower::service_fn(move |request: Request| {
        let index = index.clone();
        async move {
            let file = request.uri().path().rsplit('/').next().unwrap_or_default();
            if file.contains('.') {
                return Ok((axum::http::StatusCode::NOT_FOUND, "Not found").into_response());
            }
            let served = tower::ServiceExt::oneshot(ServeFile::new(index), request).await;
            Ok(match served {
                Ok(response) => response.into_response(),
                Err(never) => match never {},
            })
        }
    })
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

/// A handler that panics still answers in the envelope, and the process keeps serving.
fn panic_response(cause: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let cause = cause
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| cause.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    ApiError::internal(format!("handler panicked: {cause}")).into_response()
}

/// Downloads keep their Content-Length (the console shows progress against it), so they are
/// never compressed on the fly.
fn not_a_download(_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    !headers.contains_key(header::CONTENT_DISPOSITION)
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
