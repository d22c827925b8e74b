//! The root: configuration, then providers (client, session) and the route table.

use larder_api::transport::gloo::GlooTransport;
use larder_api::ClientConfig;
use leptos::prelude::*;
use leptos_router::components::{ProtectedRoute, Route, Router, Routes};
use leptos_router::path;

use crate::components::header::Header;
use crate::routes::{articles::Articles, not_found::NotFound, sign_in::SignIn};
use crate::session::Session;
use crate::ApiClient;

/// The whole console.
#[component]
pub fn App() -> impl IntoView {
    let config = LocalResource::new(crate::config::load);
    move || match config.get() {
        None => view! { <p class="boot">"Loading Larder…"</p> }.into_any(),
        Some(Err(problem)) => view! { <ConfigProblem problem/> }.into_any(),
        Some(Ok(config)) => view! { <Console config/> }.into_any(),
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

/// The document's base path (`/` or the sub-path the console is hosted under), without the trailing slash.
fn base_path() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|url| url.pathname())
        .unwrap_or_default();
    base.trim_end_matches('/').to_string()
}

#[component]
fn Console(config: ClientConfig) -> impl IntoView {
    let client: ApiClient = larder_api::Client::new(GlooTransport, config);
    let session = Session::new(&client);
    provide_context(client);
    provide_context(session);
    let signed_in = move || Some(session.signed_in());
    view! {
        <Router base=base_path()>
            <a class="skip-link" href="#main">"Skip to content"</a>
            <Header/>
            <main id="main" class="page">
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/sign-in") view=SignIn/>
                    <ProtectedRoute path=path!("/") view=Articles condition=signed_in redirect_path=|| "/sign-in"/>
                </Routes>
            </main>
        </Router>
    }
}
