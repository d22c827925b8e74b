//! The console's files as `--static` serves them: its pages (a deep link gets index.html, with
//! the policy its `config.json` and its inline hashes call for), their cache headers, and what is
//! refused before tower-http's `ServeDir` looks: dotfiles and symlinks.
//!
//! `ServeDir` blocks `..` but follows symlinks and serves `.env`, `.git/` and the like. A path
//! with a segment starting with `.` (however percent-encoded) is a 404, and so is a path
//! passing through a symlink anywhere under the folder, or whose precompressed `.br`/`.gz` twin
//! is one (also when the file itself does not exist: ServeDir serves a twin alone). Refusing
//! every symlink is the simplest rule that cannot leak outside the folder; a deployment that
//! wants links can copy the files instead (the folder itself may be a link).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use serde_json::Value;
use tower_http::services::ServeFile;

/// Wraps the console's service so refused paths answer 404 without reaching it.
pub fn guard<S>(
    dir: PathBuf,
    inner: S,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
where
    S: tower::Service<Request, Error = std::convert::Infallible> + Clone + Send + 'static,
    S::Future: Send,
    S::Response: IntoResponse,
{
    tower::service_fn(move |request: Request| {
        let dir = dir.clone();
        let inner = inner.clone();
        async move {
            if refused(&dir, request.uri().path()).await {
                return Ok((StatusCode::NOT_FOUND, "Not found").into_response());
            }
            let served = tower::ServiceExt::oneshot(inner, request).await;
            Ok(match served {
                Ok(response) => response.into_response(),
                Err(never) => match never {},
            })
        }
    })
}

/// Whether `path` (the request's, relative to the folder) names a dotfile or goes through a
/// symlink.
async fn refused(dir: &Path, path: &str) -> bool {
    let mut segments = Vec::new();
    for raw in path.split('/').filter(|segment| !segment.is_empty()) {
        let segment = percent_decode_str(raw).decode_utf8_lossy().into_owned();
        // A decoded `/` or `\` would split differently on disk than here.
        if segment.starts_with('.') || segment.contains(['/', '\\', '\0']) {
            return true;
        }
        segments.push(segment);
    }
    let mut at = dir.to_path_buf();
    for (position, segment) in segments.iter().enumerate() {
        at.push(segment);
        match tokio::fs::symlink_metadata(&at).await {
            Ok(meta) if meta.file_type().is_symlink() => return true,
            Ok(_) => {}
            // A missing folder: nothing further down exists; ServeDir or the fallback answers.
            Err(_) if position + 1 < segments.len() => return false,
            // A missing file: ServeDir still serves its `.br`/`.gz` twin, so those are checked.
            Err(_) => break,
        }
    }
    // What ServeDir may serve in place of the path: a directory's index.html, precompressed twins.
    let mut candidates = vec![at.join("index.html")];
    for twin in ["br", "gz"] {
        let mut name = at.clone().into_os_string();
        name.push(format!(".{twin}"));
        candidates.push(PathBuf::from(name));
    }
    for candidate in candidates {
        if let Ok(meta) = tokio::fs::symlink_metadata(&candidate).await {
            if meta.file_type().is_symlink() {
                return true;
            }
        }
    }
    false
}

/// The policy the console's pages are sent with: `connect-src` takes the API origins of the
/// build's `config.json` and a separate systemic address, `img-src` its `picture_hosts`, and
/// with its identity provider (`oidc.issuer`) `connect-src` and `form-action` take the
/// provider's origin; the rest is the policy `cargo xtask dist` writes into the page (its
/// inline hashes included), plus `frame-ancestors 'none'`.
pub(crate) fn console_policy(
    options: &crate::Options,
    dir: &std::path::Path,
    own: &[SocketAddr],
) -> HeaderValue {
    let mut origins: Vec<String> = Vec::new();
    let mut provider = None;
    let mut pictures: Vec<String> = Vec::new();
    if let Ok(text) = std::fs::read_to_string(dir.join("config.json")) {
        if let Ok(config) = serde_json::from_str::<Value>(&text) {
            for key in ["data_api_base", "system_api_base"] {
                if let Some(origin) = config[key].as_str().and_then(origin_of) {
                    origins.push(origin);
                }
            }
            provider = config["oidc"]["issuer"].as_str().and_then(origin_of);
            // The console loads member pictures from these hosts only; the policy follows
            // (entries that are not host names are left out by the policy itself).
            let key = larder_contract::hosting::PICTURE_HOSTS_KEY;
            for host in config[key].as_array().into_iter().flatten() {
                pictures.extend(host.as_str().map(str::to_string));
            }
        }
    }
    if options.system_addr.is_some() {
        for addr in own {
            origins.push(format!("http://{addr}"));
        }
    }
    origins.sort();
    origins.dedup();
    // The start-up set's inline script and style, allowed by the hashes the build wrote into the
    // page's own policy: a header without them would refuse what the page allows.
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap_or_default();
    let inline = larder_contract::hosting::Inline::of_page(&page);
    let policy = larder_contract::hosting::policy_with_provider(
        &origins,
        &pictures,
        provider.as_deref(),
        &inline,
        true,
    );
    HeaderValue::from_str(&policy)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
}

/// `https://api.example.org/x` → `https://api.example.org`.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty() && matches!(scheme, "http" | "https")).then(|| format!("{scheme}://{host}"))
}

/// Paths that are not files are pages of the console (deep links): they get index.html. A path
/// that names a missing file (an old asset, an absent config.json) is a plain 404, so the console
/// and browsers are never handed HTML in place of a file.
pub(crate) fn console_pages(
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
            // The build's own brotli (quality 11) rather than the compression layer's quick one:
            // the page carries the start-up set, and on a phone line 6 KB are 30 ms (issue 24).
            let page = ServeFile::new(index)
                .precompressed_br()
                .precompressed_gzip();
            let served = tower::ServiceExt::oneshot(page, request).await;
            Ok(match served {
                Ok(response) => response.into_response(),
                Err(never) => match never {},
            })
        }
    })
}

/// Hashed assets never change; index.html always may, and so may what is missing today. trunk names them `name-<hash>.ext`;
/// `cargo xtask dist` puts them in a folder `larder-<hash>/` under their own names.
pub(crate) async fn cache_headers(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    if path.starts_with("/api/") {
        return response;
    }
    let hashed_name = |name: &str| {
        name.rsplit_once('-').is_some_and(|(_, hash)| {
            hash.len() >= 16 && hash.chars().all(|c| c.is_ascii_hexdigit())
        })
    };
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let file = segments.pop().unwrap_or_default();
    let stem = file.rsplit_once('.').map_or("", |(stem, _)| stem);
    // A page (index.html for a deep link) is never kept, whatever its path looks like.
    let page = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    // Only what was found is kept: a 404 under a hashed name may be served by the next build.
    let found = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let hashed =
        found && !page && (hashed_name(stem) || segments.iter().any(|folder| hashed_name(folder)));
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
