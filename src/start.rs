//! The console's side of the start: what its main module does before the console is on screen.
//! The whole path, from the page's first byte to a page working, is mapped once, in
//! crates/start/src/lib.rs; this is its step "the console takes over".
//!
//! The start-up module (crates/start) drives index.html's sign-in form, the only driver it has.
//! It loads this module once "Sign in" works and hands it config.json ([`take_over`]), then
//! each press with the sign-in's answer and its first reads ([`pressed`]); this signs the
//! client in with them, makes the signed-in [`Person`] and mounts the console, or answers what
//! went wrong for the form to say. When the start-up module does not take the form (a
//! development build without it, a config.json or a start-up catalog it cannot read), this
//! removes the shell and mounts the console at once, whose own `/sign-in` page signs in
//! ([`begin`]), or says what is wrong with config.json.

use std::cell::RefCell;

use js_sys::{Array, Promise};
use larder_api::transport::gloo::GlooTransport;
use larder_api::transport::HttpResponse;
use larder_api::{ApiError, ClientConfig, Credentials};
use larder_start::form::{SHELL, TAKEN};
use larder_start::landing::after_sign_in;
use wasm_bindgen::JsValue;

use crate::error_text::{error_detail, error_title};
use crate::i18n::{choose, t};
use crate::session::{answer_of, Early, Person};
use crate::ApiClient;

/// For `main.rs`'s `pressed`: the start-up module's sign-in answer carries the id it was sent with.
pub use crate::session::request_id_header;

thread_local! {
    /// The page's one client: made at start and handed to the console when it mounts. Not a
    /// person's: what a person's sign-in puts in it (token, credentials) the session's end
    /// takes out again (`Session::end`), and the page is then loaded anew.
    static CLIENT: RefCell<Option<ApiClient>> = const { RefCell::new(None) };
}

/// Whether the console is mounted (the page's, not a person's).
static MOUNTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn client() -> Option<ApiClient> {
    CLIENT.with(|c| c.borrow().clone())
}

fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// Starts the console's module: makes the client, and, unless the start-up module runs the
/// form, mounts the console (on a page without index.html's shell, such as a test page, too).
pub fn begin() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let origin = origin();
    let defaults = crate::config::parse(None, &origin)
        .map(|c| c.client)
        .unwrap_or_else(|_| ClientConfig::new(origin.clone()));
    let client: ApiClient = larder_api::Client::new(GlooTransport, defaults);
    CLIENT.with(|c| *c.borrow_mut() = Some(client.clone()));
    let shell = document.get_element_by_id(SHELL);
    if shell.is_some() {
        // A page opened without a session asks to sign in first and comes back to it afterwards.
        let base = crate::hosting::base_path();
        let (path, search) = crate::hosting::current_location();
        let inside = path.strip_prefix(&base).unwrap_or(&path);
        if !inside.starts_with("/sign-in") {
            replace_url(&format!(
                "{base}{}",
                crate::paths::sign_in_path(&path, &search, &base)
            ));
        }
    }
    if shell.is_some_and(|shell| shell.has_attribute(TAKEN)) {
        // The start-up module runs the form: it calls `take_over`, then `pressed` per press.
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match crate::config::load().await {
            Ok(config) => {
                crate::config::use_settings(&config);
                client.set_config(config.client);
                choose::start(config.default_language, config.languages).await;
                match handed_session(&client).await {
                    Some(person) => open_next(client, person).await,
                    None => mount(client, None),
                }
            }
            Err(problem) => {
                // No configuration, no languages: the browser's own, if the console has it.
                choose::start(None, crate::i18n::Lang::ALL.to_vec()).await;
                cannot_start(&problem);
            }
        }
    });
}

