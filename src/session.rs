//! Who is signed in, and what the client is doing, as signals in context.
//!
//! The token never leaves the client's memory; the session holds only the identity to show.

use larder_api::{Identity, Notice};
use leptos::prelude::*;

use crate::ApiClient;

/// The session state every page can read.
#[derive(Clone, Copy)]
pub struct Session {
    /// The signed-in identity, `None` when signed out.
    pub identity: RwSignal<Option<Identity>>,
    /// Set when the token could not be renewed: the page asks to sign in again.
    pub lost: RwSignal<bool>,
    /// `(attempt, of)` while the client waits to retry.
    pub retrying: RwSignal<Option<(u32, u32)>>,
    /// The `Retry-After` seconds while the service says it is closed for maintenance.
    pub maintenance: RwSignal<Option<u64>>,
}

impl Session {
    /// A signed-out session that follows the client's notices.
    pub fn new(client: &ApiClient) -> Session {
        let session = Session {
            identity: RwSignal::new(None),
            lost: RwSignal::new(false),
            retrying: RwSignal::new(None),
            maintenance: RwSignal::new(None),
        };
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

    /// Ends the session in this tab, after a sign-out or an erasure: what the console read for
    /// the person and what this browser keeps of their first-household guide go with it.
    pub fn end(&self) {
        crate::prefetch::forget();
        crate::household::first_run::forget();
        self.identity.set(None);
    }

    /// Whether someone is signed in.
    pub fn signed_in(&self) -> bool {
        self.identity.with(Option::is_some)
    }
}
