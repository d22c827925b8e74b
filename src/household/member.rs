//! A member's two forms, each with its own unsaved state: details (name, age group, picture) and
//! the dietary profile (`household::profile_form`).

use larder_api::types::{edited_text, Member, MemberChanges};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::toast::{on_answer, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::household::download_my_data::BeforeYouDelete;
use crate::household::picture::{MemberPicture, PictureChoice, PicturePicker};
use crate::household::AgeGroupSelect;
use crate::i18n::{t, tf};
use crate::paths::is_web_url;
use crate::ApiClient;

pub use crate::household::profile_form::ProfileForm;

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
        after.name = edited_text(&after.name, &name.get());
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
