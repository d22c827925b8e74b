//! The root: providers (client, session, toasts) and the route table.

use larder_api::Identity;
use leptos::prelude::*;
use leptos_router::components::{ProtectedRoute, Route, Router, Routes};
use leptos_router::path;

use crate::components::header::Header;
use crate::components::maintenance::MaintenanceBanner;
use crate::components::reauth::ReauthDialog;
use crate::components::toast::{ToastRegion, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::hosting::base_path;
use crate::i18n::t;
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

/// Moves the focus to the new page's heading after a navigation (not on the first page), as a
/// screen reader user expects; the heading may arrive with the page's data, so it is looked for
/// a little while.
#[component]
fn FocusOnNavigation() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    let first = StoredValue::new(true);
    // The path is read, not only tracked: a memo that is never read is not recomputed, so an
    // effect that only tracks it runs once and never again (seen in Chromium).
    move || {
        let _path = location.pathname.get();
        if first.get_value() {
            first.set_value(false);
        } else {
            focus_heading(60);
        }
    }
}

/// Keeps moving the focus to the page's heading while the page settles: a page that loads
/// its data replaces its first heading, and the focus would fall back to the body. Stops as
/// soon as the person has put the focus somewhere else themselves.
fn focus_heading(tries: u32) {
    let document = web_sys::window().and_then(|w| w.document());
    let origin = document.as_ref().and_then(|d| d.active_element());
    settle_focus(tries, origin, None);
}

fn settle_focus(tries: u32, origin: Option<web_sys::Element>, ours: Option<web_sys::HtmlElement>) {
    set_timeout(
        move || {
            let Some(document) = web_sys::window().and_then(|w| w.document()) else {
                return;
            };
            let active = document.active_element();
            let body: Option<web_sys::Element> = document.body().map(Into::into);
            let untouched = match &active {
                None => true,
                Some(active) => {
                    Some(active) == body.as_ref()
                        || Some(active) == origin.as_ref()
                        || ours
                            .as_ref()
                            .is_some_and(|h| h.as_ref() as &web_sys::Element == active)
                }
            };
            if !untouched {
                return;
            }
            let heading = document
                .query_selector("#main h1")
                .ok()
                .flatten()
                .and_then(|h| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(h).ok());
            let mut ours = ours;
            if let Some(heading) = heading {
                let element: &web_sys::Element = heading.as_ref();
                if active.as_ref() != Some(element) {
                    let _ = heading.set_attribute("tabindex", "-1");
                    let _ = heading.focus();
                }
                ours = Some(heading);
            }
            if tries > 0 {
                settle_focus(tries - 1, origin, ours);
            }
        },
        std::time::Duration::from_millis(50),
    );
}

/// The sign-in page, told to come back to the page that was opened (path and query).
fn sign_in_redirect() -> String {
    let (path, search) = crate::hosting::current_location();
    crate::paths::sign_in_path(&path, &search, &base_path())
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
    // Every text read inside a view follows a change of language (the header's menu).
    let language = ArcTrigger::new();
    {
        let (read, changed) = (language.clone(), language.clone());
        crate::i18n::observe(move || read.track(), move || changed.notify());
    }
    // Memos: a new sign-in over an open page (the re-sign-in dialog) sets the identity again, and
    // an unchanged answer must not re-mount the page and lose what a form holds.
    let signed_in = Memo::new(move |_| session.signed_in());
    let signed_in = move || Some(signed_in.get());
    view! {
        <Router base=base_path()>
            <FocusOnNavigation/>
            <a class="skip-link" href="#main">{move || t("Skip to content")}</a>
            <Header/>
            <MaintenanceBanner/>
            <main id="main" class="page">
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/sign-in") view=SignIn/>
                    <ProtectedRoute path=path!("/") view=Home condition=signed_in redirect_path=sign_in_redirect/>
                    // Households and members (owners and administrators).
                    <ProtectedRoute path=path!("/household") view=|| view! { <Deferred page=Page::MyHousehold/> } condition=signed_in redirect_path=sign_in_redirect/>
                    <ProtectedRoute path=path!("/household/members/:id") view=|| view! { <Deferred page=Page::Member/> } condition=signed_in redirect_path=sign_in_redirect/>
                    // Signed in without the role, these pages say "Not allowed" and which role they need.
                    <ProtectedRoute path=path!("/households") view=|| view! { <Deferred page=Page::Households/> } condition=signed_in redirect_path=sign_in_redirect/>
                    // Before `/households/:id`, which the audit's path would match too.
                    <ProtectedRoute path=path!("/households/allergies") view=|| view! { <Deferred page=Page::AllergyAudit/> } condition=signed_in redirect_path=sign_in_redirect/>
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
