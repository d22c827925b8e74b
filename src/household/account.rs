//! "Your account" beyond erasure (issue 41 items 1 and 2, production.md §10.4): the consent to
//! the privacy notice (the version `config.json` names), and a guest keeping their account.
//! Where the service lacks a route (production's households service at S answers a bare 404)
//! its part shows nothing.

use larder_api::account::{Consent, GuestClaim};
use larder_api::ApiError;
use larder_contract::account::MIN_CLAIM_PASSWORD_CHARS;
use larder_contract::roles::GUEST;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::i18n::format::date;
use crate::i18n::{t, tf};
use crate::session::Session;
use crate::ApiClient;

/// The consent line, or a prompt to accept the configured version.
#[component]
pub fn ConsentLine() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let version = crate::config::consent_version();
    let read = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.consent(None).await }
        })
    };
    let accepted = RwSignal::new(None::<Consent>);
    let failed = RwSignal::new(None::<ApiError>);
    let accept = {
        let version = version.clone();
        Action::new_local(move |_: &()| {
            let client = client.clone();
            let version = version.clone();
            async move { client.accept_consent(&version, None).await }
        })
    };
    Effect::new(move || match accept.value().get() {
        Some(Ok(Some(row))) => {
            failed.set(None);
            accepted.set(Some(Consent {
                granted: true,
                consent_type: row.consent_type,
                version: Some(row.version),
                granted_at: row.granted_at,
                extra: Default::default(),
            }));
        }
        Some(Err(error)) => failed.set(Some(error)),
        _ => {}
    });
    view! {
        <Transition fallback=|| ()>
            {move || {
                let version = version.clone();
                read.get().map(|answer| match answer {
                    Ok(None) => ().into_any(),
                    Err(error) => view! { <div class="consent"><ErrorView error/></div> }.into_any(),
                    Ok(Some(consent)) => {
                        let shown = move || accepted.get().unwrap_or_else(|| consent.clone());
                        let version = version.clone();
                        view! {
                            <div class="consent" data-testid="consent">
                                {move || {
                                    let consent = shown();
                                    if consent.covers(&version) {
                                        let when = consent.granted_at.as_deref().map(date).unwrap_or_default();
                                        view! { <p role="status">{tf("You accepted the privacy notice, version {version}, on {date}.", &[("version", &version), ("date", &when)])}</p> }.into_any()
                                    } else {
                                        view! {
                                            <p>{tf("Please read and accept the privacy notice, version {version}.", &[("version", &version)])}</p>
                                            <button type="button" class="primary" disabled=move || accept.pending().get()
                                                on:click=move |_| { accept.dispatch(()); }>
                                                {move || if accept.pending().get() { t("Accepting…") } else { t("Accept") }}
                                            </button>
                                        }.into_any()
                                    }
                                }}
                                {move || failed.get().map(|error| view! { <ErrorView error/> })}
                            </div>
                        }.into_any()
                    }
                })
            }}
        </Transition>
    }
}

/// "Keep this account", for a guest only.
#[component]
pub fn KeepAccount() -> impl IntoView {
    let session = expect_context::<Session>();
    let is_guest = move || {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| i.has_role(GUEST)))
    };
    let kept = RwSignal::new(None::<String>);
    view! {
        {move || kept.get().map(|email| view! {
            <p role="status" class="kept">{tf("Your account is kept. Sign in from now on as {email}.", &[("email", &email)])}</p>
        })}
        <Show when=is_guest>
            <ClaimForm kept/>
        </Show>
    }
}

#[component]
fn ClaimForm(kept: RwSignal<Option<String>>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let session = expect_context::<Session>();
    let email = RwSignal::new(String::new());
    let first_name = RwSignal::new(String::new());
    let last_name = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let failed = RwSignal::new(None::<ApiError>);
    let offered = RwSignal::new(true);
    let claim = Action::new_local(move |claim: &GuestClaim| {
        let client = client.clone();
        let claim = claim.clone();
        async move { client.claim_account(&claim).await }
    });
    Effect::new(move || match claim.value().get() {
        Some(Ok(Some((claimed, identity)))) => {
            failed.set(None);
            kept.set(Some(claimed.email));
            // The renewed session's identity: the header no longer shows `guest`.
            session.renamed(identity);
        }
        Some(Ok(None)) => offered.set(false),
        // Everything typed stays, so a 409 (the address is another account's) can be mended.
        Some(Err(ApiError::Caller(reason))) => problem.set(Some(reason)),
        Some(Err(error)) => failed.set(Some(error)),
        None => {}
    });
    let name = |signal: RwSignal<String>| {
        let value = signal.get_untracked().trim().to_string();
        (!value.is_empty()).then_some(value)
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        failed.set(None);
        let request = GuestClaim {
            email: email.get_untracked().trim().to_string(),
            password: password.get_untracked(),
            first_name: name(first_name),
            last_name: name(last_name),
        };
        if request.password.chars().count() < MIN_CLAIM_PASSWORD_CHARS {
            problem.set(Some(tf(
                "The password needs at least {count} characters.",
                &[("count", &MIN_CLAIM_PASSWORD_CHARS.to_string())],
            )));
            return;
        }
        if request.problem().is_some() {
            problem.set(Some(t("Enter a valid e-mail address.")));
            return;
        }
        problem.set(None);
        claim.dispatch(request);
    };
    view! {
        <Show when=move || offered.get()>
            <form class="stack keep-account" novalidate aria-labelledby="keep-title" on:submit=submit>
                <h3 id="keep-title">{move || t("Keep this account")}</h3>
                <p>{move || t("You are signed in as a guest. Give an e-mail address and a password to keep this account: your household, plans and chats stay where they are.")}</p>
                <label for="keep-email">{move || t("E-mail")}</label>
                <input id="keep-email" type="email" autocomplete="email" required prop:value=move || email.get()
                    on:input=move |ev| email.set(event_target_value(&ev))/>
                <label for="keep-first">{move || t("First name")}</label>
                <input id="keep-first" type="text" autocomplete="given-name" maxlength="100" prop:value=move || first_name.get()
                    on:input=move |ev| first_name.set(event_target_value(&ev))/>
                <label for="keep-last">{move || t("Last name")}</label>
                <input id="keep-last" type="text" autocomplete="family-name" maxlength="100" prop:value=move || last_name.get()
                    on:input=move |ev| last_name.set(event_target_value(&ev))/>
                <label for="keep-password">{move || t("New password")}</label>
                <input id="keep-password" type="password" autocomplete="new-password" required aria-describedby="keep-password-hint"
                    prop:value=move || password.get() on:input=move |ev| password.set(event_target_value(&ev))/>
                <p id="keep-password-hint" class="hint">{tf("At least {count} characters.", &[("count", &MIN_CLAIM_PASSWORD_CHARS.to_string())])}</p>
                {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                {move || failed.get().map(|error| {
                    let conflict = error.status() == Some(409);
                    view! {
                        {conflict.then(|| view! { <p class="field-error" role="alert">{move || t("That e-mail address belongs to another account. Use another address, or sign in to that account.")}</p> })}
                        <ErrorView error/>
                    }
                })}
                <div class="actions">
                    <button type="submit" class="primary" disabled=move || claim.pending().get()>
                        {move || if claim.pending().get() { t("Keeping…") } else { t("Keep this account") }}
                    </button>
                </div>
            </form>
        </Show>
    }
}
