//! A search fragment with its highlights as `<em>` and everything else as text.

use leptos::prelude::*;

use crate::kb::schema::highlight::{split, POST, PRE};

/// Renders `fragment`: only the highlight tags become emphasis; any other markup the service
/// sent is shown as the characters it is, never parsed.
#[component]
pub fn Highlighted(fragment: String) -> impl IntoView {
    split(&fragment, PRE, POST)
        .into_iter()
        .map(|piece| {
            if piece.marked {
                view! { <em class="hit">{piece.text}</em> }.into_any()
            } else {
                piece.text.into_any()
            }
        })
        .collect_view()
}
