//! What `--static` refuses before tower-http's `ServeDir` looks: dotfiles and symlinks.
//!
//! `ServeDir` blocks `..` but follows symlinks and serves `.env`, `.git/` and the like. A path
//! with a segment starting with `.` (however percent-encoded) is a 404, and so is a path
//! passing through a symlink anywhere under the folder, or whose precompressed `.br`/`.gz` twin
//! is one (also when the file itself does not exist: ServeDir serves a twin alone). Refusing every symlink is the simplest rule that cannot leak outside the folder; a
//! deployment that wants links can copy the files instead (the folder itself may be a link).

use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;

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
