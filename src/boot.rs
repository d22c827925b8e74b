//! The start: `index.html`'s sign-in form, made to work by the smallest module the console has.
//!
//! The form is in the page before any script runs, so people type at once. This module (the
//! main wasm module; no Leptos) reads `config.json`, enables "Sign in", and signs in with the
//! API client. Only then does the console itself (`crate::console`, its own module in the
//! split build, fetched in the background meanwhile) mount with the signed-in client. A page
//! opened at a deep link signs in and then shows that page.
//!
//! In a language other than English the form starts with the start-up catalog's few texts
//! (`crate::i18n::start_keys`), and the language's whole catalog comes while people type:
//! what is shown after the press (an error, the console) waits for it (`choose::ready`), so
//! nothing appears in English that is translated. tests/start_catalog.rs holds this file to
//! that: which functions run before the press, and that the others wait.

use std::cell::RefCell;

use larder_api::transport::gloo::GlooTransport;
use larder_api::transport::HttpResponse;
use larder_api::{ApiError, ClientConfig, Credentials, Identity};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlButtonElement, HtmlInputElement};

use crate::error_text::{error_detail, error_title};
use crate::i18n::t;
use crate::ApiClient;

use larder_start::form::{MACHINE, NAME, PERSON, SECRET, SHELL, TAKEN};

thread_local! {
    /// The client, once made; the console takes it over.
    static CLIENT: RefCell<Option<ApiClient>> = const { RefCell::new(None) };
}

/// Starts the console: the sign-in form when the page has one, the console at once otherwise
/// (a page without `index.html`'s shell, such as a test page).
pub fn start() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let defaults = crate::config::parse(None, &origin)
        .map(|c| c.client)
        .unwrap_or_else(|_| ClientConfig::new(origin.clone()));
    let client: ApiClient = larder_api::Client::new(GlooTransport, defaults);
    CLIENT.with(|c| *c.borrow_mut() = Some(client.clone()));
    if document.get_element_by_id(SHELL).is_none() {
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(config) = crate::config::load().await {
                crate::config::use_picture_hosts(&config);
                client.set_config(config.client);
                crate::i18n::choose::start(config.default_language, config.languages).await;
            }
            open_console(None).await;
        });
        return;
    }
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
    if element(SHELL).is_some_and(|shell| shell.has_attribute(TAKEN)) {
        // The start-up module runs the form: it calls `take_over`, then `pressed` per press.
        return;
    }
    wire_kind_switch(&document);
    wasm_bindgen_futures::spawn_local(async move {
        // The form's texts in every language: the page's own, or fetched beside config.json.
        let start_texts = crate::i18n::choose::start_texts();
        let (loaded, start_texts) = futures::future::join(crate::config::load(), start_texts).await;
        if !configure(&client, loaded, start_texts).await {
            return;
        }
        translate_shell();
        enable_sign_in();
        // The console's module comes while people type; signing in does not wait for it. It
        // starts once the enabled button is on screen: started in the task that enabled it, its
        // eight requests (seven shared chunks and the console) and their compiling raced the
        // start-up path, and a third of cold loads showed "Sign in" 500 ms late (issue 26).
        // With it, the module of the page the remembered link opens (issue 24).
        after_paint().await;
        // First the language's whole catalog (small beside the modules), for what the press
        // may show.
        crate::i18n::choose::fetch_the_rest();
        crate::prefetch::while_typing().await;
    });
}

/// The console's part once the start-up module (crates/start) has made the form work: it
/// hands over config.json's text (`None`: no file) and the start-up catalog's, read once for
/// both modules. Resolves once the language is chosen, before any press is handed over; then
/// the whole catalog and the remembered page's modules come while people type.
pub async fn take_over(config: Option<String>, start_texts: Option<String>) {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let Some(client) = CLIENT.with(|c| c.borrow().clone()) else {
        return;
    };
    let loaded = crate::config::parse(config.as_deref(), &origin);
    if !configure(&client, loaded, start_texts).await {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        crate::i18n::choose::fetch_the_rest();
        crate::prefetch::while_typing().await;
    });
}

/// A press of the start-up module's "Sign in", with the sign-in's answer when it sent one
/// (`status` 0: it sent none, because the form lacks something or no answer came; this
/// module's client signs in itself then, or says what is missing), and the promise of its read
/// of the owner's household when it started one (see `crate::prefetch::sign_in`).
pub fn pressed(status: u16, body: Option<String>, household: Option<js_sys::Promise>) {
    let answer = (status != 0).then(|| HttpResponse {
        status,
        headers: Vec::new(),
        body: body.unwrap_or_default(),
    });
    wasm_bindgen_futures::spawn_local(submit(answer, household));
}

/// Puts config.json's configuration in use and chooses the language (the form's texts from the
/// start-up catalog); false when the file is wrong, which is then said instead of the form.
async fn configure(
    client: &ApiClient,
    loaded: Result<crate::config::Config, String>,
    start_texts: Option<String>,
) -> bool {
    match loaded {
        Ok(config) => {
            crate::config::use_picture_hosts(&config);
            client.set_config(config.client);
            let (default, offered) = (config.default_language, config.languages);
            crate::i18n::choose::start_quickly(default, offered, start_texts).await;
            true
        }
        Err(problem) => {
            // No configuration, no languages: the browser's own, if the console has it.
            crate::i18n::choose::start(None, crate::i18n::Lang::ALL.to_vec()).await;
            show_config_problem(&problem);
            false
        }
    }
}

