//! The artifacts (files) of a record: listed with a download each, and a file upload with
//! progress. The file goes from the browser's `File` to the request as a Blob: its bytes never
//! enter wasm memory.

use larder_api::{ApiError, Artifact, ArtifactUpload, Progress};
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::components::download::DownloadButton;
use crate::components::error_view::ErrorView;
use crate::components::toast::Toasts;
use crate::routes::kb::{can_write, never, record_href};
use crate::schema::schema;
use crate::ApiClient;
use leptos_router::components::A;

/// The artifacts of `parent_urn`. The reference server lists them (`artifacts?parent_urn=`);
/// where that fails, the parent's embedded `artifacts` are shown instead.
#[component]
pub fn ArtifactsOf(parent_urn: String, embedded: Option<Value>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let version = RwSignal::new(0u32);
    let parent = StoredValue::new(parent_urn);
    let embedded: Vec<Artifact> = embedded
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let embedded = StoredValue::new(embedded);
    let list = LocalResource::new(move || {
        version.track();
        let client = client.clone();
        async move {
            match client.artifacts_of(&parent.get_value(), 100, 0).await {
                Ok(found) => Ok(found),
                Err(error) if embedded.with_value(|e| !e.is_empty()) => {
                    leptos::logging::warn!(
                        "artifacts listing failed, showing the embedded list: {error}"
                    );
                    Ok(embedded.get_value())
                }
                Err(error) => Err::<Vec<Artifact>, ApiError>(error),
            }
        }
    });
    let writable = schema("artifacts").map(can_write).unwrap_or_else(never);
    view! {
        <section class="card section" aria-labelledby="artifacts-heading">
            <h2 id="artifacts-heading">"Artifacts"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading the files…"</p> }>
                {move || list.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error/> }.into_any(),
                    Ok(items) if items.is_empty() => view! { <p class="empty">"No files yet. Upload one below."</p> }.into_any(),
                    Ok(items) => view! {
                        <ul class="artifact-list">
                            {items.into_iter().map(|a| {
                                let id = a.id.clone().unwrap_or_default();
                                let title = if a.title.is_empty() { id.clone() } else { a.title.clone() };
                                let meta = [a.file_type.clone(), a.file_size.map(|s| format!("{s} bytes"))]
                                    .into_iter().flatten().collect::<Vec<_>>().join(" · ");
                                let download_label = format!("Download {title}");
                                view! {
                                    <li>
                                        <A href=crate::app::link(record_href("artifacts", &id))>{title}</A>
                                        " " <span class="muted">{meta}</span>
                                        <DownloadButton artifact_id=id label=download_label/>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                })}
            </Transition>
            <Show when=move || writable.get()>
                <Upload parent_urn=parent.get_value() version/>
            </Show>
        </section>
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
fn Upload(parent_urn: String, version: RwSignal<u32>) -> impl IntoView {
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
    Effect::new(move || match upload.value().get() {
        Some(Ok(artifact)) => {
            toasts.success(format!("Uploaded {}", artifact.title));
            title.set(String::new());
            description.set(String::new());
            if let Some(input) = file_input.get_untracked() {
                input.set_value("");
            }
            progress.set(None);
            version.update(|v| *v += 1);
        }
        Some(Err(error)) => {
            toasts.error(&error);
            problem.set(Some(error));
        }
        None => {}
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
            None => problem.set(Some(ApiError::Caller("Choose a file to upload.".into()))),
        }
    };
    view! {
        <form class="upload" on:submit=submit novalidate>
            <h3>"Upload a file"</h3>
            <label for="upload-file">"File"</label>
            <input id="upload-file" type="file" node_ref=file_input/>
            <label for="upload-title">"Title (optional)"</label>
            <input id="upload-title" type="text" prop:value=move || title.get() on:input=move |ev| title.set(event_target_value(&ev))/>
            <label for="upload-description">"Description (optional)"</label>
            <input id="upload-description" type="text" prop:value=move || description.get() on:input=move |ev| description.set(event_target_value(&ev))/>
            {move || progress.get().filter(|_| upload.pending().get()).map(|p| view! {
                <progress max=p.total.unwrap_or(1).max(1) value=p.loaded aria-label="Upload progress"></progress>
                <span role="status">{match p.total { Some(t) => format!("{} of {t} bytes sent", p.loaded), None => format!("{} bytes sent", p.loaded) }}</span>
            })}
            {move || problem.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" class="primary" disabled=move || upload.pending().get()>
                {move || if upload.pending().get() { "Uploading…" } else { "Upload" }}
            </button>
        </form>
    }
}
