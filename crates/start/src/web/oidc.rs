//! Signing in at the identity provider, in the page (issue 42): the redirect legs of
//! `larder_start::oidc` (its module docs list the steps). The values of a sign-in under way live
//! in the same-origin service worker's memory (`js/oidc-worker.js`) while the page is away,
//! nowhere at rest; the browser's WebCrypto makes the random bytes, the PKCE digest and checks
//! the ID token's signature. Once signed in, the console's module gets the token answer
//! (`provider_signed_in`) and its API client renews with the refresh token in memory.
//!
//! On load with config.json's `oidc`: back from the provider (a `code` or `error` in the
//! fragment), the fragment leaves the history entry first and the sign-in completes; otherwise a
//! silent sign-in (`prompt=none`, a top-level redirect) asks whether the provider's session is
//! alive, returning to the page asked for with its query. `login_required` shows the form. The
//! sign-in page opened by a sign-out asks nothing (`larder_start::oidc::signed_out`).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use js_sys::{Array, Function, Promise, Reflect, Uint8Array, JSON};
use larder_start::oidc::callback::{self, Callback};
use larder_start::oidc::config::Settings;
use larder_start::oidc::discovery::Endpoints;
use larder_start::oidc::id_token::{self, Expected, Nonce};
use larder_start::oidc::pending::{Pending, RANDOM_BYTES};
use larder_start::oidc::{authorize, pkce, redirect_uri, return_path, token, Failure, Fields};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::Element;

mod browser;

use browser::{answer, ask, carrier, crypto, fetch, subtle, verify};

/// A JSON object as `JSON.parse` gave it.
struct JsFields(JsValue);

impl Fields for JsFields {
    fn has(&self, key: &str) -> bool {
        self.0.is_object() && Reflect::has(&self.0, &key.into()).unwrap_or(false)
    }
    fn text(&self, key: &str) -> Option<String> {
        self.get(key)?.as_string()
    }
    fn number(&self, key: &str) -> Option<f64> {
        self.get(key)?.as_f64()
    }
    fn flag(&self, key: &str) -> Option<bool> {
        self.get(key)?.as_bool()
    }
    fn texts(&self, key: &str) -> Option<Vec<String>> {
        let list: Array = self.get(key)?.dyn_into().ok()?;
        list.iter().map(|v| v.as_string()).collect()
    }
    fn objects(&self, key: &str) -> Option<Vec<Self>> {
        let list: Array = self.get(key)?.dyn_into().ok()?;
        Some(
            list.iter()
                .filter(|v| v.is_object() && !Array::is_array(v))
                .map(JsFields)
                .collect(),
        )
    }
}

impl JsFields {
    fn get(&self, key: &str) -> Option<JsValue> {
        if !self.0.is_object() {
            return None;
        }
        Reflect::get(&self.0, &key.into())
            .ok()
            .filter(|v| !v.is_undefined())
    }
}

/// config.json's `oidc` (its value, read by the caller), when it names a provider the core
/// takes.
pub(super) fn settings(oidc: JsValue) -> Option<Settings> {
    let oidc = JsFields(oidc);
    let scopes = oidc.texts("scopes");
    Settings::new(
        &oidc.text("issuer")?,
        &oidc.text("client_id")?,
        scopes.as_deref(),
    )
    .ok()
}

/// What the page needs of the provider.
#[derive(Clone)]
struct Provider {
    settings: Settings,
    endpoints: Endpoints,
    /// The console's address: the redirect and post-logout URI registered at the provider.
    console: String,
}

/// Where the page stands when it starts, read before anything changes the address.
struct Arrival {
    fragment: String,
    /// The page asked for, inside the console, with its query.
    return_to: String,
    /// Whether this load may ask the provider silently (not right after a sign-out).
    silent: bool,
}