/// Resolves once the browser has painted the next frame: an animation frame, then a task (the
/// frame is painted between the two). A hidden tab paints nothing, so its prefetch waits until
/// it is shown; signing in fetches the console itself meanwhile.
async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve: js_sys::Function, _reject| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
            return;
        };
        let later = window.clone();
        let next_task = Closure::once_into_js(move || {
            let _ = later.set_timeout_with_callback(&resolve);
        });
        let _ = window.request_animation_frame(next_task.unchecked_ref());
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The start-up form's texts in the chosen language (`data-i18n` names each one's key).
fn translate_shell() {
    let Some(shell) = element(SHELL) else {
        return;
    };
    if let Ok(texts) = shell.query_selector_all("[data-i18n]") {
        for index in 0..texts.length() {
            let Some(node) = texts.item(index).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            if let Some(key) = node.get_attribute("data-i18n") {
                node.set_text_content(Some(&t(&key)));
            }
        }
    }
    update_labels();
}

/// Switches the labels between a person's and a machine client's credentials.
fn wire_kind_switch(document: &Document) {
    for id in [PERSON, MACHINE] {
        if let Some(radio) = document.get_element_by_id(id) {
            let on_change = Closure::<dyn Fn()>::new(update_labels);
            let _ = radio
                .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
            on_change.forget();
        }
    }
    update_labels();
}

fn update_labels() {
    let machine = input(MACHINE).is_some_and(|i| i.checked());
    let (name, secret, name_auto, secret_auto) = if machine {
        (t("Client ID"), t("Client secret"), "off", "off")
    } else {
        (t("Username"), t("Password"), "username", "current-password")
    };
    set_label(NAME, &name);
    set_label(SECRET, &secret);
    if let Some(i) = input(NAME) {
        let _ = i.set_attribute("autocomplete", name_auto);
    }
    if let Some(i) = input(SECRET) {
        let _ = i.set_attribute("autocomplete", secret_auto);
    }
}

/// "Sign in" works from here on: the button is enabled and the form submits.
fn enable_sign_in() {
    let Some(form) = shell_element("form") else {
        return;
    };
    let on_submit = Closure::<dyn Fn(web_sys::Event)>::new(|event: web_sys::Event| {
        event.prevent_default();
        wasm_bindgen_futures::spawn_local(submit(None, None));
    });
    let _ = form.add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref());
    on_submit.forget();
    let _ = form.set_attribute("novalidate", "");
    set_button(&t("Sign in"), false);
}

/// Signs in with the form's credentials (`answer`: the start-up module sent the sign-in and
/// this is what came back; `household`: its read of `households/me`), then shows the console
/// or what went wrong.
async fn submit(answer: Option<HttpResponse>, household: Option<js_sys::Promise>) {
    let value = |id: &str| input(id).map(|i| i.value()).unwrap_or_default();
    let (name, secret) = (value(NAME), value(SECRET));
    let machine = input(MACHINE).is_some_and(|i| i.checked());
    let Some(client) = CLIENT.with(|c| c.borrow().clone()) else {
        return;
    };
    let signed_in = attempt(&client, machine, &name, &secret, answer, household).await;
    if signed_in.is_ok() {
        if let Some(secret) = input(SECRET) {
            secret.set_value("");
        }
    }
    // What follows shows the whole catalog's texts: an error, or the console. One wait for all.
    crate::i18n::choose::ready().await;
    match signed_in {
        Ok(identity) => {
            // Where the sign-in was asked to return, or the start page.
            let next = query_param("next");
            let base = crate::hosting::base_path();
            let next = crate::paths::safe_next(next).unwrap_or_else(|| "/".into());
            replace_url(&format!("{base}{next}"));
            open_console(Some(identity)).await;
        }
        Err(error) => {
            // `None`: the form lacks something, said in the whole catalog's words.
            let missing = || crate::error_text::missing_credentials(machine, &name, &secret);
            let error = error
                .unwrap_or_else(|| ApiError::InvalidCredentials(missing().unwrap_or_default()));
            drop_preview();
            set_button(&t("Sign in"), false);
            show_error(&error);
        }
    }
}

/// Signs in with the form's credentials, before the whole catalog is there (only the start-up
/// texts are shown). `Err(None)` when the form lacks some: nothing is sent. With the start-up
/// module's `answer`, nothing is sent either: the client reads that answer.
async fn attempt(
    client: &ApiClient,
    machine: bool,
    name: &str,
    secret: &str,
    answer: Option<HttpResponse>,
    household: Option<js_sys::Promise>,
) -> Result<Identity, Option<ApiError>> {
    if crate::error_text::missing_credentials(machine, name, secret).is_some() {
        return Err(None);
    }
    let credentials = if machine {
        Credentials::from_fields("", "", name, secret)
    } else {
        Credentials::from_fields(name, secret, "", "")
    };
    let credentials = credentials.map_err(Some)?;
    clear_error();
    set_button(&t("Signing in…"), true);
    crate::prefetch::sign_in(client, credentials, answer, household)
        .await
        .map_err(Some)
}

