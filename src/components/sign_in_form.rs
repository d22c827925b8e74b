//! The credentials form, shared by the sign-in page and the re-sign-in dialog.

use larder_api::{ApiError, Credentials, Identity};
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::i18n::t;
use crate::ApiClient;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    User,
    Client,
}

/// The credentials form, shared by the page and the re-sign-in dialog. Empty or half-filled
/// forms are caught before any call; a failure shows the service's detail and keeps the input.
#[component]
pub fn SignInForm(
    /// Runs with the identity once signed in.
    on_success: Callback<Identity>,
    /// Prefix of the inputs' ids (two forms can be on one page).
    id_prefix: &'static str,
    /// Pre-fills the username (the dialog knows who was signed in).
    #[prop(optional, into)]
    username: String,
    /// Pre-fills the secret (typed before the console had loaded).
    #[prop(optional, into)]
    secret: String,
    /// Starts as "A machine client".
    #[prop(optional)]
    machine: bool,
    /// The field to focus once shown: `"name"` or `"secret"`.
    #[prop(default = None)]
    focus: Option<&'static str>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let kind = RwSignal::new(if machine { Kind::Client } else { Kind::User });
    let (name, secret) = (RwSignal::new(username), RwSignal::new(secret));
    let error = RwSignal::new(None::<ApiError>);

    let sign_in = Action::new_local(move |credentials: &Credentials| {
        let (client, credentials) = (client.clone(), credentials.clone());
        async move { client.sign_in(credentials).await }
    });
    Effect::new(move || match sign_in.value().get() {
        Some(Ok(identity)) => {
            secret.set(String::new());
            on_success.run(identity);
        }
        Some(Err(e)) => error.set(Some(e)),
        None => {}
    });

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (name, secret) = (name.get_untracked(), secret.get_untracked());
        let machine = kind.get_untracked() == Kind::Client;
        if let Some(missing) = crate::error_text::missing_credentials(machine, &name, &secret) {
            return error.set(Some(ApiError::InvalidCredentials(missing)));
        }
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
        Kind::User => (t("Username"), t("Password"), "username", "current-password"),
        Kind::Client => (t("Client ID"), t("Client secret"), "off", "off"),
    };
    let (name_id, secret_id) = (format!("{id_prefix}-name"), format!("{id_prefix}-secret"));
    if let Some(field) = focus {
        // After the first render, where the person was typing.
        let id = format!("{id_prefix}-{field}");
        request_animation_frame(move || {
            let element = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&id))
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            if let Some(element) = element {
                let _ = element.focus();
            }
        });
    }

    view! {
        <fieldset class="segmented">
            <legend>{move || t("Sign in as")}</legend>
            <label><input type="radio" name=format!("{id_prefix}-kind") checked=move || kind.get() == Kind::User
                on:change=move |_| kind.set(Kind::User)/>" " {move || t("A person")}</label>
            <label><input type="radio" name=format!("{id_prefix}-kind") checked=move || kind.get() == Kind::Client
                on:change=move |_| kind.set(Kind::Client)/>" " {move || t("A machine client")}</label>
        </fieldset>
        <form on:submit=submit novalidate>
            <label for=name_id.clone()>{move || labels().0}</label>
            <input id=name_id type="text" autocomplete=move || labels().2
                prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
            <label for=secret_id.clone()>{move || labels().1}</label>
            <input id=secret_id type="password" autocomplete=move || labels().3
                prop:value=move || secret.get() on:input=move |ev| secret.set(event_target_value(&ev))/>
            {move || error.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" id=format!("{id_prefix}-submit") class="primary" disabled=move || sign_in.pending().get()>
                {move || if sign_in.pending().get() { t("Signing in…") } else { t("Sign in") }}
            </button>
        </form>
    }
}