fn arrival(window: &web_sys::Window) -> Option<(Arrival, String)> {
    let location = window.location();
    let base = window.document()?.base_uri().ok()??;
    let base_path = web_sys::Url::new(&base).ok()?.pathname();
    let path = location.pathname().ok()?;
    let search = location.search().ok()?;
    let mut inside = String::from(
        path.strip_prefix(base_path.trim_end_matches('/'))
            .unwrap_or(&path),
    );
    if !inside.starts_with('/') {
        inside.insert(0, '/');
    }
    let silent = larder_start::oidc::signed_out::silent_allowed(&inside, &search);
    let return_to = if inside.starts_with("/sign-in") {
        // The sign-in page's `next`, when it is a page inside.
        web_sys::UrlSearchParams::new_with_str(&search)
            .ok()?
            .get("next")
            .filter(|next| return_path::inside(next).is_some())
            .unwrap_or_else(|| "/".into())
    } else {
        inside.push_str(&search);
        inside
    };
    let hash = location.hash().ok()?;
    let fragment = hash.strip_prefix('#').unwrap_or(&hash).to_string();
    let origin = location.origin().ok()?;
    Some((
        Arrival {
            fragment,
            return_to,
            silent,
        },
        redirect_uri(&origin, &base_path),
    ))
}

/// Adds "Sign in with <provider>" to the form's section and starts what the load asks for:
/// completing a sign-in that comes back, else a silent one.
pub(super) fn start(settings: Settings, form: &Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some((arrival, console)) = arrival(&window) else {
        return;
    };
    let form = form.clone();
    // Typing while the provider is asked keeps the silent sign-in away too: its redirect would
    // take the page, and what was typed, with it (a bench met a press lost that way).
    let on_input = Closure::<dyn Fn()>::new(|| TYPED.store(true, Relaxed));
    let _ = form.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
    on_input.forget();
    spawn_local(async move {
        let answer = Callback::read(&arrival.fragment);
        if let Ok(Some(_)) | Err(_) = answer {
            // The answer leaves the address and the history entry before anything else.
            forget_fragment(&window);
        }
        // Back from the provider: the values this tab left with, its endpoints among them (no
        // second discovery before the code's exchange).
        let pending = match &answer {
            Ok(Some(answer)) => take_pending(answer).await,
            _ => None,
        };
        let carried = pending
            .as_ref()
            .and_then(|p| p.endpoints_of(&settings.issuer))
            .cloned();
        let provider = match carried {
            Some(endpoints) => Provider {
                settings,
                endpoints,
                console,
            },
            None => match discover(settings, console).await {
                Ok(provider) => provider,
                // The password form still works.
                Err(failure) => return said(&failure),
            },
        };
        PROVIDER.with(|p| *p.borrow_mut() = Some(provider.clone()));
        if let (Ok(None), true) = (&answer, super::press_begun() || TYPED.load(Relaxed)) {
            // A password press, or typing, came while the provider was being asked: the
            // password sign-in goes on, here.
            return add_button(&provider.settings, &form);
        }
        if let (Ok(None), true) = (&answer, arrival.silent) {
            // The silent sign-in: the form waits (what is typed would be lost on the way).
            super::set_button(&super::t("Signing in…"), true);
            if let Err(failure) = go(&provider, &arrival.return_to, true).await {
                super::set_button(&super::t("Sign in"), false);
                add_button(&provider.settings, &form);
                said(&failure);
            }
            return;
        }
        add_button(&provider.settings, &form);
        match answer {
            Ok(Some(answer)) => {
                if let Err(failure) = complete(&provider, &answer, pending).await {
                    said(&failure);
                }
            }
            Err(failure) => said(&failure),
            Ok(None) => {}
        }
    });
}

/// Whether the person typed into the form on this page (see [`start`]).
static TYPED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static PROVIDER: std::cell::RefCell<Option<Provider>> = const { std::cell::RefCell::new(None) };
}

fn add_button(settings: &Settings, form: &Element) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(button) = document.create_element("button") else {
        return;
    };
    let _ = button.set_attribute("type", "button");
    let _ = button.set_attribute("class", "provider");
    let host = settings.host();
    let text = super::t("Sign in with {provider}").replace("{provider}", host);
    button.set_text_content(Some(&text));
    let on_click = Closure::<dyn Fn()>::new(|| {
        spawn_local(async {
            let return_to = web_sys::window()
                .and_then(|w| arrival(&w))
                .map(|(a, _)| a.return_to)
                .unwrap_or_else(|| "/".into());
            let provider = PROVIDER.with(|p| p.borrow().as_ref().cloned());
            let Some(provider) = provider else {
                return said(&Failure::Unavailable(0));
            };
            if let Err(failure) = go(&provider, &return_to, false).await {
                said(&failure);
            }
        })
    });
    let _ = button.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    on_click.forget();
    if let Some(parent) = form.parent_node() {
        let _ = parent.insert_before(&button, Some(form));
    }
}

