//! Unknown paths.

use crate::i18n::t;
use leptos::prelude::*;
use leptos_router::components::A;

/// The page for a path the console does not have.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <h1>{move || t("Page not found")}</h1>
        <p>{move || t("This address is not a page of Larder.")} " " <A href=crate::hosting::link("/")>{move || t("Go to the start page")}</A></p>
    }
}
