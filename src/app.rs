//! The root: configuration, providers (client, session, toasts) and the route table.

use larder_api::transport::gloo::GlooTransport;
use larder_api::ClientConfig;
use leptos::prelude::*;
use leptos_router::components::{ProtectedRoute, Route, Router, Routes};
use leptos_router::path;

use crate::components::header::Header;
use crate::components::reauth::ReauthDialog;
use crate::components::toast::{ToastRegion, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::pages::{Deferred, Page};
use crate::routes::{home::Home, not_found::NotFound, sign_in::SignIn};
use crate::hosting::base_path;
use crate::session::{ConfigReady, Session};
use crate::ApiClient;

/// The whole console. It paints at once with this page's origin as the service; `config.json`
/// replaces that when it arrives, and only a broken file stops the console.
#[component]
pub fn App() -> impl IntoView {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let defaults =
        crate::config::parse(None, &origin).unwrap_or_else(|_| ClientConfig::new(origin.clone()));
    let client: ApiClient = larder_api::Client::new(GlooTransport, defaults);
    let (ready, set_ready) = signal(false);
    let problem = RwSignal::new(None::<String>);
    {
        let client = client.clone();
        leptos::task::spawn_local(async move {
            match crate::config::load().await {
                Ok(config) => {
                    client.set_config(config);
                    set_ready.set(true);
                }
                Err(text) => problem.set(Some(text)),
            }
        });
    }
    provide_context(ConfigReady(ready));
    view! {
        <Show when=move || problem.with(Option::is_none)
            fallback=move || view! { <ConfigProblem problem=problem.get().unwrap_or_default()/> }>
            <Console client=client.clone()/>
        </Show>
    }
}

/// Says what is wrong with config.json and what it should contain.
#[component]
fn ConfigProblem(problem: String) -> impl IntoView {
    view! {
        <main class="page narrow">
            <h1>"Larder cannot start"</h1>
            <p role="alert" class="error">{problem}</p>
            <p>"Place a file named " <code>"config.json"</code> " beside " <code>"index.html"</code>
               ", or remove it to use this page's own origin for both APIs. It should look like this:"</p>
            <pre class="code">{crate::config::EXAMPLE}</pre>
        </main>
    }
}

/// The sign-in page, told to come back to the page that was opened (path and query).
fn sign_in_redirect() -> String {
    let location = web_sys::window().map(|w| w.location());
    let read = |part: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
        location.as_ref().and_then(|l| part(l).ok()).unwrap_or_default()
    };
    crate::paths::sign_in_path(
        &read(web_sys::Location::pathname),
        &read(web_sys::Location::search),
        &base_path(),
    )
}

#[component]
fn Console(client: ApiClient) -> impl IntoView {
    let session = Session::new(&client);
    provide_context(client);
    provide_context(session);
    Toasts::provide();
    UnsavedChanges::provide();
    crate::kb::gates::RoleGates::provide(session);
    // Memos: a new sign-in over an open page (the re-sign-in dialog) sets the identity again, and
    // an unchanged answer must not re-mount the page and lose what a form holds.
    let signed_in = Memo::new(move |_| session.signed_in());
    let signed_in = move || Some(signed_in.get());
    // Hides the screens from other users; the service still decides.
    let is_admin = Memo::new(move |_| {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| i.has_role("admin")))
    });
    let is_admin = move || Some(is_admin.get());
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
                    <ProtectedRoute path=path!("/households") view=|| view! { <Deferred page=Page::Households/> } condition=is_admin redirect_path=|| "/"/>
                    <ProtectedRoute path=path!("/households/:id") view=|| view! { <Deferred page=Page::Household/> } condition=is_admin redirect_path=|| "/"/>
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