/// A failure, said in the form (a silent sign-in that found no session says nothing).
fn said(failure: &Failure) {
    if *failure == Failure::SessionRequired {
        return;
    }
    super::show_error(&super::t("Sign-in failed"), &super::t(failure.text()));
}

fn forget_fragment(window: &web_sys::Window) {
    let location = window.location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else {
        return;
    };
    let mut url = path;
    url.push_str(&search);
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

async fn discover(settings: Settings, console: String) -> Result<Provider, Failure> {
    let (status, body) = fetch(&settings.discovery_url(), None)
        .await
        .ok_or(Failure::Unavailable(0))?;
    if status != 200 {
        return Err(Failure::Unavailable(status));
    }
    if body.len() > larder_start::oidc::MAX_ANSWER {
        return Err(Failure::TooLarge);
    }
    let document = parse(&body).ok_or(Failure::Discovery("not JSON"))?;
    let endpoints = Endpoints::read(&document, &settings)?;
    Ok(Provider {
        settings,
        endpoints,
        console,
    })
}

/// The tab goes to the provider, the pending values held by the carrier.
async fn go(provider: &Provider, return_to: &str, silent: bool) -> Result<(), Failure> {
    let mut random = [0u8; RANDOM_BYTES];
    crypto()
        .and_then(|c| {
            Reflect::get(&c, &"getRandomValues".into())
                .ok()?
                .dyn_into::<Function>()
                .ok()?
                .call1(&c, &Uint8Array::from(&random[..]))
                .ok()
        })
        .and_then(|filled| filled.dyn_into::<Uint8Array>().ok())
        .ok_or(Failure::Malformed("crypto"))?
        .copy_to(&mut random);
    let now = js_sys::Date::now() as u64;
    let pending = Pending::new(
        &random,
        return_to,
        now,
        silent,
        &provider.settings.issuer,
        &provider.endpoints,
    );
    let digest = subtle(
        "digest",
        &Array::of2(
            &"SHA-256".into(),
            &Uint8Array::from(pending.verifier.as_bytes()),
        ),
    )
    .await
    .ok_or(Failure::Malformed("crypto"))?;
    let mut challenge = [0u8; 32];
    let digest = Uint8Array::new(&digest);
    if digest.length() != 32 {
        return Err(Failure::Malformed("crypto"));
    }
    digest.copy_to(&mut challenge);
    let put = carrier("put", &pending.state, Some(&pending.to_text())).await;
    if put.is_none() {
        return Err(Failure::NotPending);
    }
    let url = authorize::url(
        &provider.endpoints,
        &provider.settings,
        &provider.console,
        &pending,
        &pkce::challenge(&challenge),
    );
    if let Some(window) = web_sys::window() {
        // A silent sign-in leaves no history entry (back would only ask again).
        let _ = match silent {
            true => window.location().replace(&url),
            false => window.location().assign(&url),
        };
    }
    Ok(())
}

/// The values the carrier held for the answer's `state` (given back once).
async fn take_pending(answer: &Callback) -> Option<Pending> {
    let text = carrier("take", answer.pending_key()?, None).await?;
    Pending::from_text(&text.as_string()?)
}

/// Back from the provider, with the `pending` values taken for the answer: the checks, the code
/// exchanged, the ID token checked, and the console handed the tokens.
async fn complete(
    provider: &Provider,
    answer: &Callback,
    pending: Option<Pending>,
) -> Result<(), Failure> {
    let now = js_sys::Date::now() as u64;
    let code = callback::check(
        answer,
        pending.as_ref(),
        &provider.settings.issuer,
        provider.endpoints.iss_in_answers,
        now,
    )?;
    let pending = pending.ok_or(Failure::NotPending)?;
    let request = token::code_request(
        &provider.endpoints,
        &provider.settings,
        &provider.console,
        &code,
        &pending.verifier,
    );
    // The provider's keys are asked for beside the code's exchange, not after it: one round trip
    // less before the console has its token (issue 37, run Q).
    let keys = ask(&provider.endpoints.jwks, None);
    let (status, body) = fetch(&request.url, Some(&request.body))
        .await
        .ok_or(Failure::Unavailable(0))?;
    // Not parsed when larger than an answer may be (`read_answer` then refuses it).
    let parsed = (body.len() <= larder_start::oidc::MAX_ANSWER)
        .then(|| parse(&body))
        .flatten();
    let tokens = token::read_answer(status, body.len(), parsed.as_ref())?;
    let id_token = tokens
        .id_token
        .as_deref()
        .ok_or(Failure::Malformed("id_token"))?;
    check_id_token(provider, keys, id_token, &pending.nonce, now / 1000).await?;
    hand_over(provider, &body, id_token, &pending.return_to).await
}

/// The ID token: signed by a published key (WebCrypto; `keys`, the provider's key set asked
/// for), then its claims.
async fn check_id_token(
    provider: &Provider,
    keys: Option<Promise>,
    id_token: &str,
    nonce: &str,
    now_s: u64,
) -> Result<(), Failure> {
    let jwt = id_token::split(id_token)?;
    let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).ok();
    let header = text(&jwt.header)
        .and_then(|t| parse(&t))
        .ok_or(Failure::Malformed("id_token"))?;
    let claims = text(&jwt.payload)
        .and_then(|t| parse(&t))
        .ok_or(Failure::Malformed("id_token"))?;
    let keys = keys.ok_or(Failure::Unavailable(0))?;
    let (status, body) = answer(keys).await.ok_or(Failure::Unavailable(0))?;
    if status != 200 {
        return Err(Failure::Unavailable(status));
    }
    if body.len() > larder_start::oidc::MAX_ANSWER {
        return Err(Failure::TooLarge);
    }
    let keys = parse(&body)
        .and_then(|set| set.objects("keys"))
        .ok_or(Failure::Malformed("jwks"))?;
    let (index, alg) = id_token::choose_key(&header, &keys)?;
    let verified = verify(&keys[index].0, alg, &jwt.signature, jwt.signing_input).await;
    if !verified {
        return Err(Failure::IdToken(larder_start::oidc::Claim::Signature));
    }
    id_token::check_claims(
        &claims,
        &Expected {
            issuer: &provider.settings.issuer,
            client_id: &provider.settings.client_id,
            nonce: Nonce::Exactly(nonce),
            subject: None,
            now_s,
        },
    )?;
    Ok(())
}

