//! "My household": the owner's household, or a form that creates it when there is none.

use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::household::create::CreateHousehold;
use crate::household::erase::EraseAccount;
use crate::household::panel::{HouseholdPanel, Scope};
use crate::household::Loaded;
use crate::i18n::{k, t};
use crate::ApiClient;

/// The caller's household with every member: `households/me` lists them all (production too);
/// when a service leaves the list empty while counting members, they are read page by page.
/// Opened right after signing in, the answer comes from the read started then.
async fn own(client: ApiClient) -> Result<Option<Loaded>, ApiError> {
    let Some(mut household) = crate::prefetch::own_household(&client).await? else {
        return Ok(None);
    };
    let mut members = std::mem::take(&mut household.members);
    if members.is_empty() && household.member_count.unwrap_or(0) > 0 {
        members = client.all_members(&household.id).await?;
    }
    Ok(Some((household, members)))
}

/// The page.
#[component]
pub fn MyHousehold() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let version = RwSignal::new(0u32);
    let household = LocalResource::new(move || {
        version.track();
        own(client.clone())
    });
    let changed = Callback::new(move |_| version.update(|v| *v += 1));
    view! {
        <Transition fallback=|| view! { <Loading what=k("Loading your household…")/> }>
            {move || household.get().map(|result| match result {
                Err(error) => view! { <h1>{move || t("My household")}</h1><ErrorView error retry=changed/> }.into_any(),
                Ok(None) => view! { <CreateHousehold created=changed/><EraseAccount/> }.into_any(),
                Ok(Some((household, members))) => {
                    let erase_with = household.clone();
                    view! { <HouseholdPanel household members scope=Scope::Own changed/><EraseAccount household=erase_with/> }.into_any()
                }
            })}
        </Transition>
    }
}
