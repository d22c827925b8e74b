//! A field's value in a detail view: text as text, lists as chips, objects pretty-printed.

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::format::{date, value_number};
use crate::i18n::{t, tn};
use crate::kb::schema::labels;
use crate::kb::schema::value::{display, pretty};

/// Shows `value`; service text is always rendered as text. With its `field`, a guideline
/// facet's value reads by its label and an age bound in months or years.
#[component]
pub fn ValueView(value: Value, #[prop(optional, into)] field: Option<String>) -> impl IntoView {
    let field = field.unwrap_or_default();
    if let Some(months) = value.as_i64() {
        if labels::age(&field, months).is_some() {
            return view! { <span>{move || labels::age_text(&field, months)}</span> }.into_any();
        }
    }
    if labels::labelled_values(&field).is_some() {
        let words = |text: &str| {
            let (field, text) = (field.clone(), text.to_string());
            move || labels::facet_value(&field, &text)
        };
        match &value {
            Value::String(text) => return view! { <span>{words(text)}</span> }.into_any(),
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_string) => {
                return view! {
                    <ul class="chip-list">
                        {items.iter().filter_map(Value::as_str).map(|s| view! { <li class="chip">{words(s)}</li> }).collect_view()}
                    </ul>
                }
                .into_any()
            }
            _ => {}
        }
    }
    match value {
        Value::Null => view! { <span class="muted">"—"</span> }.into_any(),
        Value::String(text) if text.contains('\n') || text.chars().count() > 160 => {
            view! { <p class="long-text">{text}</p> }.into_any()
        }
        Value::Array(items) if items.is_empty() => view! { <span class="muted">{move || t("None")}</span> }.into_any(),
        Value::Array(items) if items.iter().all(Value::is_string) => view! {
            <ul class="chip-list">
                {items.iter().filter_map(Value::as_str).map(|s| view! { <li class="chip">{s.to_string()}</li> }).collect_view()}
            </ul>
        }
        .into_any(),
        value @ (Value::Array(_) | Value::Object(_)) => {
            let text = pretty(&value);
            let lines = text.lines().count();
            // Long JSON (a structure tree) stays folded so the other fields remain in view.
            if lines > 12 {
                view! {
                    <details class="json-fold">
                        <summary>{move || tn("JSON, {count} lines", lines as i64, &[])}</summary>
                        <pre class="code">{text}</pre>
                    </details>
                }
                .into_any()
            } else {
                view! { <pre class="code">{text}</pre> }.into_any()
            }
        }
        // Dates, times and numbers as the language writes them (the browser's Intl).
        Value::String(text) => view! { <span>{move || date(&text)}</span> }.into_any(),
        Value::Number(n) => match n.as_f64() {
            Some(value) => view! { <span>{move || value_number(value)}</span> }.into_any(),
            None => view! { <span>{n.to_string()}</span> }.into_any(),
        },
        other => view! { <span>{display(&other)}</span> }.into_any(),
    }
}
