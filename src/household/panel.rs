//! A household as its owner, or an administrator, works on it: its facts and their editing,
//! every member, adding one, and deleting the household.

use larder_api::types::{
    edited_optional_text, edited_text, Household, HouseholdChanges, Member, NewMember,
};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::toast::{on_answer, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::household::download_my_data::{BeforeYouDelete, DownloadMyData};
use crate::household::first_run::FirstRunGuide;
use crate::household::kv_editor::{KvEditor, KvState};
use crate::household::picture::MemberPicture;
use crate::household::{age_label, AgeGroupSelect, HouseholdFacts};
use crate::i18n::format::number;
use crate::i18n::{k, t, tf};
use crate::paths::is_web_url;
use crate::ApiClient;

/// Whose household the page shows: the caller's own (`/household`), or any (`/households/{id}`,
/// for administrators and agents). Links and what follows a delete differ; the editing does not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Own,
    Any,
}

impl Scope {
    /// The page of a member of household `household_id`.
    pub fn member_href(self, household_id: &str, member_id: &str) -> String {
        match self {
            Scope::Own => format!("/household/members/{member_id}"),
            Scope::Any => format!("/households/{household_id}/members/{member_id}"),
        }
    }

    /// The household's own page.
    pub fn household_href(self, household_id: &str) -> String {
        match self {
            Scope::Own => "/household".into(),
            Scope::Any => format!("/households/{household_id}"),
        }
    }
}

