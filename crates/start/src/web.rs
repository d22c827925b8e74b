//! The start-up module in the page: the form, the sign-in and the first reads, the hand-over.
//! The one driver of index.html's form (crates/start/src/lib.rs maps the whole start).
//!
//! Kept small on purpose: no `format!`, no panicking calls, no collections; when it cannot read
//! what it needs it leaves the page to the console's module, which then shows its own sign-in
//! page (`index.html` starts this module from its own bytes, or `boot.js` from its files, and
//! hands [`run`] the loader of the console's).

use std::cell::RefCell;

use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use larder_start::{config, correlation, display, form, language, login, token};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, spawn_local, JsFuture};
use web_sys::{Element, RequestInit, Response};

#[cfg(feature = "provider")]
mod oidc;
mod preview;
mod reading;
mod shell;

use reading::{catalog_in_page, choose, config_text, field, landing_of, text_of};
use shell::{
    after_paint, button, clear_error, element, machine, set_button, shell_element, show_error,
    show_request_id, value,
};

const CONFIG: &str = "config.json";

/// What the start learnt, for the presses and the hand-over.
struct Started {
    load_console: Function,
    /// The console's module once it has taken over the form (its exports).
    console: Option<Promise>,
    system_base: String,
    timeout_ms: u32,
    /// The chosen language's start-up texts; `None` in English (the page's own texts).
    texts: Option<JsValue>,
    config: JsValue,
    /// The split module of the page the sign-in will land on, fetched with the console's
    /// (`undefined` for a page in no group: the console's main module alone).
    group: JsValue,
    /// Whether that page starts with the owner's household: read the moment the token arrives.
    reads_own_household: bool,
}

thread_local! {
    static STARTED: RefCell<Option<Started>> = const { RefCell::new(None) };
}

/// This page's random part of its request ids (drawn at the first request) and the count.
static REQUEST_SESSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static REQUESTS_SENT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The next request's `X-Request-Id` ([`correlation::request_id`]).
fn next_request_id() -> String {
    use std::sync::atomic::Ordering::Relaxed;
    let mut session = REQUEST_SESSION.load(Relaxed);
    if session == 0 {
        // Two draws: Math.random carries 52 bits at most.
        let draw = || (js_sys::Math::random() * f64::from(u32::MAX)) as u64;
        session = ((draw() << 32) | draw()).max(1);
        REQUEST_SESSION.store(session, Relaxed);
    }
    correlation::request_id(session, REQUESTS_SENT.fetch_add(1, Relaxed) + 1)
}

/// Whether a press of "Sign in" has begun: the provider's silent sign-in then stays away (its
/// redirect would take the page, and the press, with it).
static PRESS_BEGUN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a press of "Sign in" has begun on this page.
#[cfg(feature = "provider")]
fn press_begun() -> bool {
    PRESS_BEGUN.load(std::sync::atomic::Ordering::Relaxed)
}

/// The remembered text size and contrast, on the root element before the form is used.
fn apply_display(window: &web_sys::Window, document: &web_sys::Document) {
    let (Some(storage), Some(root)) = (
        window.local_storage().ok().flatten(),
        document.document_element(),
    ) else {
        return;
    };
    let remembered = |key: &str| storage.get_item(key).ok().flatten();
    if let Some(size) = display::text_size(remembered(display::TEXT_SIZE).as_deref()) {
        let _ = root.set_attribute("data-text-size", size);
    }
    if display::high_contrast(remembered(display::CONTRAST).as_deref()) {
        let _ = root.set_attribute("data-contrast", display::HIGH);
    }
}

