//! `/records/{collection}`: a paged list of any collection, and its search with facets, sort and
//! highlights. The URL's query (`q`, `fq`, `sort`, `limit`, `offset`) is the whole page state.

use std::collections::BTreeMap;
use std::sync::Arc;

use larder_api::types::{FacetCount, SearchResults};
use larder_api::{ApiError, Record, SearchQuery};
use larder_contract::limits::MAX_PAGE_SIZE;
use larder_contract::text::lowercase;
use larder_contract::{Browsing, Collection};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::pager::{use_page, Pager, LONGEST_PAGE};
use crate::i18n::{capitalized, k, plural_name, singular_name, t, tf, tn};
use crate::kb::gates::can_create;
use crate::kb::list::bulk::BulkBar;
use crate::kb::list::export_button::ExportButton;
use crate::kb::list::facets::{ActiveFilters, Facets};
use crate::kb::list::key_sheet::ListKeys;
use crate::kb::list::list_views::{provide_columns, ListViews, ShownColumns};
use crate::kb::list::records_table::{Table, TableRow};
use crate::kb::list::selection::Selection;
use crate::kb::schema::changes::stamp_of;
use crate::kb::schema::search::{SearchState, HIGHLIGHTED};
use crate::kb::schema::window::chunks;
use crate::kb::schema::Schema;
use crate::kb::watch::ListChanges;
use crate::kb::{use_schema, CollectionNav};
use crate::session::Session;
use crate::ApiClient;

/// Default page size of lists.
const PAGE_SIZE: u32 = 25;
/// A page's rows, built once when its answers arrive. The rows sit behind an `Arc` because the
/// resource hands out a copy to every reader (the table, the pager, the bulk bar, the facets
/// column's class): copying 10,000 records each time cost more than rendering them.
#[derive(Clone)]
enum Rows {
    Listed(Arc<Vec<TableRow>>),
    Found {
        rows: Arc<Vec<TableRow>>,
        total: u64,
        facets: BTreeMap<String, Vec<FacetCount>>,
    },
}

impl Rows {
    /// The rows of a search's answer, each with its identifier and highlights.
    fn found(schema: &'static Schema, found: SearchResults<Record>) -> Rows {
        let rows = found
            .results
            .into_iter()
            .map(|hit| {
                let id = schema.identifier_of(&hit.record).unwrap_or_default();
                (id, Some(hit.record), hit.highlight)
            })
            .collect();
        Rows::Found {
            rows: Arc::new(rows),
            total: found.total,
            facets: found.facets,
        }
    }

    fn listed(rows: impl IntoIterator<Item = (String, Option<Record>)>) -> Rows {
        Rows::Listed(Arc::new(
            rows.into_iter().map(|(id, r)| (id, r, None)).collect(),
        ))
    }

    fn len(&self) -> usize {
        match self {
            Rows::Listed(rows) | Rows::Found { rows, .. } => rows.len(),
        }
    }
}

/// The list's data: what the URL asks for, and its rows, read as the page's module loads.
#[derive(Clone, Copy)]
pub struct RecordListRoute {
    schema: Memo<Option<&'static Schema>>,
    state: Memo<SearchState>,
    page: Memo<(u32, u32)>,
    parent: Memo<Option<String>>,
    /// The rows, with the collection they were read for (a stale page of the one before is
    /// not shown as this one's).
    rows: LocalResource<Result<(&'static str, Rows), ApiError>>,
}

impl crate::lazy::Page for RecordListRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::RecordList;

