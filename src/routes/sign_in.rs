//! Sign in as a person (username and password) or a machine client (client ID and secret).

use larder_api::{ApiError, Credentials};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::components::error_view::ErrorView;
use crate::session::Session;
use crate::ApiClient;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    User,
    Client,
}

/// The sign-in page.
#[component]
pub fn SignIn() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let session = expect_context::<Session>();
    let navigate = use_navigate();
    let kind = RwSignal::new(Kind::User);
    let (name, secret) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let error = RwSignal::new(None::<ApiError>);

    let sign_in = Action::new_local(move |credentials: &Credentials| {
        let (client, credentials) = (client.clone(), credentials.clone());
        async move { client.sign_in(credentials).await }
    });
    Effect::new(move || match sign_in.value().get() {
        Some(Ok(identity)) => {
            session.lost.set(false);
            session.identity.set(Some(identity));
            navigate("/", Default::default());
        }
        Some(Err(e)) => error.set(Some(e)),
        None => {}
    });

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (name, secret) = (name.get_untracked(), secret.get_untracked());
        let credentials = match kind.get_untracked() {
            Kind::User => Credentials::from_fields(&name, &secret, "", ""),
            Kind::Client => Credentials::from_fields("", "", &name, &secret),
        };
        match credentials {
            Ok(credentials) => {
                error.set(None);
                sign_in.dispatch(credentials);
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let labels = move || match kind.get() {
        Kind::User => ("Username", "Password", "username", "current-password"),
        Kind::Client => ("Client ID", "Client secret", "off", "off"),
    };

    view! {
        <section class="narrow card">
            <h1>"Sign in"</h1>
            <fieldset class="segmented">
                <legend>"Sign in as"</legend>
                <label><input type="radio" name="kind" checked=move || kind.get() == Kind::User
                    on:change=move |_| kind.set(Kind::User)/>" A person"</label>
                <label><input type="radio" name="kind" checked=move || kind.get() == Kind::Client
                    on:change=move |_| kind.set(Kind::Client)/>" A machine client"</label>
            </fieldset>
            <form on:submit=submit novalidate>
                <label for="sign-in-name">{move || labels().0}</label>
                <input id="sign-in-name" type="text" autocomplete=move || labels().2
                    prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
                <label for="sign-in-secret">{move || labels().1}</label>
                <input id="sign-in-secret" type="password" autocomplete=move || labels().3
                    prop:value=move || secret.get() on:input=move |ev| secret.set(event_target_value(&ev))/>
                {move || error.get().map(|error| view! { <ErrorView error/> })}
                <button type="submit" class="primary" disabled=move || sign_in.pending().get()>
                    {move || if sign_in.pending().get() { "Signing in…" } else { "Sign in" }}
                </button>
            </form>
            <p class="hint">"Your session lives in this tab's memory only: reloading the page signs you out."</p>
        </section>
    }
}
