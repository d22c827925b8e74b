//! A modal dialog as keyboard users expect it: the focus moves into it when it opens, Tab and
//! Shift+Tab stay inside it, Escape closes it (when it may be closed), and the focus goes back
//! to what opened it.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// What can take the focus inside a dialog.
const FOCUSABLE: &str =
    "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

fn focusables(dialog: &web_sys::Element) -> Vec<HtmlElement> {
    let Ok(list) = dialog.query_selector_all(FOCUSABLE) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect()
}

fn active_element() -> Option<HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<HtmlElement>()
        .ok()
}

/// The dialog. `role` is `dialog` or `alertdialog`; the element marked `data-initial-focus`
/// (else the first focusable one) takes the focus.
#[component]
pub fn Modal(
    /// `dialog`, or `alertdialog` for a question that needs an answer.
    role: &'static str,
    /// The id of the element that names the dialog.
    labelled_by: &'static str,
    /// Runs on Escape; without it Escape does nothing (the dialog must be answered).
    #[prop(optional)]
    on_escape: Option<Callback<()>>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<Div>::new();
    // Where the focus was before: it returns there when the dialog goes.
    let opener = StoredValue::new_local(active_element());
    on_cleanup(move || {
        if let Some(opener) = opener.get_value() {
            if opener.is_connected() {
                let _ = opener.focus();
            }
        }
    });
    Effect::new(move || {
        let Some(dialog) = dialog.get() else {
            return;
        };
        let initial = dialog
            .query_selector("[data-initial-focus]")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
            .or_else(|| focusables(&dialog).into_iter().next());
        if let Some(initial) = initial {
            let _ = initial.focus();
        }
    });
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let Some(element) = dialog.get_untracked() else {
            return;
        };
        match ev.key().as_str() {
            "Escape" => {
                if let Some(on_escape) = on_escape {
                    ev.prevent_default();
                    on_escape.run(());
                }
            }
            "Tab" => {
                let inside = focusables(&element);
                let (Some(first), Some(last)) = (inside.first(), inside.last()) else {
                    ev.prevent_default();
                    return;
                };
                let active = active_element();
                let at = |e: &HtmlElement| active.as_ref().is_some_and(|a| a == e);
                if ev.shift_key() && at(first) {
                    ev.prevent_default();
                    let _ = last.focus();
                } else if !ev.shift_key() && at(last) {
                    ev.prevent_default();
                    let _ = first.focus();
                }
            }
            _ => {}
        }
    };
    view! {
        <div class="modal-backdrop">
            <div class="modal card" role=role aria-modal="true" aria-labelledby=labelled_by
                node_ref=dialog on:keydown=keydown>
                {children()}
            </div>
        </div>
    }
}