/// Runs the form; `load_console(group)` fetches and starts the console's module (with the
/// files of `group`, the split module of the page the sign-in will land on) and resolves to its
/// exports. Called without a group, it fetches the console's main module alone.
///
/// `start_provider(config)` fetches and runs the start-up module built with the identity
/// provider's sign-in (feature `provider`), for a console whose config.json names one: this
/// module, inside every page, is built without it, as most consoles sign in by password and
/// the provider's code would double the bytes before "Sign in" works (issue 37). That module
/// is started with config.json's text, which it then does not fetch again.
#[wasm_bindgen]
pub fn run(load_console: Function, start_provider: Option<Function>, config: Option<String>) {
    spawn_local(async move {
        if begin(&load_console, start_provider, config).await.is_none() {
            // Something this module does not read (a broken config.json, no start-up texts for
            // the language): the console's module shows its own sign-in page, or what is wrong.
            let _ = load_console.call0(&JsValue::UNDEFINED);
        }
    });
}

async fn begin(
    load_console: &Function,
    start_provider: Option<Function>,
    config: Option<String>,
) -> Option<()> {
    let window = web_sys::window()?;
    let document = window.document()?;
    apply_display(&window, &document);
    let shell = document.get_element_by_id(form::SHELL)?;
    // config.json is preloaded by index.html. The start-up catalog is inside the built page;
    // a page without it (an older build) has it preloaded beside config.json.
    let config = match config {
        Some(text) => Ok(JsValue::from(text)),
        None => Err(window.fetch_with_str(CONFIG)),
    };
    let start_texts = match catalog_in_page(&document) {
        Some(text) => Ok(JsValue::from(text)),
        None => Err(window.fetch_with_str(language::START_CATALOG)),
    };
    let config = match config {
        Ok(text) => text,
        Err(fetching) => config_text(fetching).await?,
    };
    let start_texts = match start_texts {
        Ok(text) => text,
        Err(fetching) => text_of(JsFuture::from(fetching).await.ok()?).await,
    };
    let file = match config.as_string() {
        Some(text) => JSON::parse(&text).ok()?.dyn_into::<Object>().ok()?,
        None => Object::new(),
    };
    let provider_failed = match start_provider {
        Some(start_provider)
            if cfg!(not(feature = "provider")) && field(&file, "oidc").is_some() =>
        {
            if provider_module(&start_provider, &config).await {
                return Some(());
            }
            true
        }
        _ => false,
    };
    let origin = window.location().origin().ok()?;
    // The console's rules (`larder_start::config`); what breaks them, the console says.
    let system_base = match field(&file, "system_api_base") {
        None => origin,
        Some(value) => config::base_url(&value.as_string()?)?,
    };
    let timeout_ms = match field(&file, "timeout_seconds") {
        None => login::TIMEOUT_MS,
        Some(value) => config::timeout_ms(value.as_f64()?)?,
    };
    // Without the start-up catalog (a build that has none), the languages are not known here.
    let catalogs = JSON::parse(&start_texts.as_string()?)
        .ok()?
        .dyn_into::<Object>()
        .ok()?;
    reading::acceptable(&file, &catalogs)?;
    let lang = choose(&window, &file, &catalogs)?;
    let texts = if lang == "en" {
        None
    } else {
        let texts = Reflect::get(&catalogs, &JsValue::from_str(&lang)).ok()?;
        Some(texts).filter(JsValue::is_object)
    };
    if lang != "en" && texts.is_none() {
        return None;
    }
    let landing = landing_of(&window);
    STARTED.with(|s| {
        *s.borrow_mut() = Some(Started {
            load_console: load_console.clone(),
            console: None,
            system_base,
            timeout_ms,
            texts,
            config,
            group: landing.map_or(JsValue::UNDEFINED, |l| l.group.split_name().into()),
            reads_own_household: landing.is_some_and(|l| l.reads_own_household),
        })
    });
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", &lang);
    }
    // Marked taken only with a form to run: otherwise the console's module shows its own.
    let sign_in_form = shell.query_selector("form").ok()??;
    let _ = shell.set_attribute(form::TAKEN, "");
    translate(&shell);
    wire_kind_switch();
    enable(&sign_in_form);
    // With an identity provider: its button, and a sign-in coming back or a silent one.
    #[cfg(feature = "provider")]
    if let Some(settings) = field(&file, "oidc").and_then(oidc::settings) {
        oidc::start(settings, &sign_in_form);
    }
    if provider_failed {
        // The password form works; the provider's sign-in did not come (the words of the
        // core's `Failure::Unavailable`, a literal for the start-up catalog's check).
        show_error(
            &t("Sign-in failed"),
            &t("The identity provider is not answering. Try again in a moment."),
        );
    }
    // The console's module comes once the enabled form is painted: fetched earlier, it
    // competes with this module for the line.
    after_paint().await;
    let _ = console();
    Some(())
}

