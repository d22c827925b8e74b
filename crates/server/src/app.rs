//! The router: the route tree and its layers (help URL, CORS, body limit, compression, tracing, static files).

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue, Method, StatusCode, Version};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, patch, post, put, MethodRouter};
use axum::Router;
use larder_contract::collections::{ARTIFACTS, GUIDELINES};
use larder_contract::{Collection, ErrorKind, COLLECTIONS};
use serde_json::Value;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::auth::Caller;
use crate::error::{ApiError, JsonBody, PathParams, QueryParams, RequestContext, REQUEST};
use crate::routes::{
    account, artifacts, autocomplete, editorial, enrich, guidelines, household_list, households,
    library, meal_plans, members, passages, records, search, system, users,
};
use crate::shares;
use crate::wire::{About, Dialect, Said};
use crate::SharedState;

/// Largest JSON body of most routes: a record with long prose fits many times over.
pub const JSON_BODY_LIMIT: usize = 2 << 20;
/// Largest body of a guideline import (1000 guidelines); the console's import takes files up to it.
pub const IMPORT_BODY_LIMIT: usize = larder_contract::limits::MAX_GUIDELINE_IMPORT_BYTES;
/// Largest body of a passage replacement (up to 20,000 passages); the console's takes files up to it.
pub const REPLACE_BODY_LIMIT: usize = larder_contract::limits::MAX_PASSAGE_REPLACE_BYTES;
/// Largest body of a sign-in.
pub const SIGN_IN_BODY_LIMIT: usize = 16 << 10;
/// Largest body of the account and share routes (a consent, a claim, a share: a few fields).
pub const ACCOUNT_BODY_LIMIT: usize = 16 << 10;

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
    let dialect = state.dialect;
    let mut open = Router::new();
    let mut gated = Router::new();
    if apis != Apis::Data {
        open = open.merge(sign_in_routes()).merge(public_share_routes());
        gated = gated.merge(household_routes()).merge(account_routes());
    }
    if apis != Apis::System {
        open = open.route("/system/health", get(crate::status::health));
        gated = gated.merge(data_routes(dialect)).merge(status_routes());
    }
    // Every route but sign-in and ping needs a valid token, checked before the body is read.
    let gated = gated.route_layer(middleware::from_fn_with_state(state.clone(), require_token));
    let api = open
        .merge(gated)
        .fallback(unknown_route)
        .method_not_allowed_fallback(wrong_method);
    let mut app = Router::new()
        .nest("/api/v1", api)
        .route("/api", any(unknown_route))
        .route("/api/{*rest}", any(unknown_route));
    app = match &state.options.static_dir {
        Some(dir) if apis != Apis::System => {
            let console = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(crate::static_files::console_pages(dir.join("index.html")));
            let console = crate::static_files::guard(dir.clone(), console);
            let policy = crate::static_files::console_policy(&state.options, dir, own);
            // The policy governs documents; on a module, style sheet or JSON file a browser
            // ignores it, and its 250 bytes came with each of the 40-odd files a bookmark to
            // the household loads on a phone line (issue 24).
            let page_policy = move |response: &Response| -> Option<HeaderValue> {
                let page = response
                    .headers()
                    .get(header::CONTENT_TYPE)
                    .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
                page.then(|| policy.clone())
            };
            let console = tower::ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(
                    header::CONTENT_SECURITY_POLICY,
                    page_policy,
                ))
                .layer(SetResponseHeaderLayer::overriding(
                    header::REFERRER_POLICY,
                    HeaderValue::from_static("no-referrer"),
                ))
                .service(console);
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
    app.layer(middleware::from_fn(crate::static_files::cache_headers))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(CatchPanicLayer::custom(panic_response))
        // Inside request_context, so a 421 envelope carries its `help`.
        .layer(middleware::from_fn_with_state(
            crate::host::Allowed::for_server(&state.options, own),
            crate::host::check,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            request_context,
        ))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(not_a_download)))
        .layer(cors(&state.options.cors_origins, own))
        .layer(
            // Every request at info level, so the default log filter shows the traffic, each
            // line naming the request's id and the client that said who it is.
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        // Outside everything, so every answer carries the request's id.
        .layer(middleware::from_fn(crate::request_id::tag))
        .with_state(state)
}

