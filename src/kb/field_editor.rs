//! One editor per field kind: text, long text, numbers, yes/no, chips, select, date, JSON.
//!
//! Editors hold text (see `schema::value`); the form turns it into JSON when it is sent. A
//! field's error clears as soon as the field changes.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::kb::reference_picker::ReferencePicker;
use crate::kb::schema::form::{Editor, Errors};
use crate::kb::schema::labels::{facet_value, labelled_values};
use crate::kb::schema::value::{items, parse, pretty};
use crate::kb::schema::FieldKind;
use larder_contract::collections::references;

/// The texts of a form's editors, by field name.
pub type Inputs = RwSignal<BTreeMap<String, String>>;

/// The input id of a field.
pub fn field_id(name: &str) -> String {
    format!("field-{name}")
}

/// A labelled editor bound to `inputs[name]`, with its error below it.
#[component]
pub fn FieldEditor(editor: Editor, inputs: Inputs, errors: RwSignal<Errors>) -> impl IntoView {
    let name = editor.field.name;
    let id = field_id(name);
    let error_id = format!("{id}-error");
    let initial = StoredValue::new(editor.initial.clone());
    let value = Signal::derive(move || {
        inputs
            .with(|m| m.get(name).cloned())
            .unwrap_or_else(|| initial.get_value())
    });
    let set = Callback::new(move |text: String| {
        inputs.update(|m| {
            m.insert(name.to_string(), text);
        });
        if errors.with_untracked(|e| e.contains_key(name)) {
            errors.update(|e| {
                e.remove(name);
            });
        }
    });
    let error = Signal::derive(move || errors.with(|e| e.get(name).cloned()));
    let label = crate::kb::schema::label(editor.field.name);
    let required = editor.required;
    let described = error_id.clone();
    let control = control(
        name,
        editor.kind,
        id.clone(),
        label.clone(),
        value,
        set,
        error,
        described,
    );
    view! {
        <div class="field" class:field-invalid=move || error.get().is_some() data-field=name
            data-required=required.then_some("true")>
            <label for=id.clone()>{label}</label>
            // Beside the label, not in it: the field's name stays its name for assistive tools,
            // which learn it is required from the form's own check and its message.
            {required.then(|| view! { <span class="required-mark">{move || t("required")}</span> })}
            {control}
            {move || error.get().map(|message| view! { <p class="field-error" id=error_id.clone()>{message}</p> })}
        </div>
    }
}

