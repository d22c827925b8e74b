//! The page a signed-in person sees where their roles do not reach: what it needs, and who they
//! are, instead of a silent redirect.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::session::Session;

/// "Not allowed", naming what the page needs (e.g. "the role admin").
#[component]
pub fn NotAllowed(
    /// What the page needs, as words: "the role admin", "the role admin or agent".
    needs: &'static str,
) -> impl IntoView {
    let session = expect_context::<Session>();
    let who = move || {
        session.identity.with(|identity| match identity {
            Some(identity) if identity.roles.is_empty() => {
                format!(
                    "You are signed in as {}, with no role.",
                    identity.display_name()
                )
            }
            Some(identity) => format!(
                "You are signed in as {}, with the roles {}.",
                identity.display_name(),
                identity.roles.join(", ")
            ),
            None => String::new(),
        })
    };
    view! {
        <h1>"Not allowed"</h1>
        <p role="alert" class="error">{format!("This page needs {needs}.")} " " {who}</p>
        <p><A href=crate::hosting::link("/")>"Go to the start page"</A></p>
    }
}