/// Hands the start to the module with the provider's sign-in; false when it did not come
/// (offline, or a deploy removed it): this module then runs the password form.
async fn provider_module(start_provider: &Function, config: &JsValue) -> bool {
    let Ok(started) = start_provider.call1(&JsValue::UNDEFINED, config) else {
        return false;
    };
    match started.dyn_into::<Promise>() {
        Ok(started) => JsFuture::from(started).await.is_ok(),
        Err(_) => false,
    }
}

/// A start-up text in the chosen language (the key is the English text).
fn t(key: &str) -> String {
    let text = STARTED.with(|s| {
        let started = s.borrow();
        let texts = started.as_ref()?.texts.as_ref()?;
        Reflect::get(texts, &JsValue::from_str(key))
            .ok()?
            .as_string()
    });
    text.unwrap_or_else(|| key.to_string())
}

fn translate(shell: &Element) {
    if let Ok(nodes) = shell.query_selector_all("[data-i18n]") {
        for index in 0..nodes.length() {
            let Some(node) = nodes.item(index).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            if let Some(key) = node.get_attribute("data-i18n") {
                node.set_text_content(Some(&t(&key)));
            }
        }
    }
    update_labels();
}

fn wire_kind_switch() {
    for id in [form::PERSON, form::MACHINE] {
        if let Some(radio) = element(id) {
            let on_change = Closure::<dyn Fn()>::new(update_labels);
            let _ = radio
                .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
            on_change.forget();
        }
    }
}

/// The labels and autofill hints of a person's or a machine client's credentials.
fn update_labels() {
    let (name, secret, name_auto, secret_auto) = if machine() {
        (t("Client ID"), t("Client secret"), "off", "off")
    } else {
        (t("Username"), t("Password"), "username", "current-password")
    };
    for (id, text, auto) in [
        (form::NAME, name, name_auto),
        (form::SECRET, secret, secret_auto),
    ] {
        let mut selector = String::from("label[for=");
        selector.push_str(id);
        selector.push(']');
        let label = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(&selector).ok().flatten());
        if let Some(label) = label {
            label.set_text_content(Some(&text));
        }
        if let Some(field) = element(id) {
            let _ = field.set_attribute("autocomplete", auto);
        }
    }
}

/// "Sign in" works from here on.
fn enable(form: &Element) {
    let on_submit = Closure::<dyn Fn(web_sys::Event)>::new(|event: web_sys::Event| {
        event.prevent_default();
        spawn_local(press());
    });
    let _ = form.add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref());
    on_submit.forget();
    let _ = form.set_attribute("novalidate", "");
    set_button(&t("Sign in"), false);
}