    fn data(session: Session) -> Self {
        let client = expect_context::<ApiClient>();
        let schema = use_schema();
        let query = use_query_map();
        let page = use_page(PAGE_SIZE, LONGEST_PAGE);
        // A collection production lists per parent only (a textbook's passages): `?parent=URN`.
        let parent = Memo::new(move |_| query.with(|q| q.get("parent")).filter(|t| !t.is_empty()));
        let state = Memo::new(move |_| {
            query.with(|q| SearchState::from_query(q.get("q"), q.get("fq"), q.get("sort")))
        });
        let rows = LocalResource::new(move || {
            let (client, state, (limit, offset)) = (client.clone(), state.get(), page.get());
            let (schema, parent) = (schema.get(), parent.get());
            async move {
                match schema {
                    Some(schema) => {
                        read_rows(client, session, schema, state, limit, offset, parent)
                            .await
                            .map(|rows| (schema.collection.path, rows))
                    }
                    None => Ok(("", Rows::listed([]))),
                }
            }
        });
        RecordListRoute {
            schema,
            state,
            page,
            parent,
            rows,
        }
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_records(self).await
    }
}

crate::split_entry!(record_list_pages, draw_records, RecordListRoute => |data| view! { <Records data/> });

/// The list page.
#[component]
pub fn Records(data: RecordListRoute) -> impl IntoView {
    move || match data.schema.get() {
        Some(schema) => view! { <RecordsOf schema data/> }.into_any(),
        None => view! {
            <h1>{move || t("No such collection")}</h1>
            <CollectionNav current=""/>
            <p>{move || t("Choose one of the collections above.")}</p>
        }
        .into_any(),
    }
}

/// A page of `limit` rows from `offset`, fetched as consecutive requests the service allows
/// (see [`chunks`]), in order, until one answers fewer rows than it was asked for.
async fn in_pages<P, F, Fut>(
    limit: u32,
    offset: u32,
    rows: impl Fn(&P) -> usize,
    mut fetch: F,
) -> Result<Vec<P>, ApiError>
where
    F: FnMut(u32, u32) -> Fut,
    Fut: std::future::Future<Output = Result<P, ApiError>>,
{
    let mut pages = Vec::new();
    for (size, from) in chunks(limit, offset, MAX_PAGE_SIZE) {
        let page = fetch(size, from).await?;
        let short = rows(&page) < size as usize;
        pages.push(page);
        if short {
            break;
        }
    }
    Ok(pages)
}

/// The rows of one page of the list: a search's (records, total and facets) when the URL asks
/// for one, else the listing's identifiers with what the session already holds of them.
async fn read_rows(
    client: ApiClient,
    session: Session,
    schema: &'static Schema,
    state: SearchState,
    limit: u32,
    offset: u32,
    parent: Option<String>,
) -> Result<Rows, ApiError> {
    match schema.collection.browsing() {
        Browsing::List => {}
        Browsing::OnTheirParents => return Ok(Rows::listed([])),
        Browsing::ByParent(_) => {
            let Some(parent) = parent else {
                return Ok(Rows::listed([]));
            };
            let pages = in_pages(limit, offset, Vec::len, |size, from| {
                client.list_children(schema.collection, &parent, size, from)
            })
            .await?;
            let rows = pages.into_iter().flatten().map(|record| {
                (
                    schema.identifier_of(&record).unwrap_or_default(),
                    Some(record),
                )
            });
            return Ok(Rows::listed(rows));
        }
    }
    if schema.collection.routes.search.by_reference() && state.active() {
        let mut base = SearchQuery::new(state.q.clone().unwrap_or_default()).highlight(HIGHLIGHTED);
        for facet in schema.facets {
            base = base.facet(*facet);
        }
        base.fq = state.fq.clone();
        if !state.sort.is_empty() {
            base = base.sort(state.sort.clone());
        }
        let pages = in_pages(
            limit,
            offset,
            |p: &SearchResults<Record>| p.results.len(),
            |size, from| {
                let search = base.clone().page(size, from);
                let client = client.clone();
                async move { client.search_records(schema.collection, &search).await }
            },
        )
        .await?;
        // The first answer's total and facets describe the whole search.
        let mut pages = pages.into_iter();
        let mut found = pages
            .next()
            .ok_or_else(|| ApiError::Caller(t("A page needs at least one row.")))?;
        for page in pages {
            found.results.extend(page.results);
        }
        Ok(Rows::found(schema, found))
    } else {
        let pages = in_pages(limit, offset, Vec::len, |size, from| {
            client.list(schema.collection, size, from)
        })
        .await?;
        let ids = pages
            .iter()
            .flatten()
            .filter_map(|l| l.identifier().map(str::to_string))
            .collect();
        // The rows show at once; titles of the rows in view are read afterwards.
        Ok(Rows::listed(session.cached_records(schema, ids)))
    }
}

