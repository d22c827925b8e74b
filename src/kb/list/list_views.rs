//! Columns and saved views of a list page: which columns show and in which order, named views
//! (search, filters, sort, page size and columns) as links under the collection's tabs, and
//! views exported to and imported from a JSON file.
//!
//! Both are preferences kept in localStorage (`larder.columns.<collection>`, `larder.views`):
//! field names and list queries only, nothing of the session, so they outlive signing out.
//! A `cols` parameter in the URL (a view's link, shared) wins over the stored columns.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::components::file_text::read_chosen;
use crate::components::modal::Modal;
use crate::i18n::{t, tf, tn};
use crate::kb::schema::import_size::hint;
use crate::kb::schema::views::{
    columns_from_param, columns_param, dialog_order, export_views, import_views, known_columns,
    moved, toggled, view_query, with_view, SavedView, COLUMNS_PARAM, MAX_FILE_BYTES, MAX_NAME,
};
use crate::kb::schema::{label, Schema};

const VIEWS_KEY: &str = "larder.views";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn columns_key(schema: &Schema) -> String {
    format!("larder.columns.{}", schema.collection.path)
}

fn stored_columns(schema: &'static Schema) -> Option<Vec<&'static str>> {
    let text = storage()?.get_item(&columns_key(schema)).ok()??;
    let names: Vec<String> = serde_json::from_str(&text).ok()?;
    Some(known_columns(schema, &names))
}

fn stored_views() -> Vec<SavedView> {
    storage()
        .and_then(|s| s.get_item(VIEWS_KEY).ok().flatten())
        .and_then(|text| import_views(&text).ok())
        .unwrap_or_default()
}

fn store_views(views: &[SavedView]) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(VIEWS_KEY, &export_views(views));
    }
}

/// Saves `text` as a file called `name` through a Blob, as every download is saved.
fn download_text(text: &str, name: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let blob = web_sys::Blob::new_with_str_sequence(&parts)?;
    crate::components::download::offer_blob(&blob, name)
}

/// The columns a list shows, shared by the list's parts through the context.
#[derive(Clone, Copy)]
pub struct ShownColumns {
    schema: &'static Schema,
    stored: RwSignal<Option<Vec<&'static str>>>,
    /// The columns after the title, in order.
    pub shown: Memo<Vec<&'static str>>,
}

/// Provides the list's columns: the URL's `cols`, else the stored choice, else the contract's
/// defaults (the schema's list columns).
pub fn provide_columns(schema: &'static Schema) -> ShownColumns {
    let query = use_query_map();
    let stored = RwSignal::new(stored_columns(schema));
    let shown = Memo::new(move |_| match query.with(|q| q.get(COLUMNS_PARAM)) {
        Some(param) => columns_from_param(schema, &param),
        None => stored.get().unwrap_or_else(|| schema.columns.to_vec()),
    });
    let columns = ShownColumns {
        schema,
        stored,
        shown,
    };
    provide_context(columns);
    columns
}

