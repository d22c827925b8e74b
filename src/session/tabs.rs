//! The tabs of one console (issue 42): signing out in one signs out every one, and a tab opened
//! while another is signed in takes that tab's session without a password. A same-origin
//! `BroadcastChannel` carries it, in memory only: nothing is stored. What it carries of a session
//! is the access token and how long it stays valid, never a password or a refresh token, so a
//! tab that took one cannot renew it itself: it asks again before it runs out, and when no
//! signed-in tab answers, its session ends as any lost session does (the page asks to sign in).

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use larder_api::transport::Transport;
use larder_api::Identity;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::ApiClient;

/// What a tab says when it signs out.
const SIGNED_OUT: &str = "signed-out";

/// How long a tab waits for a signed-in tab's answer: they answer within milliseconds, and the
/// sign-in form is usable meanwhile.
pub const ASK_WAIT_MS: u64 = 400;

/// A handed token must stay valid at least this long (the handing tab renews first otherwise).
const HAND_AT_LEAST_MS: u64 = 60_000;

/// How long before a handed token runs out its tab asks for a fresh one.
const ASK_AGAIN_BEFORE_MS: u64 = 30_000;

/// A message on the channel besides [`SIGNED_OUT`].
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Message {
    /// A tab without a session asks the signed-in ones.
    Ask,
    /// A signed-in tab's answer: the token, and who it is (so the new tab need not ask the
    /// service before it opens; the service still decides what the token may do).
    Session {
        token: String,
        valid_for_ms: u64,
        identity: Option<Identity>,
    },
}

/// The channel of this console (its address: two consoles on one origin do not mix).
fn channel() -> Option<web_sys::BroadcastChannel> {
    let mut name = String::from("larder-session:");
    name.push_str(&crate::hosting::base_path());
    web_sys::BroadcastChannel::new(&name).ok()
}

fn post(channel: &web_sys::BroadcastChannel, message: &Message) {
    if let Ok(text) = serde_json::to_string(message) {
        let _ = channel.post_message(&text.into());
    }
}

/// The most a message may hold: a token and an identity are a few kilobytes; anything larger on
/// the channel is not the console's and is not read.
const MAX_MESSAGE_BYTES: usize = 16 * 1024;

fn read(event: &web_sys::MessageEvent) -> Option<Message> {
    let text = event.data().as_string()?;
    if text.len() > MAX_MESSAGE_BYTES {
        return None;
    }
    serde_json::from_str(&text).ok()
}

/// Listens on a channel for the page's life.
fn listen(handle: impl Fn(web_sys::MessageEvent) + 'static) {
    let Some(channel) = channel() else {
        return;
    };
    let listener = Closure::<dyn Fn(web_sys::MessageEvent)>::new(handle);
    channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    listener.forget();
    std::mem::forget(channel);
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
    listen(move |event| {
        if event.data().as_string().as_deref() == Some(SIGNED_OUT) {
            then();
        }
    });
}

/// Answers the tabs that ask for a session, while this one holds one (for the page's life);
/// `identity` is who this tab's person is, when signed in.
pub fn answer_asks(client: ApiClient, identity: impl Fn() -> Option<Identity> + 'static) {
    listen(move |event| {
        if !matches!(read(&event), Some(Message::Ask)) {
            return;
        }
        let client = client.clone();
        let identity = identity();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some((token, valid_for_ms)) = client.token_to_hand_over(HAND_AT_LEAST_MS).await {
                if let Some(channel) = channel() {
                    post(
                        &channel,
                        &Message::Session {
                            token,
                            valid_for_ms,
                            identity,
                        },
                    );
                    channel.close();
                }
            }
        });
    });
}

/// A session another tab handed over: its token, how long it stays valid, and who it is.
pub type Handed = (String, u64, Option<Identity>);

/// Asks the other tabs for a session: the first answer within [`ASK_WAIT_MS`], or `None`.
pub async fn ask(client: &ApiClient) -> Option<Handed> {
    let channel = channel()?;
    let (send, answered) = oneshot::channel::<Handed>();
    let send = Rc::new(RefCell::new(Some(send)));
    let listener =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if let Some(Message::Session {
                token,
                valid_for_ms,
                identity,
            }) = read(&event)
            {
                if let Some(send) = send.borrow_mut().take() {
                    let _ = send.send((token, valid_for_ms, identity));
                }
            }
        });
    channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    post(&channel, &Message::Ask);
    let wait = client.transport().sleep(ASK_WAIT_MS);
    futures::pin_mut!(wait);
    let answer = match futures::future::select(answered, wait).await {
        futures::future::Either::Left((Ok(answer), _)) => Some(answer),
        _ => None,
    };
    channel.set_onmessage(None);
    channel.close();
    drop(listener);
    answer
}

/// Keeps a handed session of `person` alive: shortly before its token runs out, asks the other
/// tabs again and takes the fresh one; stops when none answers, or when the answer is someone
/// else's (the tab that handed it signed in again as another person): the session then ends as a
/// lost one, and this tab never sends another person's token under the name it shows.
pub fn keep_handed(client: ApiClient, valid_for_ms: u64, person: Identity) {
    wasm_bindgen_futures::spawn_local(async move {
        let mut valid_for_ms = valid_for_ms;
        loop {
            let wait = valid_for_ms.saturating_sub(ASK_AGAIN_BEFORE_MS).max(1_000);
            client.transport().sleep(wait).await;
            let Some((token, fresh, answered)) = ask(&client).await else {
                return;
            };
            // An answer that says no one is not theirs either.
            if !answered.is_some_and(|answered| answered.is_same_person(&person)) {
                return;
            }
            if !client.is_signed_in().await {
                return;
            }
            // Signed out or signed in meanwhile: this is no longer a handed session.
            if client.adopt_handed(token, fresh, false).await.is_err() {
                return;
            }
            valid_for_ms = fresh;
        }
    });
}
