//! The root: providers (client, session, toasts) and the route table.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, Lazy};

use crate::components::header::Header;
use crate::components::loading::Loading;
use crate::components::maintenance::MaintenanceBanner;
use crate::components::reauth::ReauthDialog;
use crate::components::toast::{ToastRegion, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::hosting::base_path;
use crate::i18n::{k, t};
use crate::lazy::{guarded, Protected};
use crate::routes::allergy_audit::AllergyAuditRoute;
use crate::routes::household::OwnHouseholdRoute;
use crate::routes::household_view::HouseholdRoute;
use crate::routes::households::HouseholdsRoute;
use crate::routes::member::MemberRoute;
use crate::routes::overview::OverviewRoute;
use crate::routes::record::RecordRoute;
use crate::routes::record_new::NewRecordRoute;
use crate::routes::records::RecordListRoute;
use crate::routes::status::StatusRoute;
use crate::routes::{home::Home, not_found::NotFound, sign_in::SignIn};
use crate::session::{Person, Session};
use crate::ApiClient;

/// The whole console, over a client configured from `config.json` (see `crate::start`),
/// signed in as `person` when given.
#[component]
pub fn App(client: ApiClient, person: Option<Person>) -> impl IntoView {
    view! { <Console client person/> }
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

#[component]
fn Console(client: ApiClient, person: Option<Person>) -> impl IntoView {
    let session = Session::new(&client, person);
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
    // Each page is a lazy route: its reads start beside its group's module, for a signed-in
    // person only (`crate::lazy`).
    view! {
        <Router base=base_path()>
            <FocusOnNavigation/>
            <a class="skip-link" href="#main">{move || t("Skip to content")}</a>
            <Header/>
            <MaintenanceBanner/>
            <main id="main" class="page">
                // A page's module on its way: a loading line the first time, the page before
                // while another page's comes.
                <Transition fallback=|| view! { <Loading what=k("Loading the page…")/> }>
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/sign-in") view=SignIn/>
                    <Route path=path!("/") view=|| guarded(|| view! { <Home/> })/>
                    // Households and members (owners and administrators).
                    <Route path=path!("/household") view={Lazy::<Protected<OwnHouseholdRoute>>::new()}/>
                    <Route path=path!("/household/members/:id") view={Lazy::<Protected<MemberRoute>>::new()}/>
                    // Signed in without the role, these pages say "Not allowed" and which role they need.
                    <Route path=path!("/households") view={Lazy::<Protected<HouseholdsRoute>>::new()}/>
                    // Before `/households/:id`, which the audit's path would match too.
                    <Route path=path!("/households/allergies") view={Lazy::<Protected<AllergyAuditRoute>>::new()}/>
                    <Route path=path!("/households/:id") view={Lazy::<Protected<HouseholdRoute>>::new()}/>
                    <Route path=path!("/households/:household/members/:id") view={Lazy::<Protected<MemberRoute>>::new()}/>
                    <Route path=path!("/status") view={Lazy::<Protected<StatusRoute>>::new()}/>
                    // The knowledge base.
                    <Route path=path!("/overview") view={Lazy::<Protected<OverviewRoute>>::new()}/>
                    <Route path=path!("/records/:collection") view={Lazy::<Protected<RecordListRoute>>::new()}/>
                    <Route path=path!("/records/:collection/new") view={Lazy::<Protected<NewRecordRoute>>::new()}/>
                    <Route path=path!("/records/:collection/:id") view={Lazy::<Protected<RecordRoute>>::new()}/>
                </Routes>
                </Transition>
            </main>
            <ToastRegion/>
            <ReauthDialog/>
        </Router>
    }
}
