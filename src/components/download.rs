//! Downloading an artifact's file without its bytes entering wasm memory.
//!
//! The client opens `artifacts/{id}/download` (bearer header, errors and retries handled there)
//! and hands back the unread fetch `Response`. In JS land its body is piped through a
//! TransformStream that only counts bytes, into `new Response(stream).blob()`; the Blob gets an
//! object URL, a temporary `<a download>` is clicked, and the URL is revoked. Rust sees counts
//! and the outcome, and shows the count at most five times a second (`crate::progress_pace`):
//! a re-render per chunk grew wasm memory by megabytes over a 1 GiB file. Cancel aborts the
//! pipe, which cancels the network stream.

use js_sys::{Array, Function, Object, Promise, Reflect};
use larder_api::{ApiError, CancelToken};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::components::toast::Toasts;
use crate::error_text::error_detail;
use crate::i18n::format::bytes;
use crate::i18n::{t, tf};
use crate::progress_pace::{Pace, PROGRESS_EVERY_MS};
use crate::ApiClient;

#[derive(Clone, Debug, PartialEq)]
enum State {
    Idle,
    /// The bytes so far and the total live in their own signal, so an update redraws the bar
    /// and its text, not the whole row.
    Running,
    Done(String),
    Failed(String),
}

fn js_text(error: JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| t("the browser stopped the download"))
}

fn get(target: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    Reflect::get(target, &JsValue::from_str(key))
}

/// Pipes `response`'s body into a Blob, counting bytes, and saves it as `name`. `on_bytes` hears
/// the count at most once per [`PROGRESS_EVERY_MS`] (see `crate::progress_pace` for why).
async fn save(
    response: web_sys::Response,
    name: &str,
    abort: &web_sys::AbortController,
    on_bytes: impl Fn(u64) + 'static,
) -> Result<(), JsValue> {
    let body: JsValue = response
        .body()
        .map(JsValue::from)
        .ok_or_else(|| JsValue::from_str("the answer has no body"))?;
    let mut loaded = 0u64;
    let mut pace = Pace::new(PROGRESS_EVERY_MS);
    // Looked up once: the transform runs for every chunk of the body.
    let byte_length = JsValue::from_str("byteLength");
    let mut enqueue: Option<Function> = None;
    let transform = Closure::<dyn FnMut(JsValue, JsValue) -> Result<(), JsValue>>::new(
        move |chunk: JsValue, controller: JsValue| {
            // Read through Reflect, not `instanceof Uint8Array`: that check would be a new
            // import, and the start-up module's glue holds every import.
            let bytes = Reflect::get(&chunk, &byte_length)?.as_f64().unwrap_or(0.0) as u64;
            loaded += bytes;
            if pace.due(js_sys::Date::now()) {
                on_bytes(loaded);
            }
            let enqueue = match &enqueue {
                Some(function) => function,
                None => enqueue.insert(get(&controller, "enqueue")?.dyn_into()?),
            };
            enqueue.call1(&controller, &chunk).map(|_| ())
        },
    );
    let transformer = Object::new();
    Reflect::set(&transformer, &"transform".into(), transform.as_ref())?;
    let global = js_sys::global();
    let stream_class: Function = get(&global, "TransformStream")?.dyn_into()?;
    let counter = Reflect::construct(&stream_class, &Array::of1(&transformer))?;
    let options = Object::new();
    Reflect::set(&options, &"signal".into(), &abort.signal())?;
    let pipe_through: Function = get(&body, "pipeThrough")?.dyn_into()?;
    let counted = pipe_through.call2(&body, &counter, &options)?;
    let response_class: Function = get(&global, "Response")?.dyn_into()?;
    let wrapped = Reflect::construct(&response_class, &Array::of1(&counted))?;
    let blob_fn: Function = get(&wrapped, "blob")?.dyn_into()?;
    let blob: web_sys::Blob = JsFuture::from(blob_fn.call0(&wrapped)?.dyn_into::<Promise>()?)
        .await?
        .dyn_into()?;
    drop(transform);
    offer_blob(&blob, name)
}

