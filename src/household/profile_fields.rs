//! The profile keys production's front end writes, as labelled fields (see
//! `owners::profile_keys` for which keys and why): gender, the foods they like and dislike, the
//! planner's goals, and the daily targets. What WiseFood remembers is `household::memories`.

use larder_contract::profile::{self, GENDERS, GOALS};
use leptos::prelude::*;
use serde_json::Value;

use crate::household::chip_select::ChipSelect;
use crate::household::rules::goals::{self, Other};
use crate::household::rules::profile_keys::{number_from_text, Known, NUMBERS};
use crate::i18n::{k, label_or, t, tf};

/// Labels of the number fields, in `NUMBERS` order.
const NUMBER_LABELS: [&str; 4] = [
    k("Calories (kcal a day)"),
    k("Protein (g a day)"),
    k("Carbohydrates (g a day)"),
    k("Fat (g a day)"),
];

/// Goal `slug` in the console's language (one of the twelve), else its words.
pub fn goal_label(slug: &str) -> String {
    match profile::goal_label(slug) {
        Some(english) => label_or("goal", slug, english),
        None => profile::humanised(slug),
    }
}

/// A gender value in the console's language; a value production does not offer as stored.
pub fn gender_label(value: &str) -> String {
    match GENDERS.iter().find(|(v, _)| *v == value) {
        Some((v, english)) => label_or("gender", v, english),
        None => value.to_string(),
    }
}

/// The fields' state, owned by the profile form.
#[derive(Clone, Copy)]
pub struct KnownFields {
    likes: RwSignal<Vec<String>>,
    dislikes: RwSignal<Vec<String>>,
    numbers: [RwSignal<String>; 4],
    gender: RwSignal<String>,
    /// `dietary_goals`, `memory_log`, `standing_seeds` as stored (the log and the seeds change
    /// only through *Correct* and *Forget*, which save at once).
    items: [RwSignal<Vec<Value>>; 3],
    /// The values the fields started from (numbers keep their exact form while unchanged).
    start: StoredValue<Known>,
}

impl KnownFields {
    /// Fields holding `known`.
    pub fn new(known: &Known) -> KnownFields {
        let fields = KnownFields {
            likes: RwSignal::new(Vec::new()),
            dislikes: RwSignal::new(Vec::new()),
            numbers: std::array::from_fn(|_| RwSignal::new(String::new())),
            gender: RwSignal::new(String::new()),
            items: std::array::from_fn(|_| RwSignal::new(Vec::new())),
            start: StoredValue::new(Known::default()),
        };
        fields.reset(known);
        fields
    }

    /// Shows `known` again (after a save, a delete, or a memory corrected or forgotten).
    pub fn reset(&self, known: &Known) {
        self.likes.set(known.food_likes.clone());
        self.dislikes.set(known.food_dislikes.clone());
        for (i, n) in known.numbers.iter().enumerate() {
            self.numbers[i].set(n.as_ref().map(ToString::to_string).unwrap_or_default());
        }
        self.gender.set(known.gender.clone().unwrap_or_default());
        for (i, list) in known.items.iter().enumerate() {
            self.items[i].set(list.clone());
        }
        self.start.set_value(known.clone());
    }

    /// `dietary_goals` (0), `memory_log` (1) or `standing_seeds` (2), as the form holds them.
    pub fn items(&self, i: usize) -> RwSignal<Vec<Value>> {
        self.items[i]
    }

    /// The values as typed (tracked), or which number is not a number.
    pub fn read(&self) -> Result<Known, String> {
        let start = self.start.get_value();
        let mut numbers: [Option<serde_json::Number>; 4] = Default::default();
        for (i, text) in self.numbers.iter().enumerate() {
            numbers[i] =
                number_from_text(&text.get(), start.numbers[i].as_ref()).map_err(|_| {
                    tf(
                        "{field} must be a number.",
                        &[("field", &t(NUMBER_LABELS[i]))],
                    )
                })?;
        }
        let gender = self.gender.get();
        Ok(Known {
            food_likes: self.likes.get(),
            food_dislikes: self.dislikes.get(),
            numbers,
            gender: (!gender.is_empty()).then_some(gender),
            items: self.items.map(|list| list.get()),
        })
    }
}

