//! What the provider's sign-in asks of the browser: WebCrypto (random bytes, digests, the ID
//! token's signature), the carrier (`js/oidc-worker.js`, a same-origin service worker that keeps
//! a sign-in's one-time values in memory while the page is away) and requests to the provider.

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use larder_start::oidc::id_token::Alg;
use larder_start::oidc::token;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestInit, Response};

/// The carrier's file, beside index.html.
const WORKER: &str = "oidc-worker.js";

pub(super) async fn verify(key: &JsValue, alg: Alg, signature: &[u8], input: &str) -> bool {
    let import = Object::new();
    let _ = Reflect::set(&import, &"name".into(), &alg.webcrypto_name().into());
    let verify = Object::new();
    let _ = Reflect::set(&verify, &"name".into(), &alg.webcrypto_name().into());
    match alg {
        Alg::Rs256 => {
            let _ = Reflect::set(&import, &"hash".into(), &"SHA-256".into());
        }
        Alg::Es256 => {
            let _ = Reflect::set(&import, &"namedCurve".into(), &"P-256".into());
            let _ = Reflect::set(&verify, &"hash".into(), &"SHA-256".into());
        }
    }
    let arguments = Array::of5(
        &"jwk".into(),
        key,
        &import,
        &false.into(),
        &Array::of1(&"verify".into()),
    );
    let Some(imported) = subtle("importKey", &arguments).await else {
        return false;
    };
    let arguments = Array::of4(
        &verify,
        &imported,
        &Uint8Array::from(signature),
        &Uint8Array::from(input.as_bytes()),
    );
    subtle("verify", &arguments)
        .await
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

pub(super) fn crypto() -> Option<JsValue> {
    Reflect::get(&web_sys::window()?.into(), &"crypto".into()).ok()
}

/// `crypto.subtle[name](...arguments)`, awaited; `None` when it failed.
pub(super) async fn subtle(name: &str, arguments: &Array) -> Option<JsValue> {
    let subtle = Reflect::get(&crypto()?, &"subtle".into()).ok()?;
    let method: Function = Reflect::get(&subtle, &name.into()).ok()?.dyn_into().ok()?;
    let promise: Promise = method.apply(&subtle, arguments).ok()?.dyn_into().ok()?;
    JsFuture::from(promise).await.ok()
}

/// One message to the carrier (`put` with a value, `take` without), its answer's `value`
/// (`null` when it holds nothing under `key`); `None` when there is no carrier.
///
/// Only a `put` registers the worker. Back from the provider the worker that took the values
/// is there already, and registering it again starts an update check that took 1.7 to 2.3 s
/// on the bench's phone line before the code exchange could begin (issue 37, run P).
pub(super) async fn carrier(op: &str, key: &str, value: Option<&str>) -> Option<JsValue> {
    let window = web_sys::window()?;
    let container = Reflect::get(&window.navigator(), &"serviceWorker".into()).ok()?;
    if container.is_undefined() {
        return None;
    }
    let call = |target: &JsValue, name: &str, arguments: &Array| -> Option<Promise> {
        let method: Function = Reflect::get(target, &name.into()).ok()?.dyn_into().ok()?;
        method.apply(target, arguments).ok()?.dyn_into().ok()
    };
    let registered = match value {
        Some(_) => call(&container, "register", &Array::of1(&WORKER.into()))?,
        None => call(&container, "getRegistration", &Array::new())?,
    };
    let registration = JsFuture::from(registered).await.ok()?;
    if registration.is_undefined() {
        // No worker, so nothing was kept for this page.
        return None;
    }
    let ready = JsFuture::from(
        Reflect::get(&container, &"ready".into())
            .ok()?
            .dyn_into::<Promise>()
            .ok()?,
    )
    .await
    .ok()?;
    let worker = Reflect::get(&ready, &"active".into()).ok()?;
    if worker.is_null() || worker.is_undefined() {
        return None;
    }
    let message = Object::new();
    let _ = Reflect::set(&message, &"op".into(), &op.into());
    let _ = Reflect::set(&message, &"key".into(), &key.into());
    if let Some(value) = value {
        let _ = Reflect::set(&message, &"value".into(), &value.into());
    }
    let channel = web_sys::MessageChannel::new().ok()?;
    let port = channel.port1();
    let answer = Promise::new(&mut |resolve: Function, _| {
        let on_message = Closure::once_into_js(move |event: web_sys::MessageEvent| {
            let _ = resolve.call1(&JsValue::UNDEFINED, &event.data());
        });
        port.set_onmessage(Some(on_message.unchecked_ref()));
    });
    let post: Function = Reflect::get(&worker, &"postMessage".into())
        .ok()?
        .dyn_into()
        .ok()?;
    post.call2(&worker, &message, &Array::of1(&channel.port2()))
        .ok()?;
    let answer = JsFuture::from(answer).await.ok()?;
    if Reflect::get(&answer, &"ok".into()).ok()?.as_bool() != Some(true) {
        return None;
    }
    Reflect::get(&answer, &"value".into()).ok()
}

/// A GET, or a POST of a form (`body`); its status and text. No custom header: the provider is
/// another origin, and a simple request needs no preflight.
pub(super) async fn fetch(url: &str, body: Option<&str>) -> Option<(u16, String)> {
    answer(ask(url, body)?).await
}

/// A request sent now; its answer is read by [`answer`]. A failure no one waits for any more
/// (the exchange before it failed) is not reported as uncaught.
pub(super) fn ask(url: &str, body: Option<&str>) -> Option<Promise> {
    let init = RequestInit::new();
    if let Some(body) = body {
        init.set_method("POST");
        init.set_body(&JsValue::from_str(body));
        let headers = Object::new();
        let _ = Reflect::set(&headers, &"Content-Type".into(), &token::FORM_TYPE.into());
        init.set_headers(&headers);
    }
    init.set_signal(Some(&web_sys::AbortSignal::timeout_with_u32(
        larder_start::login::TIMEOUT_MS,
    )));
    let asked = web_sys::window()?.fetch_with_str_and_init(url, &init);
    let ignore = Closure::<dyn FnMut(JsValue)>::new(|_| {});
    let _ = asked.catch(&ignore);
    ignore.forget();
    Some(asked)
}

/// An answer's status and text; `None` when none came.
pub(super) async fn answer(asked: Promise) -> Option<(u16, String)> {
    let response: Response = JsFuture::from(asked).await.ok()?.dyn_into().ok()?;
    let text = JsFuture::from(response.text().ok()?).await.ok()?;
    Some((response.status(), text.as_string()?))
}