/// The console's module signs its client in with the token answer and mounts at `return_to`.
async fn hand_over(
    provider: &Provider,
    body: &str,
    id_token: &str,
    return_to: &str,
) -> Result<(), Failure> {
    let exports = JsFuture::from(super::console())
        .await
        .unwrap_or(JsValue::NULL);
    let signed_in = Reflect::get(&exports, &"provider_signed_in".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .filter(|_| !exports.is_null());
    let Some(signed_in) = signed_in else {
        super::console_missing();
        return Ok(());
    };
    let end_session = provider
        .endpoints
        .end_session
        .clone()
        .map_or(JsValue::NULL, JsValue::from);
    let arguments = Array::of5(
        &body.into(),
        &provider.endpoints.token.as_str().into(),
        &provider.settings.client_id.as_str().into(),
        &id_token.into(),
        &end_session,
    );
    arguments.push(&provider.console.as_str().into());
    arguments.push(&return_to.into());
    let outcome = match signed_in.apply(&JsValue::UNDEFINED, &arguments) {
        Ok(promise) => match promise.dyn_into::<Promise>() {
            Ok(promise) => JsFuture::from(promise).await.unwrap_or(JsValue::NULL),
            Err(_) => JsValue::NULL,
        },
        Err(_) => JsValue::NULL,
    };
    if let Ok(failure) = outcome.dyn_into::<Array>() {
        let text = |at| failure.get(at).as_string().unwrap_or_default();
        super::show_error(&text(0), &text(1));
    }
    Ok(())
}

fn parse(text: &str) -> Option<JsFields> {
    let value = JSON::parse(text).ok()?;
    (value.is_object() && !Array::is_array(&value)).then_some(JsFields(value))
}
