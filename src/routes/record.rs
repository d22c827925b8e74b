//! `/records/{collection}/{id}`: one record with every field, edit in place, delete after
//! confirmation, enhance, and what relates to it (a guide's guidelines, a textbook's structure
//! and pages, artifacts of any record that has them, an artifact's download).

use larder_api::Record;
use larder_contract::collections::{ARTIFACTS, GUIDELINES};
use larder_contract::Offered;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::components::confirm::ConfirmButton;
use crate::components::download::DownloadButton;
use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::toast::{on_answer, Toasts};
use crate::i18n::{capitalized, k, plural_name, singular_name, t, tf, tn};
use crate::kb::ai_mark::AiBadge;
use crate::kb::artifacts::ArtifactsOf;
use crate::kb::edit::EditRecord;
use crate::kb::enhance::EnhancePanel;
use crate::kb::gates::{can_delete, can_write};
use crate::kb::guidelines::GuidelinesOf;
use crate::kb::history::RecordTabs;
use crate::kb::schema::{label, Schema};
use crate::kb::structure::TextbookStructure;
use crate::kb::value_view::ValueView;
use crate::kb::{parent_of, use_record_id, use_schema, CollectionNav};
use crate::ApiClient;

/// The detail page.
#[component]
pub fn RecordPage() -> impl IntoView {
    let schema = use_schema();
    let id = use_record_id();
    move || match schema.get() {
        Some(schema) => view! { <RecordOf schema id=id.get()/> }.into_any(),
        None => view! { <h1>{move || t("No such collection")}</h1><CollectionNav current=""/> }
            .into_any(),
    }
}

