//! A member's allergies as the meal planner can enforce them (see `owners::allergies`): the
//! EU's fourteen allergens as checkboxes in the console's language, what each stored name means
//! and how it is saved, and other allergies kept as typed, with a note that the planner may not
//! recognise them.

use larder_contract::allergens::{self, Fold};
use leptos::prelude::*;
use serde_json::Value;

use crate::household::rules::allergies::{self, Stored};
use crate::i18n::{label_or, t, tf};

/// Allergen `id` in the console's language.
pub fn allergen_label(id: &str) -> String {
    match allergens::by_id(id) {
        Some(a) => label_or("allergen", a.id, a.label),
        None => id.to_string(),
    }
}

/// A stored allergy as words: its allergens' names, else the text as stored.
pub fn allergy_words(value: &Value) -> String {
    match allergies::stored(value) {
        Stored::Known { ids, .. } => ids
            .iter()
            .map(|id| allergen_label(id))
            .collect::<Vec<_>>()
            .join(", "),
        Stored::Unknown(name) => name,
        Stored::NotText(value) => value.to_string(),
    }
}

/// The picker over `values` (the profile's `allergies` as the form holds them).
#[component]
pub fn AllergyPicker(values: RwSignal<Vec<Value>>) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let said = RwSignal::new(None::<String>);
    let add = move || {
        let text = typed.get_untracked();
        let mut fold = Fold::Empty;
        values.update(|v| fold = allergies::add(v, &text));
        said.set(match fold {
            Fold::Empty => None,
            Fold::Known(ids) => Some(tf(
                "“{typed}” is {allergens}.",
                &[
                    ("typed", text.trim()),
                    (
                        "allergens",
                        &ids.iter()
                            .map(|id| allergen_label(id))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                ],
            )),
            Fold::Unknown(_) => Some(tf(
                "“{typed}” is not one of the standard allergens: it is kept as typed.",
                &[("typed", text.trim())],
            )),
        });
        typed.set(String::new());
    };
    // The fourteen a profile declares, and `wheat` (a filter id) only when it is stored.
    let shown = move || {
        let chosen = values.with(|v| allergies::chosen(v));
        allergens::ALL
            .iter()
            .filter(|a| allergens::declared().any(|d| d.id == a.id) || chosen.contains(&a.id))
            .map(|a| a.id)
            .collect::<Vec<_>>()
    };
    view! {
        <fieldset class="chips" aria-describedby="allergies-hint">
            <legend>{move || t("Allergies")}</legend>
            <p class="hint" id="allergies-hint">{move || t("The meal planner leaves out the allergens ticked here. Other allergies are kept, but it may not recognise them.")}</p>
            <div class="check-grid">
                {move || shown().into_iter().map(|id| view! {
                    <label>
                        <input type="checkbox" prop:checked=move || values.with(|v| allergies::chosen(v).contains(&id))
                            on:change=move |ev| { let on = event_target_checked(&ev); values.update(|v| allergies::set(v, id, on)); }/>
                        {move || allergen_label(id)}
                    </label>
                }).collect_view()}
            </div>
            {move || {
                let renamed = values.with(|v| allergies::renamed(v));
                (!renamed.is_empty()).then(|| view! {
                    <ul class="allergy-notes" aria-label=move || t("Saved as standard allergens")>
                        {renamed.into_iter().map(|(name, ids)| {
                            let names = ids.iter().map(|id| allergen_label(id)).collect::<Vec<_>>().join(", ");
                            let codes = ids.join(", ");
                            view! { <li>{move || tf("Stored as “{name}”: saved as {allergens} ({ids}).", &[("name", &name), ("allergens", &names), ("ids", &codes)])}</li> }
                        }).collect_view()}
                    </ul>
                })
            }}
            {move || {
                let others: Vec<(usize, Stored)> = values.with(|v| v.iter().map(allergies::stored).enumerate()
                    .filter(|(_, s)| !matches!(s, Stored::Known { .. })).collect());
                (!others.is_empty()).then(|| view! {
                    <ul class="allergy-notes" aria-label=move || t("Other allergies")>
                        {others.into_iter().map(|(index, stored)| {
                            let (shown, note) = match stored {
                                Stored::Unknown(name) => (name.clone(), tf("The meal planner may not recognise “{name}”.", &[("name", &name)])),
                                Stored::NotText(value) => (value.to_string(), t("Not text: kept as stored.")),
                                Stored::Known { name, .. } => (name, String::new()),
                            };
                            let removed = shown.clone();
                            view! {
                                <li>
                                    <strong>{shown}</strong>" "<span class="warning">{note}</span>" "
                                    <button type="button" class="icon" aria-label=move || tf("Remove “{text}”", &[("text", &removed)])
                                        on:click=move |_| values.update(|v| { if index < v.len() { v.remove(index); } })>"×"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                })
            }}
            <div class="add-row">
                <label for="profile-allergy-add" class="sr-only">{move || t("Add an allergy")}</label>
                <input id="profile-allergy-add" type="text" placeholder=move || t("Add an allergy") prop:value=move || typed.get()
                    on:input=move |ev| typed.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { ev.prevent_default(); add(); }/>
                <button type="button" on:click=move |_| add()>{move || t("Add")}</button>
            </div>
            <p role="status" class="hint">{move || said.get()}</p>
        </fieldset>
    }
}