/// A press: what the form lacks is said at once; otherwise the sign-in goes out, and a refusal
/// is said at once too (the service's words, as the console would show them). With the token,
/// the first reads go out beside each other (`system/ping`, who signed in; for "My household"
/// also `households/me`, shown at once by `preview`), and the console's module is handed the
/// press with their answers as promises (`pressed`), so nothing is asked twice. The console
/// answers with what went wrong, if anything (it mounts otherwise): said here in its words.
/// When no answer came, the console's client signs in itself.
async fn press() {
    let Some((system_base, timeout_ms, reads_own_household)) = STARTED.with(|s| {
        s.borrow()
            .as_ref()
            .map(|s| (s.system_base.clone(), s.timeout_ms, s.reads_own_household))
    }) else {
        return;
    };
    clear_error();
    let (name, secret, machine) = (value(form::NAME), value(form::SECRET), machine());
    if let Some(missing) = login::missing(machine, &name, &secret) {
        return show_error(&t("Invalid credentials"), &t(missing));
    }
    PRESS_BEGUN.store(true, std::sync::atomic::Ordering::Relaxed);
    set_button(&t("Signing in…"), true);
    let request = login::request(&system_base, machine, &name, &secret);
    let sign_in_id = next_request_id();
    let answer = send(
        &request.url,
        Some(&request.body),
        None,
        &sign_in_id,
        timeout_ms,
    )
    .await;
    let (mut ping, mut household) = (JsValue::NULL, JsValue::NULL);
    match &answer {
        Some((200, body)) => {
            if let Some(bearer) = result_of(body).and_then(|answer| {
                token::token(|key| Reflect::get(&answer, &key.into()).ok()?.as_string())
            }) {
                let bearer = token::bearer(&bearer);
                let read = |path: &str| {
                    let url = token::system_url(&system_base, path);
                    let bearer = bearer.clone();
                    future_to_promise(async move {
                        let id = next_request_id();
                        Ok(
                            match send(&url, None, Some(&bearer), &id, timeout_ms).await {
                                Some((status, body)) => {
                                    Array::of3(&status.into(), &body, &id.into()).into()
                                }
                                None => JsValue::NULL,
                            },
                        )
                    })
                };
                ping = read(token::PING).into();
                if reads_own_household {
                    let read = read(token::OWN_HOUSEHOLD);
                    preview::show_when_read(read.clone());
                    household = read.into();
                }
            }
        }
        Some((status, body)) => {
            let detail = login::failure_detail(*status, said(body), text(body).as_deref());
            set_button(&t("Sign in"), false);
            show_error(&t("Sign-in failed"), &detail);
            return show_request_id(&sign_in_id);
        }
        None => {}
    }
    let exports = JsFuture::from(console()).await.unwrap_or(JsValue::NULL);
    let pressed = Reflect::get(&exports, &JsValue::from_str("pressed"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok());
    let Some(pressed) = pressed.filter(|_| !exports.is_null()) else {
        return console_missing();
    };
    let (status, body) = answer.unwrap_or((0, JsValue::UNDEFINED));
    let arguments = Array::of5(
        &machine.into(),
        &name.into(),
        &secret.into(),
        &status.into(),
        &body,
    );
    arguments.push(&ping);
    arguments.push(&household);
    arguments.push(&sign_in_id.into());
    let outcome = match pressed.apply(&JsValue::UNDEFINED, &arguments) {
        Ok(promise) => match promise.dyn_into::<Promise>() {
            Ok(promise) => JsFuture::from(promise).await.unwrap_or(JsValue::NULL),
            Err(_) => JsValue::NULL,
        },
        Err(_) => return console_missing(),
    };
    // `[title, detail]`: the sign-in failed after all (the identity question, a client's own
    // sign-in), in the console's words; the console mounted otherwise.
    if let Ok(failure) = outcome.dyn_into::<Array>() {
        preview::undo();
        set_button(&t("Sign in"), false);
        let text = |at| failure.get(at).as_string().unwrap_or_default();
        show_error(&text(0), &text(1));
    }
}

/// An answer's `result`, or the answer itself when it has none (production's sign-in and
/// `households/me` are bare), as the client reads them.
pub(crate) fn result_of(body: &JsValue) -> Option<Object> {
    let answer = JSON::parse(&body.as_string()?)
        .ok()?
        .dyn_into::<Object>()
        .ok()?;
    // As the client: a `result` that is there but not an object holds no token, no household.
    match Reflect::get(&answer, &"result".into()) {
        Ok(result) if result.is_undefined() => Some(answer),
        Ok(result) => result.dyn_into().ok(),
        Err(_) => None,
    }
}

/// What a refused sign-in's answer says in its own words (`login::failure_detail`'s `said`):
/// its `error.detail`, its `error` or its `detail` when that is a text.
fn said(body: &JsValue) -> Option<String> {
    let answer = JSON::parse(&body.as_string()?).ok()?;
    let text = |object: &JsValue, key: &str| Reflect::get(object, &key.into()).ok()?.as_string();
    let error = Reflect::get(&answer, &"error".into()).ok()?;
    text(&error, "detail")
        .or_else(|| error.as_string())
        .or_else(|| text(&answer, "detail"))
}

/// The answer's text when it is not a JSON object (the client reads such a body as text).
fn text(body: &JsValue) -> Option<String> {
    let text = body.as_string()?;
    let object = JSON::parse(&text).is_ok_and(|v| v.is_object() && !Array::is_array(&v));
    (!object).then_some(text)
}

/// A request's status and body: a POST of the JSON `body`, else a GET, with `authorization`
/// when given and `request_id` as its `X-Request-Id`; `None` when no answer came (the
/// console's client tries).
async fn send(
    url: &str,
    body: Option<&str>,
    authorization: Option<&str>,
    request_id: &str,
    timeout_ms: u32,
) -> Option<(u16, JsValue)> {
    let init = RequestInit::new();
    let headers = Object::new();
    if let Some(body) = body {
        init.set_method("POST");
        init.set_body(&JsValue::from_str(body));
        let _ = Reflect::set(&headers, &"Content-Type".into(), &"application/json".into());
    }
    let _ = Reflect::set(&headers, &"Accept".into(), &"application/json".into());
    let _ = Reflect::set(
        &headers,
        &correlation::REQUEST_ID.into(),
        &request_id.into(),
    );
    let _ = Reflect::set(
        &headers,
        &correlation::CLIENT.into(),
        &correlation::CLIENT_LABEL.into(),
    );
    if let Some(authorization) = authorization {
        let _ = Reflect::set(&headers, &"Authorization".into(), &authorization.into());
    }
    init.set_headers(&headers);
    init.set_signal(Some(&web_sys::AbortSignal::timeout_with_u32(timeout_ms)));
    let window = web_sys::window()?;
    let answer = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await;
    let response: Response = answer.ok()?.dyn_into().ok()?;
    let body = JsFuture::from(response.text().ok()?).await.ok()?;
    Some((response.status(), body))
}

/// The console's module, started once and taken over from here (its `take_over` export given
/// config.json's text); resolves to its exports, or `NULL` when it could not come. A failure is
/// forgotten, so the next press fetches again.
fn console() -> Promise {
    let started = STARTED.with(|s| {
        let started = s.borrow();
        let started = started.as_ref()?;
        Some((
            started.console.clone(),
            started.load_console.clone(),
            started.config.clone(),
            started.group.clone(),
        ))
    });
    let Some((running, load_console, config, group)) = started else {
        return Promise::resolve(&JsValue::NULL);
    };
    if let Some(running) = running {
        return running;
    }
    // Never rejected (a rejection nobody awaits yet is an uncaught error): `NULL` says it failed.
    let loading = future_to_promise(async move {
        let taken_over = async {
            let loaded = load_console.call1(&JsValue::UNDEFINED, &group)?;
            let exports = JsFuture::from(loaded.dyn_into::<Promise>()?).await?;
            let take_over: Function = Reflect::get(&exports, &"take_over".into())?.dyn_into()?;
            let taken = take_over.call1(&JsValue::UNDEFINED, &config)?;
            JsFuture::from(taken.dyn_into::<Promise>()?).await?;
            Ok::<JsValue, JsValue>(exports)
        };
        Ok(taken_over.await.unwrap_or_else(|_| {
            forget_console();
            JsValue::NULL
        }))
    });
    STARTED.with(|s| {
        if let Some(started) = s.borrow_mut().as_mut() {
            started.console = Some(loading.clone());
        }
    });
    loading
}

fn forget_console() {
    STARTED.with(|s| {
        if let Some(started) = s.borrow_mut().as_mut() {
            started.console = None;
        }
    });
}

/// The console's module did not come: said in the form, and the button tries again.
fn console_missing() {
    forget_console();
    preview::undo();
    show_error(&t("The console could not be loaded"), "");
    set_button(&t("Try again"), false);
}
