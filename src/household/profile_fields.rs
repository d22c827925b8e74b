//! The profile keys production's front end writes, as labelled fields (see
//! `owners::profile_keys` for which keys and why): chips for lists, a select for gender,
//! numbers for the daily targets, and the remembered things with their source.

use leptos::prelude::*;

use crate::components::chip_select::ChipSelect;
use crate::i18n::{k, t, tf, value_label};
use crate::owners::profile_keys::{number_from_text, Known, Memory, GENDERS, NUMBERS};

/// Labels of the number fields, in `NUMBERS` order.
const NUMBER_LABELS: [&str; 4] = [
    k("Calories (kcal a day)"),
    k("Protein (g a day)"),
    k("Carbohydrates (g a day)"),
    k("Fat (g a day)"),
];

/// The fields' state, owned by the profile form.
#[derive(Clone, Copy)]
pub struct KnownFields {
    likes: RwSignal<Vec<String>>,
    dislikes: RwSignal<Vec<String>>,
    goals: RwSignal<Vec<String>>,
    numbers: [RwSignal<String>; 4],
    gender: RwSignal<String>,
    memories: RwSignal<Vec<Memory>>,
    /// The values the fields started from (numbers keep their exact form while unchanged).
    start: StoredValue<Known>,
}

impl KnownFields {
    /// Fields holding `known`.
    pub fn new(known: &Known) -> KnownFields {
        let fields = KnownFields {
            likes: RwSignal::new(Vec::new()),
            dislikes: RwSignal::new(Vec::new()),
            goals: RwSignal::new(Vec::new()),
            numbers: std::array::from_fn(|_| RwSignal::new(String::new())),
            gender: RwSignal::new(String::new()),
            memories: RwSignal::new(Vec::new()),
            start: StoredValue::new(Known::default()),
        };
        fields.reset(known);
        fields
    }

    /// Shows `known` again (after a save or a delete).
    pub fn reset(&self, known: &Known) {
        self.likes.set(known.food_likes.clone());
        self.dislikes.set(known.food_dislikes.clone());
        self.goals.set(known.goals.clone());
        for (i, n) in known.numbers.iter().enumerate() {
            self.numbers[i].set(n.as_ref().map(ToString::to_string).unwrap_or_default());
        }
        self.gender.set(known.gender.clone().unwrap_or_default());
        self.memories.set(known.memories.clone());
        self.start.set_value(known.clone());
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
            goals: self.goals.get(),
            numbers,
            gender: (!gender.is_empty()).then_some(gender),
            memories: self.memories.get(),
        })
    }
}

/// The fields.
#[component]
pub fn KnownFieldsView(fields: KnownFields) -> impl IntoView {
    let genders = move || {
        // A value the list does not have is offered too, so it is shown and kept.
        let mut values: Vec<String> = GENDERS.iter().map(|g| g.to_string()).collect();
        let current = fields.gender.get();
        if !current.is_empty() && !values.contains(&current) {
            values.push(current);
        }
        values
    };
    view! {
        <div class="profile-known">
            <ChipSelect selected=fields.likes label=k("Foods they like") id="profile-food-likes"/>
            <ChipSelect selected=fields.dislikes label=k("Foods they dislike") id="profile-food-dislikes"/>
            <ChipSelect selected=fields.goals label=k("Goals") id="profile-goals"/>
            <div class="number-fields">
                {NUMBERS.iter().enumerate().map(|(i, key)| view! {
                    <div class="stack">
                        <label for=format!("profile-{key}")>{move || t(NUMBER_LABELS[i])}</label>
                        <input id=format!("profile-{key}") type="text" inputmode="decimal" prop:value=move || fields.numbers[i].get()
                            on:input=move |ev| fields.numbers[i].set(event_target_value(&ev))/>
                    </div>
                }).collect_view()}
            </div>
            <label for="profile-gender">{move || t("Gender")}</label>
            <select id="profile-gender" on:change=move |ev| fields.gender.set(event_target_value(&ev))>
                <option value="" selected=move || fields.gender.get().is_empty()>{move || t("Not said")}</option>
                {move || genders().into_iter().map(|g| {
                    let (value, label) = (g.clone(), value_label("gender", &g));
                    view! { <option value=g.clone() selected=move || fields.gender.get() == value>{label}</option> }
                }).collect_view()}
            </select>
            <fieldset>
                <legend>{move || t("Remembered")}</legend>
                {move || {
                    let memories = fields.memories.get();
                    if memories.is_empty() {
                        return view! { <p class="muted">{move || t("Nothing remembered.")}</p> }.into_any();
                    }
                    view! {
                        <ul class="memories">
                            {memories.into_iter().enumerate().map(|(i, m)| {
                                let text = m.text.clone();
                                view! {
                                    <li>
                                        {m.text.clone()}
                                        {m.source.clone().map(|s| view! { " " <span class="chip">{tf("from {source}", &[("source", &s)])}</span> })}
                                        " "
                                        <button type="button" class="icon" aria-label=tf("Forget “{text}”", &[("text", &text)])
                                            on:click=move |_| fields.memories.update(|all| { all.remove(i); })>"×"</button>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }}
            </fieldset>
        </div>
    }
}
