//! "My household" before the console: the moment the sign-in's token arrives, the owner's
//! household is read (`larder_start::household`, the client's own request) and its name and
//! members' names are shown in place of the form, read-only, with "Loading the console…",
//! until the console's module replaces the shell. The answer goes to the console with the
//! sign-in's, and its page shows it without asking again (issue 24: on a phone line the
//! console's module arrives a second and a half after the token; the members need not wait).
//!
//! Nothing here is required: a sign-in answer without a token, a household read that fails or
//! an answer of another shape shows nothing, and the console reads the household itself.

use js_sys::{Array, Object, Promise, Reflect, JSON};
use larder_start::{form, household};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;
use web_sys::Element;

use super::{button, element, send, shell_element, t};

/// Reads the household with the token of `sign_in` (the sign-in's answer, a 200) and shows
/// it while the sign-in is still under way. Resolves to the read's `[status, body]` for the
/// console, or `NULL` when none was sent or no answer came (the console then reads it itself);
/// never rejects.
pub(super) fn read_and_show(system_base: String, timeout_ms: u32, sign_in: JsValue) -> Promise {
    future_to_promise(async move {
        let read = async {
            let answer = result_of(&sign_in)?;
            let token =
                household::token(|key| Reflect::get(&answer, &key.into()).ok()?.as_string())?;
            let url = household::own_household_url(&system_base);
            let bearer = household::bearer(&token);
            let (status, body) = send(&url, None, Some(&bearer), timeout_ms).await?;
            if status == 200 {
                show(&body);
            }
            Some(Array::of2(&status.into(), &body).into())
        };
        Ok(read.await.unwrap_or(JsValue::NULL))
    })
}

/// An answer's `result`, or the answer itself when it has none (production's sign-in and
/// `households/me` are bare), as the client reads them.
fn result_of(body: &JsValue) -> Option<Object> {
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

/// Shown only while the sign-in is under way (the button disabled): a read that comes after the
/// sign-in failed, or after "Try again" was offered, must not hide the form.
fn show(body: &JsValue) {
    if !button().is_some_and(|b| b.disabled()) {
        return;
    }
    let (Some(sign_in), Some(preview)) = (shell_element("section"), view(body)) else {
        return;
    };
    if let Some(page) = sign_in.parent_node() {
        if page.insert_before(&preview, Some(&sign_in)).is_ok() {
            let _ = sign_in.set_attribute("hidden", "");
        }
    }
}

/// The household's name and its members' names, as text (never markup: they are the
/// service's); `None` when the answer is not a household as the contract has it (the
/// console's page says what is wrong). Built straight from the answer, with no list of names
/// in between: the start-up module's size is what "Sign in" waits for.
fn view(body: &JsValue) -> Option<Element> {
    let household = result_of(body)?;
    let document = web_sys::window()?.document()?;
    let add = |parent: &Element, tag: &str, text: &str| {
        let child = document.create_element(tag).ok()?;
        child.set_text_content(Some(text));
        parent.append_child(&child).ok()?;
        Some(child)
    };
    let name = |object: &JsValue| Reflect::get(object, &"name".into()).ok()?.as_string();
    let section = document.create_element("section").ok()?;
    section.set_id(form::PREVIEW);
    let _ = section.set_attribute("aria-busy", "true");
    add(&section, "h1", &name(&household)?)?;
    let members = Reflect::get(&household, &"members".into()).ok()?;
    if !members.is_undefined() && !members.is_null() {
        let members: Array = members.dyn_into().ok()?;
        if members.length() > 0 {
            add(&section, "h2", &t("Members"))?;
            let list = add(&section, "ul", "")?;
            for member in members.iter() {
                add(&list, "li", &name(&member)?)?;
            }
        }
    }
    let status = add(&section, "p", &t("Loading the console…"))?;
    let _ = status.set_attribute("role", "status");
    Some(section)
}

/// The form again, as it was (the console did not come, and the form says so).
pub(super) fn undo() {
    if let Some(preview) = element(form::PREVIEW) {
        preview.remove();
    }
    if let Some(sign_in) = shell_element("section") {
        let _ = sign_in.remove_attribute("hidden");
    }
}
