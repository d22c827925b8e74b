//! Who is signed in, what belongs to them, and what the client is doing, in context.
//!
//! Everything a signed-in person brings is one value, [`Person`]: their identity, the reads
//! started the moment their token arrived (taken once, by the page they were for), and the
//! records read for them (`records`, bounded in bytes). The session holds at most one, and
//! drops it whole: signing out and erasing an account end the session ([`Session::end`]: the
//! client forgets the token and credentials, and the page loads anew, so nothing of the person
//! stays in memory), and a re-sign-in as someone else replaces it and goes to the start page
//! ([`Session::begin`]). Nothing of a person is kept anywhere else (no `thread_local`). The
//! token itself never leaves the client's memory.

pub mod records;
pub mod tabs;

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use larder_api::households::own_household_answered;
use larder_api::transport::HttpResponse;
use larder_api::{ApiError, Identity, Notice};
use leptos::prelude::*;
use serde_json::Value;

use crate::ApiClient;
use records::RecordCache;

/// How long a read started at sign-in stays usable: the page opens right after signing in; an
/// answer still unused later (the console's module was slow to come) is read again rather than
/// shown stale.
const FRESH_MS: f64 = 20_000.0;

/// The reads the start-up module started the moment the person's token arrived.
pub struct Early {
    at_ms: f64,
    /// `households/me`, a promise of `[status, body]` (or of `null`).
    household: Option<Promise>,
}

impl Early {
    /// The reads of a sign-in that happened just now.
    pub fn at_sign_in(household: Option<Promise>) -> Early {
        Early {
            at_ms: js_sys::Date::now(),
            household,
        }
    }

    fn none() -> Early {
        Early {
            at_ms: 0.0,
            household: None,
        }
    }
}

/// `households/me`'s answer, undecoded (`None`: the caller has none), read at sign-in.
pub struct EarlyHousehold(Promise);

impl EarlyHousehold {
    /// The answer as the client reads its own; `None` when no answer came, or one the client
    /// would have tried again: the caller reads it itself then, with the client's retries.
    pub async fn answer(self) -> Option<Result<Option<Value>, ApiError>> {
        own_household_answered(answer_of(self.0).await?)
    }
}

/// A read of the start-up module (a promise of `[status, body, request id]`, or of `null`), as
/// an answer.
pub async fn answer_of(read: Promise) -> Option<HttpResponse> {
    let read: js_sys::Array =
        wasm_bindgen::JsCast::dyn_into(wasm_bindgen_futures::JsFuture::from(read).await.ok()?)
            .ok()?;
    let status = u16::try_from(read.get(0).as_f64()? as u32).ok()?;
    Some(HttpResponse {
        status,
        headers: request_id_header(read.get(2).as_string()),
        body: read.get(1).as_string()?,
    })
}

/// The `X-Request-Id` the start-up module sent with a request, as its answer's header: the
/// client takes a failure's id from there (the service's echo, where it echoes, is the same).
pub fn request_id_header(id: Option<String>) -> Vec<(String, String)> {
    id.map(|id| {
        (
            larder_api::machinery::correlation::REQUEST_ID.to_string(),
            id,
        )
    })
    .into_iter()
    .collect()
}

/// One signed-in person: dropped whole when the session ends or someone else signs in.
#[derive(Clone)]
pub struct Person(Rc<Inner>);

struct Inner {
    identity: Identity,
    early: RefCell<Early>,
    records: RefCell<RecordCache>,
}

impl Person {
    /// `identity`, signed in just now, with the reads started at their sign-in.
    pub fn new(identity: Identity, early: Early) -> Person {
        Person(Rc::new(Inner {
            identity,
            early: RefCell::new(early),
            records: RefCell::new(RecordCache::default()),
        }))
    }

    /// Signed in through the console's own form (no early reads).
    pub fn signed_in(identity: Identity) -> Person {
        Person::new(identity, Early::none())
    }

    pub fn identity(&self) -> &Identity {
        &self.0.identity
    }

    /// `households/me` read at sign-in, when it was and is still fresh: taken, so the first
    /// page that asks uses it and no other.
    pub fn take_own_household(&self) -> Option<EarlyHousehold> {
        let mut early = self.0.early.borrow_mut();
        let fresh = js_sys::Date::now() - early.at_ms < FRESH_MS;
        early.household.take().filter(|_| fresh).map(EarlyHousehold)
    }

    /// The same person under a new name (a guest who kept their account): what was read for
    /// them moves over, nothing is read again.
    fn renamed(&self, identity: Identity) -> Person {
        Person(Rc::new(Inner {
            identity,
            early: RefCell::new(std::mem::replace(
                &mut *self.0.early.borrow_mut(),
                Early::none(),
            )),
            records: RefCell::new(std::mem::take(&mut *self.0.records.borrow_mut())),
        }))
    }

    /// Whether `other` is the same account (the re-sign-in dialog keeps the page then).
    fn same_account(&self, other: &Identity) -> bool {
        let me = &self.0.identity;
        me.username == other.username && me.client_id == other.client_id
    }
}

/// The session every page can read.
#[derive(Clone, Copy)]
pub struct Session {
    person: RwSignal<Option<Person>, LocalStorage>,
    /// The signed-in identity, `None` when signed out.
    pub identity: Memo<Option<Identity>>,
    /// Set when the token could not be renewed: the page asks to sign in again.
    pub lost: RwSignal<bool>,
    /// `(attempt, of)` while the client waits to retry.
    pub retrying: RwSignal<Option<(u32, u32)>>,
    /// The `Retry-After` seconds while the service says it is closed for maintenance.
    pub maintenance: RwSignal<Option<u64>>,
}

