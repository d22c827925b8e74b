//! Sign in as a person (username and password) or a machine client (client ID and secret).

use larder_api::Identity;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::components::sign_in_form::SignInForm;
use crate::i18n::t;
use crate::session::Session;

/// The sign-in page.
#[component]
pub fn SignIn() -> impl IntoView {
    let session = expect_context::<Session>();
    let navigate = use_navigate();
    let query = use_query_map();
    let on_success = Callback::new(move |identity: Identity| {
        session.begin(identity);
        let next = crate::paths::safe_next(query.with_untracked(|q| q.get("next")));
        navigate(next.as_deref().unwrap_or("/"), Default::default());
    });
    view! {
        <section class="narrow card">
            <h1>{move || t("Sign in")}</h1>
            <SignInForm on_success id_prefix="sign-in" focus=Some("name")/>
            <p class="hint">{move || t("Your session lives in this tab's memory only: reloading the page signs you out.")}</p>
        </section>
    }
}
