//! "My household": the owner's household, or a form that creates it when there is none.

use larder_api::households::own_household_from;
use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::household::create::CreateHousehold;
use crate::household::erase::EraseAccount;
use crate::household::panel::{HouseholdPanel, Scope};
use crate::household::restore::RestorePanel;
use crate::household::Loaded;
use crate::i18n::{k, t};
use crate::lazy::Page;
use crate::session::{EarlyHousehold, Session};
use crate::ApiClient;

/// The caller's household with every member: `households/me` lists them all (production too);
/// when a service leaves the list empty while counting members, they are read page by page.
/// Opened right after signing in, the answer is the read the start-up module started then.
async fn own(client: ApiClient, early: Option<EarlyHousehold>) -> Result<Option<Loaded>, ApiError> {
    let answer = match early {
        Some(early) => early.answer().await,
        None => None,
    };
    let answer = match answer {
        Some(answer) => answer,
        None => client.own_household_answer().await,
    };
    let Some(mut household) = own_household_from(answer?)? else {
        return Ok(None);
    };
    let mut members = std::mem::take(&mut household.members);
    if members.is_empty() && household.member_count.unwrap_or(0) > 0 {
        members = client.all_members(&household.id).await?;
    }
    Ok(Some((household, members)))
}

/// "My household"'s data: the read, started as the page's module loads.
#[derive(Clone, Copy)]
pub struct OwnHouseholdRoute {
    household: LocalResource<Result<Option<Loaded>, ApiError>>,
}

impl Page for OwnHouseholdRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Household;

    fn data(session: Session) -> Self {
        let client = expect_context::<ApiClient>();
        // The read started at sign-in, taken once: a "Try again" reads anew.
        let early = StoredValue::new_local(session.person().and_then(|p| p.take_own_household()));
        let household = LocalResource::new(move || {
            own(
                client.clone(),
                early.try_update_value(Option::take).flatten(),
            )
        });
        OwnHouseholdRoute { household }
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_own_household(self).await
    }
}

crate::split_entry!(household_pages, draw_own_household, OwnHouseholdRoute => |data| view! { <MyHousehold data/> });

/// The page.
#[component]
pub fn MyHousehold(data: OwnHouseholdRoute) -> impl IntoView {
    let household = data.household;
    let changed = Callback::new(move |_| household.refetch());
    view! {
        <Transition fallback=|| view! { <Loading what=k("Loading your household…")/> }>
            {move || household.get().map(|result| match result {
                Err(error) => view! { <h1>{move || t("My household")}</h1><ErrorView error retry=changed/> }.into_any(),
                Ok(None) => view! { <CreateHousehold created=changed/><RestorePanel restored=changed/><EraseAccount/> }.into_any(),
                Ok(Some((household, members))) => {
                    let erase_with = household.clone();
                    view! { <HouseholdPanel household members scope=Scope::Own changed/><EraseAccount household=erase_with/> }.into_any()
                }
            })}
        </Transition>
    }
}