/// The start-up module has made the sign-in form work and hands over config.json's text
/// (`None`: no file). Resolves once the client is configured; the chosen language's catalog
/// and the module of the page the sign-in will land on come meanwhile, while people type.
pub async fn take_over(config: Option<String>) {
    let Some(client) = client() else {
        return;
    };
    // The start-up module read the file by the same rules: it would not have taken the form
    // with a file this rejects.
    if let Ok(config) = crate::config::parse(config.as_deref(), &origin()) {
        crate::config::use_settings(&config);
        client.set_config(config.client);
        let lang = choose::prepare(config.default_language, config.languages);
        // Once the frame is painted: the form stays as quick to type in.
        wasm_bindgen_futures::spawn_local(async move {
            crate::lazy::after_paint().await;
            crate::i18n::format::warm(lang);
        });
    }
    if let Some(landing) = landing() {
        wasm_bindgen_futures::spawn_local(crate::lazy::prefetch(landing.group));
    }
    // A tab opened while another of this console is signed in takes its session (issue 42).
    wasm_bindgen_futures::spawn_local(async move {
        if let Some(person) = handed_session(&client).await {
            open_next(client, person).await;
        }
    });
}

/// The session another tab of the console hands over, when one answers: the person it is.
async fn handed_session(client: &ApiClient) -> Option<Person> {
    if client.is_signed_in().await {
        return None;
    }
    let (token, valid_for_ms, identity) = crate::session::tabs::ask(client).await?;
    // Who it is came with it, or the service says (a token it refuses ends here).
    let asked = client
        .adopt_handed(token, valid_for_ms, identity.is_none())
        .await
        .ok()?;
    let identity = identity.or(asked)?;
    crate::session::tabs::keep_handed(client.clone(), valid_for_ms, identity.clone());
    Some(Person::new(identity, Early::at_sign_in(None)))
}

/// Mounts the console for `person` at the page the sign-in was asked to return to.
async fn open_next(client: ApiClient, person: Person) {
    choose::ready().await;
    let next = query_param("next");
    let next = crate::paths::safe_next(next).unwrap_or_else(|| "/".into());
    replace_url(&format!("{}{next}", crate::hosting::base_path()));
    mount(client, Some(person));
}

/// One press of the form's "Sign in", handed over by the start-up module.
pub struct Press {
    /// A machine client's credentials, not a person's.
    pub machine: bool,
    pub name: String,
    pub secret: String,
    /// The sign-in's answer, when one came (`None`: this client signs in itself).
    pub answer: Option<HttpResponse>,
    /// The start-up module's `system/ping` and `households/me` with the answer's token, as
    /// promises of `[status, body]` (of `null` when no answer came).
    pub ping: Option<Promise>,
    pub household: Option<Promise>,
}

/// Signs in with a press: the client reads the start-up module's answers as its own (it asks
/// again only for what did not come, or came as a failure it would retry), the person is made
/// with the early reads, and the console mounts where the sign-in was asked to return.
/// `Err([title, detail])` when it failed, for the form to say.
pub async fn pressed(press: Press) -> Result<(), Array> {
    let failed = |error: ApiError| async move {
        // In the whole catalog's words.
        choose::ready().await;
        Array::of2(&error_title(&error).into(), &error_detail(&error).into())
    };
    let Some(client) = client() else {
        return Err(Array::new());
    };
    let credentials = if press.machine {
        Credentials::from_fields("", "", &press.name, &press.secret)
    } else {
        Credentials::from_fields(&press.name, &press.secret, "", "")
    };
    let credentials = match credentials {
        Ok(credentials) => credentials,
        Err(error) => return Err(failed(error).await),
    };
    let ping = match (&press.answer, press.ping) {
        (Some(_), Some(ping)) => answer_of(ping).await,
        _ => None,
    };
    let signed_in = match press.answer {
        Some(answer) => client.sign_in_answered(credentials, answer, ping).await,
        None => client.sign_in(credentials).await,
    };
    let identity = match signed_in {
        Ok(identity) => identity,
        Err(error) => return Err(failed(error).await),
    };
    // Where the sign-in was asked to return, or the start page.
    open_next(
        client,
        Person::new(identity, Early::at_sign_in(press.household)),
    )
    .await;
    Ok(())
}

