//! "My household" before the console: the moment the sign-in's token arrives, the owner's
//! household is read (`households/me`, the client's own request, sent by `super::press`) and
//! its name and members' names are shown in place of the form, read-only, with "Loading the
//! console…", until the console's module replaces the shell. The same read goes to the
//! console, whose page takes it instead of asking again (issue 24: on a phone line the
//! console's module arrives a second and a half after the token; the members need not wait).
//!
//! The one exception to "the household is drawn by one component" (issue 37): the console's
//! page (src/household/panel.rs) draws the household everywhere; this shows its heading and
//! its members' names only, which tests/e2e/first-load.spec.ts holds equal to the page's.
//!
//! Nothing here is required: a read that fails or an answer of another shape shows nothing,
//! and the console's page says what is wrong.

use js_sys::{Array, Promise, Reflect};
use larder_start::form;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::Element;

use super::{button, element, result_of, shell_element, t};

/// Shows the household once `read` (a promise of `households/me`'s `[status, body]`, or of
/// `NULL` when no answer came) gives one, while the sign-in is still under way.
pub(super) fn show_when_read(read: Promise) {
    spawn_local(async move {
        let Ok(answer) = JsFuture::from(read).await else {
            return;
        };
        let Ok(answer) = answer.dyn_into::<Array>() else {
            return;
        };
        if answer.get(0).as_f64() == Some(200.0) {
            show(&answer.get(1));
        }
    });
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