#[component]
fn RecordsOf(schema: &'static Schema, data: RecordListRoute) -> impl IntoView {
    let path = schema.collection.path;
    let browsing = schema.collection.browsing();
    let RecordListRoute {
        state,
        page,
        parent,
        rows,
        ..
    } = data;
    // Read in place: these run for every reader of the page's counts.
    let shown = Signal::derive(move || {
        rows.with(|r| match r {
            Some(Ok((read_for, rows))) if *read_for == path => rows.len(),
            _ => 0,
        })
    });
    let total = Signal::derive(move || {
        rows.with(|r| match r {
            Some(Ok((read_for, Rows::Found { total, .. }))) if *read_for == path => Some(*total),
            _ => None,
        })
    });
    let writable = can_create(schema);
    provide_columns(schema);
    view! {
        <div class="records-head">
            <h1>{move || plural_name(schema.collection)}</h1>
            <Show when=move || writable.get()>
                <A href=crate::hosting::link(format!("/records/{path}/new")) attr:class="button primary">{move || tf("New {what}", &[("what", &singular_name(schema.collection))])}</A>
            </Show>
        </div>
        <CollectionNav current=path/>
        {(!matches!(browsing, Browsing::OnTheirParents)).then(|| view! { <ListViews schema/> })}
        {match browsing {
            Browsing::ByParent(parent_collection) => view! {
                <ParentPicker schema parent_collection chosen=parent/>
                <Show when=move || parent.get().is_some()>
                    <Listing schema state parent rows page shown total/>
                </Show>
            }.into_any(),
            Browsing::OnTheirParents => view! { <OnTheirParents schema/> }.into_any(),
            Browsing::List => view! { <Listing schema state parent rows page shown total/> }.into_any(),
        }}
    }
}

#[component]
fn Listing(
    schema: &'static Schema,
    state: Memo<SearchState>,
    parent: Memo<Option<String>>,
    rows: LocalResource<Result<(&'static str, Rows), ApiError>>,
    page: Memo<(u32, u32)>,
    shown: Signal<usize>,
    total: Signal<Option<u64>>,
) -> impl IntoView {
    let columns = expect_context::<ShownColumns>().shown;
    // What the rows in view show of each record's last change, for the changes notice.
    let stamps = Signal::derive(move || {
        rows.with(|read| match read {
            Some(Ok((_, Rows::Listed(rows) | Rows::Found { rows, .. }))) => rows
                .iter()
                .filter_map(|(_, record, _)| record.as_ref().and_then(|r| stamp_of(schema, r)))
                .collect(),
            _ => Vec::new(),
        })
    });
    // The rows chosen on this list, for its bulk actions, keys and toolbar (components::selection).
    let selection = Selection::provide();
    // The Transition keeps the last rows on screen while the next load; aria-busy says they are old.
    let (reloading, set_reloading) = signal(false);
    view! {
        {schema.collection.routes.search.by_reference().then(|| view! { <SearchBar schema state/> })}
        // Only the chosen rows when some are, else every match (a whole search chosen is that).
        <ExportButton schema state parent selected=Signal::derive(move || selection.ids())/>
        <BulkBar schema state total shown changed=Callback::new(move |_| rows.refetch())/>
        <ListChanges schema shown=stamps refresh=Callback::new(move |_| rows.refetch())/>
        <ListKeys/>
        <div class="records-body" class:with-facets=move || rows.with(|r| matches!(r, Some(Ok((_, Rows::Found { .. })))))
            aria-busy=move || reloading.get().to_string()>
            <Transition fallback=|| view! { <Loading what=k("Loading…")/> } set_pending=set_reloading>
                {move || { columns.track(); rows.get() }.and_then(|result| match result {
                    Ok((read_for, _)) if read_for != schema.collection.path => None,
                    other => Some(other.map(|(_, rows)| rows)),
                }).map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| rows.refetch()/> }.into_any(),
                    Ok(Rows::Listed(rows)) if rows.is_empty() => view! { <Empty schema searching=false/> }.into_any(),
                    Ok(Rows::Listed(rows)) => view! { <Table schema rows/> }.into_any(),
                    Ok(Rows::Found { rows, total, facets }) => {
                        view! {
                            <aside class="facets-column"><Facets schema facets state/></aside>
                            <div>
                                <p class="total" role="status">{move || tn("{count} found", total as i64, &[])}</p>
                                {if rows.is_empty() { view! { <Empty schema searching=true/> }.into_any() } else { view! { <Table schema rows/> }.into_any() }}
                            </div>
                        }.into_any()
                    }
                })}
            </Transition>
        </div>
        <Pager page shown total longest=LONGEST_PAGE/>
    }
}

