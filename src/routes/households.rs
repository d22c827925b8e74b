//! Administrators: every household, page by page (limit and offset in the URL).

use larder_api::types::Household;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::not_allowed::NotAllowed;
use crate::components::pager::{use_page, Pager, ONE_REQUEST};
use crate::i18n::{k, t};
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
    let households = LocalResource::new(move || {
        let (client, (limit, offset)) = (client.clone(), page.get());
        async move { client.households(limit, offset).await }
    });
    let shown = Signal::derive(move || {
        households
            .get()
            .and_then(|r| r.ok())
            .map(|h| h.len())
            .unwrap_or(0)
    });
    view! {
        <h1>{move || t("Households")}</h1>
        <p><A href=crate::hosting::link("/households/allergies")>{move || t("Allergy audit")}</A>
            " "<span class="hint">{move || t("members whose allergies the meal planner cannot enforce")}</span></p>
        <Transition fallback=|| view! { <Loading what=k("Loading households…")/> }>
            {move || households.get().map(|result| match result {
                Err(error) => view! { <ErrorView error retry=move |_| households.refetch()/> }.into_any(),
                Ok(list) if list.is_empty() => view! { <p class="empty">{move || t("No households on this page. Households appear here once their owners create them.")}</p> }.into_any(),
                Ok(list) => view! { <HouseholdTable households=list/> }.into_any(),
            })}
        </Transition>
        <Pager page shown longest=ONE_REQUEST/>
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
