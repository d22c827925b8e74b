//! What the page a sign-in lands on needs, asked for before it is needed (issue 24, the
//! bookmark journey): while people type, the console's module and the module of the remembered
//! link's page (`larder_start::landing`, never every group); the moment the token arrives, that page's
//! API reads, beside the sign-in's own identity question, for the page to take over when it
//! mounts instead of asking again.
//!
//! Bounded: one answer at most is kept, taken (and so dropped) by the first page that asks,
//! and ignored once older than [`FRESH_MS`]. Only the answer is kept; the token stays in the
//! client.

use std::cell::RefCell;

use futures::channel::oneshot;
use js_sys::Promise;
use larder_api::households::{own_household_answered, own_household_from};
use larder_api::transport::HttpResponse;
use larder_api::{ApiError, Credentials, Household, Identity};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::pages::Page;
use crate::ApiClient;
use larder_start::landing::{landing, Group, Landing};

/// How long a read started at sign-in stays usable: the page opens right after signing in; an
/// answer still unused later (the console's module did not arrive and "Try again" came much
/// later) is read again rather than shown stale.
const FRESH_MS: f64 = 20_000.0;

/// `households/me`'s answer, undecoded: decoding a household here would put its code in the
/// start-up module (14 KB of brotli when tried); the page that shows it decodes it.
type Answer = Result<Option<Value>, ApiError>;

/// `households/me`, started at sign-in.
struct Started {
    at_ms: f64,
    answer: oneshot::Receiver<Answer>,
}

thread_local! {
    static OWN_HOUSEHOLD: RefCell<Option<Started>> = const { RefCell::new(None) };
}

/// The page the sign-in will land on: `next` of this `/sign-in` page, when it is safe.
fn remembered() -> Option<Landing> {
    let search = web_sys::window()?.location().search().ok()?;
    let next = web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get("next");
    landing(&crate::paths::safe_next(next)?)
}

/// One page of the group: fetching any page of a module fetches the whole module.
fn page_of(group: Group) -> Page {
    match group {
        Group::Household => Page::MyHousehold,
        Group::Member => Page::Member,
        Group::Admin => Page::Households,
        Group::KnowledgeBase => Page::Records,
    }
}

/// While people type: the console's module and the remembered page's, side by side. A failure
/// is not remembered (signing in fetches again, and says so if it still cannot).
pub async fn while_typing() {
    let page = async {
        if let Some(landing) = remembered() {
            let _ = page_of(landing.group).fetch().await;
        }
    };
    let _ = futures::future::join(crate::console::fetch(), page).await;
}

/// Signs in (or reads `answer`, the start-up module's sign-in); the moment the token is held,
/// starts the remembered page's reads. `household` is the start-up module's read of
/// `households/me` with that answer's token (a promise of `[status, body]`, or of null when
/// it got none), started as the token arrived and shown by it meanwhile: the page takes its
/// answer instead of asking again.
pub async fn sign_in(
    client: &ApiClient,
    credentials: Credentials,
    answer: Option<HttpResponse>,
    household: Option<Promise>,
) -> Result<Identity, ApiError> {
    let reader = client.clone();
    // Only beside the answer whose token read it: a sign-in of the console's own reads anew.
    let household = household.filter(|_| answer.is_some());
    let with_token = move || start_reads(reader, household);
    match answer {
        Some(answer) => {
            client
                .sign_in_answered_then(credentials, answer, with_token)
                .await
        }
        None => client.sign_in_then(credentials, with_token).await,
    }
}

fn start_reads(client: ApiClient, household: Option<Promise>) {
    if !remembered().is_some_and(|l| l.reads_own_household) {
        return;
    }
    let (answer_to, answer) = oneshot::channel();
    let started = Started {
        at_ms: js_sys::Date::now(),
        answer,
    };
    // A sign-in again (after a failed identity question) replaces an earlier read.
    OWN_HOUSEHOLD.with(|slot| *slot.borrow_mut() = Some(started));
    wasm_bindgen_futures::spawn_local(async move {
        let early = match household {
            Some(read) => early_answer(read).await,
            None => None,
        };
        let answer = match early {
            Some(answer) => answer,
            None => client.own_household_answer().await,
        };
        let _ = answer_to.send(answer);
    });
}

/// The start-up module's read, as the client reads its own answers; `None` when it got none,
/// or one the client would have tried again (read again then, with the client's retries).
async fn early_answer(read: Promise) -> Option<Answer> {
    let pair: js_sys::Array = JsFuture::from(read).await.ok()?.dyn_into().ok()?;
    let status = u16::try_from(pair.get(0).as_f64()? as u32).ok()?;
    let body = pair.get(1).as_string()?;
    own_household_answered(HttpResponse {
        status,
        headers: Vec::new(),
        body,
    })
}

/// Drops a read started at sign-in that no page took. Every other way in or out (the console's
/// own sign-in page, the re-sign-in dialog, signing out, erasure) calls this, so an answer
/// fetched for one person is never shown after another signs in within [`FRESH_MS`].
pub fn forget() {
    OWN_HOUSEHOLD.with(|slot| slot.borrow_mut().take());
}

/// `households/me`: the read started at sign-in when there is a fresh one (taken, so it is
/// used once), else a new read. A failed read started at sign-in is the page's failure like
/// any other: its "Try again" reads anew.
pub async fn own_household(client: &ApiClient) -> Result<Option<Household>, ApiError> {
    let started = OWN_HOUSEHOLD.with(|slot| slot.borrow_mut().take());
    if let Some(started) = started.filter(|s| js_sys::Date::now() - s.at_ms < FRESH_MS) {
        if let Ok(answer) = started.answer.await {
            return own_household_from(answer?);
        }
    }
    client.own_household().await
}
