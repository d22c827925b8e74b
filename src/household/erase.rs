//! "Erase my account" (issue 22, production.md §8 row 3): where the service offers
//! `DELETE users/me`, an owner erases their account after typing their user name. The dialog
//! says first what goes and what production says it keeps in general; the service's own
//! `retained` list is known only from its answer, so that is shown after, with the counts.
//! Where the service does not offer it (404/405) the option goes, with a note.

use larder_api::ApiError;
use larder_api::{Erasure, Household};
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::components::modal::Modal;
use crate::household::account::{ConsentLine, KeepAccount};
use crate::household::download_my_data::BeforeYouDelete;
use crate::household::shares::SharedLinks;
use crate::i18n::format::number;
use crate::i18n::{t, tf, value_label};
use crate::lazy::Later;
use crate::session::Session;
use crate::ApiClient;

/// Whether the service offers erasure, as far as this page knows: until it answers 404/405 it
/// is assumed to (asking would need the erasure itself; there is no read-only probe).
static NOT_OFFERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The account section and its dialog, for a signed-in person (machine clients have no account
/// to erase). With the owner's household, the dialog first offers to download its data. From
/// a module of its own (`household_tools`), as it sits below the household page's own work.
#[component]
pub fn EraseAccount(#[prop(optional)] household: Option<Household>) -> impl IntoView {
    view! { <Later data=household entry=draw_account_section/> }
}

crate::split_entry!(household_tools, draw_account_section, Option<Household> => |household| view! {
    <AccountSection household/>
});

#[component]
fn AccountSection(household: Option<Household>) -> impl IntoView {
    let session = expect_context::<Session>();
    let username = session
        .identity
        .with_untracked(|i| i.as_ref().and_then(|i| i.username.clone()));
    let Some(username) = username else {
        return ().into_any();
    };
    let offered = RwSignal::new(!NOT_OFFERED.load(std::sync::atomic::Ordering::Relaxed));
    let open = RwSignal::new(false);
    view! {
        <section class="danger-zone" aria-labelledby="account-title">
            <h2 id="account-title">{move || t("Your account")}</h2>
            <ConsentLine/>
            <KeepAccount/>
            <SharedLinks/>
            <Show when=move || offered.get()
                fallback=|| view! { <p class="hint" role="status">{move || t("This service does not offer erasing an account from here.")}</p> }>
                <p>{move || t("Erasing your account removes it and everything the service holds about you. It cannot be undone.")}</p>
                <button type="button" class="danger" on:click=move |_| open.set(true)>{move || t("Erase my account…")}</button>
            </Show>
            <Show when=move || open.get()>
                <EraseDialog username=username.clone() household=household.clone() open offered/>
            </Show>
        </section>
    }
    .into_any()
}

#[component]
fn EraseDialog(
    username: String,
    household: Option<Household>,
    open: RwSignal<bool>,
    offered: RwSignal<bool>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let session = expect_context::<Session>();
    let typed = RwSignal::new(String::new());
    let error = RwSignal::new(None::<ApiError>);
    let answer = RwSignal::new(None::<Erasure>);
    let problem = RwSignal::new(None::<String>);
    let forget = client.clone();
    let erase = {
        let client = client.clone();
        Action::new_local(move |_: &()| {
            let client = client.clone();
            async move { client.erase_account().await }
        })
    };
    Effect::new(move || match erase.value().get() {
        Some(Ok(Some(erasure))) if erasure.erased => {
            // The account is gone: its token and credentials go from the client at once, and
            // whatever this browser keeps of its first-household guide, whether or not "Sign
            // out" is pressed next; the answer stays on screen until it loads the sign-in page.
            let client = forget.clone();
            crate::household::first_run::forget();
            leptos::task::spawn_local(async move { client.sign_out().await });
            error.set(None);
            problem.set(None);
            answer.set(Some(erasure));
        }
        Some(Ok(Some(_))) => problem.set(Some(t(
            "The service answered that the account was not erased.",
        ))),
        Some(Ok(None)) => {
            NOT_OFFERED.store(true, std::sync::atomic::Ordering::Relaxed);
            offered.set(false);
            open.set(false);
        }
        // What was typed stays: the person may simply try again.
        Some(Err(e)) => {
            problem.set(None);
            error.set(Some(e));
        }
        None => {}
    });
    // The session ends: the client forgets the token and credentials, and the sign-in page
    // loads anew (`Session::end`).
    let sign_out = Callback::new(move |_| {
        let client = client.clone();
        leptos::task::spawn_local(async move { session.end(&client).await });
    });
    let matches = {
        let username = username.clone();
        move || typed.get().trim() == username
    };
    let label_name = username.clone();
    view! {
        <Modal role="dialog" labelled_by="erase-title" on_escape=Callback::new(move |_| {
            if answer.with_untracked(Option::is_some) { sign_out.run(()) } else if !erase.pending().get_untracked() { open.set(false) }
        })>
            <h2 id="erase-title">{move || t("Erase your account")}</h2>
            {move || match answer.get() {
                Some(erasure) => view! { <ErasureAnswer erasure sign_out/> }.into_any(),
                None => {
                    let matches = matches.clone();
                    let enabled = matches.clone();
                    let label_name = label_name.clone();
                    view! {
                        <p>{move || t("This erases your account and everything the service holds about you: your household, its members and their profiles, their meal plans and saved items. You are signed out, and the account can no longer sign in.")}</p>
                        <p>{move || t("What the service keeps: production keeps its consent ledger (what you agreed to, and when) and its records of requests to language models. The list this service keeps is shown once the account is erased.")}</p>
                        // Before the confirmation, so an owner can keep a copy first.
                        {household.clone().map(|household| view! { <BeforeYouDelete household_id=household.id.clone() household/> })}
                        <form class="stack" novalidate on:submit=move |ev: leptos::ev::SubmitEvent| {
                            ev.prevent_default();
                            if matches() { erase.dispatch(()); }
                        }>
                            <label for="erase-confirm">{move || tf("Type your user name, {name}, to confirm", &[("name", &label_name)])}</label>
                            <input id="erase-confirm" type="text" autocomplete="off" data-initial-focus prop:value=move || typed.get()
                                on:input=move |ev| typed.set(event_target_value(&ev))/>
                            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                            {move || error.get().map(|error| view! { <ErrorView error/> })}
                            <div class="actions">
                                <button type="button" on:click=move |_| open.set(false) disabled=move || erase.pending().get()>{move || t("Cancel")}</button>
                                <button type="submit" class="danger" disabled=move || !enabled() || erase.pending().get()>
                                    {move || if erase.pending().get() { t("Erasing…") } else { t("Erase my account") }}
                                </button>
                            </div>
                        </form>
                    }.into_any()
                }
            }}
        </Modal>
    }
}

/// What the service says it erased and keeps.
#[component]
fn ErasureAnswer(erasure: Erasure, sign_out: Callback<()>) -> impl IntoView {
    let count = |n: u64| number(n as f64);
    view! {
        <p role="status">{move || t("Your account was erased.")}</p>
        <dl class="facts erase-answer">
            <dt>{move || t("Households deleted")}</dt><dd>{count(erasure.households_deleted)}</dd>
            <dt>{move || t("Members deleted")}</dt><dd>{count(erasure.members_deleted)}</dd>
            <dt>{move || t("Chat sessions deleted")}</dt><dd>{count(erasure.chat_sessions_deleted)}</dd>
        </dl>
        <h3>{move || t("What the service keeps")}</h3>
        {if erasure.retained.is_empty() {
            view! { <p>{move || t("Nothing.")}</p> }.into_any()
        } else {
            view! {
                <ul class="retained">
                    {erasure.retained.iter().map(|r| {
                        let r = r.clone();
                        view! { <li>{move || value_label("retained", &r)}</li> }
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
        <div class="actions">
            <button type="button" class="primary" data-initial-focus on:click=move |_| sign_out.run(())>{move || t("Sign out")}</button>
        </div>
    }
}