/// The span of one request: method, path, and the correlation headers `request_id::tag` has
/// checked.
fn request_span(request: &Request) -> tracing::Span {
    let header = |name: &axum::http::HeaderName| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-")
            .to_string()
    };
    tracing::info_span!(
        "request",
        method = %request.method(),
        uri = %request.uri().path(),
        request_id = %header(&crate::request_id::REQUEST_ID),
        client = %header(&crate::request_id::CLIENT),
    )
}

/// Rejects a request without a valid bearer token before its body is read, and hands the
/// identity to the handler.
async fn require_token(
    State(state): State<SharedState>,
    mut request: Request,
    next: Next,
) -> Response {
    let identity = match crate::auth::bearer(request.headers()) {
        Ok(Some(token)) => state.auth.authenticate(token).await,
        Ok(None) => Err(ApiError::unauthenticated(
            state.dialect.says(Said::BearerMissing, About::default()),
        )),
        Err(error) => Err(error),
    };
    if let Some(closed) = crate::maintenance::gate(&state, identity.as_ref().ok()) {
        return closed;
    }
    match identity {
        Ok(identity) => {
            request.extensions_mut().insert(identity);
            next.run(request).await
        }
        Err(error) => error.into_response(),
    }
}

fn sign_in_routes() -> Router<SharedState> {
    // A sign-in answer carries a token: no cache (browser, proxy) may keep it (RFC 6749 5.1).
    let sign_in = tower::ServiceBuilder::new()
        .layer(DefaultBodyLimit::max(SIGN_IN_BODY_LIMIT))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::PRAGMA,
            HeaderValue::from_static("no-cache"),
        ));
    Router::new()
        .route("/system/login", post(system::login).layer(sign_in.clone()))
        .route("/system/mtm", post(system::mtm).layer(sign_in))
        .route("/system/ping", get(system::ping))
}

/// The public read of a share link: no token, production's headers (see `shares`).
fn public_share_routes() -> Router<SharedState> {
    Router::new().route("/shares/public/{token}", get(shares::public))
}

/// A user's own account and share links (issue 41): small bodies only.
fn account_routes() -> Router<SharedState> {
    Router::new()
        .route(
            "/users/me/consent",
            get(account::consent).post(account::record_consent),
        )
        .route("/users/me/claim", post(account::claim))
        .route("/shares", get(shares::list).post(shares::create))
        .route("/shares/{token}", delete(shares::revoke))
        .route("/shares/{token}/email", post(shares::email))
        .layer(DefaultBodyLimit::max(ACCOUNT_BODY_LIMIT))
}

/// The administrator's status routes (issue 40): the indices, the embeddings, and each embedded
/// collection's backfill, all through `embeddings` and `status`.
fn status_routes() -> Router<SharedState> {
    let mut router = Router::new()
        .route("/system/indices", get(crate::status::indices))
        .route("/system/embeddings", get(crate::embeddings::report));
    for embedded in larder_contract::status::EMBEDDED.iter() {
        router = router.route(
            &format!("/{}", embedded.backfill_path()),
            post(
                move |s: Shared, who: Caller, q: QueryParams<crate::embeddings::BackfillQuery>| {
                    crate::embeddings::backfill(embedded, s, who, q)
                },
            ),
        );
    }
    router
}

fn household_routes() -> Router<SharedState> {
    Router::new()
        .route(
            "/households/me",
            get(households::me)
                .patch(households::patch_me)
                .delete(households::delete_me),
        )
        .route(
            "/households",
            get(household_list::list).post(households::create),
        )
        .route(
            "/households/{id}",
            get(households::get)
                .patch(households::patch)
                .delete(households::delete),
        )
        .route("/users/me", delete(users::erase_me))
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
        .merge(member_data_routes())
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
}

