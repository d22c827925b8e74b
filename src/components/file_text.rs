//! The text of a file chosen for an import (the knowledge base's imports, a household's restore), refused unread when it is larger than the import
//! takes: the browser knows a file's size without reading it, so an oversized file costs
//! nothing (issue 36: every import read a file of any size whole).

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::i18n::t;
use crate::kb::schema::import_size::file_refusal;

/// Reads the file chosen in the input of `ev` (a `change` event) as text, then hands `done` the
/// text or why there is none. A file over `max` bytes is not read, and the choice is cleared so
/// the same file can be chosen again once it is smaller. Nothing chosen: `done` is not called.
pub fn read_chosen(
    ev: &leptos::ev::Event,
    max: usize,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    let input: web_sys::HtmlInputElement = event_target(ev);
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    if let Some(refusal) = file_refusal(file.size() as u64, max) {
        input.set_value("");
        return done(Err(refusal));
    }
    leptos::task::spawn_local(async move {
        let text = JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        done(text.ok_or_else(|| t("The file could not be read as text.")));
    });
}
