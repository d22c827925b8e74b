//! Unknown paths.

use leptos::prelude::*;
use leptos_router::components::A;

/// The page for a path the console does not have.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <h1>"Page not found"</h1>
        <p>"This address is not a page of Larder. " <A href=crate::hosting::link("/")>"Go to the start page"</A></p>
    }
}
