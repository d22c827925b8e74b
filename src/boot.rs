//! The sign-in form of `index.html` shows before the wasm module has loaded, so people can type
//! while it does. Before the console mounts, [`take_over`] reads what was typed (and which field
//! had the focus) and removes that form; the sign-in page then starts from it. What was typed
//! stays in memory, like the session: it is never written anywhere.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;

/// What was typed into the start-up form.
#[derive(Clone, Debug, Default)]
pub struct Typed {
    /// Username or client ID.
    pub name: String,
    /// Password or client secret.
    pub secret: String,
    /// "A machine client" was chosen.
    pub machine: bool,
    /// The field that had the focus: `"name"` or `"secret"`.
    pub focus: Option<&'static str>,
}

thread_local! {
    static TYPED: RefCell<Option<Typed>> = const { RefCell::new(None) };
}

/// Reads and removes the start-up form, if the page has one.
pub fn take_over() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(shell) = document.get_element_by_id("boot-shell") else {
        return;
    };
    let input = |id: &str| {
        document
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
    };
    let value = |id: &str| input(id).map(|i| i.value()).unwrap_or_default();
    let focus = document
        .active_element()
        .and_then(|e| match e.id().as_str() {
            "boot-name" => Some("name"),
            "boot-secret" => Some("secret"),
            _ => None,
        });
    let typed = Typed {
        name: value("boot-name"),
        secret: value("boot-secret"),
        machine: input("boot-client").is_some_and(|i| i.checked()),
        focus,
    };
    shell.remove();
    TYPED.with(|t| *t.borrow_mut() = Some(typed));
}

/// What was typed, once (the sign-in page takes it).
pub fn typed() -> Typed {
    TYPED.with(|t| t.borrow_mut().take()).unwrap_or_default()
}
