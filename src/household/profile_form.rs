//! A member's dietary profile: dietary groups, allergies (`household::allergy_picker`), the keys
//! production's front end writes (`household::profile_fields`), what WiseFood remembers
//! (`household::memories`), and every other key as stored.
//!
//! The form saves what changed when asked. *Correct*, *Forget* and the move from Larder's
//! earlier key names save at once, as production's front end does: the change is made to the
//! saved profile and sent; once it is saved, the same change is made to the form, so whatever
//! else was being edited stays; if it fails, nothing on the form moves.

use std::rc::Rc;

use larder_api::enums::DIETARY_GROUPS;
use larder_api::types::{Profile, ProfileChanges, ProfileInput};
use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::toast::{on_answer, Toasts};
use crate::components::unsaved::UnsavedChanges;
use crate::household::allergy_picker::AllergyPicker;
use crate::household::chip_select::ChipSelect;
use crate::household::earlier_keys::MoveEarlierKeys;
use crate::household::kv_editor::{KvEditor, KvState};
use crate::household::memories::{MemoryChange, Remembered};
use crate::household::profile_fields::{goal_label, KnownFields, KnownFieldsView};
use crate::household::rules::{allergies, earlier, memories, profile_keys};
use crate::i18n::{k, t, tf};
use crate::ApiClient;

/// A change saved at once.
type Change = Rc<dyn Fn(&mut Profile)>;

/// The form. Created on first save (`POST`, which the service treats as "create or update");
/// afterwards only the changed fields are sent. The service ignores `properties` when it
/// creates a profile, so a new profile's properties are sent right after, as a change.
#[component]
pub fn ProfileForm(member_id: String, profile: Option<Profile>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let original = RwSignal::new(profile.clone());
    let start = profile.unwrap_or_default();
    let groups = RwSignal::new(start.dietary_groups.clone());
    let allergy_values = RwSignal::new(start.allergies.clone());
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
    // The form as a profile; `fold`: allergies as they will be saved (known names as ids).
    let collect = move |fold: bool| -> Result<Profile, String> {
        let mut after = original.get().unwrap_or_default();
        after.dietary_groups = groups.get();
        after.allergies = allergy_values.with(|v| {
            if fold {
                allergies::for_saving(v)
            } else {
                v.clone()
            }
        });
        let other_preferences = preferences
            .read()
            .map_err(|p| tf("Nutritional preferences: {problem}", &[("problem", &p)]))?;
        let other_properties = properties
            .read()
            .map_err(|p| tf("Properties: {problem}", &[("problem", &p)]))?;
        let typed = known.read()?;
        (after.nutritional_preferences, after.properties) = split
            .with_value(|s| profile_keys::merge(s, &typed, &other_preferences, &other_properties));
        Ok(after)
    };
    let edited = move || collect(true);
    // What is saved, with its allergies as a save would write them: a stored `dairy` that a
    // save would write as `milk` is not an unsaved change of the member's.
    let baseline = move || {
        original.get().map(|mut p| {
            p.allergies = allergies::for_saving(&p.allergies);
            p
        })
    };
    let dirty = Signal::derive(move || match (baseline(), edited()) {
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
        groups.set(profile.dietary_groups.clone());
        allergy_values.set(profile.allergies.clone());
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

    // Changes saved at once: made to the saved profile and sent; once saved, made to the form.
    let waiting = StoredValue::new_local(None::<(Change, String)>);
    let now_client = client.clone();
    let now = Action::new_local(move |changes: &ProfileChanges| {
        let (client, changes, id) = (now_client.clone(), changes.clone(), member_id.get_value());
        async move { client.update_profile(&id, &changes).await }
    });
    // Not `on_answer`: a failure also forgets the waiting change, and nothing read here is
    // tracked, so the effect runs once per answer, never again on an edit of the form.
    Effect::new(move || {
        let Some(answer) = now.value().get() else {
            return;
        };
        untrack(move || match answer {
            Ok(saved) => {
                error.set(None);
                if let Some((change, done)) = waiting.get_value() {
                    toasts.success(done);
                    // The form's other edits stay; a form that cannot be read (its JSON being
                    // typed) keeps what it shows.
                    if let Ok(mut form) = collect(false) {
                        change(&mut form);
                        show(&form);
                    }
                }
                waiting.set_value(None);
                original.set(Some(saved));
            }
            Err(failure) => {
                waiting.set_value(None);
                toasts.error(&failure);
                error.set(Some(failure));
            }
        });
    });
    let change_now = move |change: Change, done: String| {
        let Some(before) = original.get_untracked() else {
            return;
        };
        if let Err(p) = collect(false) {
            return problem.set(Some(p));
        }
        let mut after = before.clone();
        change(&mut after);
        let changes = ProfileChanges::between(&before, &after);
        if changes.is_empty() {
            toasts.success(t("Nothing to save"));
            return;
        }
        problem.set(None);
        waiting.set_value(Some((change, done)));
        now.dispatch(changes);
    };
    let on_memory = Callback::new(move |asked: MemoryChange| {
        let (change, done): (Change, String) = match asked {
            MemoryChange::Forget(memory) => (
                Rc::new(move |p: &mut Profile| memories::forget(p, &memory)),
                t("Forgotten"),
            ),
            MemoryChange::Correct {
                memory,
                kind,
                value,
            } => {
                let at = String::from(js_sys::Date::new_0().to_iso_string());
                (
                    Rc::new(move |p: &mut Profile| {
                        memories::correct(p, &memory, &kind, &value, &at, &goal_label)
                    }),
                    t("Corrected"),
                )
            }
        };
        change_now(change, done);
    });
    let on_move = Callback::new(move |_| {
        change_now(
            Rc::new(|p: &mut Profile| earlier::apply(p, &goal_label)),
            t("Moved to production's names"),
        );
    });

    let delete = Action::new_local(move |_: &()| {
        let (client, id) = (client.clone(), member_id.get_value());
        async move { client.delete_profile(&id).await }
    });
    on_answer(delete, Some(error), move |_| {
        toasts.success(t("Profile deleted"));
        original.set(None);
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
    let busy = Signal::derive(move || save.pending().get() || now.pending().get());
    let saved_allergies = Signal::derive(move || {
        original.with(|p| p.as_ref().map(|p| p.allergies.clone()).unwrap_or_default())
    });
    view! {
        <section aria-labelledby="profile-title" class="card">
            <h2 id="profile-title">{move || t("Dietary profile")}</h2>
            {move || original.with(Option::is_none).then(|| view! { <p class="hint">{move || t("This member has no profile yet: it is created when you save.")}</p> })}
            <MoveEarlierKeys profile=original pending=busy on_move/>
            <form class="stack" on:submit=submit novalidate>
                <ChipSelect selected=groups label=k("Dietary groups") id="profile-groups" options=DIETARY_GROUPS enumeration="dietary_group"/>
                <AllergyPicker values=allergy_values/>
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
                    <button type="submit" class="primary" disabled=move || busy.get()>
                        {move || if save.pending().get() { t("Saving…") } else { t("Save profile") }}
                    </button>
                </div>
            </form>
            // Outside the form: each correction is a form of its own, saved at once.
            {move || original.with(Option::is_some).then(|| view! {
                <Remembered log=known.items(1) seeds=known.items(2) allergies=saved_allergies pending=busy change=on_memory/>
            })}
        </section>
    }
}
