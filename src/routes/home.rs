//! The start page: where to go, by role.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::i18n::{t, tf};
use crate::session::Session;

/// The start page after sign-in.
#[component]
pub fn Home() -> impl IntoView {
    let session = expect_context::<Session>();
    move || {
        session.identity.get().map(|identity| {
            let is_admin = identity.has_role("admin");
            let is_user = identity.username.is_some();
            view! {
                <h1>{tf("Welcome, {name}", &[("name", identity.display_name())])}</h1>
                <div class="tiles">
                    {is_user.then(|| view! {
                        <A href=crate::hosting::link("/household") attr:class="tile"><strong>{move || t("My household")}</strong><span>{move || t("Members, dietary groups and preferences")}</span></A>
                    })}
                    {is_admin.then(|| view! {
                        <A href=crate::hosting::link("/households") attr:class="tile"><strong>{move || t("Households")}</strong><span>{move || t("Every household, page by page")}</span></A>
                    })}
                    <A href=crate::hosting::link("/records/articles") attr:class="tile"><strong>{move || t("Knowledge base")}</strong><span>{move || t("Articles, guides, textbooks and food composition tables")}</span></A>
                </div>
            }
        })
    }
}
