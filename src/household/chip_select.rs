//! A list of strings as removable chips: chosen from an enumeration by typing to filter, or
//! typed freely when there is no enumeration.

use crate::i18n::{t, tf, value_label};
use larder_contract::text::lowercase;
use leptos::prelude::*;

/// Chips for `selected`; `options` limits the choice to an enumeration.
#[component]
pub fn ChipSelect(
    selected: RwSignal<Vec<String>>,
    label: &'static str,
    id: &'static str,
    #[prop(optional)] options: Option<&'static [&'static str]>,
    /// The enumeration the options belong to, for their readable labels (`dietary_group`).
    #[prop(optional)]
    enumeration: Option<&'static str>,
) -> impl IntoView {
    let query = RwSignal::new(String::new());
    let matches = move || -> Vec<&'static str> {
        let Some(options) = options else {
            return Vec::new();
        };
        let q = lowercase(query.get().trim()).replace(' ', "_");
        let chosen = selected.get();
        options
            .iter()
            .copied()
            .filter(|o| !chosen.iter().any(|c| c == o) && (q.is_empty() || o.contains(&q)))
            .take(12)
            .collect()
    };
    let add = move |value: String| {
        let value = value.trim().to_string();
        if !value.is_empty() && !selected.with(|s| s.contains(&value)) {
            selected.update(|s| s.push(value));
        }
        query.set(String::new());
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            ev.prevent_default();
            match options {
                Some(_) => {
                    if let Some(first) = matches().first() {
                        add(first.to_string());
                    }
                }
                None => add(query.get_untracked()),
            }
        }
    };
    view! {
        <fieldset class="chips">
            <legend>{move || t(label)}</legend>
            <ul class="chip-list" aria-label=move || tf("Chosen {what}", &[("what", &lowercase(&t(label)))])>
                {move || selected.get().into_iter().map(|value| {
                    // Enumeration values read as words; free text is shown exactly as it is.
                    let shown = match enumeration { Some(e) => value_label(e, &value), None => value.clone() };
                    let removed = value.clone();
                    view! {
                        <li class="chip chosen">{shown.clone()}
                            <button type="button" class="icon" aria-label=tf("Remove {what}", &[("what", &shown)])
                                on:click=move |_| selected.update(|s| s.retain(|v| *v != removed))>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <label for=id class="sr-only">{move || if options.is_some() { tf("Search {what}", &[("what", &lowercase(&t(label)))]) } else { tf("Add to {what}", &[("what", &lowercase(&t(label)))]) }}</label>
            <input id=id type="text" autocomplete="off"
                placeholder=move || if options.is_some() { t("Type to search, Enter to add") } else { t("Type, then Enter to add") }
                prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev)) on:keydown=on_key/>
            {move || options.map(|_| view! {
                <div class="chip-options" role="group" aria-label=move || tf("{what} to add", &[("what", &t(label))])>
                    {matches().into_iter().map(|option| view! {
                        <button type="button" class="chip option" on:click=move |_| add(option.to_string())>
                            {move || format!("+ {}", enumeration.map(|e| value_label(e, option)).unwrap_or_else(|| option.to_string()))}
                        </button>
                    }).collect_view()}
                </div>
            })}
        </fieldset>
    }
}
