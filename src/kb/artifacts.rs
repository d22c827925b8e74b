//! The artifacts (files) of a record: listed with a download each, and a file upload with
//! progress. The file goes from the browser's `File` to the request as a Blob: its bytes never
//! enter wasm memory.

use larder_api::{ApiError, ArtifactUpload, Progress, Record, Resource};
use larder_contract::collections::ARTIFACTS;
use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::components::download::DownloadButton;
use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::toast::{on_answer, Toasts};
use crate::i18n::format::bytes;
use crate::i18n::{k, t, tf};
use crate::kb::gates::can_create;
use crate::kb::schema::schema_of;
use crate::paths::record_href;
use crate::ApiClient;

/// Where a parent's files come from.
#[derive(Clone)]
enum Files {
    /// Listed by the service (`artifacts?parent_urn=`, which only the reference service has).
    Listed(Vec<Record>),
    /// The service lists none for this parent (the page shows what was uploaded on it).
    NotListed,
}

/// The artifacts of `parent_urn`. Guides, textbooks and food composition tables carry theirs
/// (`embedded`), so the record's own read shows them, and an upload re-reads the record. Other
/// parents (articles) are listed with `artifacts?parent_urn=`; a service without that listing
/// (production) gets a quiet note, and the files uploaded here are shown below it.
#[component]
pub fn ArtifactsOf(
    parent_urn: String,
    embedded: Option<Value>,
    version: RwSignal<u32>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let parent = StoredValue::new(parent_urn);
    let uploaded = RwSignal::new(Vec::<Record>::new());
    let listed_version = RwSignal::new(0u32);
    let embedded: Option<Vec<Record>> = embedded.and_then(|v| match v {
        Value::Array(items) => Some(
            items
                .into_iter()
                .filter_map(|i| i.as_object().cloned())
                .collect(),
        ),
        _ => None,
    });
    let has_embedded = embedded.is_some();
    let embedded = StoredValue::new(embedded.unwrap_or_default());
    let list = LocalResource::new(move || {
        listed_version.track();
        let client = client.clone();
        async move {
            if has_embedded {
                return Ok(Files::Listed(embedded.get_value()));
            }
            match client.all_artifacts_of(&parent.get_value()).await {
                Ok(found) => Ok(Files::Listed(
                    found
                        .into_iter()
                        .filter_map(|a| a.to_record().ok())
                        .collect(),
                )),
                Err(error) if error.is_not_offered() => Ok(Files::NotListed),
                Err(error) => Err::<Files, ApiError>(error),
            }
        }
    });
    let on_uploaded = Callback::new(move |artifact: Record| {
        if has_embedded {
            version.update(|v| *v += 1);
        } else {
            uploaded.update(|u| u.push(artifact));
            listed_version.update(|v| *v += 1);
        }
    });
    let writable = can_create(schema_of(&ARTIFACTS));
    view! {
        <section class="card section" aria-labelledby="artifacts-heading">
            <h2 id="artifacts-heading">
                {move || t("Artifacts")}
                {move || match list.get() {
                    Some(Ok(Files::Listed(items))) => format!(" ({})", items.len()),
                    _ => String::new(),
                }}
            </h2>
            <Transition fallback=|| view! { <Loading what=k("Loading the files…")/> }>
                {move || list.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| listed_version.update(|v| *v += 1)/> }.into_any(),
                    Ok(Files::Listed(items)) if items.is_empty() => view! { <p class="empty">{move || t("No files yet.")}</p> }.into_any(),
                    Ok(Files::Listed(items)) => view! { <FileList items/> }.into_any(),
                    Ok(Files::NotListed) => view! {
                        <p class="hint" role="status">{move || t("This service does not list the files of this record. Files uploaded here are shown below while you stay on the page.")}</p>
                        {move || {
                            let items = uploaded.get();
                            (!items.is_empty()).then(|| view! { <FileList items/> })
                        }}
                    }.into_any(),
                })}
            </Transition>
            <Show when=move || writable.get()>
                <Upload parent_urn=parent.get_value() on_uploaded/>
            </Show>
        </section>
    }
}

