//! Bulk replacement of a textbook's passages: load a JSON file or paste it, choose the artifact,
//! see a preview, confirm, watch it go out, and read the service's summary.

use std::sync::Arc;

use larder_api::transport::Progress;
use larder_api::types::{ReplacePassages, ReplaceResult};
use larder_api::{ApiError, Artifact};
use leptos::prelude::*;
use serde_json::Value;

use crate::components::error_view::ErrorView;
use crate::components::file_text::read_chosen;
use crate::components::modal::Modal;
use crate::components::toast::Toasts;
use crate::i18n::format::{bytes, number};
use crate::i18n::{t, tf, tn};
use crate::kb::schema::import_size::hint;
use crate::kb::schema::replace::{pages_past_the_count, parse, preview, MAX_FILE_BYTES};
use crate::ApiClient;

/// Where a running replacement is: the body going out, then the service storing the passages.
#[component]
fn ReplaceProgress(sent: RwSignal<Option<Progress>>) -> impl IntoView {
    view! {
        <div class="replace-progress" role="status" aria-live="polite">
            {move || match sent.get() {
                None => view! { <p>{move || t("Step 1 of 2: sending the passages…")}</p> }.into_any(),
                Some(Progress { loaded, total: Some(total) }) if loaded < total => view! {
                    <p>{tf("Step 1 of 2: sending the passages, {loaded} of {total}", &[("loaded", &bytes(loaded)), ("total", &bytes(total))])}</p>
                    <progress max=total value=loaded aria-label=move || t("Sending progress")></progress>
                }.into_any(),
                Some(_) => view! {
                    <p>{move || t("Step 2 of 2: sent; the service is storing the passages…")}</p>
                    <progress aria-label=move || t("Storing the passages")></progress>
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
    /// The textbook's page count, which a body without its own must keep within.
    page_count: Option<i64>,
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
        (!text.trim().is_empty()).then(|| {
            parse(&text, &artifact.get())
                .and_then(|body| pages_past_the_count(&body, page_count).map_or(Ok(body), Err))
        })
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
            toasts.success(tn(
                "{count} passages stored",
                result.replaced_count as i64,
                &[],
            ));
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
    // A JSON document the user chose to send: reading it as text is the point here.
    let load_file = move |ev: leptos::ev::Event| {
        failure.set(None);
        read_chosen(&ev, MAX_FILE_BYTES, move |read| match read {
            Ok(content) => text.set(content),
            Err(problem) => failure.set(Some(ApiError::Caller(problem))),
        });
    };
    view! {
        <section class="card section" aria-labelledby="replace-heading">
            <h2 id="replace-heading">{move || t("Bulk replace passages")}</h2>
            <p class="hint">{move || t("Load or paste JSON:")} " " <code>"{\"passages\": [{\"page_no\", \"text\", \"char_start\", \"char_end\"}], \"structure_tree\"?, \"page_count\"?}"</code> " " {move || t("or a list of passages. The passages of the chosen file are replaced.")}</p>
            <label for="replace-artifact">{move || t("Artifact (file) the passages come from")}</label>
            <select id="replace-artifact" on:change=move |ev| artifact.set(event_target_value(&ev))>
                <option value="" selected=move || artifact.get().is_empty()>{move || t("Use the artifact_id in the JSON")}</option>
                {artifacts.into_iter().map(|a| {
                    let id = a.id.clone().unwrap_or_default();
                    let chosen = id.clone();
                    view! { <option value=id.clone() selected=move || artifact.get() == chosen>{format!("{} ({id})", a.title)}</option> }
                }).collect_view()}
            </select>
            <label for="replace-file">{move || t("JSON file")}</label>
            <input id="replace-file" type="file" accept="application/json,.json" aria-describedby="replace-file-limit" on:change=load_file/>
            <p id="replace-file-limit" class="hint">{move || hint(MAX_FILE_BYTES)}</p>
            <label for="replace-json">{move || t("JSON")}</label>
            <textarea id="replace-json" class="code" rows="6" spellcheck="false" prop:value=move || text.get()
                on:input=move |ev| { text.set(event_target_value(&ev)); summary.set(None); failure.set(None); }></textarea>
            {move || parsed.get().map(|result| match result {
                Err(problem) => view! { <p class="field-error" role="alert">{problem}</p> }.into_any(),
                Ok(body) => {
                    let p = preview(&body);
                    view! {
                        <p class="preview" role="status">{move || format!(
                            "{}{}{}.",
                            tn("Ready: {count} passages on {pages} pages", p.passages as i64, &[("pages", &number(p.pages as f64))]),
                            if p.nodes > 0 { tn(", a structure tree of {count} nodes", p.nodes as i64, &[]) } else { String::new() },
                            p.page_count.map(|c| tf(", page count {count}", &[("count", &number(c as f64))])).unwrap_or_default(),
                        )}</p>
                        <button type="button" class="primary" on:click=move |_| confirming.set(Some(body.clone()))>{move || t("Replace…")}</button>
                    }.into_any()
                }
            })}
            {move || confirming.get().map(|body| {
                let p = preview(&body);
                view! {
                    <Modal role="alertdialog" labelled_by="replace-question"
                        on_escape=Callback::new(move |_| if !replace.pending().get_untracked() { confirming.set(None) })>
                            <p id="replace-question">{tn("Replace the passages of artifact {artifact} with {count} passages? The current ones are deleted.", p.passages as i64, &[("artifact", &body.artifact_id)])}</p>
                            <div class="actions">
                                <button type="button" on:click=move |_| confirming.set(None)>{move || t("Cancel")}</button>
                                <button type="button" class="danger" data-initial-focus disabled=move || replace.pending().get()
                                    on:click=move |_| { failure.set(None); replace.dispatch(body.clone()); }>
                                    {move || if replace.pending().get() { t("Replacing…") } else { t("Replace passages") }}
                                </button>
                            </div>
                            {move || replace.pending().get().then(|| view! { <ReplaceProgress sent/> })}
                    </Modal>
                }
            })}
            {move || failure.get().map(|error| view! { <ErrorView error/> })}
            {move || summary.get().map(|s| view! {
                <p class="summary" role="status">{tn(
                    "Replaced: {count} passages stored for artifact {artifact}; page count {pages}; structure tree {tree}.",
                    s.replaced_count as i64,
                    &[
                        ("artifact", &s.artifact_id.clone().unwrap_or_default()),
                        ("pages", &s.page_count.map(|c| number(c as f64)).unwrap_or_else(|| t("unchanged"))),
                        ("tree", &if s.structure_tree_updated { t("updated") } else { t("unchanged") }),
                    ],
                )}</p>
                <button type="button" on:click=move |_| version.update(|v| *v += 1)>{move || t("Show the new structure")}</button>
            })}
        </section>
    }
}
