//! When the token can no longer be renewed, a sign-in dialog opens over the current page, so
//! the page and any form content stay as they were.

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
            </Modal>
        </Show>
    }
}
