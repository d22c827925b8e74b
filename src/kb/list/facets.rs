//! Facet counts that filter when clicked, and the active filters as removable chips.

use std::collections::BTreeMap;

use larder_api::types::FacetCount;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::components::pager::{use_page, LONGEST_PAGE};
use crate::i18n::{t, tf};
use crate::kb::schema::search::SearchState;
use crate::kb::schema::value::display;
use crate::kb::schema::{filter, label, Schema};

/// Each facet field with its values and counts; a value toggles its `field:value` filter.
#[component]
pub fn Facets(
    schema: &'static Schema,
    facets: BTreeMap<String, Vec<FacetCount>>,
    state: Memo<SearchState>,
) -> impl IntoView {
    let navigate = use_navigate();
    let page = use_page(25, LONGEST_PAGE);
    let groups: Vec<(String, Vec<FacetCount>)> = schema
        .facets
        .iter()
        .filter_map(|f| facets.get(*f).map(|counts| (f.to_string(), counts.clone())))
        .filter(|(_, counts)| !counts.is_empty())
        .collect();
    if groups.is_empty() {
        return view! { <p class="hint">{move || t("No facets for these results.")}</p> }
            .into_any();
    }
    view! {
        <div class="facets">
            {groups.into_iter().map(|(field, counts)| {
                let heading = label(&field);
                let navigate = navigate.clone();
                view! {
                    <section class="facet" aria-label=tf("Filter by {field}", &[("field", &heading)])>
                        <h2>{heading.clone()}</h2>
                        <ul>
                            {counts.into_iter().map(|count| {
                                let fq = filter(&field, &count.value);
                                let active_fq = fq.clone();
                                let active = move || state.get().fq.contains(&active_fq);
                                let text = display(&count.value);
                                let text = if text.is_empty() { t("(none)") } else { crate::kb::schema::labels::facet_value(&field, &text) };
                                let navigate = navigate.clone();
                                let toggle = move |_| {
                                    let mut next = state.get_untracked();
                                    if let Some(at) = next.fq.iter().position(|f| *f == fq) {
                                        next.fq.remove(at);
                                    } else {
                                        next.fq.push(fq.clone());
                                    }
                                    next.q.get_or_insert_with(String::new);
                                    navigate(&next.href(page.get_untracked().0), Default::default());
                                };
                                view! {
                                    <li>
                                        <button type="button" class="facet-value" aria-pressed=move || active().to_string() on:click=toggle>
                                            <span>{text}</span><span class="count">{count.count}</span>
                                        </button>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </section>
                }
            }).collect_view()}
        </div>
    }
    .into_any()
}

/// The filters in force, each with a button that removes it.
#[component]
pub fn ActiveFilters(state: Memo<SearchState>) -> impl IntoView {
    let navigate = use_navigate();
    let page = use_page(25, LONGEST_PAGE);
    move || {
        let filters = state.get().fq;
        let navigate = navigate.clone();
        (!filters.is_empty()).then(|| view! {
            <ul class="chip-list active-filters" aria-label=move || t("Filters in force")>
                {filters.into_iter().map(|f| {
                    let navigate = navigate.clone();
                    let removed = f.clone();
                    view! {
                        <li class="chip chip-item">
                            <span>{f.clone()}</span>
                            <button type="button" class="chip-remove" aria-label=tf("Remove filter {filter}", &[("filter", &f)])
                                on:click=move |_| {
                                    let mut next = state.get_untracked();
                                    next.fq.retain(|x| *x != removed);
                                    navigate(&next.href(page.get_untracked().0), Default::default());
                                }>"×"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        })
    }
}
