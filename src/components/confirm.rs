//! A button that asks before doing something that cannot be undone.

use crate::components::modal::Modal;
use crate::i18n::t;
use leptos::prelude::*;

/// Shows `label`; on click, a dialog asks `question` and runs `on_confirm` only on "yes".
#[component]
pub fn ConfirmButton(
    /// The button's text, e.g. "Delete household".
    #[prop(into)]
    label: Signal<String>,
    /// The question, naming what will be lost.
    #[prop(into)]
    question: Signal<String>,
    /// The confirming button's text.
    #[prop(into)]
    confirm_label: Signal<String>,
    /// Runs after confirmation.
    on_confirm: Callback<()>,
    /// Disables the button (e.g. while a request runs).
    #[prop(into, optional)]
    disabled: Signal<bool>,
    /// Shown in the dialog below the question, e.g. "Download my data" before a delete.
    #[prop(optional)]
    before: Option<ViewFn>,
    /// The button's accessible name when `label` alone is ambiguous (one of a list's buttons).
    #[prop(optional, into)]
    aria_label: MaybeProp<String>,
) -> impl IntoView {
    let before = StoredValue::new(before);
    let open = RwSignal::new(false);
    view! {
        <button type="button" class="danger" aria-label=move || aria_label.get() disabled=move || disabled.get() on:click=move |_| open.set(true)>{move || label.get()}</button>
        <Show when=move || open.get()>
            <Modal role="alertdialog" labelled_by="confirm-question" on_escape=Callback::new(move |_| open.set(false))>
                <p id="confirm-question">{move || question.get()}</p>
                {before.get_value().map(|before| before.run())}
                <div class="actions">
                    <button type="button" data-initial-focus on:click=move |_| open.set(false)>{move || t("Cancel")}</button>
                    <button type="button" class="danger"
                        on:click=move |_| { open.set(false); on_confirm.run(()); }>
                        {move || confirm_label.get()}
                    </button>
                </div>
            </Modal>
        </Show>
    }
}
