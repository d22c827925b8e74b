//! "Display": text size (normal, large, larger) and high contrast, beside the theme (issue 40
//! item 4). Kept in the browser like the language (`localStorage`, no person's data), applied
//! as attributes of the page's root element that the style sheets read
//! (`data-text-size`, `data-contrast`).

use leptos::prelude::*;

use crate::i18n::{k, t};

use larder_start::display::{CONTRAST as CONTRAST_KEY, HIGH, TEXT_SIZE as TEXT_SIZE_KEY};
/// The sizes offered: the attribute's value, and its name.
const SIZES: [(&str, &str); 3] = [
    ("normal", k("Normal")),
    ("large", k("Large")),
    ("larger", k("Larger")),
];

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn root() -> Option<web_sys::Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
}

/// Puts `value` on the root element as `attribute` (none for the default) and remembers it.
fn apply(attribute: &str, key: &str, value: &str, default: &str) {
    if let Some(root) = root() {
        let _ = if value == default {
            root.remove_attribute(attribute)
        } else {
            root.set_attribute(attribute, value)
        };
    }
    if let Some(storage) = storage() {
        let _ = if value == default {
            storage.remove_item(key)
        } else {
            storage.set_item(key, value)
        };
    }
}

fn remembered(key: &str) -> Option<String> {
    storage().and_then(|s| s.get_item(key).ok().flatten())
}

/// The header's "Display" disclosure: text size and high contrast.
#[component]
pub fn DisplayPrefs() -> impl IntoView {
    let size = RwSignal::new(
        remembered(TEXT_SIZE_KEY)
            .filter(|s| SIZES.iter().any(|(v, _)| v == s))
            .unwrap_or_else(|| "normal".into()),
    );
    let high = RwSignal::new(larder_start::display::high_contrast(
        remembered(CONTRAST_KEY).as_deref(),
    ));
    Effect::new(move || apply("data-text-size", TEXT_SIZE_KEY, &size.get(), "normal"));
    Effect::new(move || {
        let value = if high.get() { HIGH } else { "normal" };
        apply("data-contrast", CONTRAST_KEY, value, "normal");
    });
    view! {
        <details class="display-prefs">
            <summary>{move || t("Display")}</summary>
            <div class="display-panel">
                <fieldset class="segmented">
                    <legend>{move || t("Text size")}</legend>
                    {SIZES.into_iter().map(|(value, name)| view! {
                        <label>
                            <input type="radio" name="text-size" value=value
                                prop:checked=move || size.get() == value
                                on:change=move |_| size.set(value.to_string())/>
                            " " {move || t(name)}
                        </label>
                    }).collect_view()}
                </fieldset>
                <label class="contrast">
                    <input type="checkbox" prop:checked=move || high.get()
                        on:change=move |ev| high.set(event_target_checked(&ev))/>
                    " " {move || t("High contrast")}
                </label>
            </div>
        </details>
    }
}
