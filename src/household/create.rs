//! The form an owner without a household fills in: name, region, metadata and first members.
//! It is step 1 of the first-household guide (see `first_run`), which continues on the
//! household's page.

use larder_api::types::{NewHousehold, NewMember};
use larder_api::ApiError;
use leptos::prelude::*;
use serde_json::Map;

use crate::components::error_view::ErrorView;
use crate::components::toast::{on_answer, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::household::kv_editor::{KvEditor, KvState};
use crate::household::AgeGroupSelect;
use crate::i18n::{k, t, tf};
use crate::ApiClient;

/// A member row of the create form.
#[derive(Clone, Copy)]
struct DraftMember {
    id: u64,
    name: RwSignal<String>,
    age_group: RwSignal<String>,
}

/// The form that creates the owner's household, with its first members.
#[component]
pub fn CreateHousehold(created: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let (name, region) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let metadata = KvState::new(&Map::new());
    let members = RwSignal::new(Vec::<DraftMember>::new());
    let next_id = StoredValue::new(0u64);
    let problem = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<ApiError>);
    let dirty = Signal::derive(move || {
        !name.get().is_empty() || !region.get().is_empty() || !members.get().is_empty()
    });
    UnsavedChanges::track(dirty);

    let create = Action::new_local(move |household: &NewHousehold| {
        let (client, household) = (client.clone(), household.clone());
        async move { client.create_household(&household).await }
    });
    on_answer(create, Some(error), move |household| {
        // Steps 2 and 3 of the guide follow on the household's page.
        crate::household::first_run::started(&household.id);
        toasts.success(tf("Household {name} created", &[("name", &household.name)]));
        name.set(String::new());
        region.set(String::new());
        members.set(Vec::new());
        created.run(());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        let name = name.get_untracked().trim().to_string();
        if name.is_empty() {
            problem.set(Some(t("Give the household a name.")));
            return;
        }
        let metadata = match metadata.read() {
            Ok(m) => m,
            Err(p) => return problem.set(Some(tf("Metadata: {problem}", &[("problem", &p)]))),
        };
        let mut new_members = Vec::new();
        for member in members.get_untracked() {
            let member_name = member.name.get_untracked().trim().to_string();
            if member_name.is_empty() {
                return problem.set(Some(t("Every member needs a name (or remove the row).")));
            }
            new_members.push(NewMember::new(
                member_name,
                member.age_group.get_untracked(),
            ));
        }
        let region = region.get_untracked().trim().to_string();
        create.dispatch(NewHousehold {
            name,
            region: (!region.is_empty()).then_some(region),
            metadata: (!metadata.is_empty()).then_some(metadata),
            members: new_members,
        });
    };
    let add_member = move |_| {
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        members.update(|m| {
            m.push(DraftMember {
                id,
                name: RwSignal::new(String::new()),
                age_group: RwSignal::new("adult".into()),
            })
        });
    };

    view! {
        <h1>{move || t("Create your household")}</h1>
        <p class="hint">{move || t("You have no household yet. Name it, and add the people who live in it; you can change everything later.")}</p>
        <p class="step">{move || t("Getting started: step 1 of 3, name and region. Next come the first member and their diet.")}</p>
        <form class="card stack" on:submit=submit novalidate>
            <label for="household-name">{move || t("Name")}</label>
            <input id="household-name" type="text" required prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
            <label for="household-region">{move || t("Region")}</label>
            <input id="household-region" type="text" placeholder=move || t("e.g. EU") prop:value=move || region.get() on:input=move |ev| region.set(event_target_value(&ev))/>
            <KvEditor state=metadata label=k("Metadata") id="household-metadata"/>
            <fieldset class="members-draft">
                <legend>{move || t("Members")}</legend>
                <For each=move || members.get() key=|m| m.id let:member>
                    <div class="member-row">
                        <label for=format!("new-member-{}-name", member.id)>{move || t("Member name")}</label>
                        <input id=format!("new-member-{}-name", member.id) type="text" prop:value=move || member.name.get()
                            on:input=move |ev| member.name.set(event_target_value(&ev))/>
                        <label for=format!("new-member-{}-age", member.id)>{move || t("Age group")}</label>
                        <AgeGroupSelect id=format!("new-member-{}-age", member.id) value=member.age_group/>
                        <button type="button" class="icon" aria-label=move || t("Remove this member")
                            on:click=move |_| members.update(|m| m.retain(|d| d.id != member.id))>"×"</button>
                    </div>
                </For>
                <button type="button" on:click=add_member>{move || t("Add a member")}</button>
            </fieldset>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || error.get().map(|error| view! { <ErrorView error/> })}
            <button type="submit" class="primary" disabled=move || create.pending().get()>
                {move || if create.pending().get() { t("Creating…") } else { t("Create household") }}
            </button>
        </form>
    }
}
