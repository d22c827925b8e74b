//! The line a page or panel shows while its data (or its module) arrives.

use crate::i18n::t;
use leptos::prelude::*;

/// "Loading …", announced politely to screen readers.
#[component]
pub fn Loading(
    /// What is loading, as a sentence: "Loading the record…".
    what: &'static str,
) -> impl IntoView {
    view! { <p class="loading" role="status" aria-busy="true">{move || t(what)}</p> }
}
