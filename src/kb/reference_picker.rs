//! A reference field (a guide's, an organization's, a textbook's or a parent's URN) as a picker:
//! the URN stays an ordinary text field (typed or pasted by hand, and the way out when finding
//! fails), with the title of the record it names below it, marked when it names none; "Find by
//! title" is a combobox (WAI-ARIA's list autocomplete) whose choice puts the record's URN in the
//! field.

use larder_api::references::Found;
use larder_contract::Collection;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::i18n::{plural_name, t, tf};
use crate::ApiClient;

/// Records offered per collection.
const OFFERED: u32 = 8;
/// How long typing must pause before the service is asked.
const PAUSE_MS: u64 = 250;

#[component]
pub fn ReferencePicker(
    id: String,
    label: String,
    value: Signal<String>,
    set: Callback<String>,
    targets: &'static [&'static Collection],
    invalid: Signal<bool>,
    described: Signal<Option<String>>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let typed = RwSignal::new(String::new());
    // What was typed once typing paused: what the service is asked about.
    let asked = RwSignal::new(String::new());
    let open = RwSignal::new(false);
    let active = RwSignal::new(None::<usize>);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let finder = client.clone();
    let found = LocalResource::new(move || {
        let words = asked.get();
        let client = finder.clone();
        async move { client.find_references(targets, &words, OFFERED).await }
    });
    let resolver = client.clone();
    let named = LocalResource::new(move || {
        let urn = value.get().trim().to_string();
        let client = resolver.clone();
        async move {
            if urn.is_empty() {
                return Ok(Some(String::new()));
            }
            client.reference_title(targets, &urn).await
        }
    });
    let options = move || -> Vec<Found> {
        found
            .get()
            .and_then(Result::ok)
            .filter(|_| !asked.with(String::is_empty))
            .unwrap_or_default()
    };
    let choose = move |choice: Found| {
        set.run(choice.urn);
        typed.set(String::new());
        asked.set(String::new());
        open.set(false);
        active.set(None);
    };
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        typed.set(text.clone());
        open.set(true);
        active.set(None);
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(
            move || asked.set(text),
            std::time::Duration::from_millis(PAUSE_MS),
        )
        .ok();
        pending.set_value(handle);
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let count = options().len();
        match ev.key().as_str() {
            "ArrowDown" if count > 0 => {
                ev.prevent_default();
                open.set(true);
                active.update(|a| *a = Some(a.map_or(0, |i| (i + 1) % count)));
            }
            "ArrowUp" if count > 0 => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(count - 1, |i| (i + count - 1) % count)));
            }
            "Enter" => {
                if let Some(choice) = active
                    .get_untracked()
                    .and_then(|i| options().get(i).cloned())
                {
                    ev.prevent_default();
                    choose(choice);
                }
            }
            "Escape" if open.get_untracked() => {
                ev.prevent_default();
                open.set(false);
                active.set(None);
            }
            _ => {}
        }
    };
    let search_id = format!("{id}-find");
    let list_id = format!("{id}-found");
    let option_base = format!("{id}-found");
    let option_id = move |index: usize| format!("{option_base}-{index}");
    let option_of = option_id.clone();
    let kinds = targets
        .iter()
        .map(|c| plural_name(c))
        .collect::<Vec<_>>()
        .join(", ");
    let describe = move || described.get();
    view! {
        <div class="reference-picker">
            <input id=id.clone() type="text" prop:value=move || value.get()
                on:input=move |ev| set.run(event_target_value(&ev))
                aria-invalid=move || invalid.get().then_some("true") aria-describedby=describe/>
            <p class="reference-title" aria-live="polite">
                {move || named.get().map(|answer| match answer {
                    Ok(Some(title)) if title.is_empty() => ().into_any(),
                    Ok(Some(title)) => view! { <span class="muted">{title}</span> }.into_any(),
                    Ok(None) => view! {
                        <span class="badge unresolved">{move || t("not found")}</span>
                        " " {move || t("No record has this URN; it is kept as stored.")}
                    }.into_any(),
                    Err(_) => ().into_any(),
                })}
            </p>
            <label for=search_id.clone()>{tf("Find {field} by title", &[("field", &label)])}</label>
            <div class="combobox">
                <input id=search_id type="search" role="combobox" autocomplete="off"
                    aria-autocomplete="list" aria-controls=list_id.clone()
                    aria-expanded=move || (open.get() && !options().is_empty()).to_string()
                    aria-activedescendant=move || active.get().map(&option_id)
                    placeholder=tf("Type a few letters of a title ({kinds})", &[("kinds", &kinds)])
                    prop:value=move || typed.get() on:input=on_input on:keydown=on_keydown
                    on:blur=move |_| open.set(false) on:focus=move |_| open.set(true)/>
                <ul id=list_id role="listbox" class="combobox-options" aria-label=move || t("Records found")
                    hidden=move || !open.get() || options().is_empty()>
                    {move || options().into_iter().enumerate().map(|(index, choice)| {
                        let chosen = choice.clone();
                        view! {
                            <li id=option_of(index) role="option"
                                aria-selected=move || (active.get() == Some(index)).to_string()
                                // Before the input's blur closes the list.
                                on:mousedown=move |ev| { ev.prevent_default(); choose(chosen.clone()); }>
                                <span>{choice.title.clone()}</span>" "<code class="muted">{choice.urn.clone()}</code>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </div>
            {move || {
                let searched = !asked.with(String::is_empty);
                match found.get() {
                    Some(Err(error)) if searched => Some(view! {
                        <div class="reference-failed">
                            <ErrorView error/>
                            <p class="hint">{move || t("Type or paste the URN in the field above.")}</p>
                        </div>
                    }.into_any()),
                    Some(Ok(list)) if searched && list.is_empty() && open.get() => Some(view! {
                        <p class="hint" role="status">{move || t("No title begins with these words.")}</p>
                    }.into_any()),
                    _ => None,
                }
            }}
        </div>
    }
}
