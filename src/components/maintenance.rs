//! The maintenance banner (issue 22): when any answer says the service is closed for maintenance,
//! it says so above the page, which stays as it is (nothing navigates away, no form is cleared).
//! "Try again" asks the service once; while the page is open it also asks by itself, once, after
//! the answer's `Retry-After`. Any answer that is not maintenance takes the banner away (the
//! client's notices, see `crate::session`).

use std::time::Duration;

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::session::Session;
use crate::ApiClient;

/// The banner, shown while the last answer said maintenance.
#[component]
pub fn MaintenanceBanner() -> impl IntoView {
    let session = expect_context::<Session>();
    let client = expect_context::<ApiClient>();
    let checking = RwSignal::new(false);
    // One request the maintenance gate answers for every signed-in caller; its answer (any but
    // maintenance) reaches the session through the client's notices.
    let ask = move || {
        if checking.get_untracked() {
            return;
        }
        checking.set(true);
        let client = client.clone();
        leptos::task::spawn_local(async move {
            let _ = client.own_household().await;
            checking.set(false);
        });
    };
    // Once per closure, after Retry-After: a maintenance answer to that ask does not re-arm it
    // (the memo stays true), so the page never waits and asks over and over by itself.
    let closed = Memo::new(move |_| session.maintenance.get().is_some());
    let episode = StoredValue::new(0_u32);
    let ask_later = ask.clone();
    Effect::new(move || {
        if !closed.get() {
            return;
        }
        episode.update_value(|e| *e += 1);
        let this = episode.get_value();
        let secs = session.maintenance.get_untracked().unwrap_or(300);
        let ask = ask_later.clone();
        set_timeout(
            move || {
                if episode.get_value() == this && session.maintenance.get_untracked().is_some() {
                    ask();
                }
            },
            Duration::from_secs(secs),
        );
    });
    move || {
        session.maintenance.get().map(|secs| {
            let minutes = secs.div_ceil(60).max(1).to_string();
            let ask = ask.clone();
            view! {
                <div class="maintenance-banner" role="alert">
                    <p>
                        <strong>{t("Closed for maintenance")}</strong> " "
                        {tf("The service is closed for maintenance. Try again in {minutes} min.", &[("minutes", &minutes)])}
                        " " {t("What you typed stays here.")}
                    </p>
                    <button type="button" disabled=move || checking.get() on:click=move |_| ask()>
                        {move || if checking.get() { t("Checking…") } else { t("Try again") }}
                    </button>
                </div>
            }
        })
    }
}