#[component]
fn RecordOf(schema: &'static Schema, id: String) -> impl IntoView {
    let path = schema.collection.path;
    let client = expect_context::<ApiClient>();
    let session = expect_context::<crate::session::Session>();
    let version = RwSignal::new(0u32);
    let identifier = StoredValue::new(id);
    let record = LocalResource::new(move || {
        version.track();
        let client = client.clone();
        async move {
            session
                .load_record(&client, schema, &identifier.get_value())
                .await
        }
    });
    let editing = RwSignal::new(false);
    view! {
        <p class="breadcrumbs"><A href=crate::hosting::link(format!("/records/{path}"))>{move || plural_name(schema.collection)}</A></p>
        <Transition fallback=|| view! { <Loading what=k("Loading the record…")/> }>
            {move || record.get().map(|result| match result {
                Err(error) => view! {
                    <h1>{move || capitalized(&singular_name(schema.collection))}</h1>
                    <ErrorView error retry=move |_| version.update(|v| *v += 1)/>
                }.into_any(),
                Ok(record) => view! {
                    <Loaded schema record editing version/>
                }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn Loaded(
    schema: &'static Schema,
    record: Record,
    editing: RwSignal<bool>,
    version: RwSignal<u32>,
) -> impl IntoView {
    let path = schema.collection.path;
    let identifier = schema.identifier_of(&record).unwrap_or_default();
    let title = schema
        .title_of(&record)
        .unwrap_or_else(|| identifier.clone());
    // A published guide takes no change or delete (production answers 409): no buttons for them.
    let frozen = schema.collection.is_frozen(&record);
    let writable = can_write(schema);
    let deletable = can_delete(schema);
    let client = expect_context::<ApiClient>();
    let session = expect_context::<crate::session::Session>();
    let toasts = expect_context::<Toasts>();
    let navigate = use_navigate();
    let parent = parent_of(&record);
    // A child goes back to its parent after a delete: a guideline to its guide, and so on.
    let back_to = parent.as_ref().map(|(href, _)| href.clone());
    let delete_id = identifier.clone();
    let delete = Action::new_local(move |_: &()| {
        let (client, id) = (client.clone(), delete_id.clone());
        async move {
            client
                .delete_record(schema.collection, &id)
                .await
                .map(|_| id)
        }
    });
    on_answer(delete, None, move |id| {
        session.forget_record(path, &id);
        toasts.success(tf(
            "{what} deleted",
            &[("what", &capitalized(&singular_name(schema.collection)))],
        ));
        navigate(
            &back_to
                .clone()
                .unwrap_or_else(|| format!("/records/{path}")),
            Default::default(),
        );
    });
    let question_title = StoredValue::new(title.clone());
    let question = move || {
        tf(
            "Delete “{title}”? This cannot be undone.",
            &[("title", &question_title.get_value())],
        )
    };
    let record = StoredValue::new(record);
    let urn = record.with_value(|r| r.get("urn").and_then(|v| v.as_str()).map(str::to_string));
    // What hangs from a record follows from the contract: a collection whose parent is this one
    // (a guide's guidelines), a structure tree (a textbook's pages), files (any URN record).
    let parent_of_guidelines = GUIDELINES.parent.and_then(|p| p.collection) == Some(path);
    let has_structure = schema
        .field("structure_tree")
        .is_some_and(|f| f.ty == larder_contract::Type::Tree);
    let is_file = path == ARTIFACTS.path;
    let holds_files = schema.has_urn()
        && ARTIFACTS
            .parent
            .is_some_and(|p| p.collection.is_none_or(|only| only == path));
    let enhanceable = schema.collection.routes.enhance != Offered::Absent;
    let sections = move || {
        let record = record.get_value();
        view! {
            {parent_of_guidelines.then(|| urn.clone().map(|urn| view! { <GuidelinesOf guide_urn=urn/> }))}
            {has_structure.then(|| urn.clone().map(|urn| view! { <TextbookStructure textbook=record.clone() textbook_urn=urn version/> }))}
            {is_file.then(|| {
                let id = record.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
                let name = larder_api::artifacts::file_name_of(&record);
                view! { <section class="card section"><h2>{move || t("File")}</h2><DownloadButton artifact_id=id file_name=name/></section> }
            })}
            {holds_files.then(|| urn.clone().map(|urn| view! {
                <ArtifactsOf parent_urn=urn embedded=record.get("artifacts").cloned() version/>
            }))}
            {enhanceable.then(|| view! { <EnhancePanel schema record=record.clone() version/> })}
        }
    };
    view! {
        <div class="records-head">
            <h1>{title.clone()}</h1>
            <div class="actions">
                <Show when=move || writable.get() && !editing.get() && !frozen>
                    <button type="button" on:click=move |_| editing.set(true)>{move || t("Edit")}</button>
                </Show>
                <Show when=move || deletable.get() && !editing.get() && !frozen>
                    <ConfirmButton label=move || tf("Delete {what}", &[("what", &singular_name(schema.collection))])
                        confirm_label=move || t("Delete") question=question on_confirm=Callback::new(move |()| { delete.dispatch(()); })
                        disabled=delete.pending()/>
                </Show>
            </div>
        </div>
        <p class="identifier"><code>{identifier.clone()}</code></p>
        {frozen.then(|| view! {
            <p class="hint" role="note">{move || tf("This {what} is published (active and public): the service accepts no change to it and no deletion.", &[("what", &singular_name(schema.collection))])}</p>
        })}
        {parent.map(|(href, collection)| view! {
            <p class="parent-link"><A href=crate::hosting::link(href)>{move || tf("Back to the {what}", &[("what", &singular_name(collection))])}</A></p>
        })}
        {move || if editing.get() {
            view! { <EditRecord schema record=record.get_value() editing version/> }.into_any()
        } else {
            let sections = sections.clone();
            view! { <RecordTabs record=record.get_value()><Fields schema record=record.get_value()/> {sections()}</RecordTabs> }.into_any()
        }}
    }
}

/// Every field: the known ones in schema order (immutables marked), then the unknown ones.
#[component]
fn Fields(schema: &'static Schema, record: Record) -> impl IntoView {
    let known: Vec<_> = schema
        .fields()
        .into_iter()
        .filter_map(|f| {
            record
                .get(f.name)
                .filter(|v| !v.is_null())
                .map(|v| (f.name.to_string(), v.clone(), !schema.is_editable(f.name)))
        })
        .collect();
    let empty: Vec<String> = schema
        .fields()
        .into_iter()
        .filter(|f| record.get(f.name).is_none_or(|v| v.is_null()))
        .map(|f| label(f.name))
        .collect();
    let unknown: Vec<_> = schema
        .unknown_fields(&record)
        .into_iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let marks = crate::kb::schema::provenance::ai_marks(&record);
    let row = |(name, value, fixed): (String, serde_json::Value, bool)| {
        let field = name.clone();
        let ai = marks.get(&name).cloned();
        view! {
            <div class="field-row">
                <dt>{label(&name)}{fixed.then(|| view! { " " <span class="badge" title=move || t("The service does not let an edit change it")>{move || t("fixed")}</span> })}{ai.map(|mark| view! { " " <AiBadge mark/> })}</dt>
                <dd><ValueView value field/></dd>
            </div>
        }
    };
    view! {
        <section class="card section" aria-labelledby="fields-heading">
            <h2 id="fields-heading">{move || t("Fields")}</h2>
            <dl class="fields">{known.into_iter().map(row).collect_view()}</dl>
            {(!empty.is_empty()).then(|| {
                let empty_count = empty.len();
                view! {
                <details class="empty-fields">
                    <summary>{move || tn("{count} empty fields", empty_count as i64, &[])}</summary>
                    <p class="muted">{empty.join(", ")}</p>
                </details>
                }
            })}
            {(!unknown.is_empty()).then(|| view! {
                <h3>{move || t("Other fields")}</h3>
                <p class="hint">{move || t("Fields this console does not know: shown as sent, and kept as they are by an edit.")}</p>
                <dl class="fields unknown-fields">
                    {unknown.into_iter().map(|(name, value)| view! {
                        <div class="field-row"><dt><code>{name}</code></dt><dd><ValueView value/></dd></div>
                    }).collect_view()}
                </dl>
            })}
        </section>
    }
}

/// `/records/{collection}/{id}`: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct RecordRoute;

impl crate::lazy::Page for RecordRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::KnowledgeBase;

    fn data(_: crate::session::Session) -> Self {
        RecordRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_record(self).await
    }
}

crate::split_entry!(knowledge_base_pages, draw_record, RecordRoute => |_| view! { <RecordPage/> });