/// A member's meal plans and library (production.md §10.3): production's routes, on both wires.
fn member_data_routes() -> Router<SharedState> {
    Router::new()
        .route(
            "/members/{id}/meal-plans",
            get(meal_plans::get).post(meal_plans::store),
        )
        .route(
            "/members/{id}/meal-plans/{plan}",
            delete(meal_plans::revoke),
        )
        .route(
            "/members/{id}/saved-meal-plans",
            get(library::saved_plans).post(library::save_plan),
        )
        .route(
            "/members/{id}/saved-meal-plans/{saved}",
            get(library::saved_plan)
                .patch(library::rename_plan)
                .delete(library::delete_plan),
        )
        .route("/members/{id}/saved-items", get(library::saved_items))
        .route(
            "/members/{id}/saved-items/{item_type}/{*item_ref}",
            put(library::put_saved_item).delete(library::delete_saved_item),
        )
        .route("/members/{id}/favorites", get(library::favorites))
        .route(
            "/members/{id}/favorites/{recipe}",
            put(library::put_favorite).delete(library::delete_favorite),
        )
        .route(
            "/members/{id}/adapted-recipes",
            get(library::adapted_recipes),
        )
        .route(
            "/members/{id}/adapted-recipes/{recipe}",
            get(library::adapted_recipe)
                .put(library::put_adapted_recipe)
                .delete(library::delete_adapted_recipe),
        )
}

type Shared = State<SharedState>;

