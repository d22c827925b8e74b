//! A member's two forms, each with its own unsaved state: details (name, age group, picture) and
//! the dietary profile.

use larder_api::enums::DIETARY_GROUPS;
use larder_api::types::{Member, MemberChanges, Profile, ProfileChanges, ProfileInput};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use serde_json::Value;

use crate::components::chip_select::ChipSelect;
use crate::components::confirm::ConfirmButton;
use crate::components::download_my_data::BeforeYouDelete;
use crate::components::error_view::ErrorView;
use crate::components::kv_editor::{KvEditor, KvState};
use crate::components::toast::{on_answer, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::household::picture::{MemberPicture, PictureChoice, PicturePicker};
use crate::household::profile_fields::{KnownFields, KnownFieldsView};
use crate::household::AgeGroupSelect;
use crate::i18n::{k, t, tf};
use crate::owners::profile_keys::{self, merge};
use crate::paths::is_web_url;
use crate::ApiClient;

/// A member's name, age group and picture. Saving changes only this form: the profile's form
/// beside it keeps whatever is typed there.
#[component]
pub fn MemberDetails(
    member: Member,
    /// Where a deleted member's page leads: the household's page.
    household_href: String,
    /// The page's title, kept in step with the saved name.
    title: RwSignal<String>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let navigate = use_navigate();
    let original = RwSignal::new(member.clone());
    let name = RwSignal::new(member.name.clone());
    let age_group = RwSignal::new(member.age_group.clone());
    let picture = PictureChoice::new(member.image_url.clone());
    let error = RwSignal::new(None::<ApiError>);
    let problem = RwSignal::new(None::<String>);
    let edited = move || {
        let mut after = original.get();
        after.name = name.get().trim().to_string();
        after.age_group = age_group.get();
        // The stored value itself while the picture is not changed (an `avatar:{json}` face
        // stays byte for byte), so the PATCH leaves `image_url` out.
        after.image_url = picture.value();
        after
    };
    UnsavedChanges::track(Signal::derive(move || {
        !MemberChanges::between(&original.get(), &edited()).is_empty()
    }));

    let save = Action::new_local(move |changes: &MemberChanges| {
        let (client, changes, id) = (
            client.clone(),
            changes.clone(),
            original.with_untracked(|m| m.id.clone()),
        );
        async move { client.update_member(&id, &changes).await }
    });
    on_answer(save, Some(error), move |member| {
        toasts.success(tf("{name} saved", &[("name", &member.name)]));
        // The service's answer is the new baseline for "unsaved changes".
        title.set(member.name.clone());
        picture.reset(member.image_url.clone());
        original.set(member);
    });
    let delete_client = expect_context::<ApiClient>();
    let delete = Action::new_local(move |_: &()| {
        let (client, id) = (
            delete_client.clone(),
            original.with_untracked(|m| m.id.clone()),
        );
        async move { client.delete_member(&id).await }
    });
    on_answer(delete, None, move |_| {
        toasts.success(tf(
            "{name} removed from the household",
            &[("name", &original.with_untracked(|m| m.name.clone()))],
        ));
        navigate(&household_href, Default::default());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let after = edited();
        if after.name.is_empty() {
            return problem.set(Some(t("The name cannot be empty.")));
        }
        if picture.is_url() && after.image_url.as_deref().is_some_and(|u| !is_web_url(u)) {
            return problem.set(Some(t(
                "The image URL must start with https:// or http://.",
            )));
        }
        problem.set(None);
        let changes = MemberChanges::between(&original.get_untracked(), &after);
        if changes.is_empty() {
            toasts.success(t("Nothing to save"));
        } else {
            save.dispatch(changes);
        }
    };
    view! {
        <section aria-labelledby="details-title" class="card">
            <h2 id="details-title">{move || t("Details")}</h2>
            <MemberPicture image_url=Signal::derive(move || original.with(|m| m.image_url.clone())) name=Signal::derive(move || original.with(|m| m.name.clone()))/>
            <form class="stack" on:submit=submit novalidate>
                <label for="member-name">{move || t("Name")}</label>
                <input id="member-name" type="text" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
                <label for="member-age">{move || t("Age group")}</label>
                <AgeGroupSelect id="member-age" value=age_group/>
                <PicturePicker state=picture id="member-picture" name=Signal::derive(move || name.get())/>
                {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                {move || error.get().map(|error| view! { <ErrorView error/> })}
                <div class="actions">
                    <ConfirmButton label=move || t("Delete member")
                        question=move || tf("Remove {name} and their profile from the household? This cannot be undone.", &[("name", &original.with(|m| m.name.clone()))])
                        confirm_label=move || t("Delete member") disabled=delete.pending() on_confirm=Callback::new(move |_| { delete.dispatch(()); })
                        before=ViewFn::from(move || view! { <BeforeYouDelete household_id=original.with_untracked(|m| m.household_id.clone())/> })/>
                    <button type="submit" class="primary" disabled=move || save.pending().get()>{move || t("Save details")}</button>
                </div>
            </form>
        </section>
    }
}

/// Dietary groups, allergies, nutritional preferences and further properties. Created on first
/// save (`POST`, which the service treats as "create or update"); afterwards only the changed
/// fields are sent. The service ignores `properties` when it creates a profile, so a new
/// profile's properties are sent right after, as a change.
#[component]
pub fn ProfileForm(member_id: String, profile: Option<Profile>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let original = RwSignal::new(profile.clone());
    let start = profile.unwrap_or_default();
    let groups = RwSignal::new(start.dietary_groups.clone());
    let allergies = RwSignal::new(allergy_words(&start));
    // Known keys get typed fields; the JSON editors hold the rest, exactly as stored.
    let split = StoredValue::new(profile_keys::split(
        &start.nutritional_preferences,
        &start.properties,
    ));
    let known = KnownFields::new(&split.with_value(|s| s.known.clone()));
    let preferences = KvState::new(&split.with_value(|s| s.other_preferences.clone()));
    let properties = KvState::new(&split.with_value(|s| s.other_properties.clone()));
    let error = RwSignal::new(None::<ApiError>);
    let problem = RwSignal::new(None::<String>);
    let edited = move || -> Result<Profile, String> {
        let mut after = original.get().unwrap_or_default();
        after.dietary_groups = groups.get();
        after.allergies = allergies.get().into_iter().map(Value::String).collect();
        let other_preferences = preferences
            .read()
            .map_err(|p| tf("Nutritional preferences: {problem}", &[("problem", &p)]))?;
        let other_properties = properties
            .read()
            .map_err(|p| tf("Properties: {problem}", &[("problem", &p)]))?;
        let typed = known.read()?;
        (after.nutritional_preferences, after.properties) =
            split.with_value(|s| merge(s, &typed, &other_preferences, &other_properties));
        Ok(after)
    };
    let dirty = Signal::derive(move || match (original.get(), edited()) {
        (_, Err(_)) => true,
        (Some(before), Ok(after)) => !ProfileChanges::between(&before, &after).is_empty(),
        (None, Ok(after)) => after != Profile::default(),
    });
    UnsavedChanges::track(dirty);

    let member_id = StoredValue::new(member_id);
    let save_client = client.clone();
    let save = Action::new_local(move |after: &Profile| {
        let (client, after, id, before) = (
            save_client.clone(),
            after.clone(),
            member_id.get_value(),
            original.get_untracked(),
        );
        async move {
            match before {
                Some(before) => {
                    client
                        .update_profile(&id, &ProfileChanges::between(&before, &after))
                        .await
                }
                None => {
                    let created = client
                        .create_profile(&id, &ProfileInput::from(&after))
                        .await?;
                    if after.properties.is_empty() || created.properties == after.properties {
                        return Ok(created);
                    }
                    let properties = ProfileChanges {
                        properties: Some(after.properties.clone()),
                        ..ProfileChanges::default()
                    };
                    client.update_profile(&id, &properties).await
                }
            }
        }
    });
    let show = move |profile: &Profile| {
        let fresh = profile_keys::split(&profile.nutritional_preferences, &profile.properties);
        known.reset(&fresh.known);
        preferences.reset(&fresh.other_preferences);
        properties.reset(&fresh.other_properties);
        split.set_value(fresh);
    };
    on_answer(save, Some(error), move |saved| {
        toasts.success(t("Profile saved"));
        show(&saved);
        original.set(Some(saved));
    });
    let delete = Action::new_local(move |_: &()| {
        let (client, id) = (client.clone(), member_id.get_value());
        async move { client.delete_profile(&id).await }
    });
    on_answer(delete, Some(error), move |_| {
        toasts.success(t("Profile deleted"));
        original.set(None);
        groups.set(Vec::new());
        allergies.set(Vec::new());
        show(&Profile::default());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match edited() {
            Err(p) => problem.set(Some(p)),
            Ok(after) => {
                problem.set(None);
                let unchanged = original
                    .get_untracked()
                    .is_some_and(|before| ProfileChanges::between(&before, &after).is_empty());
                if unchanged {
                    toasts.success(t("Nothing to save"));
                } else {
                    save.dispatch(after);
                }
            }
        }
    };
    view! {
        <section aria-labelledby="profile-title" class="card">
            <h2 id="profile-title">{move || t("Dietary profile")}</h2>
            {move || original.with(Option::is_none).then(|| view! { <p class="hint">{move || t("This member has no profile yet: it is created when you save.")}</p> })}
            <form class="stack" on:submit=submit novalidate>
                <ChipSelect selected=groups label=k("Dietary groups") id="profile-groups" options=DIETARY_GROUPS enumeration="dietary_group"/>
                <ChipSelect selected=allergies label=k("Allergies") id="profile-allergies"/>
                <KnownFieldsView fields=known/>
                <p class="hint">{move || t("Anything else the profile holds is kept as it is; edit it below, or as JSON.")}</p>
                <KvEditor state=preferences label=k("Nutritional preferences") id="profile-preferences"/>
                <KvEditor state=properties label=k("Properties") id="profile-properties"/>
                <p class="hint">{move || t("Properties are replaced as a whole when saved. The service ignores them when it creates a profile, so for a new profile they are saved in a second step.")}</p>
                {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                {move || error.get().map(|error| view! { <ErrorView error/> })}
                <div class="actions">
                    <Show when=move || original.with(Option::is_some)>
                        <ConfirmButton label=move || t("Delete profile")
                            question=move || t("Delete this member's dietary profile? The member stays; their groups, allergies, preferences and properties go.")
                            confirm_label=move || t("Delete profile") disabled=delete.pending()
                            on_confirm=Callback::new(move |_| { delete.dispatch(()); })/>
                    </Show>
                    <button type="submit" class="primary" disabled=move || save.pending().get()>
                        {move || if save.pending().get() { t("Saving…") } else { t("Save profile") }}
                    </button>
                </div>
            </form>
        </section>
    }
}

/// Allergies as words (the service keeps them as sent; anything not a string shows as JSON).
fn allergy_words(profile: &Profile) -> Vec<String> {
    profile
        .allergies
        .iter()
        .map(|a| {
            a.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| a.to_string())
        })
        .collect()
}
