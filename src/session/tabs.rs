//! The tabs of one console (issue 42): signing out in one signs out every one. A same-origin
//! `BroadcastChannel` carries only the word, in memory: nothing is stored, and no token or
//! credential goes on it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a tab says when it signs out.
const SIGNED_OUT: &str = "signed-out";

/// The channel of this console (its address: two consoles on one origin do not mix).
fn channel() -> Option<web_sys::BroadcastChannel> {
    let mut name = String::from("larder-session:");
    name.push_str(&crate::hosting::base_path());
    web_sys::BroadcastChannel::new(&name).ok()
}

/// Tells the other tabs this one signed out.
pub fn say_signed_out() {
    if let Some(channel) = channel() {
        let _ = channel.post_message(&SIGNED_OUT.into());
        channel.close();
    }
}

/// Runs `then` when another tab signs out (for the page's life).
pub fn on_signed_out(then: impl Fn() + 'static) {
    let Some(channel) = channel() else {
        return;
    };
    let listener =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if event.data().as_string().as_deref() == Some(SIGNED_OUT) {
                then();
            }
        });
    channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    listener.forget();
    // The channel lives as long as the page.
    std::mem::forget(channel);
}
