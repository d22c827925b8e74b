//! Bulk replacement of a textbook's passages: load a JSON file or paste it, choose the artifact,
//! see a preview, confirm, watch it go out, and read the service's summary.

use std::sync::Arc;

use larder_api::transport::Progress;
use larder_api::types::{ReplacePassages, ReplaceResult};
use larder_api::{ApiError, Artifact};
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen_futures::JsFuture;

use crate::components::error_view::ErrorView;
use crate::components::toast::Toasts;
use crate::schema::replace::{parse, preview};
use crate::ApiClient;

/// Where a running replacement is: the body going out, then the service storing the passages.
#[component]
fn ReplaceProgress(sent: RwSignal<Option<Progress>>) -> impl IntoView {
    let megabytes = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1_000_000.0);
    view! {
        <div class="replace-progress" role="status" aria-live="polite">
            {move || match sent.get() {
                None => view! { <p>"Step 1 of 2: sending the passages…"</p> }.into_any(),
                Some(Progress { loaded, total: Some(total) }) if loaded < total => view! {
                    <p>{format!("Step 1 of 2: sending the passages, {} of {}", megabytes(loaded), megabytes(total))}</p>
                    <progress max=total value=loaded aria-label="Sending progress"></progress>
                }.into_any(),
                Some(_) => view! {
                    <p>"Step 2 of 2: sent; the service is storing the passages…"</p>
                    <progress aria-label="Storing the passages"></progress>
                }.into_any(),
            }}
        </div>
    }
}

/// The replace panel of `textbook_urn`; `artifacts` are the textbook's embedded artifacts.
#[component]
pub fn BulkReplace(
    textbook_urn: String,
    artifacts: Option<Value>,
    version: RwSignal<u32>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let artifacts: Vec<Artifact> = artifacts
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let first = artifacts
        .first()
        .and_then(|a| a.id.clone())
        .unwrap_or_default();
    let artifact = RwSignal::new(first);
    let text = RwSignal::new(String::new());
    let confirming = RwSignal::new(None::<ReplacePassages>);
    let summary = RwSignal::new(None::<ReplaceResult>);
    let failure = RwSignal::new(None::<ApiError>);
    let urn = StoredValue::new(textbook_urn);
    let parsed = Memo::new(move |_| {
        let text = text.get();
        (!text.trim().is_empty()).then(|| parse(&text, &artifact.get()))
    });
    let sent = RwSignal::new(None::<Progress>);
    let replace = Action::new_local(move |body: &ReplacePassages| {
        let (client, body) = (client.clone(), body.clone());
        sent.set(None);
        async move {
            let progress = Arc::new(move |p: Progress| {
                sent.try_set(Some(p));
            });
            client
                .replace_passages_tracked(&urn.get_value(), &body, progress)
                .await
        }
    });
    Effect::new(move || match replace.value().get() {
        Some(Ok(result)) => {
            toasts.success(format!("{} passages stored", result.replaced_count));
            summary.set(Some(result));
            confirming.set(None);
        }
        Some(Err(error)) => {
            toasts.error(&error);
            failure.set(Some(error));
            confirming.set(None);
        }
        None => {}
    });
    let load_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // A JSON document the user chose to send: reading it as text is the point here.
        leptos::task::spawn_local(async move {
            match JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
            {
                Some(content) => text.set(content),
                None => failure.set(Some(ApiError::Caller(
                    "The file could not be read as text.".into(),
                ))),
            }
        });
    };
    view! {
        <section class="card section" aria-labelledby="replace-heading">
            <h2 id="replace-heading">"Bulk replace passages"</h2>
            <p class="hint">"Load or paste JSON: " <code>"{\"passages\": [{\"page_no\", \"text\", \"char_start\", \"char_end\"}], \"structure_tree\"?, \"page_count\"?}"</code> " or a list of passages. The passages of the chosen file are replaced."</p>
            <label for="replace-artifact">"Artifact (file) the passages come from"</label>
            <select id="replace-artifact" on:change=move |ev| artifact.set(event_target_value(&ev))>
                <option value="" selected=move || artifact.get().is_empty()>"Use the artifact_id in the JSON"</option>
                {artifacts.into_iter().map(|a| {
                    let id = a.id.clone().unwrap_or_default();
                    let chosen = id.clone();
                    view! { <option value=id.clone() selected=move || artifact.get() == chosen>{format!("{} ({id})", a.title)}</option> }
                }).collect_view()}
            </select>
            <label for="replace-file">"JSON file"</label>
            <input id="replace-file" type="file" accept="application/json,.json" on:change=load_file/>
            <label for="replace-json">"JSON"</label>
            <textarea id="replace-json" class="code" rows="6" spellcheck="false" prop:value=move || text.get()
                on:input=move |ev| { text.set(event_target_value(&ev)); summary.set(None); failure.set(None); }></textarea>
            {move || parsed.get().map(|result| match result {
                Err(problem) => view! { <p class="field-error" role="alert">{problem}</p> }.into_any(),
                Ok(body) => {
                    let p = preview(&body);
                    view! {
                        <p class="preview" role="status">{format!(
                            "Ready: {} passages on {} pages{}{}.",
                            p.passages, p.pages,
                            if p.nodes > 0 { format!(", a structure tree of {} nodes", p.nodes) } else { String::new() },
                            p.page_count.map(|c| format!(", page count {c}")).unwrap_or_default(),
                        )}</p>
                        <button type="button" class="primary" on:click=move |_| confirming.set(Some(body.clone()))>"Replace…"</button>
                    }.into_any()
                }
            })}
            {move || confirming.get().map(|body| {
                let p = preview(&body);
                view! {
                    <div class="modal-backdrop">
                        <div class="modal card" role="alertdialog" aria-modal="true" aria-labelledby="replace-question">
                            <p id="replace-question">{format!("Replace the passages of artifact {} with {} passages? The current ones are deleted.", body.artifact_id, p.passages)}</p>
                            <div class="actions">
                                <button type="button" on:click=move |_| confirming.set(None)>"Cancel"</button>
                                <button type="button" class="danger" autofocus disabled=move || replace.pending().get()
                                    on:click=move |_| { failure.set(None); replace.dispatch(body.clone()); }>
                                    {move || if replace.pending().get() { "Replacing…" } else { "Replace passages" }}
                                </button>
                            </div>
                            {move || replace.pending().get().then(|| view! { <ReplaceProgress sent/> })}
                        </div>
                    </div>
                }
            })}
            {move || failure.get().map(|error| view! { <ErrorView error/> })}
            {move || summary.get().map(|s| view! {
                <p class="summary" role="status">{format!(
                    "Replaced: {} passages stored for artifact {}; page count {}; structure tree {}.",
                    s.replaced_count, s.artifact_id.clone().unwrap_or_default(),
                    s.page_count.map(|c| c.to_string()).unwrap_or_else(|| "unchanged".into()),
                    if s.structure_tree_updated { "updated" } else { "unchanged" },
                )}</p>
                <button type="button" on:click=move |_| version.update(|v| *v += 1)>"Show the new structure"</button>
            })}
        </section>
    }
}