/// Files with a download each.
#[component]
fn FileList(items: Vec<Record>) -> impl IntoView {
    view! {
        <ul class="artifact-list">
            {items.into_iter().map(|a| {
                let text = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                let id = text("id");
                let title = if text("title").is_empty() { id.clone() } else { text("title") };
                let size = a.get("file_size").and_then(Value::as_u64).map(bytes);
                let meta = [Some(text("file_type")).filter(|t| !t.is_empty()), size]
                    .into_iter().flatten().collect::<Vec<_>>().join(" · ");
                let download_label = tf("Download {title}", &[("title", &title)]);
                let file_name = larder_api::artifacts::file_name_of(&a);
                view! {
                    <li>
                        <A href=crate::hosting::link(record_href(ARTIFACTS.path, &id))>{title}</A>
                        " " <span class="muted">{meta}</span>
                        <DownloadButton artifact_id=id label=download_label file_name/>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

#[derive(Clone)]
struct UploadInput {
    file: web_sys::File,
    title: String,
    description: String,
}

/// Choose a file, optionally a title and description, and upload with a progress bar.
#[component]
fn Upload(parent_urn: String, on_uploaded: Callback<Record>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let file_input = NodeRef::<leptos::html::Input>::new();
    let (title, description) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let progress = RwSignal::new(None::<Progress>);
    let problem = RwSignal::new(None::<ApiError>);
    let parent = StoredValue::new(parent_urn);
    let upload = Action::new_local(move |input: &UploadInput| {
        let (client, input) = (client.clone(), input.clone());
        async move {
            let blob: web_sys::Blob = input.file.clone().unchecked_into();
            let mut upload = ArtifactUpload::new(parent.get_value(), blob)
                .file_name(input.file.name())
                .on_progress(move |p| progress.set(Some(p)));
            if !input.title.trim().is_empty() {
                upload = upload.title(input.title.trim());
            }
            if !input.description.trim().is_empty() {
                upload = upload.description(input.description.trim());
            }
            client.upload_artifact(upload).await
        }
    });
    on_answer(upload, Some(problem), move |artifact| {
        toasts.success(tf("Uploaded {title}", &[("title", &artifact.title)]));
        title.set(String::new());
        description.set(String::new());
        if let Some(input) = file_input.get_untracked() {
            input.set_value("");
        }
        progress.set(None);
        if let Ok(record) = artifact.to_record() {
            on_uploaded.run(record);
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        let file = file_input
            .get_untracked()
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        match file {
            Some(file) => {
                progress.set(Some(Progress {
                    loaded: 0,
                    total: Some(file.size() as u64),
                }));
                upload.dispatch(UploadInput {
                    file,
                    title: title.get_untracked(),
                    description: description.get_untracked(),
                });
            }
            None => problem.set(Some(ApiError::Caller(t("Choose a file to upload.")))),
        }
    };
    view! {
        <form class="upload" on:submit=submit novalidate>
            <h3>{move || t("Upload a file")}</h3>
            <label for="upload-file">{move || t("File")}</label>
            <input id="upload-file" type="file" node_ref=file_input/>
            <label for="upload-title">{move || t("Title (optional)")}</label>
            <input id="upload-title" type="text" prop:value=move || title.get() on:input=move |ev| title.set(event_target_value(&ev))/>
            <label for="upload-description">{move || t("Description (optional)")}</label>
            <input id="upload-description" type="text" prop:value=move || description.get() on:input=move |ev| description.set(event_target_value(&ev))/>
            {move || progress.get().filter(|_| upload.pending().get()).map(|p| view! {
                <progress max=p.total.unwrap_or(1).max(1) value=p.loaded aria-label=move || t("Upload progress")></progress>
                <span role="status">{move || match p.total { Some(all) => tf("{loaded} of {total} sent", &[("loaded", &bytes(p.loaded)), ("total", &bytes(all))]), None => tf("{loaded} sent", &[("loaded", &bytes(p.loaded))]) }}</span>
            })}
            {move || problem.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" class="primary" disabled=move || upload.pending().get()>
                {move || if upload.pending().get() { t("Uploading…") } else { t("Upload") }}
            </button>
        </form>
    }
}