/// The household, its members (all of them) and what may be done with them.
#[component]
pub fn HouseholdPanel(
    household: Household,
    members: Vec<Member>,
    scope: Scope,
    /// Runs after a change that needs the household read again.
    changed: Callback<()>,
) -> impl IntoView {
    let count = members.len();
    let editing = RwSignal::new(false);
    let household = StoredValue::new(household);
    let household_id = household.with_value(|h| h.id.clone());
    let links_id = household_id.clone();
    // The member page is a module of its own (issue 24, `crate::lazy`): fetched once the
    // members are on screen, so following a member's link opens it at once.
    Effect::new(move || {
        leptos::task::spawn_local(crate::lazy::prefetch(larder_start::landing::Group::Member))
    });
    view! {
        <div class="title-row">
            <h1>{household.with_value(|h| h.name.clone())}</h1>
            <Show when=move || !editing.get()>
                <button type="button" on:click=move |_| editing.set(true)>{move || t("Edit household")}</button>
            </Show>
        </div>
        {(scope == Scope::Own).then(|| view! { <FirstRunGuide household=household.get_value() members=members.clone() changed/> })}
        <Show when=move || editing.get() fallback=move || view! { <HouseholdFacts household=household.get_value()/> }>
            <EditHousehold household=household.get_value() done=Callback::new(move |saved: bool| {
                editing.set(false);
                if saved { changed.run(()) }
            })/>
        </Show>
        <section aria-labelledby="members-title">
            <h2 id="members-title">{move || tf("Members ({count})", &[("count", &number(count as f64))])}</h2>
            {if members.is_empty() {
                view! { <p class="empty">{move || t("No members yet: add the people who live in this household below.")}</p> }.into_any()
            } else {
                view! {
                    <ul class="member-list">
                        {members.into_iter().map(|member| view! {
                            <li>
                                <MemberPicture image_url=Signal::stored(member.image_url.clone()) name=Signal::stored(member.name.clone()) small=true/>
                                <A href=crate::hosting::link(scope.member_href(&links_id, &member.id))>{member.name.clone()}</A>
                                <span class="chip">{age_label(&member.age_group)}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
            <AddMember household_id=household_id.clone() added=changed/>
        </section>
        <DownloadMyData household_id=household_id.clone() members=count household=household.get_value()/>
        <section class="danger-zone" aria-label=move || t("Delete household")>
            <DeleteHousehold household=household.get_value() scope deleted=changed/>
        </section>
    }
}

#[component]
fn EditHousehold(household: Household, done: Callback<bool>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let original = StoredValue::new(household.clone());
    let name = RwSignal::new(household.name.clone());
    let region = RwSignal::new(household.region.clone().unwrap_or_default());
    let metadata = KvState::new(&household.metadata);
    let problem = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<ApiError>);
    let edited = move || -> Result<Household, String> {
        let mut after = original.get_value();
        after.name = edited_text(&after.name, &name.get());
        after.region = edited_optional_text(after.region.as_deref(), &region.get());
        after.metadata = metadata
            .read()
            .map_err(|p| tf("Metadata: {problem}", &[("problem", &p)]))?;
        Ok(after)
    };
    let dirty = Signal::derive(move || {
        edited()
            .map(|after| !HouseholdChanges::between(&original.get_value(), &after).is_empty())
            .unwrap_or(true)
    });
    UnsavedChanges::track(dirty);

    let save = Action::new_local(move |changes: &HouseholdChanges| {
        let (client, changes, id) = (
            client.clone(),
            changes.clone(),
            original.with_value(|o| o.id.clone()),
        );
        async move { client.update_household(&id, &changes).await }
    });
    on_answer(save, Some(error), move |_| {
        toasts.success(t("Household saved"));
        done.run(true);
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        let after = match edited() {
            Ok(after) if after.name.is_empty() => {
                return problem.set(Some(t("The name cannot be empty.")))
            }
            Ok(after) => after,
            Err(p) => return problem.set(Some(p)),
        };
        let changes = HouseholdChanges::between(&original.get_value(), &after);
        if changes.is_empty() {
            done.run(false);
        } else {
            save.dispatch(changes);
        }
    };
    view! {
        <form class="card stack" on:submit=submit novalidate>
            <label for="edit-household-name">{move || t("Name")}</label>
            <input id="edit-household-name" type="text" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
            <label for="edit-household-region">{move || t("Region")}</label>
            <input id="edit-household-region" type="text" prop:value=move || region.get() on:input=move |ev| region.set(event_target_value(&ev))/>
            <KvEditor state=metadata label=k("Metadata") id="edit-household-metadata"/>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || error.get().map(|error| view! { <ErrorView error/> })}
            <div class="actions">
                <button type="button" on:click=move |_| done.run(false)>{move || t("Cancel")}</button>
                <button type="submit" class="primary" disabled=move || save.pending().get()>
                    {move || if save.pending().get() { t("Saving…") } else { t("Save household") }}
                </button>
            </div>
        </form>
    }
}

#[component]
fn AddMember(household_id: String, added: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let (name, age_group, image_url) = (
        RwSignal::new(String::new()),
        RwSignal::new("adult".to_string()),
        RwSignal::new(String::new()),
    );
    let problem = RwSignal::new(None::<String>);
    UnsavedChanges::track(Signal::derive(move || !name.get().trim().is_empty()));
    let household_id = StoredValue::new(household_id);
    let create = Action::new_local(move |member: &NewMember| {
        let (client, member, id) = (client.clone(), member.clone(), household_id.get_value());
        async move { client.create_member(&id, &member, None).await }
    });
    Effect::new(move || match create.value().get() {
        Some(Ok(member)) => {
            toasts.success(tf("{name} added", &[("name", &member.name)]));
            name.set(String::new());
            image_url.set(String::new());
            added.run(());
        }
        Some(Err(e)) => {
            toasts.error(&e);
            problem.set(Some(e.detail()));
        }
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let member_name = name.get_untracked().trim().to_string();
        if member_name.is_empty() {
            return problem.set(Some(t("Give the member a name.")));
        }
        let image = image_url.get_untracked().trim().to_string();
        if !image.is_empty() && !is_web_url(&image) {
            return problem.set(Some(t(
                "The image URL must start with https:// or http://.",
            )));
        }
        problem.set(None);
        let mut member = NewMember::new(member_name, age_group.get_untracked());
        member.image_url = (!image.is_empty()).then_some(image);
        create.dispatch(member);
    };
    view! {
        <form class="card inline-form" on:submit=submit novalidate aria-label=move || t("Add a member")>
            <h3>{move || t("Add a member")}</h3>
            <label for="add-member-name">{move || t("Member name")}</label>
            <input id="add-member-name" type="text" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
            <label for="add-member-age">{move || t("Age group")}</label>
            <AgeGroupSelect id="add-member-age" value=age_group/>
            <label for="add-member-image">{move || t("Image URL")}</label>
            <input id="add-member-image" type="url" placeholder="https://…" prop:value=move || image_url.get() on:input=move |ev| image_url.set(event_target_value(&ev))/>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            <button type="submit" class="primary" disabled=move || create.pending().get()>{move || t("Add member")}</button>
        </form>
    }
}

#[component]
fn DeleteHousehold(household: Household, scope: Scope, deleted: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let navigate = use_navigate();
    let (id, name) = (household.id.clone(), household.name.clone());
    let download_id = id.clone();
    let summary = household.clone();
    let delete = Action::new_local(move |_: &()| {
        let (client, id) = (client.clone(), id.clone());
        async move { client.delete_household(&id).await }
    });
    let deleted_name = name.clone();
    on_answer(delete, None, move |_| {
        toasts.success(tf("Household {name} deleted", &[("name", &deleted_name)]));
        match scope {
            // The owner's page then offers to create a new one.
            Scope::Own => deleted.run(()),
            Scope::Any => navigate("/households", Default::default()),
        }
    });
    view! {
        <ConfirmButton label=move || t("Delete household")
            question=move || tf("Delete the household “{name}” with all its members and profiles? This cannot be undone.", &[("name", &name)])
            confirm_label=move || t("Delete household") disabled=delete.pending()
            before=ViewFn::from(move || view! { <BeforeYouDelete household_id=download_id.clone() household=summary.clone()/> })
            on_confirm=Callback::new(move |_| { delete.dispatch(()); })/>
    }
}
