//! The first household in three steps (issue 22): (1) name and region — the create form —,
//! (2) the first member, (3) their diet. Each step is saved as it is confirmed, in its own call,
//! because production drops profile details sent inside a household create. Where the guide
//! stands is read from the service (no member yet: step 2; a first member without dietary
//! groups: step 3); the browser remembers only which household the guide is for and the first
//! member's id — never anything secret — so a reload (and the sign-in it needs) resumes it.
//! Signing out and erasing the account forget it: the next person to sign in on this browser
//! starts their own guide (issue 36).

use larder_api::enums::DIETARY_GROUPS;
use larder_api::types::{Household, Member, NewMember, ProfileInput};
use larder_api::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::components::error_view::ErrorView;
use crate::components::toast::{on_answer, Toasts};
use crate::household::chip_select::ChipSelect;
use crate::household::rules::{step, Step};
use crate::household::AgeGroupSelect;
use crate::i18n::{k, t, tf};
use crate::ApiClient;

/// The browser storage key of the guide's progress.
const KEY: &str = "larder.first-household";

/// What the browser remembers between reloads: ids only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Progress {
    household: String,
    #[serde(default)]
    member: Option<String>,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load() -> Option<Progress> {
    serde_json::from_str(&storage()?.get_item(KEY).ok()??).ok()
}

fn store(progress: Option<&Progress>) {
    let Some(storage) = storage() else { return };
    let _ = match progress.and_then(|p| serde_json::to_string(p).ok()) {
        Some(text) => storage.set_item(KEY, &text),
        None => storage.remove_item(KEY),
    };
}

/// Called when the guide's first step created `household_id`: the guide continues there.
pub fn started(household_id: &str) {
    store(Some(&Progress {
        household: household_id.into(),
        member: None,
    }));
}

/// Forgets the guide's progress: called at sign-out and once the account is erased.
pub fn forget() {
    store(None);
}

/// The guide's steps 2 and 3, above the household, while the guide runs for it.
#[component]
pub fn FirstRunGuide(
    household: Household,
    members: Vec<Member>,
    changed: Callback<()>,
) -> impl IntoView {
    let Some(progress) = load().filter(|p| p.household == household.id) else {
        return ().into_any();
    };
    let first = progress
        .member
        .as_ref()
        .and_then(|id| members.iter().find(|m| &m.id == id))
        .or(members.first())
        .cloned();
    let has_diet = first
        .as_ref()
        .and_then(|m| m.profile.as_ref())
        .is_some_and(|p| !p.dietary_groups.is_empty());
    let now = step(true, members.len(), has_diet);
    if now == Step::Done {
        store(None);
        return ().into_any();
    }
    let skip = move |_| {
        store(None);
        changed.run(());
    };
    view! {
        <section class="card guide" aria-labelledby="guide-title">
            <h2 id="guide-title">{move || tf("Getting started: step {step} of 3", &[("step", &now.number().to_string())])}</h2>
            {match (now, first) {
                (Step::Diet, Some(member)) => view! { <DietStep member changed/> }.into_any(),
                _ => view! { <MemberStep household_id=household.id.clone() changed/> }.into_any(),
            }}
            <button type="button" on:click=skip>{move || t("Skip the guide")}</button>
        </section>
    }
    .into_any()
}

/// Step 2: the first member.
#[component]
fn MemberStep(household_id: String, changed: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let name = RwSignal::new(String::new());
    let age_group = RwSignal::new("adult".to_string());
    let problem = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<ApiError>);
    let household = StoredValue::new(household_id);
    let create = Action::new_local(move |member: &NewMember| {
        let (client, member, id) = (client.clone(), member.clone(), household.get_value());
        async move { client.create_member(&id, &member, None).await }
    });
    on_answer(create, Some(error), move |member| {
        store(Some(&Progress {
            household: household.get_value(),
            member: Some(member.id.clone()),
        }));
        toasts.success(tf("{name} added", &[("name", &member.name)]));
        changed.run(());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let member_name = name.get_untracked().trim().to_string();
        if member_name.is_empty() {
            return problem.set(Some(t("Give the member a name.")));
        }
        problem.set(None);
        create.dispatch(NewMember::new(member_name, age_group.get_untracked()));
    };
    view! {
        <p class="hint">{move || t("Who lives here? Add the first person; you can add the others later.")}</p>
        <form class="stack" novalidate on:submit=submit>
            <label for="first-member-name">{move || t("First member's name")}</label>
            <input id="first-member-name" type="text" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
            <label for="first-member-age">{move || t("Their age group")}</label>
            <AgeGroupSelect id="first-member-age" value=age_group/>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || error.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" class="primary" disabled=move || create.pending().get()>
                {move || if create.pending().get() { t("Saving…") } else { t("Save and continue") }}
            </button>
        </form>
    }
}

/// Step 3: the first member's diet, saved as their profile (`POST members/{id}/profile`).
#[component]
fn DietStep(member: Member, changed: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let groups = RwSignal::new(Vec::<String>::new());
    let problem = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<ApiError>);
    let member_id = StoredValue::new(member.id.clone());
    let save = Action::new_local(move |groups: &Vec<String>| {
        let (client, id) = (client.clone(), member_id.get_value());
        let profile = ProfileInput {
            dietary_groups: groups.clone(),
            ..ProfileInput::default()
        };
        async move { client.create_profile(&id, &profile).await }
    });
    on_answer(save, Some(error), move |_| {
        store(None);
        toasts.success(t("Your household is ready"));
        changed.run(());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let chosen = groups.get_untracked();
        if chosen.is_empty() {
            return problem.set(Some(t(
                "Choose at least one dietary group, or skip the guide.",
            )));
        }
        problem.set(None);
        save.dispatch(chosen);
    };
    view! {
        <p class="hint">{move || tf("What does {name} eat? Choose their dietary groups.", &[("name", &member.name)])}</p>
        <form class="stack" novalidate on:submit=submit>
            <ChipSelect selected=groups label=k("Dietary groups") id="first-member-groups" options=DIETARY_GROUPS enumeration="dietary_group"/>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || error.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" class="primary" disabled=move || save.pending().get()>
                {move || if save.pending().get() { t("Saving…") } else { t("Save and finish") }}
            </button>
        </form>
    }
}
