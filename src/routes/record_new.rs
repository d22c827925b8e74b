//! `/records/{collection}/new`: the create form of any collection. Query parameters naming a
//! creatable field pre-fill it (a guideline's `guide_urn`, an artifact's `parent_urn`), and
//! `back` says where to go after saving.

use std::collections::BTreeMap;

use larder_api::{ApiError, Record};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::components::toast::Toasts;
use crate::components::unsaved::UnsavedChanges;
use crate::i18n::{capitalized, plural_name, singular_name, t, tf};
use crate::kb::gates::can_create;
use crate::kb::record_form::{apply_field_errors, RecordForm};
use crate::kb::schema::form::{create_body, create_editors, Errors};
use crate::kb::schema::Schema;
use crate::kb::{use_schema, CollectionNav};
use crate::paths::record_href;
use crate::ApiClient;

/// The create page.
#[component]
pub fn RecordNew() -> impl IntoView {
    let schema = use_schema();
    move || match schema.get() {
        Some(schema) => view! { <NewOf schema/> }.into_any(),
        None => view! { <h1>{move || t("No such collection")}</h1><CollectionNav current=""/> }
            .into_any(),
    }
}

/// Only known, creatable fields may be pre-filled, and only with a value; `back` must be a path
/// inside the console.
fn template_and_back(
    schema: &Schema,
    query: &leptos_router::params::ParamsMap,
) -> (Record, Option<String>) {
    let mut template = Record::new();
    for field in schema
        .fields()
        .into_iter()
        .filter(|f| schema.is_creatable(f.name))
    {
        if let Some(value) = query.get(field.name).filter(|v| !v.is_empty()) {
            template.insert(field.name.to_string(), serde_json::Value::String(value));
        }
    }
    let back = query
        .get("back")
        .filter(|b| b.starts_with('/') && !b.starts_with("//"));
    (template, back)
}

#[component]
fn NewOf(schema: &'static Schema) -> impl IntoView {
    let path = schema.collection.path;
    let client = expect_context::<ApiClient>();
    let session = expect_context::<crate::session::Session>();
    let toasts = expect_context::<Toasts>();
    let navigate = use_navigate();
    let (template, back) = use_query_map().with_untracked(|q| template_and_back(schema, q));
    let editors = StoredValue::new(create_editors(schema, &template));
    let inputs = RwSignal::new(BTreeMap::new());
    let slug = RwSignal::new(String::new());
    let errors = RwSignal::new(Errors::new());
    let failure = RwSignal::new(None::<ApiError>);
    let saved = RwSignal::new(false);
    let dirty = Signal::derive(move || {
        !saved.get()
            && (!slug.get().trim().is_empty()
                || editors.with_value(|eds| {
                    inputs.with(|m| {
                        eds.iter()
                            .any(|e| m.get(e.field.name).is_some_and(|v| *v != e.initial))
                    })
                }))
    });
    UnsavedChanges::track(dirty);

    let create = Action::new_local(move |body: &Record| {
        let (client, body) = (client.clone(), body.clone());
        async move { client.create_record(schema.collection, body).await }
    });
    let back_to = back.clone();
    Effect::new(move || match create.value().get() {
        Some(Ok(record)) => {
            saved.set(true);
            let id = schema.identifier_of(&record).unwrap_or_default();
            session.remember_record(path, &id, &record);
            toasts.success(tf(
                "{what} created",
                &[("what", &capitalized(&singular_name(schema.collection)))],
            ));
            let target = back_to.clone().unwrap_or_else(|| record_href(path, &id));
            navigate(&target, Default::default());
        }
        // Shown in the form, not as a toast: a lasting toast would cover the form's buttons.
        Some(Err(error)) => {
            apply_field_errors(&error, errors);
            // A 409 is the URN's only when it names it: a guide's other conflicts (an active
            // guide unverified, production.md §2.2) are not about the slug.
            let typed = slug.get_untracked();
            let urn = format!(
                "{}{}",
                schema.collection.urn_prefix().unwrap_or_default(),
                typed.trim()
            );
            let about_the_urn = !typed.trim().is_empty() && error.detail().contains(&urn);
            if error.status() == Some(409) && schema.has_urn() && about_the_urn {
                errors.update(|e| {
                    e.insert("urn".into(), error.detail());
                });
            }
            failure.set(Some(error));
        }
        None => {}
    });
    let on_submit = Callback::new(move |()| {
        failure.set(None);
        let body = editors.with_value(|eds| {
            inputs.with_untracked(|m| create_body(schema, &slug.get_untracked(), eds, m))
        });
        match body {
            Ok(body) => {
                errors.set(Errors::new());
                create.dispatch(body);
            }
            Err(problems) => errors.set(problems),
        }
    });
    let navigate_cancel = use_navigate();
    let cancel_target = back.unwrap_or_else(|| format!("/records/{path}"));
    let on_cancel = Callback::new(move |()| navigate_cancel(&cancel_target, Default::default()));
    let writable = can_create(schema);
    view! {
        <p class="breadcrumbs"><A href=crate::hosting::link(format!("/records/{path}"))>{move || plural_name(schema.collection)}</A></p>
        <h1>{move || tf("New {what}", &[("what", &singular_name(schema.collection))])}</h1>
        <Show when=move || !writable.get()>
            <p class="hint" role="note">{move || t("Your roles may not allow creating here; the service will say if it refuses.")}</p>
        </Show>
        <RecordForm editors=editors.get_value() inputs errors failure
            slug=schema.has_urn().then_some(slug) urn_prefix=schema.collection.urn_prefix().unwrap_or_default()
            submit_label=tf("Create {what}", &[("what", &singular_name(schema.collection))])
            pending=create.pending() on_submit on_cancel/>
    }
}

/// `/records/{collection}/new`.
#[derive(Clone, Copy)]
pub struct NewRecordRoute;

impl crate::lazy::Page for NewRecordRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::KnowledgeBase;

    fn data(_: crate::session::Session) -> Self {
        NewRecordRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_new_record(self).await
    }
}

crate::split_entry!(knowledge_base_pages, draw_new_record, NewRecordRoute => |_| view! { <RecordNew/> });
