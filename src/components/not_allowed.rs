//! The page a signed-in person sees where their roles do not reach: what it needs, and who they
//! are, instead of a silent redirect.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::i18n::{t, tf};
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
            Some(identity) if identity.roles.is_empty() => tf(
                "You are signed in as {name}, with no role.",
                &[("name", identity.display_name())],
            ),
            Some(identity) => tf(
                "You are signed in as {name}, with the roles {roles}.",
                &[
                    ("name", identity.display_name()),
                    ("roles", &identity.roles.join(", ")),
                ],
            ),
            None => String::new(),
        })
    };
    view! {
        <h1>{move || t("Not allowed")}</h1>
        <p role="alert" class="error">{move || tf("This page needs {what}.", &[("what", &t(needs))])} " " {who}</p>
        <p><A href=crate::hosting::link("/")>{move || t("Go to the start page")}</A></p>
    }
}
