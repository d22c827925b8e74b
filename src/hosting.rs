//! Where the console is hosted: the document's base path, and console paths as links under it.

/// A console path (`/household`) as a link under the base the console is hosted at. The
/// router's `<A>` leaves paths that start with `/` as they are (`navigate` resolves them).
pub fn link(path: impl AsRef<str>) -> String {
    format!("{}{}", base_path(), path.as_ref())
}

thread_local! {
    // The base never changes while the page lives; links are built from it on every render.
    static BASE_PATH: String = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|url| url.pathname().trim_end_matches('/').to_string())
        .unwrap_or_default();
}

/// The document's base path (`/` or the sub-path the console is hosted under), without the trailing slash.
pub fn base_path() -> String {
    BASE_PATH.with(Clone::clone)
}

/// The address bar's path and query (`/console/households`, `?offset=20`), for sending a
/// signed-out visitor through sign-in and back.
pub fn current_location() -> (String, String) {
    let location = web_sys::window().map(|w| w.location());
    let read = |part: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
        location
            .as_ref()
            .and_then(|l| part(l).ok())
            .unwrap_or_default()
    };
    (
        read(web_sys::Location::pathname),
        read(web_sys::Location::search),
    )
}
