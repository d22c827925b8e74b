//! Administrators and agents: any household, with every member, edited as its owner would.

use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::not_allowed::NotAllowed;
use crate::household::panel::{HouseholdPanel, Scope};
use crate::household::Loaded;
use crate::i18n::{k, t};
use crate::session::Session;
use crate::ApiClient;

/// The household, and its members read page by page from `members?household_id=`: production
/// answers `households/{id}` with an empty member list.
async fn load(client: ApiClient, id: String) -> Result<Loaded, ApiError> {
    let mut household = client.household(&id).await?;
    household.members.clear();
    let members = client.all_members(&id).await?;
    Ok((household, members))
}

/// The page.
#[component]
pub fn HouseholdView() -> impl IntoView {
    let session = expect_context::<Session>();
    // The service lets realm roles admin and agent act on households they do not own.
    let allowed = move || {
        session.identity.with(|i| {
            i.as_ref()
                .is_some_and(|i| i.overrides_household_ownership())
        })
    };
    move || {
        if allowed() {
            view! { <AnyHousehold/> }.into_any()
        } else {
            view! { <NotAllowed needs=k("the role admin or agent")/> }.into_any()
        }
    }
}

#[component]
fn AnyHousehold() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let params = use_params_map();
    let loaded = LocalResource::new(move || {
        load(
            client.clone(),
            params.with(|p| p.get("id").unwrap_or_default()),
        )
    });
    let changed = Callback::new(move |_| loaded.refetch());
    view! {
        <p><A href=crate::hosting::link("/households")>{move || t("← Households")}</A></p>
        <Transition fallback=|| view! { <Loading what=k("Loading the household…")/> }>
            {move || loaded.get().map(|result| match result {
                Err(error) => view! { <h1>{move || t("Household")}</h1><ErrorView error retry=changed/> }.into_any(),
                Ok((household, members)) => view! {
                    <HouseholdPanel household members scope=Scope::Any changed/>
                }.into_any(),
            })}
        </Transition>
    }
}

/// `/households/{id}`: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct HouseholdRoute;

impl crate::lazy::Page for HouseholdRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Admin;

    fn data(_: crate::session::Session) -> Self {
        HouseholdRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_household(self).await
    }
}

crate::split_entry!(admin_pages, draw_household, HouseholdRoute => |_| view! { <HouseholdView/> });
