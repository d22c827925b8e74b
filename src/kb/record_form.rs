//! The form of a record, create or edit, drawn from its editors; the service's field errors land
//! beside their fields.

use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::i18n::{t, tn};
use crate::kb::field_editor::{FieldEditor, Inputs};
use crate::kb::schema::form::{Editor, Errors};

/// Puts the service's field-level problems of `error` on the form's fields.
pub fn apply_field_errors(error: &ApiError, errors: RwSignal<Errors>) {
    if let Some(failure) = error.failure() {
        let found = failure.field_errors();
        if !found.is_empty() {
            // Several problems of one field are read together.
            errors.update(|e| {
                for (field, message) in found {
                    e.entry(field)
                        .and_modify(|m| {
                            m.push_str("; ");
                            m.push_str(&message);
                        })
                        .or_insert(message);
                }
            });
        }
    }
}

/// The form. `slug` is shown for a create in a URN collection.
#[component]
pub fn RecordForm(
    editors: Vec<Editor>,
    inputs: Inputs,
    errors: RwSignal<Errors>,
    /// The last failure of the save, shown above the buttons.
    failure: RwSignal<Option<ApiError>>,
    slug: Option<RwSignal<String>>,
    #[prop(optional, into)] urn_prefix: String,
    #[prop(into)] submit_label: String,
    #[prop(into)] pending: Signal<bool>,
    on_submit: Callback<()>,
    on_cancel: Callback<()>,
) -> impl IntoView {
    let (editable, fixed): (Vec<Editor>, Vec<Editor>) =
        editors.into_iter().partition(|e| e.editable);
    let slug_error = Signal::derive(move || errors.with(|e| e.get("urn").cloned()));
    let summary = move || {
        let count = errors.with(|e| e.len());
        (count > 0).then(|| view! {
            <p class="error" role="alert">{move || tn("{count} fields need attention; see the messages below them.", count as i64, &[])}</p>
        })
    };
    view! {
        <form class="record-form" novalidate on:submit=move |ev| { ev.prevent_default(); on_submit.run(()); }>
            {slug.map(|slug| view! {
                <div class="field" class:field-invalid=move || slug_error.get().is_some()>
                    <label for="field-urn">{move || t("URN slug")}</label>
                    <span class="required-mark">{move || t("required")}</span>
                    <div class="slug-input">
                        <span class="muted">{urn_prefix.clone()}</span>
                        <input id="field-urn" type="text" autocomplete="off" placeholder=move || t("e.g. vitamin-d-2024")
                            aria-describedby="field-urn-hint" prop:value=move || slug.get()
                            aria-invalid=move || slug_error.get().is_some().then_some("true")
                            on:input=move |ev| { slug.set(event_target_value(&ev)); errors.update(|e| { e.remove("urn"); }); }/>
                    </div>
                    <p class="hint" id="field-urn-hint">{move || t("Lower-case letters and digits with - or _; it becomes part of the record's URN.")}</p>
                    {move || slug_error.get().map(|m| view! { <p class="field-error">{m}</p> })}
                </div>
            })}
            {summary}
            <div class="field-grid">
                {editable.into_iter().map(|editor| view! { <FieldEditor editor inputs errors/> }).collect_view()}
            </div>
            {(!fixed.is_empty()).then(|| view! {
                <details class="fixed-fields">
                    <summary>{move || t("Fields that cannot be changed")}</summary>
                    <dl>
                        {fixed.into_iter().map(|e| view! {
                            <dt>{crate::kb::schema::label(e.field.name)}</dt>
                            <dd>{if e.initial.is_empty() { "—".to_string() } else { e.initial.clone() }}</dd>
                        }).collect_view()}
                    </dl>
                </details>
            })}
            {move || failure.get().map(|error| view! { <ErrorView error/> })}
            <div class="actions form-actions">
                <button type="button" on:click=move |_| on_cancel.run(())>{move || t("Cancel")}</button>
                <button type="submit" class="primary" disabled=move || pending.get()>
                    {move || if pending.get() { t("Saving…") } else { submit_label.clone() }}
                </button>
            </div>
        </form>
    }
}
