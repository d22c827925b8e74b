//! The keys of a list page (see `schema::keys` for which key does what): `/` search, `j`/`k`
//! rows, `x` select, Enter open, and `?` for a sheet that lists them. Keys typed into a field,
//! with Ctrl/Cmd/Alt, or while a dialog is open are left alone.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::components::modal::Modal;
use crate::i18n::t;
use crate::kb::list::selection::Selection;
use crate::kb::schema::keys::{action, moved, takes_text, KeyAction, KeyPress};

/// The rows of the list's table, spacers left out.
fn rows() -> Vec<web_sys::Element> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(list) = document.query_selector_all("table.records tbody tr:not(.spacer)") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}

fn active() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.active_element()
}

fn focus_in(row: &web_sys::Element, selector: &str) -> Option<HtmlElement> {
    row.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
}

/// The place among the rows shown of the row holding the focus, if any.
fn focused_row(rows: &[web_sys::Element]) -> Option<usize> {
    let row = active()?.closest("table.records tbody tr").ok().flatten()?;
    rows.iter().position(|r| *r == row)
}

/// Listens to the page's keys while the list is shown.
#[component]
pub fn ListKeys() -> impl IntoView {
    let selection = expect_context::<Selection>();
    let sheet = RwSignal::new(false);
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let target = active();
        let typing = target.as_ref().is_some_and(|e| {
            let editable = e
                .dyn_ref::<HtmlElement>()
                .is_some_and(HtmlElement::is_content_editable);
            takes_text(&e.tag_name(), e.get_attribute("type").as_deref(), editable)
        });
        let in_dialog = target
            .as_ref()
            .and_then(|e| {
                e.closest("[role=dialog], [role=alertdialog]")
                    .ok()
                    .flatten()
            })
            .is_some()
            || sheet.get_untracked();
        let shown = rows();
        let on_row = focused_row(&shown).is_some();
        let key = ev.key();
        let press = KeyPress {
            key: &key,
            modified: ev.ctrl_key() || ev.meta_key() || ev.alt_key(),
            typing,
            in_dialog,
            on_row,
        };
        let Some(act) = action(press) else {
            return;
        };
        let current = focused_row(&shown).or(selection.cursor.get_untracked());
        match act {
            KeyAction::FocusSearch => {
                if let Some(search) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id("search-q"))
                    .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                {
                    ev.prevent_default();
                    let _ = search.focus();
                }
            }
            KeyAction::Next | KeyAction::Previous => {
                let Some(to) = moved(current, shown.len(), act) else {
                    return;
                };
                ev.prevent_default();
                selection.cursor.set(Some(to));
                if let Some(link) = shown.get(to).and_then(|row| focus_in(row, "a")) {
                    let _ = link.focus();
                }
            }
            KeyAction::ToggleSelection => {
                if let Some(checkbox) = current
                    .and_then(|at| shown.get(at))
                    .and_then(|row| focus_in(row, "input.row-select"))
                {
                    ev.prevent_default();
                    checkbox.click();
                }
            }
            KeyAction::Open => {
                // The link itself opens on Enter; from the checkbox, open its row's link.
                let on_link = active().is_some_and(|e| e.tag_name() == "A");
                if let (false, Some(link)) = (
                    on_link,
                    current
                        .and_then(|at| shown.get(at))
                        .and_then(|row| focus_in(row, "a")),
                ) {
                    ev.prevent_default();
                    link.click();
                }
            }
            KeyAction::ShowKeys => {
                ev.prevent_default();
                sheet.set(true);
            }
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <p class="hint keys-hint">{move || t("Press ? for keyboard shortcuts.")}</p>
        <Show when=move || sheet.get()>
            <KeySheet close=Callback::new(move |_| sheet.set(false))/>
        </Show>
    }
}

/// The sheet listing the keys.
#[component]
fn KeySheet(close: Callback<()>) -> impl IntoView {
    // Read when the sheet opens, in the language chosen then.
    let keys = [
        ("/", t("Go to the search box")),
        ("j", t("Next row")),
        ("k", t("Previous row")),
        ("x", t("Select or unselect the row")),
        ("Enter", t("Open the row")),
        ("?", t("Show this list")),
    ];
    view! {
        <Modal role="dialog" labelled_by="keys-title" on_escape=close>
            <h2 id="keys-title">{move || t("Keyboard shortcuts")}</h2>
            <dl class="key-list">
                {keys.into_iter().map(|(key, what)| view! { <dt><kbd>{key}</kbd></dt><dd>{what}</dd> }).collect_view()}
            </dl>
            <p class="hint">{move || t("Keys are ignored while you type in a field.")}</p>
            <div class="actions">
                <button type="button" data-initial-focus on:click=move |_| close.run(())>{move || t("Close")}</button>
            </div>
        </Modal>
    }
}