/// Which parent's records to list; the choice lives in the URL (`?parent=URN`).
#[component]
fn ParentPicker(
    schema: &'static Schema,
    parent_collection: &'static Collection,
    chosen: Memo<Option<String>>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let navigate = use_navigate();
    let parents = LocalResource::new(move || {
        let client = client.clone();
        async move {
            let query = SearchQuery::new("")
                .sort("title asc")
                .page(MAX_PAGE_SIZE, 0);
            client.search_records(parent_collection, &query).await
        }
    });
    let choose = move |ev: leptos::ev::Event| {
        let urn = event_target_value(&ev);
        let enc = larder_api::config::encode_component;
        navigate(
            &format!("?parent={}&limit={PAGE_SIZE}", enc(&urn)),
            Default::default(),
        );
    };
    let parent_path = parent_collection.path;
    view! {
        <p class="hint">{move || tf(
            "{these} are kept per {parent}: the service has no list of all of them. Choose a {parent} to list its {these_lower}.",
            &[("these", &plural_name(schema.collection)), ("parent", &singular_name(parent_collection)), ("these_lower", &lowercase(&plural_name(schema.collection)))],
        )} " "
            <A href=crate::hosting::link(format!("/records/{parent_path}"))>{move || tf("Go to the {what}", &[("what", &lowercase(&plural_name(parent_collection)))])}</A></p>
        <label for="records-parent">{move || capitalized(&singular_name(parent_collection))}</label>
        <Transition fallback=|| view! { <Loading what=k("Loading…")/> }>
            {move || parents.get().map(|found| match found {
                Err(error) => view! { <ErrorView error/> }.into_any(),
                Ok(found) => view! {
                    <select id="records-parent" on:change=choose.clone()>
                        <option value="" selected=move || chosen.get().is_none()>{move || tf("Choose a {what}…", &[("what", &singular_name(parent_collection))])}</option>
                        {found.results.into_iter().map(|hit| {
                            let urn = hit.record.get("urn").and_then(|u| u.as_str()).unwrap_or_default().to_string();
                            let title = hit.record.get("title").and_then(|t| t.as_str()).unwrap_or(&urn).to_string();
                            let this = urn.clone();
                            view! { <option value=urn selected=move || chosen.get().as_deref() == Some(this.as_str())>{title}</option> }
                        }).collect_view()}
                    </select>
                }.into_any(),
            })}
        </Transition>
    }
}