/// A sign-in at the identity provider, completed by the start-up module (issue 42).
pub struct AtProvider {
    /// The provider's token answer (access, refresh and ID token).
    pub body: String,
    pub token_endpoint: String,
    pub client_id: String,
    /// Checked by the start-up module (signature, issuer, audience, nonce, expiry).
    pub id_token: String,
    pub end_session: Option<String>,
    /// The console's address (the redirect and post-logout URI).
    pub console: String,
    /// The page to open, inside the console, with its query.
    pub return_to: String,
}

/// Signs the client in with the provider's tokens (renewed with its refresh token, in memory)
/// and mounts the console at the page asked for. `Err([title, detail])` for the form to say.
pub async fn provider_signed_in(at: AtProvider) -> Result<(), Array> {
    let Some(client) = client() else {
        return Err(Array::new());
    };
    let refresh_token = serde_json::from_str::<serde_json::Value>(&at.body)
        .ok()
        .and_then(|body| body.get("refresh_token")?.as_str().map(str::to_string))
        .unwrap_or_default();
    let credentials = Credentials::Provider(larder_api::ProviderGrant {
        token_endpoint: at.token_endpoint,
        client_id: at.client_id,
        refresh_token,
        logout: at
            .end_session
            .map(|end_session| larder_api::ProviderLogout {
                end_session,
                id_token: at.id_token,
                post_logout_redirect_uri: at.console,
            }),
    });
    let answer = HttpResponse {
        status: 200,
        headers: Vec::new(),
        body: at.body,
    };
    let identity = match client.sign_in_answered(credentials, answer, None).await {
        Ok(identity) => identity,
        Err(error) => {
            choose::ready().await;
            return Err(Array::of2(
                &error_title(&error).into(),
                &error_detail(&error).into(),
            ));
        }
    };
    let person = Person::new(identity, Early::at_sign_in(None));
    choose::ready().await;
    let next = larder_start::oidc::return_path::inside(&at.return_to)
        .filter(|path| !path.starts_with("/sign-in"))
        .unwrap_or("/")
        .to_string();
    replace_url(&format!(
        "{}{next}",
        crate::hosting::base_path().trim_end_matches('/')
    ));
    mount(client, Some(person));
    Ok(())
}

/// The console in place of the shell, once: a press, a provider's answer and another tab's
/// session may each arrive, and the first to come mounts it.
fn mount(client: ApiClient, person: Option<Person>) {
    if MOUNTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let Some(shell) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(SHELL))
    {
        shell.remove();
    }
    leptos::mount::mount_to_body(move || {
        leptos::prelude::view! { <crate::app::App client person/> }
    });
}

/// The page a sign-in from here will land on (the sign-in page's `next`, or the page opened).
fn landing() -> Option<larder_start::landing::Landing> {
    let base = crate::hosting::base_path();
    let (path, search) = crate::hosting::current_location();
    let mut inside = path.strip_prefix(&base).unwrap_or(&path).to_string();
    inside.push_str(&search);
    after_sign_in(&inside, query_param("next").as_deref())
}

/// `config.json` is broken: nothing can start; say what is wrong and what it should contain,
/// in place of the form. Only ever called once the whole catalog was loaded.
fn cannot_start(problem: &str) {
    let section = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(SHELL))
        .and_then(|shell| shell.query_selector("section").ok().flatten());
    let Some(section) = section else {
        return;
    };
    section.set_inner_html(
        "<h1></h1><p role=\"alert\" class=\"error\"></p><p class=\"advice\"></p><pre class=\"code\"></pre>",
    );
    // Text, never markup: the problem quotes the file.
    for (selector, text) in [
        ("h1", t("Larder cannot start")),
        ("[role=alert]", problem.to_string()),
        (".advice", t("Place a file named config.json beside index.html, or remove it to use this page's own origin for both APIs. It should look like this:")),
        ("pre", crate::config::EXAMPLE.to_string()),
    ] {
        if let Some(node) = section.query_selector(selector).ok().flatten() {
            node.set_text_content(Some(&text));
        }
    }
}

fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(url));
    }
}
