//! Knowledge base › Overview (issue 40 item 1), for curators and administrators: per collection
//! its total, its lifecycle and review status as bars (articles by reading visibility too), and
//! the guidelines awaiting review, from one search per collection (`kb::schema::overview`).
//! Each bar is drawn as SVG (attributes only, so the page's style policy holds) with its legend
//! of links, each number leading to the list of exactly those rows, and its numbers as a table
//! on demand; a collection whose search fails shows its failure alone.

use larder_api::types::FacetCount;
use larder_api::{ApiError, SearchResults};
use larder_contract::collections::{Browsing, CURATORS};
use larder_contract::Collection;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::not_allowed::NotAllowed;
use crate::i18n::format::number;
use crate::i18n::{capitalized, k, plural_name, t, tf, tn, value_label};
use crate::kb::schema::overview::{
    awaiting_review, breakdowns_of, list_href, query, segments, Segment,
};
use crate::kb::schema::{label, SCHEMAS};
use crate::session::Session;
use crate::ApiClient;

/// Colours a bar cycles through (classes `seg-0` … in the stylesheet, for both themes).
const COLOURS: usize = 6;

/// The collections the overview counts: those listed and searched collection-wide (not a
/// textbook's passages, nor artifacts, which live on their parents' pages).
fn counted() -> impl Iterator<Item = &'static Collection> {
    SCHEMAS
        .iter()
        .map(|schema| schema.collection)
        .filter(|c| c.routes.search.by_reference() && c.browsing() == Browsing::List)
}

/// The page: the overview for curators and administrators, "Not allowed" for anyone else.
#[component]
pub fn Overview() -> impl IntoView {
    let session = expect_context::<Session>();
    let allowed = move || {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| CURATORS.allows(&i.roles)))
    };
    move || {
        if allowed() {
            view! {
                <h1 tabindex="-1">{move || t("Overview")}</h1>
                <p class="hint">{move || t("Counted by the service's search; each number opens the list it counts.")}</p>
                <div class="overview-grid">
                    {counted().map(|collection| view! { <CollectionCard collection/> }).collect_view()}
                </div>
            }
            .into_any()
        } else {
            view! { <NotAllowed needs=k("the role expert or admin")/> }.into_any()
        }
    }
}

#[component]
fn CollectionCard(collection: &'static Collection) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let counts = LocalResource::new(move || {
        let client = client.clone();
        async move { client.search_records(collection, &query(collection)).await }
    });
    let heading = format!("overview-{}", collection.path);
    let labelled_by = heading.clone();
    view! {
        <section class="card overview-card" aria-labelledby=labelled_by data-collection=collection.path>
            <h2 id=heading>
                <A href=crate::hosting::link(list_href(collection, None))>{move || plural_name(collection)}</A>
            </h2>
            <Transition fallback=|| view! { <Loading what=k("Counting…")/> }>
                {move || counts.get().map(|answer| card_body(collection, answer, counts))}
            </Transition>
        </section>
    }
}

fn card_body(
    collection: &'static Collection,
    answer: Result<SearchResults, ApiError>,
    counts: LocalResource<Result<SearchResults, ApiError>>,
) -> AnyView {
    let results = match answer {
        Ok(results) => results,
        Err(error) => {
            return view! { <ErrorView error retry=Callback::new(move |_| counts.refetch())/> }
                .into_any()
        }
    };
    let total = results.total;
    let facet =
        |field: &str| -> Vec<FacetCount> { results.facets.get(field).cloned().unwrap_or_default() };
    let waiting = awaiting_review(collection, &facet("review_status"));
    view! {
        <p class="overview-total">
            <A href=crate::hosting::link(list_href(collection, None))>
                <strong>{number(total as f64)}</strong>
            </A>
            " " {move || tn("records", total as i64, &[])}
        </p>
        {breakdowns_of(collection).into_iter().map(|field| {
            let parts = segments(&facet(field), total);
            view! { <Bar collection field parts/> }
        }).collect_view()}
        {(!waiting.is_empty()).then(|| view! {
            <p class="awaiting" data-testid="awaiting-review">
                <strong>{move || t("Awaiting review:")}</strong>
                {waiting.into_iter().map(|(state, count)| view! {
                    " "
                    <A href=crate::hosting::link(list_href(collection, Some(("review_status", state))))>
                        {move || tf("{count} {state}", &[("count", &number(count as f64)), ("state", &value_words("review_status", state))])}
                    </A>
                }).collect_view()}
            </p>
        })}
    }
    .into_any()
}

/// A facet value in words.
fn value_words(field: &str, value: &str) -> String {
    capitalized(&value_label(field, value))
}

/// One breakdown: the bar (SVG, decorative: its legend says the same), the legend of links,
/// and the numbers as a table on demand.
#[component]
fn Bar(collection: &'static Collection, field: &'static str, parts: Vec<Segment>) -> impl IntoView {
    let navigate = use_navigate();
    let caption = label(field);
    if parts.is_empty() {
        return view! {
            <figure class="breakdown" data-field=field>
                <figcaption>{caption}</figcaption>
                <p class="muted">{move || t("No values to count.")}</p>
            </figure>
        }
        .into_any();
    }
    let href = move |value: &str| crate::hosting::link(list_href(collection, Some((field, value))));
    let rects = parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            // The router adds the base itself.
            let to = list_href(collection, Some((field, &part.value)));
            let navigate = navigate.clone();
            view! {
                <rect x=format!("{:.3}", part.start * 100.0) y="0" width=format!("{:.3}", part.width * 100.0) height="10"
                    class=format!("seg seg-{}", index % COLOURS)
                    on:click=move |_| navigate(&to, Default::default())/>
            }
        })
        .collect_view();
    let legend = parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            let words = value_words(field, &part.value);
            let count = number(part.count as f64);
            view! {
                <li>
                    <span class=format!("swatch seg-{}", index % COLOURS) aria-hidden="true"></span>
                    <A href=href(&part.value)>{format!("{words}: {count}")}</A>
                </li>
            }
        })
        .collect_view();
    let rows = parts
        .iter()
        .map(|part| {
            view! {
                <tr>
                    <th scope="row">{value_words(field, &part.value)}</th>
                    <td class="num">{number(part.count as f64)}</td>
                    <td class="num">{format!("{} %", number((part.width * 1000.0).round() / 10.0))}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <figure class="breakdown" data-field=field>
            <figcaption>{caption.clone()}</figcaption>
            <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                {rects}
            </svg>
            <ul class="legend">{legend}</ul>
            <details class="as-table">
                <summary>{move || t("Show as a table")}</summary>
                <div class="table-wrap">
                <table>
                    <caption class="visually-hidden">{caption}</caption>
                    <thead><tr>
                        <th scope="col">{move || t("Value")}</th>
                        <th scope="col" class="num">{move || t("Records")}</th>
                        <th scope="col" class="num">{move || t("Share")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
                </div>
            </details>
        </figure>
    }
    .into_any()
}

/// `/overview`: each card reads what it shows itself.
#[derive(Clone, Copy)]
pub struct OverviewRoute;

impl crate::lazy::Page for OverviewRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::RecordList;

    fn data(_: crate::session::Session) -> Self {
        OverviewRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_overview(self).await
    }
}

crate::split_entry!(record_list_pages, draw_overview, OverviewRoute => |_| view! { <Overview/> });
