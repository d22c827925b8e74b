//! When the token can no longer be renewed, a sign-in dialog opens over the current page, so
//! the page and any form content stay as they were. Where config.json names an identity
//! provider, the dialog also offers "Sign in with <provider>": the page is loaded again through
//! the sign-in page (`sign-in?next=` this page), whose start-up module asks the provider
//! silently and comes back here if its session is alive, or shows the sign-in form with the
//! provider's button. That leaves the page, so it says what typed content it loses.

use larder_api::Identity;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::components::modal::Modal;
use crate::components::sign_in_form::SignInForm;
use crate::i18n::t;
use crate::session::Session;

/// The dialog; shown while the session is lost and someone was signed in.
#[component]
pub fn ReauthDialog() -> impl IntoView {
    let session = expect_context::<Session>();
    let navigate = use_navigate();
    let open = move || session.lost.get() && session.signed_in();
    // Someone else: nothing read for the one before stays, on screen or in the session; the
    // start page. The same account carries on where it was.
    let signed_in = Callback::new(move |identity: Identity| {
        if session.begin(identity) {
            navigate("/", Default::default());
        }
    });
    view! {
        <Show when=open>
            <Modal role="dialog" labelled_by="reauth-title">
                    <h2 id="reauth-title">{move || t("Your session has ended")}</h2>
                    <p>{move || t("Sign in again to carry on; this page keeps what you entered.")}</p>
                    <SignInForm id_prefix="reauth"
                        username=session.identity.get_untracked().and_then(|i| i.username).unwrap_or_default()
                        on_success=signed_in/>
                    {crate::config::provider_host().map(|host| view! { <ProviderButton host/> })}
            </Modal>
        </Show>
    }
}

/// "Sign in with <provider>": a whole load of the sign-in page, back to this page after.
#[component]
fn ProviderButton(host: String) -> impl IntoView {
    let go = move |_| {
        let (path, search) = crate::hosting::current_location();
        let base = crate::hosting::base_path();
        let target = crate::hosting::link(crate::paths::sign_in_path(&path, &search, &base));
        if let Some(window) = web_sys::window() {
            let _ = window.location().assign(&target);
        }
    };
    let text = move || t("Sign in with {provider}").replace("{provider}", &host);
    view! {
        <p class="hint">{move || t("Or sign in at the identity provider again; this leaves the page, and what you entered here is lost.")}</p>
        <button type="button" class="provider" on:click=go>{text}</button>
    }
}