/// Mounts the console, once its module is here; says so, with "Try again", when it cannot come.
async fn open_console(identity: Option<Identity>) {
    crate::i18n::choose::ready().await;
    set_status(&t("Loading the console…"));
    let Some(client) = CLIENT.with(|c| c.borrow().clone()) else {
        return;
    };
    if crate::console::fetch().await.is_err() {
        return show_console_missing(identity);
    }
    // The module is here: the console replaces the form at once.
    if let Some(shell) = element(SHELL) {
        shell.remove();
    }
    let _ = crate::console::open(client, identity).await;
}

/// The start-up module's view of the household gives way to the form again (the sign-in
/// failed), or to the console's own words (its module did not come).
fn drop_preview() {
    if let Some(preview) = element(larder_start::form::PREVIEW) {
        preview.remove();
    }
    if let Some(section) = shell_element("section") {
        let _ = section.remove_attribute("hidden");
    }
}

/// Only ever called after [`open_console`]'s wait for the whole catalog.
fn show_console_missing(identity: Option<Identity>) {
    drop_preview();
    let Some(section) = shell_element("section") else {
        return;
    };
    section.set_inner_html(
        "<h1></h1><p role=\"alert\" class=\"error\"></p>\
         <p><button type=\"button\" class=\"primary\" id=\"boot-retry\"></button></p>",
    );
    fill_texts(
        &section,
        &[
            ("h1", t("The console could not be loaded")),
            ("[role=alert]", t("Its module did not arrive: the connection may be down, or a newer version was published meanwhile.")),
            ("button", t("Try again")),
        ],
    );
    let identity = RefCell::new(identity);
    let retry = Closure::<dyn Fn()>::new(move || {
        let identity = identity.borrow().clone();
        wasm_bindgen_futures::spawn_local(open_console(identity));
    });
    if let Some(button) = element("boot-retry") {
        let _ = button.add_event_listener_with_callback("click", retry.as_ref().unchecked_ref());
    }
    retry.forget();
}

/// `config.json` is broken: nothing can start; say what is wrong and what it should contain.
/// Only ever called after the whole catalog was loaded (`choose::start`).
fn show_config_problem(problem: &str) {
    let Some(section) = shell_element("section") else {
        return;
    };
    section.set_inner_html(
        "<h1></h1><p role=\"alert\" class=\"error\"></p><p class=\"advice\"></p><pre class=\"code\"></pre>",
    );
    // Text, never markup: the problem quotes the file.
    fill_texts(
        &section,
        &[
            ("h1", t("Larder cannot start")),
            ("[role=alert]", problem.to_string()),
            (".advice", t("Place a file named config.json beside index.html, or remove it to use this page's own origin for both APIs. It should look like this:")),
            ("pre", crate::config::EXAMPLE.to_string()),
        ],
    );
}

/// Sets the text (never markup) of the first element matching each selector.
fn fill_texts(root: &Element, texts: &[(&str, String)]) {
    for (selector, text) in texts {
        if let Some(node) = root.query_selector(selector).ok().flatten() {
            node.set_text_content(Some(text));
        }
    }
}

/// The service's words as text, in an alert before the button; the form keeps what was typed.
/// Only ever called after `submit`'s wait for the whole catalog.
fn show_error(error: &ApiError) {
    clear_error();
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(form), Ok(alert)) = (shell_element("form"), document.create_element("div")) else {
        return;
    };
    let _ = alert.set_attribute("role", "alert");
    let _ = alert.set_attribute("class", "error");
    alert.set_id("boot-error");
    if let Ok(title) = document.create_element("strong") {
        title.set_text_content(Some(&error_title(error)));
        let _ = alert.append_child(&title);
    }
    let _ = alert.append_with_str_1(&format!(" {}", error_detail(error)));
    let button = form.query_selector("button").ok().flatten();
    let _ = form.insert_before(&alert, button.as_ref().map(|b| b.unchecked_ref()));
}

fn clear_error() {
    if let Some(old) = element("boot-error") {
        old.remove();
    }
}

fn set_status(text: &str) {
    set_button(text, true);
}

fn set_button(text: &str, disabled: bool) {
    let button = shell_element("form button").and_then(|b| b.dyn_into::<HtmlButtonElement>().ok());
    if let Some(button) = button {
        button.set_text_content(Some(text));
        button.set_disabled(disabled);
    }
}

fn set_label(input_id: &str, text: &str) {
    let label = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(&format!("label[for={input_id}]"))
            .ok()
            .flatten()
    });
    if let Some(label) = label {
        label.set_text_content(Some(text));
    }
}

fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn shell_element(selector: &str) -> Option<Element> {
    element(SHELL)?.query_selector(selector).ok().flatten()
}

fn input(id: &str) -> Option<HtmlInputElement> {
    element(id)?.dyn_into::<HtmlInputElement>().ok()
}

fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}
