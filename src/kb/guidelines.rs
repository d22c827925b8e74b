//! A guide's guidelines, in sequence order, with search within the guide and a create link that
//! fills in the guide's URN. Editing and deleting a guideline happen on its own page.

use larder_api::{ApiError, Guideline, SearchQuery};
use leptos::prelude::*;
use leptos_router::components::A;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::i18n::{k, t};
use crate::kb::gates::can_create;
use crate::kb::highlight::Highlighted;
use crate::kb::list::guideline_import::GuidelineImport;
use crate::kb::schema::highlight::fragments;
use crate::kb::schema::schema_of;
use crate::paths::record_href;
use crate::ApiClient;
use larder_contract::collections::{GUIDELINES, GUIDES};

/// How many guidelines one view shows (a guide rarely has more).
const LIMIT: u32 = 200;

#[derive(Clone)]
struct Row {
    guideline: Guideline,
    highlight: Option<serde_json::Value>,
}

/// The guidelines of `guide_urn`.
#[component]
pub fn GuidelinesOf(guide_urn: String) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let urn = StoredValue::new(guide_urn);
    let q = RwSignal::new(String::new());
    let searched = RwSignal::new(String::new());
    let rows = LocalResource::new(move || {
        let (client, text) = (client.clone(), searched.get());
        async move {
            let rows = if text.trim().is_empty() {
                let mut found = client.guidelines_of(&urn.get_value(), LIMIT, 0).await?;
                // Listed by sequence already; sorted again so a service that does not still reads in order.
                found.sort_by_key(|g| (g.sequence_no.is_none(), g.sequence_no));
                found
                    .into_iter()
                    .map(|guideline| Row {
                        guideline,
                        highlight: None,
                    })
                    .collect()
            } else {
                let query = SearchQuery::new(text)
                    .page(LIMIT, 0)
                    .highlight(["rule_text", "title"]);
                let found = client
                    .search_guidelines_of(&urn.get_value(), &query)
                    .await?;
                found
                    .results
                    .into_iter()
                    .map(|hit| Row {
                        guideline: hit.record,
                        highlight: hit.highlight,
                    })
                    .collect()
            };
            Ok::<Vec<Row>, ApiError>(rows)
        }
    });
    let writable = can_create(schema_of(&GUIDELINES));
    let new_href = move || {
        let enc = larder_api::config::encode_component;
        let urn = urn.get_value();
        format!(
            "/records/guidelines/new?guide_urn={}&back={}",
            enc(&urn),
            enc(&record_href(GUIDES.path, &urn))
        )
    };
    view! {
        <section class="card section" aria-labelledby="guidelines-heading">
            <div class="records-head">
                <h2 id="guidelines-heading">{move || t("Guidelines")}</h2>
                <Show when=move || writable.get()>
                    <div class="actions">
                        <GuidelineImport guide_urn=urn.get_value() on_done=Callback::new(move |()| rows.refetch())/>
                        <A href=crate::hosting::link(new_href()) attr:class="button">{move || t("New guideline")}</A>
                    </div>
                </Show>
            </div>
            <form class="search-bar" role="search" on:submit=move |ev| { ev.prevent_default(); searched.set(q.get_untracked()); }>
                <label for="guideline-q" class="visually-hidden">{move || t("Search this guide's guidelines")}</label>
                <input id="guideline-q" type="search" placeholder=move || t("Search this guide's guidelines")
                    prop:value=move || q.get() on:input=move |ev| q.set(event_target_value(&ev))/>
                <button type="submit">{move || t("Search guidelines")}</button>
            </form>
            <Transition fallback=|| view! { <Loading what=k("Loading the guidelines…")/> }>
                {move || rows.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error/> }.into_any(),
                    Ok(rows) if rows.is_empty() => view! {
                        <p class="empty">{if searched.get_untracked().is_empty() { t("This guide has no guidelines yet.") } else { t("No guideline matches.") }}</p>
                    }.into_any(),
                    Ok(rows) => view! {
                        <ol class="guidelines">
                            {rows.into_iter().map(|row| {
                                let g = row.guideline;
                                let id = g.id.clone().unwrap_or_default();
                                let marked = fragments(row.highlight.as_ref(), "rule_text");
                                let text = g.rule_text.clone();
                                view! {
                                    <li>
                                        <span class="seq" title=move || t("Sequence number")>{g.sequence_no.map(|n| n.to_string()).unwrap_or_else(|| "–".into())}</span>
                                        <div>
                                            <A href=crate::hosting::link(record_href(GUIDELINES.path, &id))>{g.title.clone().filter(|t| !t.is_empty()).unwrap_or_else(|| t("Guideline"))}</A>
                                            <p>{if marked.is_empty() {
                                                text.into_any()
                                            } else {
                                                marked.into_iter().map(|f| view! { <Highlighted fragment=f/> }).collect_view().into_any()
                                            }}</p>
                                            <p class="muted">{[g.action_type.clone(), g.frequency.clone()]
                                                .into_iter().flatten().collect::<Vec<_>>().join(" · ")}</p>
                                        </div>
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    }.into_any(),
                })}
            </Transition>
        </section>
    }
}