/// A collection listed nowhere but on its parents' pages (artifacts): where to find them.
#[component]
fn OnTheirParents(schema: &'static Schema) -> impl IntoView {
    let parents: Vec<&'static Collection> = larder_contract::COLLECTIONS
        .iter()
        .filter(|c| c.has_urn())
        .filter(|c| {
            schema
                .collection
                .parent
                .is_some_and(|p| p.collection.is_none_or(|only| only == c.path))
        })
        .collect();
    view! {
        <p class="hint">{move || tf(
            "{these} belong to records and are listed on each record's page, where they are uploaded and downloaded too. Open a record of:",
            &[("these", &plural_name(schema.collection))],
        )}</p>
        <ul class="parent-links">
            {parents.into_iter().map(|c| view! {
                <li><A href=crate::hosting::link(format!("/records/{}", c.path))>{move || plural_name(c)}</A></li>
            }).collect_view()}
        </ul>
    }
}

#[component]
fn Empty(schema: &'static Schema, searching: bool) -> impl IntoView {
    let writable = can_create(schema);
    let path = schema.collection.path;
    view! {
        <p class="empty">
            {if searching { t("Nothing matches this search. Try other words or remove a filter.") } else { t("There is nothing here yet.") }}
            <Show when=move || writable.get() && !searching>
                " " <A href=crate::hosting::link(format!("/records/{path}/new"))>{move || t("Create the first one")}</A>
            </Show>
        </p>
    }
}

/// The query box (searching 350 ms after typing stops), the sort and the active filters.
#[component]
fn SearchBar(schema: &'static Schema, state: Memo<SearchState>) -> impl IntoView {
    let navigate = use_navigate();
    let page = use_page(PAGE_SIZE, LONGEST_PAGE);
    let typed = RwSignal::new(state.get_untracked().q.unwrap_or_default());
    // The box follows the URL when it changes from elsewhere (a saved view's link).
    Effect::new(move |seen: Option<Option<String>>| {
        let q = state.get().q;
        if seen.is_some_and(|seen| seen != q) {
            typed.set(q.clone().unwrap_or_default());
        }
        q
    });
    let generation = StoredValue::new(0u32);
    let go = move |next: SearchState, replace: bool| {
        navigate(
            &next.href(page.get_untracked().0),
            NavigateOptions {
                replace,
                ..Default::default()
            },
        );
    };
    let go_typed = go.clone();
    let on_input = move |ev| {
        typed.set(event_target_value(&ev));
        let ticket = generation.get_value().wrapping_add(1);
        generation.set_value(ticket);
        let go = go_typed.clone();
        set_timeout(
            move || {
                if generation.get_value() == ticket {
                    go(
                        SearchState {
                            q: Some(typed.get_untracked()),
                            ..state.get_untracked()
                        },
                        true,
                    );
                }
            },
            std::time::Duration::from_millis(350),
        );
    };
    let go_submit = go.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        generation.set_value(generation.get_value().wrapping_add(1));
        go_submit(
            SearchState {
                q: Some(typed.get_untracked()),
                ..state.get_untracked()
            },
            false,
        );
    };
    let go_sort = go.clone();
    let label_text = move || {
        tf(
            "Search {what}",
            &[("what", &lowercase(&plural_name(schema.collection)))],
        )
    };
    view! {
        <form class="search-bar" role="search" on:submit=submit>
            <label for="search-q" class="visually-hidden">{label_text}</label>
            <input id="search-q" type="search" placeholder=label_text prop:value=move || typed.get() on:input=on_input/>
            <label for="search-sort" class="inline-label">{move || t("Sort")}</label>
            <select id="search-sort" on:change=move |ev| {
                go_sort(SearchState { sort: event_target_value(&ev), q: Some(typed.get_untracked()), ..state.get_untracked() }, false);
            }>
                <option value="" selected=move || state.get().sort.is_empty()>{move || t("Relevance")}</option>
                {schema.sorts.iter().map(|(value, text)| view! {
                    <option value=*value selected=move || state.get().sort == *value>{move || t(text)}</option>
                }).collect_view()}
            </select>
            <button type="submit">{move || t("Search")}</button>
        </form>
        <ActiveFilters state/>
    }
}
