//! A button that asks before doing something that cannot be undone.

use leptos::prelude::*;

/// Shows `label`; on click, a dialog asks `question` and runs `on_confirm` only on "yes".
#[component]
pub fn ConfirmButton(
    /// The button's text, e.g. "Delete household".
    #[prop(into)]
    label: String,
    /// The question, naming what will be lost.
    #[prop(into)]
    question: Signal<String>,
    /// The confirming button's text.
    #[prop(into, default = "Delete".to_string())]
    confirm_label: String,
    /// Runs after confirmation.
    on_confirm: Callback<()>,
    /// Disables the button (e.g. while a request runs).
    #[prop(into, optional)]
    disabled: Signal<bool>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let confirm_label = StoredValue::new(confirm_label);
    view! {
        <button type="button" class="danger" disabled=move || disabled.get() on:click=move |_| open.set(true)>{label}</button>
        <Show when=move || open.get()>
            <div class="modal-backdrop">
                <div class="modal card" role="alertdialog" aria-modal="true" aria-labelledby="confirm-question"
                    on:keydown=move |ev| if ev.key() == "Escape" { open.set(false) }>
                    <p id="confirm-question">{move || question.get()}</p>
                    <div class="actions">
                        <button type="button" on:click=move |_| open.set(false)>"Cancel"</button>
                        <button type="button" class="danger" autofocus
                            on:click=move |_| { open.set(false); on_confirm.run(()); }>
                            {confirm_label.get_value()}
                        </button>
                    </div>
                </div>
            </div>
        </Show>
    }
}