/// Saves `blob` as `name` through a temporary `<a download>` and an object URL, revoked once
/// the click has been handled. Shared with the exports (`crate::export::browser`).
pub fn offer_blob(blob: &web_sys::Blob, name: &str) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.set_attribute("hidden", "")?;
    if let Some(body) = document.body() {
        body.append_child(&anchor)?;
    }
    anchor.click();
    anchor.remove();
    // Revoked after the click has been handled: revoking at once can cancel the save.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(30),
    );
    Ok(())
}

/// "Download" with a progress bar (indeterminate when the service sends no length), the file
/// name from Content-Disposition or else `file_name` (production does not expose the header
/// across origins), and Cancel.
#[component]
pub fn DownloadButton(
    artifact_id: String,
    #[prop(optional, into)] label: String,
    #[prop(optional, into)] file_name: String,
) -> impl IntoView {
    let fallback_name = StoredValue::new(file_name);
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let state = RwSignal::new(State::Idle);
    // (bytes so far, Content-Length when the service sent one)
    let progress = RwSignal::new((0u64, None::<u64>));
    let controller: StoredValue<Option<(web_sys::AbortController, CancelToken)>, LocalStorage> =
        StoredValue::new_local(None);
    let id = StoredValue::new(artifact_id);
    let label = StoredValue::new(label);
    let label = move || {
        let label = label.get_value();
        if label.is_empty() {
            t("Download")
        } else {
            label
        }
    };
    let start = move |_| {
        let Ok(abort) = web_sys::AbortController::new() else {
            return;
        };
        let cancel = CancelToken::new();
        controller.set_value(Some((abort.clone(), cancel.clone())));
        progress.set((0, None));
        state.set(State::Running);
        let client = client.clone();
        leptos::task::spawn_local(async move {
            let opened = client
                .download_artifact(&id.get_value(), Some(&cancel))
                .await;
            let download = match opened {
                Ok(download) => download,
                Err(ApiError::Cancelled) => return state.set(State::Failed(t("Cancelled."))),
                Err(error) => {
                    toasts.error(&error);
                    return state.set(State::Failed(error_detail(&error)));
                }
            };
            let total = download.content_length;
            let name = download
                .file_name
                .clone()
                .or_else(|| Some(fallback_name.get_value()).filter(|n| !n.is_empty()))
                .unwrap_or_else(|| format!("artifact-{}", id.get_value()));
            progress.set((0, total));
            let outcome = save(download.stream, &name, &abort, move |loaded| {
                progress.set((loaded, total))
            })
            .await;
            controller.set_value(None);
            state.set(match outcome {
                Ok(()) => State::Done(name),
                Err(_) if abort.signal().aborted() => State::Failed(t("Cancelled.")),
                Err(error) => State::Failed(tf(
                    "The download failed: {problem}",
                    &[("problem", &js_text(error))],
                )),
            });
        });
    };
    let cancel = move |_| {
        if let Some((abort, token)) = controller.get_value() {
            token.cancel();
            abort.abort();
        }
    };
    let running = move || state.get() == State::Running;
    view! {
        <div class="download">
            <button type="button" on:click=start disabled=running>{label}</button>
            {move || match state.get() {
                State::Idle => ().into_any(),
                State::Running => view! {
                    <progress max=move || progress.get().1.unwrap_or(0).max(1) value=move || { let (loaded, total) = progress.get(); total.map(|_| loaded) } aria-label=move || t("Download progress")></progress>
                    <span role="status">{move || match progress.get() { (loaded, Some(all)) => tf("{loaded} of {total}", &[("loaded", &bytes(loaded)), ("total", &bytes(all))]), (loaded, None) => bytes(loaded) }}</span>
                    <button type="button" on:click=cancel>{move || t("Cancel download")}</button>
                }.into_any(),
                State::Done(name) => view! { <span role="status">{move || tf("Saved as {name}.", &[("name", &name)])}</span> }.into_any(),
                State::Failed(message) => view! { <span role="status" class="error-text">{message}</span> }.into_any(),
            }}
        </div>
    }
}
