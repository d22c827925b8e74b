//! Administrators: every household, page by page (limit and offset in the URL), searched by
//! name or owner, filtered by region and sorted where the service can (issue 40 item 5; the
//! search in the URL too); where it cannot (production's list takes only paging), the page says
//! so and offers to open a household by its id.

use larder_api::household_search::HouseholdSearch;
use larder_api::types::Household;
use larder_contract::households::{MAX_HOUSEHOLD_QUERY_CHARS, MAX_HOUSEHOLD_REGION_CHARS};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::not_allowed::NotAllowed;
use crate::components::pager::{use_page, Pager, ONE_REQUEST};
use crate::household::rules::listing;
use crate::i18n::{k, t, tn};
use crate::session::Session;
use crate::ApiClient;

/// The page: the list for administrators, "Not allowed" for anyone else.
#[component]
pub fn Households() -> impl IntoView {
    let session = expect_context::<Session>();
    let is_admin = move || {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| i.has_role("admin")))
    };
    move || {
        if is_admin() {
            view! { <EveryHousehold/> }.into_any()
        } else {
            view! { <NotAllowed needs=k("the role admin")/> }.into_any()
        }
    }
}

#[component]
fn EveryHousehold() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let page = use_page(25, ONE_REQUEST);
    let query = use_query_map();
    let asked = Memo::new(move |_| {
        let (limit, offset) = page.get();
        query.with(|q| listing::from_query(|name| q.get(name), limit, offset))
    });
    let households = LocalResource::new(move || {
        let (client, search) = (client.clone(), asked.get());
        async move { client.search_households(&search).await }
    });
    let shown = Signal::derive(move || {
        households
            .get()
            .and_then(|r| r.ok())
            .map(|h| h.households.len())
            .unwrap_or(0)
    });
    let total = Signal::derive(move || households.get().and_then(|r| r.ok()).and_then(|h| h.total));
    // The Transition keeps the last answer on screen while the next loads; aria-busy says it is old.
    let (reloading, set_reloading) = signal(false);
    view! {
        <h1>{move || t("Households")}</h1>
        <p><A href=crate::hosting::link("/households/allergies")>{move || t("Allergy audit")}</A>
            " "<span class="hint">{move || t("members whose allergies the meal planner cannot enforce")}</span></p>
        <p class="hint">{move || t("Production lists only the households the administrator owns, so there this list shows those alone.")}</p>
        <SearchForm asked/>
        <div class="listing" aria-busy=move || reloading.get().to_string()>
        <Transition fallback=|| view! { <Loading what=k("Loading households…")/> } set_pending=set_reloading>
            {move || households.get().map(|result| match result {
                Err(error) => view! { <ErrorView error retry=move |_| households.refetch()/> }.into_any(),
                Ok(listing) => {
                    let searching = asked.with_untracked(|a| a.is_search());
                    view! {
                        {(searching && !listing.searched).then(|| view! { <CannotSearch/> })}
                        {listing.total.filter(|_| listing.searched).map(|total| view! {
                            <p class="total" role="status">{move || tn("{count} found", total as i64, &[])}</p>
                        })}
                        {if listing.households.is_empty() {
                            view! { <p class="empty">{move || t("No households on this page. Households appear here once their owners create them.")}</p> }.into_any()
                        } else {
                            view! { <HouseholdTable households=listing.households/> }.into_any()
                        }}
                    }.into_any()
                }
            })}
        </Transition>
        </div>
        <Pager page shown total longest=ONE_REQUEST/>
    }
}