/// The routes of one collection, generated from its descriptor and the routes the dialect serves.
fn collection_routes(c: &'static Collection, dialect: &Dialect) -> Router<SharedState> {
    let mut root: MethodRouter<SharedState> =
        post(move |s: Shared, who: Caller, body: JsonBody<Value>| records::create(c, s, who, body));
    if dialect.serves(c.routes.list) {
        root = root.get(
            move |s: Shared, who: Caller, q: QueryParams<records::ListQuery>| {
                records::list(c, s, who, q)
            },
        );
    } else if c.path == ARTIFACTS.path && dialect.serves(c.routes.children) {
        root = root.get(records::artifacts_of);
    }
    let mut one =
        get(move |s: Shared, who: Caller, id: PathParams<String>| records::get(c, s, who, id))
            .patch(
                move |s: Shared, who: Caller, id: PathParams<String>, body: JsonBody<Value>| {
                    records::patch(c, s, who, id, body)
                },
            );
    if dialect.serves(c.routes.delete) {
        one = one.delete(move |s: Shared, who: Caller, id: PathParams<String>| {
            records::delete(c, s, who, id)
        });
    }
    if dialect.serves(c.routes.put) {
        one = one.put(
            move |s: Shared, who: Caller, id: PathParams<String>, body: JsonBody<Value>| {
                records::put(c, s, who, id, body)
            },
        );
    }
    let mut router = Router::new()
        .route(&format!("/{}", c.path), root)
        .route(&format!("/{}/{{identifier}}", c.path), one);
    if dialect.serves(c.routes.search) {
        let mut route = post(
            move |s: Shared, who: Caller, body: JsonBody<search::SearchBody>| {
                search::search(c, s, who, body)
            },
        );
        if dialect.serves(c.routes.search_get) {
            route = route.get(search::search_articles_get);
        } else {
            // Production reads `GET {c}/search` as the record whose slug is `search`.
            route = route.get(move |s: Shared, who: Caller| {
                records::get(c, s, who, PathParams("search".to_string()))
            });
        }
        router = router.route(&format!("/{}/search", c.path), route);
    }
    if let Some(policy) = c.reading_policy().filter(|p| dialect.serves(p.offered)) {
        let name = policy.route;
        router = router.route(
            &format!("/{}/{name}", c.path),
            as_record(c, name, dialect, Method::POST).post(
                move |s: Shared, who: Caller, body: JsonBody<Value>| {
                    crate::routes::policy::set_policy(c, policy, s, who, body)
                },
            ),
        );
    }
    if dialect.serves(c.routes.autocomplete.offered) {
        router = router.route(
            &format!("/{}/autocomplete", c.path),
            as_record(c, "autocomplete", dialect, Method::GET).get(
                move |s: Shared, who: Caller, q: QueryParams<autocomplete::AutocompleteQuery>| {
                    autocomplete::autocomplete(c, s, who, q)
                },
            ),
        );
    }
    if dialect.serves(c.routes.enhance) {
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

/// The methods of `{c}/{name}` other than `taken`, each reading `name` as a record's identifier,
/// as production's `/{urn}` routes read a fixed segment they do not serve otherwise.
fn as_record(
    c: &'static Collection,
    name: &'static str,
    dialect: &Dialect,
    taken: Method,
) -> MethodRouter<SharedState> {
    let id = move || PathParams(name.to_string());
    let mut methods = MethodRouter::new();
    if taken != Method::GET {
        methods = methods.get(move |s: Shared, who: Caller| records::get(c, s, who, id()));
    }
    if taken != Method::PATCH {
        methods = methods.patch(move |s: Shared, who: Caller, body: JsonBody<Value>| {
            records::patch(c, s, who, id(), body)
        });
    }
    if taken != Method::DELETE && dialect.serves(c.routes.delete) {
        methods = methods.delete(move |s: Shared, who: Caller| records::delete(c, s, who, id()));
    }
    if taken != Method::PUT && dialect.serves(c.routes.put) {
        methods = methods.put(move |s: Shared, who: Caller, body: JsonBody<Value>| {
            records::put(c, s, who, id(), body)
        });
    }
    methods
}

/// The machine and bulk routes of guidelines (production.md §10.5), named by the contract.
fn guideline_routes(dialect: &Dialect) -> Router<SharedState> {
    use larder_contract::collections::guidelines::{EDITORIAL_POLICY, ENRICH, ENRICH_BATCH};
    let c = &GUIDELINES;
    let at = |path: &str| format!("/{}/{}", c.path, path.replace("{id}", "{identifier}"));
    Router::new()
        .route(&at(ENRICH.path), patch(enrich::enrich))
        .route(
            &at(ENRICH_BATCH.path),
            as_record(c, ENRICH_BATCH.path, dialect, Method::POST).post(enrich::enrich_batch),
        )
        .route(
            &at(EDITORIAL_POLICY.path),
            as_record(c, EDITORIAL_POLICY.path, dialect, Method::POST)
                .post(editorial::editorial_policy),
        )
}

fn data_routes(dialect: &Dialect) -> Router<SharedState> {
    let mut router = Router::new();
    for collection in COLLECTIONS.iter() {
        router = router.merge(collection_routes(collection, dialect));
    }
    router
        .merge(guideline_routes(dialect))
        .route("/artifacts/{id}/download", get(artifacts::download))
        .route("/guidelines/by-guide/{urn}", get(guidelines::by_guide))
        .route("/guidelines/by-guide/{urn}/search", post(search::by_guide))
        .route(
            "/textbook-passages/by-textbook/{urn}",
            get(passages::by_textbook),
        )
        .route(
            "/textbook-passages/by-textbook/{urn}/search",
            post(search::by_textbook),
        )
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
        .route(
            "/guidelines/by-guide/{urn}/import",
            post(guidelines::import).layer(DefaultBodyLimit::max(IMPORT_BODY_LIMIT)),
        )
        .route(
            "/textbook-passages/by-textbook/{urn}/replace",
            post(passages::replace).layer(DefaultBodyLimit::max(REPLACE_BODY_LIMIT)),
        )
        .route(
            "/artifacts/upload",
            // The upload enforces --max-upload itself while streaming to disk.
            post(artifacts::upload).layer(DefaultBodyLimit::disable()),
        )
}

async fn unknown_route(request: Request) -> ApiError {
    routing_miss(&request, ErrorKind::NotFound, Said::NoRoute)
}

async fn wrong_method(request: Request) -> ApiError {
    routing_miss(&request, ErrorKind::NotAllowed, Said::WrongMethod)
}

fn routing_miss(request: &Request, kind: ErrorKind, said: Said) -> ApiError {
    let about = About::request(request.method().as_str(), request.uri().path());
    ApiError::routing_miss(kind, crate::error::dialect().says(said, about))
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

/// Keeps what answers need while the request is answered: the dialect, and the envelope's `help`,
/// built from the configured public address (never from the request's Host header, which a
/// caller controls) or else the request's path alone.
async fn request_context(
    State(state): State<SharedState>,
    request: Request,
    next: Next,
) -> Response {
    let path = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    let help = match &state.options.public_url {
        Some(public) => format!("{public}{path}"),
        None => path,
    };
    let context = RequestContext {
        help,
        dialect: state.dialect,
    };
    REQUEST.scope(context, next.run(request)).await
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
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            crate::request_id::REQUEST_ID,
            crate::request_id::CLIENT,
            crate::request_id::CLIENT_SESSION,
        ])
        .expose_headers([
            header::CONTENT_DISPOSITION,
            header::CONTENT_LENGTH,
            header::RETRY_AFTER,
            crate::request_id::REQUEST_ID,
        ])
        .max_age(Duration::from_secs(600))
}
