//! The form's shell in index.html as this module reads and writes it: the alert before the
//! button, the button, the fields; and the next painted frame.

use js_sys::{Function, Promise};
use larder_start::form;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement};

use super::t;

/// What went wrong, as text (never markup: the detail is the service's), in an alert before
/// the button; the form keeps what was typed.
pub(super) fn show_error(title: &str, detail: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(button), Ok(alert), Ok(strong)) = (
        button(),
        document.create_element("div"),
        document.create_element("strong"),
    ) else {
        return;
    };
    let _ = alert.set_attribute("role", "alert");
    let _ = alert.set_attribute("class", "error");
    alert.set_id(form::ERROR);
    strong.set_text_content(Some(title));
    let _ = alert.append_child(&strong);
    if !detail.is_empty() {
        let mut rest = String::from(" ");
        rest.push_str(detail);
        let _ = alert.append_with_str_1(&rest);
    }
    if let Some(parent) = button.parent_node() {
        let _ = parent.insert_before(&alert, Some(&button));
    }
}

/// "Request id: …" under the error just shown, as the console's errors have it: what support
/// asks for to find the refusal in the service's log.
pub(super) fn show_request_id(id: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(alert), Ok(small), Ok(code)) = (
        document.get_element_by_id(form::ERROR),
        document.create_element("small"),
        document.create_element("code"),
    ) else {
        return;
    };
    let _ = small.set_attribute("class", "request-id");
    let mut label = t("Request id:");
    label.push(' ');
    small.set_text_content(Some(&label));
    code.set_text_content(Some(id));
    let _ = small.append_child(&code);
    let _ = alert.append_with_str_1(" ");
    let _ = alert.append_child(&small);
}

pub(super) fn clear_error() {
    if let Some(old) = element(form::ERROR) {
        old.remove();
    }
}

/// Resolves once the browser has painted the next frame (an animation frame, then a task).
pub(super) async fn after_paint() {
    let promise = Promise::new(&mut |resolve: Function, _reject| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        };
        let later = window.clone();
        let next_task = Closure::once_into_js(move || {
            let _ = later.set_timeout_with_callback(&resolve);
        });
        let _ = window.request_animation_frame(next_task.unchecked_ref());
    });
    let _ = JsFuture::from(promise).await;
}

pub(super) fn set_button(text: &str, disabled: bool) {
    if let Some(button) = button() {
        button.set_text_content(Some(text));
        button.set_disabled(disabled);
    }
}

/// The form's button ("Sign in", "Signing in…", "Try again").
pub(super) fn button() -> Option<HtmlButtonElement> {
    shell_element("form button")?.dyn_into().ok()
}

/// The first element in index.html's shell matching `selector`.
pub(super) fn shell_element(selector: &str) -> Option<Element> {
    element(form::SHELL)?.query_selector(selector).ok()?
}

pub(super) fn machine() -> bool {
    input(form::MACHINE).is_some_and(|i| i.checked())
}

pub(super) fn value(id: &str) -> String {
    input(id).map(|i| i.value()).unwrap_or_default()
}

pub(super) fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn input(id: &str) -> Option<HtmlInputElement> {
    element(id)?.dyn_into::<HtmlInputElement>().ok()
}
