//! "Import guidelines" on a guide: a JSON or CSV file, or pasted JSON, checked row by row
//! against the contract before anything is sent, a preview of how many, then the import in
//! calls of at most production's limit with progress, and its summary.

use larder_api::{ApiError, Guideline};
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::components::error_view::ErrorView;
use crate::components::file_text::read_chosen;
use crate::components::modal::Modal;
use crate::i18n::{t, tf, tn};
use crate::kb::schema::guideline_import::{batches, parse, MAX_FILE_BYTES, MAX_LISTED};
use crate::kb::schema::import_size::hint;
use crate::ApiClient;

/// Where an import stands.
#[derive(Clone, Debug, PartialEq)]
struct Progress {
    done: usize,
    total: usize,
}

/// The button and its dialog; `on_done` runs after guidelines were stored (to list them).
#[component]
pub fn GuidelineImport(guide_urn: String, on_done: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let open = RwSignal::new(false);
    let text = RwSignal::new(String::new());
    // The checked items once "Check" was pressed with the current text.
    let checked = RwSignal::new(None::<Result<Vec<Map<String, Value>>, Vec<String>>>);
    let progress = RwSignal::new(None::<Progress>);
    let finished = RwSignal::new(None::<Result<usize, (usize, ApiError)>>);
    let urn = StoredValue::new(guide_urn);
    let reset = move || {
        checked.set(None);
        progress.set(None);
        finished.set(None);
    };
    let import = Action::new_local(move |items: &Vec<Map<String, Value>>| {
        let (client, items) = (client.clone(), items.clone());
        let urn = urn.get_value();
        async move {
            let total = items.len();
            progress.set(Some(Progress { done: 0, total }));
            let mut done = 0;
            for range in batches(total) {
                let guidelines: Result<Vec<Guideline>, _> = items[range]
                    .iter()
                    .map(|item| {
                        let mut item = item.clone();
                        item.insert("guide_urn".into(), Value::String(urn.clone()));
                        serde_json::from_value::<Guideline>(Value::Object(item))
                    })
                    .collect();
                let guidelines = match guidelines {
                    Ok(g) => g,
                    Err(e) => return Err((done, ApiError::Caller(e.to_string()))),
                };
                match client.import_guidelines(&urn, &guidelines).await {
                    Ok(answer) => done += answer.imported_count as usize,
                    Err(error) => return Err((done, error)),
                }
                progress.try_set(Some(Progress { done, total }));
            }
            Ok(done)
        }
    });
    Effect::new(move || {
        if let Some(result) = import.value().get() {
            if matches!(result, Ok(_) | Err((1.., _))) {
                on_done.run(());
            }
            finished.set(Some(result));
        }
    });
    let load_file = move |ev: leptos::ev::Event| {
        reset();
        read_chosen(&ev, MAX_FILE_BYTES, move |read| match read {
            Ok(content) => {
                text.set(content);
                checked.set(Some(parse(&text.get_untracked())));
            }
            Err(problem) => checked.set(Some(Err(vec![problem]))),
        });
    };
    let close = Callback::new(move |()| {
        if !import.pending().get_untracked() {
            open.set(false);
            reset();
        }
    });
    let count = move || match checked.get() {
        Some(Ok(items)) => items.len(),
        _ => 0,
    };
    view! {
        <button type="button" on:click=move |_| open.set(true)>{move || t("Import guidelines")}</button>
        <Show when=move || open.get()>
            <Modal role="dialog" labelled_by="import-title" on_escape=close>
                <h2 id="import-title">{move || t("Import guidelines")}</h2>
                <p class="hint">{move || t("A JSON file or pasted JSON: {\"guidelines\": [...]} or a list of guidelines; or a CSV file whose header names the fields (lists separated by ;). Each row is checked before anything is sent.")}</p>
                <label for="import-file">{move || t("JSON or CSV file")}</label>
                <input id="import-file" type="file" accept="application/json,.json,text/csv,.csv" aria-describedby="import-file-limit" on:change=load_file/>
                <p id="import-file-limit" class="hint">{move || hint(MAX_FILE_BYTES)}</p>
                <label for="import-text">{move || t("Or paste JSON")}</label>
                <textarea id="import-text" rows="8" class="code" prop:value=move || text.get()
                    on:input=move |ev| { text.set(event_target_value(&ev)); reset(); }></textarea>
                <div class="actions">
                    <button type="button" on:click=move |_| checked.set(Some(parse(&text.get_untracked())))>{move || t("Check")}</button>
                </div>
                {move || checked.get().map(|result| match result {
                    Ok(items) => view! {
                        <p class="preview" role="status">{tn("{count} guidelines", items.len() as i64, &[])}
                            {(batches(items.len()).len() > 1).then(|| tn(", sent in {count} calls", batches(items.len()).len() as i64, &[]))}</p>
                    }.into_any(),
                    Err(problems) => {
                        let more = problems.len().saturating_sub(MAX_LISTED);
                        view! {
                            <div class="problems" role="alert">
                                <p>{tn("{count} problems; nothing was sent:", problems.len() as i64, &[])}</p>
                                <ul>{problems.into_iter().take(MAX_LISTED).map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                                {(more > 0).then(|| view! { <p>{tn("and {count} more", more as i64, &[])}</p> })}
                            </div>
                        }.into_any()
                    }
                })}
                {move || progress.get().filter(|_| import.pending().get()).map(|p| view! {
                    <p role="status">
                        <progress max=p.total value=p.done></progress> " "
                        {tf("{done} of {total} imported", &[("done", &p.done.to_string()), ("total", &p.total.to_string())])}
                    </p>
                })}
                {move || finished.get().map(|result| match result {
                    Ok(done) => view! { <p class="summary" role="status">{tn("{count} guidelines imported", done as i64, &[])}</p> }.into_any(),
                    Err((done, error)) => view! {
                        <div role="alert">
                            <p>{tn("The import stopped; {count} guidelines were imported before it.", done as i64, &[])}</p>
                            <ErrorView error/>
                        </div>
                    }.into_any(),
                })}
                <div class="actions">
                    <button type="button" on:click=move |_| close.run(()) disabled=move || import.pending().get()>{move || t("Close")}</button>
                    <button type="button" class="primary"
                        disabled=move || count() == 0 || import.pending().get() || finished.get().is_some()
                        on:click=move |_| { if let Some(Ok(items)) = checked.get_untracked() { import.dispatch(items); } }>
                        {move || tn("Import {count} guidelines", count() as i64, &[])}
                    </button>
                </div>
            </Modal>
        </Show>
    }
}