/// The columns of `schema`'s list, read once (the list re-renders when they change).
pub fn columns_of(schema: &'static Schema) -> Vec<&'static str> {
    use_context::<ShownColumns>()
        .filter(|c| c.schema.collection.path == schema.collection.path)
        .map(|c| c.shown.get_untracked())
        .unwrap_or_else(|| schema.columns.to_vec())
}

/// The pairs of a query map.
fn pairs_of(query: Memo<leptos_router::params::ParamsMap>) -> Vec<(String, String)> {
    query
        .get_untracked()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// Saved view links, then the buttons: Columns, Save view, Export views, Import views.
#[component]
pub fn ListViews(schema: &'static Schema) -> impl IntoView {
    let columns = use_context::<ShownColumns>().expect("provide_columns runs first");
    let views = RwSignal::new(stored_views());
    let path = schema.collection.path;
    let mine = move || {
        views
            .get()
            .into_iter()
            .filter(|v| v.collection == path)
            .collect::<Vec<_>>()
    };
    let dialog = RwSignal::new(None::<Dialog>);
    let close = Callback::new(move |()| dialog.set(None));
    view! {
        <Show when=move || !mine().is_empty()>
            <nav class="saved-views" aria-label=move || t("Saved views")>
                {move || mine().into_iter().map(|v| {
                    let name = v.name.clone();
                    view! { <A href=crate::hosting::link(v.href())>{name}</A> }
                }).collect_view()}
            </nav>
        </Show>
        <div class="list-tools">
            <button type="button" on:click=move |_| dialog.set(Some(Dialog::Columns))>{move || t("Columns")}</button>
            <button type="button" on:click=move |_| dialog.set(Some(Dialog::Save))>{move || t("Save view")}</button>
            <button type="button" on:click=move |_| dialog.set(Some(Dialog::Transfer))>{move || t("Export or import views")}</button>
        </div>
        {move || dialog.get().map(|d| match d {
            Dialog::Columns => view! { <ColumnsDialog schema columns close/> }.into_any(),
            Dialog::Save => view! { <SaveViewDialog schema columns views close/> }.into_any(),
            Dialog::Transfer => view! { <TransferDialog views close/> }.into_any(),
        })}
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Dialog {
    Columns,
    Save,
    Transfer,
}

/// Focuses the first of the elements `ids` that is there and enabled, once the list has moved.
fn refocus(ids: &[String]) {
    use wasm_bindgen::JsCast;
    let ids = ids.to_vec();
    request_animation_frame(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        for id in &ids {
            let Some(element) = document.get_element_by_id(id) else {
                continue;
            };
            if element.has_attribute("disabled") {
                continue;
            }
            if let Ok(element) = element.dyn_into::<web_sys::HtmlElement>() {
                let _ = element.focus();
                return;
            }
        }
    });
}

/// Checkboxes to show fields, Up and Down to order them; every change applies at once.
#[component]
fn ColumnsDialog(
    schema: &'static Schema,
    columns: ShownColumns,
    close: Callback<()>,
) -> impl IntoView {
    let navigate = use_navigate();
    // Taken here, not in the handlers: hooks read the router's context, which events lack.
    let query = use_query_map();
    let apply = move |next: Vec<&'static str>| {
        if let Some(storage) = storage() {
            let names = serde_json::to_string(&next).unwrap_or_default();
            let _ = storage.set_item(&columns_key(schema), &names);
        }
        columns.stored.set(Some(next.clone()));
        // A view's link named its columns in the URL: keep the URL true to what shows.
        if query.with_untracked(|q| q.get(COLUMNS_PARAM).is_some()) {
            let enc = larder_api::config::encode_component;
            let mut parts: Vec<String> = pairs_of(query)
                .into_iter()
                .filter(|(k, _)| k != COLUMNS_PARAM)
                .map(|(k, v)| format!("{}={}", enc(&k), enc(&v)))
                .collect();
            parts.push(format!("{COLUMNS_PARAM}={}", enc(&columns_param(&next))));
            navigate(
                &format!("?{}", parts.join("&")),
                NavigateOptions {
                    replace: true,
                    ..Default::default()
                },
            );
        }
    };
    let apply = StoredValue::new(apply);
    let order = move || dialog_order(schema, &columns.shown.get());
    view! {
        <Modal role="dialog" labelled_by="columns-title" on_escape=close>
            <h2 id="columns-title">{move || t("Columns")}</h2>
            <p class="hint">{move || t("The title comes first. Choose the other columns and their order; the choice is kept in this browser.")}</p>
            <ul class="column-choices">
                // Keyed rows: a row keeps its elements when it moves, so a screen reader (and a
                // test) holds on to the control it used; the focus is put back after the move.
                <For each=order key=|name| *name let:name>
                    {
                        let at = move || columns.shown.with(|shown| shown.iter().position(|c| *c == name));
                        let count = move || columns.shown.with(Vec::len);
                        let id = format!("column-{name}");
                        let field = label(name);
                        let up_label = tf("Move {field} up", &[("field", &field)]);
                        let down_label = tf("Move {field} down", &[("field", &field)]);
                        view! {
                            <li>
                                <input type="checkbox" id=id.clone() prop:checked=move || at().is_some()
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let next = toggled(&columns.shown.get_untracked(), name, on);
                                        apply.with_value(|apply| apply(next));
                                        refocus(&[format!("column-{name}")]);
                                    }/>
                                <label for=id>{field}</label>
                                <button type="button" class="small" aria-label=up_label id=format!("column-{name}-up")
                                    disabled=move || !matches!(at(), Some(1..))
                                    on:click=move |_| {
                                        let next = moved(&columns.shown.get_untracked(), name, -1);
                                        apply.with_value(|apply| apply(next));
                                        refocus(&[format!("column-{name}-up"), format!("column-{name}-down")]);
                                    }>"↑"</button>
                                <button type="button" class="small" aria-label=down_label id=format!("column-{name}-down")
                                    disabled=move || at().is_none_or(|i| i + 1 >= count())
                                    on:click=move |_| {
                                        let next = moved(&columns.shown.get_untracked(), name, 1);
                                        apply.with_value(|apply| apply(next));
                                        refocus(&[format!("column-{name}-down"), format!("column-{name}-up")]);
                                    }>"↓"</button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <div class="actions">
                <button type="button" on:click=move |_| {
                    if let Some(storage) = storage() { let _ = storage.remove_item(&columns_key(schema)); }
                    columns.stored.set(None);
                    apply.with_value(|apply| apply(schema.columns.to_vec()));
                }>{move || t("Default columns")}</button>
                <button type="button" class="primary" data-initial-focus on:click=move |_| close.run(())>{move || t("Done")}</button>
            </div>
        </Modal>
    }
}

/// A name for the current search, filters, sort, page size and columns.
#[component]
fn SaveViewDialog(
    schema: &'static Schema,
    columns: ShownColumns,
    views: RwSignal<Vec<SavedView>>,
    close: Callback<()>,
) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let query = view_query(&pairs_of(use_query_map()));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let chosen = name.get_untracked().trim().to_string();
        if chosen.is_empty() || chosen.chars().count() > MAX_NAME {
            problem.set(Some(tf(
                "A name of 1 to {max} characters is needed.",
                &[("max", &MAX_NAME.to_string())],
            )));
            return;
        }
        let view = SavedView {
            name: chosen,
            collection: schema.collection.path.to_string(),
            query: query.clone(),
            columns: columns
                .shown
                .get_untracked()
                .into_iter()
                .map(str::to_string)
                .collect(),
        };
        let next = with_view(&views.get_untracked(), view);
        store_views(&next);
        views.set(next);
        close.run(());
    };
    view! {
        <Modal role="dialog" labelled_by="save-view-title" on_escape=close>
            <form on:submit=save>
                <h2 id="save-view-title">{move || t("Save view")}</h2>
                <p class="hint">{move || t("The search, filters, sort, page size and columns, under a name. Saved in this browser; a view of the same name is replaced.")}</p>
                <label for="view-name">{move || t("Name")}</label>
                <input id="view-name" data-initial-focus maxlength=MAX_NAME prop:value=move || name.get()
                    aria-invalid=move || problem.get().is_some().to_string()
                    aria-describedby="view-name-problem"
                    on:input=move |ev| name.set(event_target_value(&ev))/>
                <p id="view-name-problem" class="field-error" role="alert">{move || problem.get()}</p>
                <div class="actions">
                    <button type="button" on:click=move |_| close.run(())>{move || t("Cancel")}</button>
                    <button type="submit" class="primary">{move || t("Save view")}</button>
                </div>
            </form>
        </Modal>
    }
}

/// Every saved view as a JSON file, and views read from a file or pasted JSON.
#[component]
fn TransferDialog(views: RwSignal<Vec<SavedView>>, close: Callback<()>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<usize, Vec<String>>>);
    let read = move |content: String| match import_views(&content) {
        Ok(imported) => {
            let count = imported.len();
            let next = imported
                .into_iter()
                .fold(views.get_untracked(), |all, v| with_view(&all, v));
            store_views(&next);
            views.set(next);
            outcome.set(Some(Ok(count)));
        }
        Err(problems) => outcome.set(Some(Err(problems))),
    };
    let load_file = move |ev: leptos::ev::Event| {
        read_chosen(&ev, MAX_FILE_BYTES, move |content| match content {
            Ok(content) => read(content),
            Err(problem) => outcome.set(Some(Err(vec![problem]))),
        });
    };
    let export = move |_| {
        let _ = download_text(&export_views(&views.get_untracked()), "larder-views.json");
    };
    view! {
        <Modal role="dialog" labelled_by="transfer-title" on_escape=close>
            <h2 id="transfer-title">{move || t("Export or import views")}</h2>
            <p>
                <button type="button" on:click=export disabled=move || views.get().is_empty()>
                    {move || tn("Export {count} views", views.get().len() as i64, &[])}
                </button>
            </p>
            <label for="views-file">{move || t("Views file (JSON)")}</label>
            <input id="views-file" type="file" accept="application/json,.json" aria-describedby="views-file-limit" on:change=load_file/>
            <p id="views-file-limit" class="hint">{move || hint(MAX_FILE_BYTES)}</p>
            <label for="views-text">{move || t("Or paste views JSON")}</label>
            <textarea id="views-text" rows="6" class="code" prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="actions">
                <button type="button" on:click=move |_| read(text.get_untracked())>{move || t("Import views")}</button>
            </div>
            {move || outcome.get().map(|o| match o {
                Ok(count) => view! { <p role="status">{tn("{count} views imported", count as i64, &[])}</p> }.into_any(),
                Err(problems) => view! {
                    <div class="problems" role="alert">
                        <p>{move || t("Nothing was imported:")}</p>
                        <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                    </div>
                }.into_any(),
            })}
            <div class="actions">
                <button type="button" class="primary" on:click=move |_| close.run(())>{move || t("Close")}</button>
            </div>
        </Modal>
    }
}
