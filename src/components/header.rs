//! The top bar: who is signed in, their roles, sign out, and the retry hint.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::session::Session;
use crate::ApiClient;

/// The header of every page.
#[component]
pub fn Header() -> impl IntoView {
    let session = expect_context::<Session>();
    let client = expect_context::<ApiClient>();
    let navigate = use_navigate();
    let sign_out = Action::new_local(move |_: &()| {
        let client = client.clone();
        async move { client.sign_out().await }
    });
    Effect::new(move || {
        if sign_out.version().get() > 0 {
            session.identity.set(None);
            navigate("/sign-in", Default::default());
        }
    });
    view! {
        <header class="topbar">
            <span class="brand">"Larder"</span>
            {move || session.retrying.get().map(|(attempt, of)| view! {
                <span class="retrying" role="status">{format!("Retrying {attempt} of {of}…")}</span>
            })}
            {move || session.identity.get().map(|identity| view! {
                <span class="who">
                    "Signed in as " <strong>{identity.display_name().to_string()}</strong>
                    {identity.roles.iter().map(|role| view! { <span class="chip">{role.clone()}</span> }).collect_view()}
                </span>
                <button type="button" on:click=move |_| { sign_out.dispatch(()); }>"Sign out"</button>
            })}
        </header>
    }
}
