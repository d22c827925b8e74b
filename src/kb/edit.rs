//! Editing a record in place: only touched, changed, mutable fields are sent (PATCH); a failed
//! save keeps everything typed and puts the service's field errors beside their fields. Just
//! before saving, the record is read again: if it changed since the form opened, the conflict
//! dialog asks what to keep (see `kb::conflict`).

use std::collections::BTreeMap;

use larder_api::{ApiError, Record};
use leptos::prelude::*;

use crate::components::toast::Toasts;
use crate::components::unsaved::UnsavedChanges;
use crate::i18n::{capitalized, singular_name, t, tf};
use crate::kb::conflict::{ConflictDialog, Resolution};
use crate::kb::record_form::{apply_field_errors, RecordForm};
use crate::kb::schema::conflict::changed_since;
use crate::kb::schema::form::{changes, edit_editors, edited_record, Errors};
use crate::kb::schema::Schema;
use crate::kb::watch::FormChanged;
use crate::ApiClient;

/// What a save came to.
#[derive(Clone)]
enum Saved {
    /// Stored; the record as the service answered.
    Done(Record),
    /// Not sent: the record changed meanwhile. As opened, as now, as edited.
    Conflict(Record, Record, Record),
}

/// The edit form of `record`; closes itself (and re-reads the record) after a save.
#[component]
pub fn EditRecord(
    schema: &'static Schema,
    record: Record,
    editing: RwSignal<bool>,
    version: RwSignal<u32>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let session = expect_context::<crate::session::Session>();
    let toasts = expect_context::<Toasts>();
    let identifier = schema.identifier_of(&record).unwrap_or_default();
    let editors = StoredValue::new(edit_editors(schema, &record));
    let original = StoredValue::new(record);
    let inputs = RwSignal::new(BTreeMap::new());
    let errors = RwSignal::new(Errors::new());
    let failure = RwSignal::new(None::<ApiError>);
    let dirty = Signal::derive(move || {
        editing.get()
            && editors.with_value(|eds| {
                inputs.with(|m| {
                    eds.iter()
                        .any(|e| m.get(e.field.name).is_some_and(|v| *v != e.initial))
                })
            })
    });
    UnsavedChanges::track(dirty);

    let id = StoredValue::new(identifier);
    // The record as the service holds it now and the edited one, while the dialog asks.
    let conflict = RwSignal::new(None::<(Record, Record, Record)>);
    let save = Action::new_local(move |after: &Record| {
        let (client, after) = (client.clone(), after.clone());
        let before = original.get_value();
        async move {
            let now = client
                .get_record(schema.collection, &id.get_value())
                .await?;
            if changed_since(schema, &before, &now) {
                return Ok(Saved::Conflict(before, now, after));
            }
            client
                .update_record(schema.collection, &id.get_value(), &before, &after)
                .await
                .map(Saved::Done)
        }
    });
    Effect::new(move || match save.value().get() {
        Some(Ok(Saved::Conflict(before, now, after))) => conflict.set(Some((before, now, after))),
        Some(Ok(Saved::Done(updated))) => {
            session.remember_record(schema.collection.path, &id.get_value(), &updated);
            toasts.success(tf(
                "{what} saved",
                &[("what", &capitalized(&singular_name(schema.collection)))],
            ));
            editing.set(false);
            version.update(|v| *v += 1);
        }
        // Shown in the form, not as a toast: a lasting toast would cover the form's buttons.
        Some(Err(error)) => {
            apply_field_errors(&error, errors);
            failure.set(Some(error));
        }
        None => {}
    });
    let on_submit = Callback::new(move |()| {
        failure.set(None);
        let after = editors.with_value(|eds| {
            inputs.with_untracked(|m| {
                original.with_value(|before| edited_record(schema, before, eds, m))
            })
        });
        match after {
            Ok(after)
                if original
                    .with_value(|before| changes(schema, before, &after))
                    .is_empty() =>
            {
                toasts.success(t("Nothing changed"));
                editing.set(false);
            }
            Ok(after) => {
                errors.set(Errors::new());
                save.dispatch(after);
            }
            Err(problems) => errors.set(problems),
        }
    });
    let on_cancel = Callback::new(move |()| editing.set(false));
    let on_resolve = Callback::new(move |resolution: Resolution| {
        let Some((_, now, _)) = conflict.get_untracked() else {
            return;
        };
        conflict.set(None);
        match resolution {
            // Saved over their version: it is checked again, so a third change is caught too.
            Resolution::Save(record) => {
                original.set_value(now);
                save.dispatch(record);
            }
            Resolution::TakeTheirs => {
                session.remember_record(schema.collection.path, &id.get_value(), &now);
                editing.set(false);
                version.update(|v| *v += 1);
            }
            Resolution::Back => {}
        }
    });
    view! {
        <section class="card section" aria-label=move || t("Edit")>
            <h2>{move || t("Edit")}</h2>
            <p class="hint">{move || t("Only the fields you change are sent. Fields this console does not know are kept as they are.")}</p>
            <FormChanged schema opened=original.get_value() id=id.get_value()/>
            <RecordForm editors=editors.get_value() inputs errors failure slug=None
                submit_label=t("Save changes") pending=save.pending() on_submit on_cancel/>
            {move || conflict.get().map(|(base, theirs, mine)| view! {
                <ConflictDialog schema base theirs mine on_resolve/>
            })}
        </section>
    }
}