impl Session {
    /// The session of `person` (signed out when `None`), following the client's notices.
    pub fn new(client: &ApiClient, person: Option<Person>) -> Session {
        let person = RwSignal::new_local(person);
        let session = Session {
            person,
            identity: Memo::new(move |_| person.with(|p| p.as_ref().map(|p| p.identity().clone()))),
            lost: RwSignal::new(false),
            retrying: RwSignal::new(None),
            maintenance: RwSignal::new(None),
        };
        tabs::answer_asks(client.clone(), move || {
            person.with_untracked(|p| p.as_ref().map(|p| p.identity().clone()))
        });
        let for_tabs = client.clone();
        tabs::on_signed_out(move || {
            let client = for_tabs.clone();
            wasm_bindgen_futures::spawn_local(
                async move { session.ended_elsewhere(&client).await },
            );
        });
        client.set_observer(move |notice| match notice {
            Notice::Retrying { attempt, of, .. } => session.retrying.set(Some((*attempt, *of))),
            Notice::RetriesEnded => session.retrying.set(None),
            Notice::SessionLost => session.lost.set(true),
            Notice::Maintenance { retry_after_secs } => {
                session.maintenance.set(Some(*retry_after_secs))
            }
            // Every answer passes here: only a change reaches the banner.
            Notice::ServiceAnswered => {
                if session.maintenance.get_untracked().is_some() {
                    session.maintenance.set(None);
                }
            }
        });
        session
    }

    /// Whether someone is signed in.
    pub fn signed_in(&self) -> bool {
        self.person.with(Option::is_some)
    }

    /// The signed-in person, without tracking.
    pub fn person(&self) -> Option<Person> {
        self.person.get_untracked()
    }

    /// `identity` has signed in (the console's own sign-in page, the re-sign-in dialog). The
    /// same account keeps its person (and the page what it shows); anyone else replaces it,
    /// and whatever was read for the one before goes with it. Whether it replaced it.
    pub fn begin(&self, identity: Identity) -> bool {
        self.lost.set(false);
        let same = self
            .person
            .with_untracked(|p| p.as_ref().is_some_and(|p| p.same_account(&identity)));
        if !same {
            self.person.set(Some(Person::signed_in(identity)));
        }
        !same
    }

    /// The signed-in account was renamed by the service (a guest's claim, whose renewed session
    /// is under the new address): the header shows the new identity; the page and what was read
    /// stay.
    pub fn renamed(&self, identity: Identity) {
        self.person.update(|person| {
            if let Some(current) = person {
                *current = current.renamed(identity);
            }
        });
    }

    /// Another tab signed out: this one forgets the person and shows the sign-in page (the
    /// provider's sign-out is the other tab's).
    pub async fn ended_elsewhere(&self, client: &ApiClient) {
        if !self.signed_in() {
            return;
        }
        client.sign_out().await;
        self.person.set(None);
        // The sign-in page after a sign-out asks the provider nothing: the other tab's sign-out
        // may not have reached it yet.
        let sign_in = larder_start::oidc::signed_out::sign_in_page(&crate::hosting::base_path());
        if let Some(window) = web_sys::window() {
            let _ = window.location().replace(&sign_in);
        }
    }

    /// Signs out (the header's "Sign out", after erasing the account): the client forgets the
    /// token and the credentials, and the sign-in page loads anew, so no byte of this person's
    /// stays in the page's memory for whoever signs in next.
    pub async fn end(&self, client: &ApiClient) {
        let at_provider = client
            .provider_grant()
            .await
            .and_then(|grant| Some((grant.logout?, grant.client_id)));
        client.sign_out().await;
        // What this browser keeps of the person's first-household guide goes with them.
        crate::household::first_run::forget();
        self.person.set(None);
        tabs::say_signed_out();
        // Signed in at the identity provider: its session ends too (RP-initiated logout, a
        // form posted there, so the ID token is in no URL), and it sends the browser back.
        if let Some((logout, client_id)) = at_provider {
            if post_logout(&logout, &client_id).is_some() {
                return;
            }
        }
        // No sign-out at the provider (a password session, or a provider without one): its
        // session may live on, and the sign-in page must not sign the person straight back in.
        let sign_in = larder_start::oidc::signed_out::sign_in_page(&crate::hosting::base_path());
        if let Some(window) = web_sys::window() {
            let _ = window.location().replace(&sign_in);
        }
    }
}

/// Posts the provider's sign-out form (hidden fields), leaving the page.
fn post_logout(logout: &larder_api::ProviderLogout, client_id: &str) -> Option<()> {
    use wasm_bindgen::JsCast;
    let document = web_sys::window()?.document()?;
    let form: web_sys::HtmlFormElement = document.create_element("form").ok()?.dyn_into().ok()?;
    form.set_method("post");
    form.set_action(&logout.end_session);
    for (name, value) in [
        ("id_token_hint", logout.id_token.as_str()),
        ("client_id", client_id),
        (
            "post_logout_redirect_uri",
            logout.post_logout_redirect_uri.as_str(),
        ),
    ] {
        let input: web_sys::HtmlInputElement =
            document.create_element("input").ok()?.dyn_into().ok()?;
        input.set_type("hidden");
        input.set_name(name);
        input.set_value(value);
        form.append_child(&input).ok()?;
    }
    form.set_hidden(true);
    document.body()?.append_child(&form).ok()?;
    form.submit().ok()
}
