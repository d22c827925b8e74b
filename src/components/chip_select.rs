//! A list of strings as removable chips: chosen from an enumeration by typing to filter, or
//! typed freely when there is no enumeration.

use leptos::prelude::*;

/// Chips for `selected`; `options` limits the choice to an enumeration.
#[component]
pub fn ChipSelect(
    selected: RwSignal<Vec<String>>,
    label: &'static str,
    id: &'static str,
    #[prop(optional)] options: Option<&'static [&'static str]>,
) -> impl IntoView {
    let query = RwSignal::new(String::new());
    let matches = move || -> Vec<&'static str> {
        let Some(options) = options else {
            return Vec::new();
        };
        let q = query.get().trim().to_lowercase().replace(' ', "_");
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
            <legend>{label}</legend>
            <ul class="chip-list" aria-label=format!("Chosen {}", label.to_lowercase())>
                {move || selected.get().into_iter().map(|value| {
                    // Enumeration values read as words; free text is shown exactly as it is.
                    let shown = if options.is_some() { value.replace('_', " ") } else { value.clone() };
                    let removed = value.clone();
                    view! {
                        <li class="chip chosen">{shown.clone()}
                            <button type="button" class="icon" aria-label=format!("Remove {shown}")
                                on:click=move |_| selected.update(|s| s.retain(|v| *v != removed))>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <label for=id class="sr-only">{if options.is_some() { format!("Search {}", label.to_lowercase()) } else { format!("Add to {}", label.to_lowercase()) }}</label>
            <input id=id type="text" autocomplete="off"
                placeholder=if options.is_some() { "Type to search, Enter to add" } else { "Type, then Enter to add" }
                prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev)) on:keydown=on_key/>
            {move || options.map(|_| view! {
                <div class="chip-options" role="group" aria-label=format!("{label} to add")>
                    {matches().into_iter().map(|option| view! {
                        <button type="button" class="chip option" on:click=move |_| add(option.to_string())>
                            {format!("+ {}", option.replace('_', " "))}
                        </button>
                    }).collect_view()}
                </div>
            })}
        </fieldset>
    }
}