/// The fields.
#[component]
pub fn KnownFieldsView(fields: KnownFields) -> impl IntoView {
    // A stored value production does not offer is offered too, so it is shown and kept.
    let stored_other = move || {
        let current = fields.gender.get();
        (!current.is_empty() && !GENDERS.iter().any(|(v, _)| *v == current)).then_some(current)
    };
    view! {
        <div class="profile-known">
            <label for="profile-gender">{move || t("Gender")}</label>
            <select id="profile-gender" on:change=move |ev| fields.gender.set(event_target_value(&ev))>
                <option value="" selected=move || fields.gender.get().is_empty()>{move || t("Not specified")}</option>
                {GENDERS.iter().map(|(value, _)| view! {
                    <option value=*value selected=move || fields.gender.get() == *value>{move || gender_label(value)}</option>
                }).collect_view()}
                {move || stored_other().map(|g| view! { <option value=g.clone() selected=true>{g.clone()}</option> })}
            </select>
            <ChipSelect selected=fields.likes label=k("Foods they like") id="profile-food-likes"/>
            <ChipSelect selected=fields.dislikes label=k("Foods they dislike") id="profile-food-dislikes"/>
            <GoalPicker goals=fields.items(0)/>
            <div class="number-fields">
                {NUMBERS.iter().enumerate().map(|(i, key)| view! {
                    <div class="stack">
                        <label for=format!("profile-{key}")>{move || t(NUMBER_LABELS[i])}</label>
                        <input id=format!("profile-{key}") type="text" inputmode="decimal" prop:value=move || fields.numbers[i].get()
                            on:input=move |ev| fields.numbers[i].set(event_target_value(&ev))/>
                    </div>
                }).collect_view()}
            </div>
        </div>
    }
}

/// The planner's twelve goals as checkboxes, stored as `{slug, label}` with the label in the
/// console's language; a goal the planner does not list, or an item that is no goal, is shown
/// below as stored and kept (an unknown goal may be removed).
#[component]
fn GoalPicker(goals: RwSignal<Vec<Value>>) -> impl IntoView {
    view! {
        <fieldset class="chips">
            <legend>{move || t("Goals")}</legend>
            <p class="hint">{move || t("The meal planner works towards the goals chosen here.")}</p>
            <div class="check-grid">
                {GOALS.iter().map(|(slug, _)| view! {
                    <label>
                        <input type="checkbox" prop:checked=move || goals.with(|g| goals::has(g, slug))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                goals.update(|g| goals::set(g, slug, on, &goal_label(slug)));
                            }/>
                        {move || goal_label(slug)}
                    </label>
                }).collect_view()}
            </div>
            {move || {
                let others = goals.with(|g| goals::others(g));
                (!others.is_empty()).then(|| view! {
                    <ul class="allergy-notes" aria-label=move || t("Other goals")>
                        {others.into_iter().map(|(index, other)| match other {
                            Other::Unknown { slug, label } => {
                                let name = label.clone();
                                view! {
                                    <li>
                                        {label}" "
                                        <span class="hint">{move || tf("(not a goal the meal planner lists: “{slug}”)", &[("slug", &slug)])}</span>" "
                                        <button type="button" class="icon" aria-label=move || tf("Remove “{text}”", &[("text", &name)])
                                            on:click=move |_| goals.update(|g| { if index < g.len() { g.remove(index); } })>"×"</button>
                                    </li>
                                }.into_any()
                            }
                            Other::AsStored(value) => view! {
                                <li><code>{value.to_string()}</code>" "<span class="hint">{move || t("(kept as stored)")}</span></li>
                            }.into_any(),
                        }).collect_view()}
                    </ul>
                })
            }}
        </fieldset>
    }
}