#[allow(clippy::too_many_arguments)]
fn control(
    name: &'static str,
    kind: FieldKind,
    id: String,
    label: String,
    value: Signal<String>,
    set: Callback<String>,
    error: Signal<Option<String>>,
    error_id: String,
) -> AnyView {
    if let (FieldKind::Text, Some(targets)) = (kind, references::targets(name)) {
        let invalid = Signal::derive(move || error.get().is_some());
        let described = Signal::derive(move || error.get().is_some().then(|| error_id.clone()));
        return view! { <ReferencePicker id label value set targets invalid described/> }
            .into_any();
    }
    let invalid = move || error.get().is_some().then_some("true");
    let described = move || error.get().is_some().then(|| error_id.clone());
    let on_input = move |ev| set.run(event_target_value(&ev));
    match kind {
        FieldKind::Text | FieldKind::Integer | FieldKind::Decimal | FieldKind::Date => {
            let (kind_attr, mode) = match kind {
                FieldKind::Integer => ("text", "numeric"),
                FieldKind::Decimal => ("text", "decimal"),
                FieldKind::Date => ("date", "text"),
                _ => ("text", "text"),
            };
            view! {
                <input id=id type=kind_attr inputmode=mode prop:value=move || value.get() on:input=on_input
                    aria-invalid=invalid aria-describedby=described/>
            }
            .into_any()
        }
        FieldKind::LongText => view! {
            <textarea id=id rows="4" prop:value=move || value.get() on:input=on_input
                aria-invalid=invalid aria-describedby=described></textarea>
        }
        .into_any(),
        FieldKind::YesNo => view! {
            <select id=id on:change=on_input aria-invalid=invalid aria-describedby=described>
                <option value="" selected=move || value.get().is_empty()>{move || t("Not set")}</option>
                <option value="true" selected=move || value.get() == "true">{move || t("Yes")}</option>
                <option value="false" selected=move || value.get() == "false">{move || t("No")}</option>
            </select>
        }
        .into_any(),
        FieldKind::Enum(values) => {
            // The record's own value stays selectable even when it is not one of the known ones.
            let current = value.get_untracked();
            let mut options: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            if !current.is_empty() && !options.contains(&current) {
                options.push(current);
            }
            view! {
                <select id=id on:change=on_input aria-invalid=invalid aria-describedby=described>
                    <option value="" selected=move || value.get().is_empty()>{move || t("Not set")}</option>
                    {options.into_iter().map(|option| {
                        let selected = option.clone();
                        let shown = option.clone();
                        view! { <option value=option.clone() selected=move || value.get() == selected>{move || facet_value(name, &shown)}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        FieldKind::StringsOf(values) if labelled_values(name).is_some() => {
            view! { <Choices name id label value set values/> }.into_any()
        }
        FieldKind::Strings | FieldKind::StringsOf(_) => {
            let suggestions = match kind {
                FieldKind::StringsOf(values) => values,
                _ => &[],
            };
            view! { <Chips id label value set suggestions/> }.into_any()
        }
        FieldKind::Json => view! { <JsonEditor id value set invalid=Signal::derive(move || error.get().is_some())/> }.into_any(),
    }
}

/// A labelled vocabulary (a guideline facet) as a group of checkboxes in the console's language;
/// a stored value outside it stays, ticked, under its own name, so a save keeps it.
#[component]
fn Choices(
    name: &'static str,
    id: String,
    label: String,
    value: Signal<String>,
    set: Callback<String>,
    values: &'static [&'static str],
) -> impl IntoView {
    let toggle = move |item: String, on: bool| {
        let mut current = items(&value.get_untracked());
        current.retain(|i| *i != item);
        if on {
            current.push(item);
        }
        set.run(current.join("\n"));
    };
    let choice = move |item: String, shown: Signal<String>| {
        let checked = item.clone();
        view! {
            <label class="choice">
                <input type="checkbox" value=item.clone()
                    prop:checked=move || items(&value.get()).contains(&checked)
                    on:change=move |ev| toggle(item.clone(), event_target_checked(&ev))/>
                " "{shown}
            </label>
        }
    };
    let others = move || {
        items(&value.get())
            .into_iter()
            .filter(|item| !values.contains(&item.as_str()))
            .collect::<Vec<_>>()
    };
    view! {
        <div class="choices" id=id role="group" aria-label=label>
            {values.iter().map(|item| {
                let shown = Signal::derive(move || facet_value(name, item));
                choice(item.to_string(), shown)
            }).collect_view()}
            {move || others().into_iter().map(|item| {
                let shown = Signal::stored(item.clone());
                choice(item, shown)
            }).collect_view()}
        </div>
    }
}

/// A list of strings as removable chips, with an input to add one (Enter or the Add button).
#[component]
fn Chips(
    id: String,
    label: String,
    value: Signal<String>,
    set: Callback<String>,
    suggestions: &'static [&'static str],
) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let list_id = format!("{id}-options");
    let add = move || {
        let item = draft.get_untracked().trim().to_string();
        if item.is_empty() || item.contains('\n') {
            return;
        }
        let mut current = items(&value.get_untracked());
        if !current.contains(&item) {
            current.push(item);
            set.run(current.join("\n"));
        }
        draft.set(String::new());
    };
    let remove = move |item: String| {
        let current: Vec<String> = items(&value.get_untracked())
            .into_iter()
            .filter(|i| *i != item)
            .collect();
        set.run(current.join("\n"));
    };
    let label = StoredValue::new(label);
    view! {
        <div class="chips">
            <ul class="chip-list" aria-label=move || tf("{field} values", &[("field", &label.get_value())])>
                {move || items(&value.get()).into_iter().map(|item| {
                    let removed = item.clone();
                    view! {
                        <li class="chip chip-item">
                            <span>{item.clone()}</span>
                            <button type="button" class="chip-remove" aria-label=tf("Remove {item} from {field}", &[("item", &item), ("field", &label.get_value())])
                                on:click=move |_| remove(removed.clone())>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div class="chip-add">
                <input id=id type="text" list=list_id.clone() placeholder=move || t("Add a value and press Enter")
                    prop:value=move || draft.get() on:input=move |ev| draft.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { ev.prevent_default(); add(); }/>
                <button type="button" on:click=move |_| add() aria-label=move || tf("Add to {what}", &[("what", &label.get_value())])>{move || t("Add")}</button>
            </div>
            <datalist id=list_id>
                {suggestions.iter().map(|s| view! { <option value=*s></option> }).collect_view()}
            </datalist>
        </div>
    }
}

/// A JSON textarea that says at once whether the text parses, and can pretty-print it.
#[component]
fn JsonEditor(
    id: String,
    value: Signal<String>,
    set: Callback<String>,
    invalid: Signal<bool>,
) -> impl IntoView {
    let problem = move || parse(FieldKind::Json, &value.get()).err();
    let status_id = format!("{id}-json");
    view! {
        <div class="json-editor">
            <textarea id=id class="code" rows="6" spellcheck="false" prop:value=move || value.get()
                on:input=move |ev| set.run(event_target_value(&ev))
                aria-invalid=move || (invalid.get() || problem().is_some()).then_some("true")
                aria-describedby=status_id.clone()></textarea>
            <div class="json-status">
                <span id=status_id class:error-text=move || problem().is_some()>
                    {move || match problem() {
                        Some(problem) => problem,
                        None if value.get().trim().is_empty() => t("Empty: no value."),
                        None => t("Valid JSON."),
                    }}
                </span>
                <button type="button" disabled=move || problem().is_some() || value.get().trim().is_empty()
                    on:click=move |_| {
                        if let Ok(parsed) = serde_json::from_str::<serde_json::Value>(&value.get_untracked()) {
                            set.run(pretty(&parsed));
                        }
                    }>{move || t("Format JSON")}</button>
            </div>
        </div>
    }
}