/// Name or owner, region and order, sent as the page's URL (so a search can be linked).
#[component]
fn SearchForm(asked: Memo<HouseholdSearch>) -> impl IntoView {
    let navigate = use_navigate();
    let now = asked.get_untracked();
    let q = RwSignal::new(now.q.clone());
    let region = RwSignal::new(now.region.clone());
    let sort = RwSignal::new(if now.sort.is_empty() {
        String::new()
    } else {
        format!(
            "{}:{}",
            now.sort,
            if now.descending { "desc" } else { "asc" }
        )
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let chosen = sort.get_untracked();
        let (by, order) = chosen.split_once(':').unwrap_or(("", "asc"));
        let search = HouseholdSearch {
            q: q.get_untracked(),
            region: region.get_untracked(),
            sort: by.to_string(),
            descending: order == "desc",
            limit: asked.get_untracked().limit,
            offset: 0,
        };
        navigate(&listing::href(&search), Default::default());
    };
    let sorts: [(&str, &'static str); 6] = [
        ("name:asc", k("Name A–Z")),
        ("name:desc", k("Name Z–A")),
        ("member_count:desc", k("Most members first")),
        ("member_count:asc", k("Fewest members first")),
        ("created_at:desc", k("Newest first")),
        ("created_at:asc", k("Oldest first")),
    ];
    view! {
        <form class="household-search" role="search" on:submit=submit>
            <div class="search-field">
                <label for="household-q">{move || t("Name or owner")}</label>
                <input id="household-q" type="search" maxlength=MAX_HOUSEHOLD_QUERY_CHARS.to_string()
                    prop:value=move || q.get() on:input=move |ev| q.set(event_target_value(&ev))/>
            </div>
            <div class="search-field">
                <label for="household-region">{move || t("Region")}</label>
                <input id="household-region" type="text" maxlength=MAX_HOUSEHOLD_REGION_CHARS.to_string()
                    prop:value=move || region.get() on:input=move |ev| region.set(event_target_value(&ev))/>
            </div>
            <div class="search-field">
                <label for="household-sort">{move || t("Sort")}</label>
                <select id="household-sort" on:change=move |ev| sort.set(event_target_value(&ev))>
                    <option value="" selected=move || sort.get().is_empty()>{move || t("As the service lists them")}</option>
                    {sorts.into_iter().map(|(value, text)| view! {
                        <option value=value selected=move || sort.get() == value>{move || t(text)}</option>
                    }).collect_view()}
                </select>
            </div>
            <button type="submit" class="primary">{move || t("Search")}</button>
        </form>
    }
}

/// The service lists households a page at a time and cannot search them (production): said,
/// with a way to open one by its id.
#[component]
fn CannotSearch() -> impl IntoView {
    let navigate = use_navigate();
    let id = RwSignal::new(String::new());
    let open = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let id = id.get_untracked().trim().to_string();
        if !id.is_empty() {
            let path = format!("/households/{}", larder_api::config::encode_component(&id));
            navigate(&path, Default::default());
        }
    };
    view! {
        <div class="notice" role="status" data-testid="cannot-search">
            <p>{move || t("This service cannot search households: below is its plain list, a page at a time.")}</p>
            <form class="open-by-id" on:submit=open>
                <label for="household-id">{move || t("Open a household by its id")}</label>
                <input id="household-id" type="text" prop:value=move || id.get() on:input=move |ev| id.set(event_target_value(&ev))/>
                <button type="submit">{move || t("Open")}</button>
            </form>
        </div>
    }
}

#[component]
fn HouseholdTable(households: Vec<Household>) -> impl IntoView {
    view! {
        <table class="records">
            <thead><tr><th scope="col">{move || t("Name")}</th><th scope="col">{move || t("Region")}</th><th scope="col">{move || t("Members")}</th><th scope="col">{move || t("Owner")}</th></tr></thead>
            <tbody>
                {households.into_iter().map(|h| view! {
                    <tr>
                        <td><A href=crate::hosting::link(format!("/households/{}", h.id))>{h.name.clone()}</A></td>
                        <td>{h.region.clone().unwrap_or_default()}</td>
                        <td><MemberCount id=h.id.clone() counted=h.member_count.unwrap_or(0)/></td>
                        <td>{h.owner_id.clone().unwrap_or_default()}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A household's member count. A count above zero is the service's; production answers 0 in
/// this list whatever the household holds, so a zero is checked by reading the members.
#[component]
fn MemberCount(id: String, counted: i64) -> impl IntoView {
    if counted > 0 {
        return view! { <span>{counted.to_string()}</span> }.into_any();
    }
    let client = expect_context::<ApiClient>();
    let members = LocalResource::new(move || {
        let (client, id) = (client.clone(), id.clone());
        async move { client.all_members(&id).await.map(|m| m.len()) }
    });
    view! {
        <span aria-busy=move || members.get().is_none().to_string()>
            {move || match members.get() {
                None => "…".to_string(),
                Some(Ok(n)) => n.to_string(),
                Some(Err(_)) => "unknown".to_string(),
            }}
        </span>
    }
    .into_any()
}

/// `/households`: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct HouseholdsRoute;

impl crate::lazy::Page for HouseholdsRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Admin;

    fn data(_: crate::session::Session) -> Self {
        HouseholdsRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_households(self).await
    }
}

crate::split_entry!(admin_pages, draw_households, HouseholdsRoute => |_| view! { <Households/> });
