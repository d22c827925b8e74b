//! The root: providers (client, session, toasts) and the route table.

use larder_api::Identity;
use leptos::prelude::*;
use leptos_router::components::{ProtectedRoute, Route, Router, Routes};
use leptos_router::path;

use crate::components::header::Header;
use crate::components::reauth::ReauthDialog;
use crate::components::toast::{ToastRegion, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::hosting::base_path;
use crate::pages::{Deferred, Page};
use crate::routes::{home::Home, not_found::NotFound, sign_in::SignIn};
use crate::session::Session;
use crate::ApiClient;

/// The whole console, over a client configured from `config.json` (see `crate::boot`), signed
/// in as `identity` when given.
#[component]
pub fn App(client: ApiClient, identity: Option<Identity>) -> impl IntoView {
    view! { <Console client identity/> }
}

/// The sign-in page, told to come back to the page that was opened (path and query).
fn sign_in_redirect() -> String {
    let location = web_sys::window().map(|w| w.location());
    let read = |part: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
        location
            .as_ref()
            .and_then(|l| part(l).ok())
            .unwrap_or_default()
    };
    crate::paths::sign_in_path(
        &read(web_sys::Location::pathname),
        &read(web_sys::Location::search),
        &base_path(),
    )
}

#[component]
fn Console(client: ApiClient, identity: Option<Identity>) -> impl IntoView {
    let session = Session::new(&client);
    session.identity.set(identity);
    provide_context(client);
    provide_context(session);
    Toasts::provide();
    UnsavedChanges::provide();
    crate::kb::gates::RoleGates::provide(session);
    // Memos: a new sign-in over an open page (the re-sign-in dialog) sets the identity again, and
    // an unchanged answer must not re-mount the page and lose what a form holds.
    let signed_in = Memo::new(move |_| session.signed_in());
    let signed_in = move || Some(signed_in.get());
    view! {
        <Router base=base_path()>
            <a class="skip-link" href="#main">"Skip to content"</a>
            <Header/>
            <main id="main" class="page">
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/sign-in") view=SignIn/>
                    <ProtectedRoute path=path!("/") view=Home condition=signed_in redirect_path=sign_in_redirect/>
                    // Households and members (owners and administrators).
                    <ProtectedRoute path=path!("/household") view=|| view! { <Deferred page=Page::MyHousehold/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/household/members/:id") view=|| view! { <Deferred page=Page::Member/> } condition=signed_in redirect_path=sign_in_redirect/>
                    // Signed in without the role, these pages say "Not allowed" and which role they need.
                    <ProtectedRoute path=path!("/households") view=|| view! { <Deferred page=Page::Households/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/households/:id") view=|| view! { <Deferred page=Page::Household/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/households/:household/members/:id") view=|| view! { <Deferred page=Page::Member/> } condition=signed_in redirect_path=sign_in_redirect/>
                    // The knowledge base.
                    <ProtectedRoute path=path!("/records/:collection") view=|| view! { <Deferred page=Page::Records/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/records/:collection/new") view=|| view! { <Deferred page=Page::NewRecord/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/records/:collection/:id") view=|| view! { <Deferred page=Page::Record/> } condition=signed_in redirect_path=sign_in_redirect/>
                </Routes>
            </main>
            <ToastRegion/>
            <ReauthDialog/>
        </Router>
    }
}
