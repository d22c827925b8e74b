//! Administrators: every household, page by page (limit and offset in the URL).

use larder_api::types::Household;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::pager::{use_page, Pager, ONE_REQUEST};
use crate::ApiClient;

/// The page.
#[component]
pub fn Households() -> impl IntoView {
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
        <h1>"Households"</h1>
        <Transition fallback=|| view! { <Loading what="Loading households…"/> }>
            {move || households.get().map(|result| match result {
                Err(error) => view! { <ErrorView error retry=move |_| households.refetch()/> }.into_any(),
                Ok(list) if list.is_empty() => view! { <p class="empty">"No households on this page. Households appear here once their owners create them."</p> }.into_any(),
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
            <thead><tr><th scope="col">"Name"</th><th scope="col">"Region"</th><th scope="col">"Members"</th><th scope="col">"Owner"</th></tr></thead>
            <tbody>
                {households.into_iter().map(|h| view! {
                    <tr>
                        <td><A href=crate::hosting::link(format!("/households/{}", h.id))>{h.name.clone()}</A></td>
                        <td>{h.region.clone().unwrap_or_default()}</td>
                        <td>{h.member_count.map(|n| n.to_string()).unwrap_or_else(|| h.members.len().to_string())}</td>
                        <td>{h.owner_id.clone().unwrap_or_default()}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}
