//! A member of a household (the owner's, `/household/members/{id}`, or any for administrators,
//! `/households/{household}/members/{id}`): details and dietary profile, the week's meal plans
//! and the member's library.

use larder_api::types::{Member, Profile};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::household::library::MemberLibrary;
use crate::household::meal_plans::MemberMealPlans;
use crate::household::member::{MemberDetails, ProfileForm};
use crate::household::panel::Scope;
use crate::i18n::{k, t};
use crate::ApiClient;

async fn load(client: ApiClient, id: String) -> Result<(Member, Option<Profile>), ApiError> {
    let mut member = client.member(&id).await?;
    let profile = match member.profile.take() {
        Some(profile) => Some(profile),
        None => client.profile(&id).await?,
    };
    Ok((member, profile))
}

/// The page.
#[component]
pub fn MemberPage() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let household = move || params.with(|p| p.get("household"));
    let scope = move || {
        if household().is_some() {
            Scope::Any
        } else {
            Scope::Own
        }
    };
    let back = move || scope().household_href(&household().unwrap_or_default());
    let member = LocalResource::new(move || load(client.clone(), id()));
    let title = RwSignal::new(String::new());
    view! {
        <p>
            <A href=move || crate::hosting::link(back())>
                {move || if scope() == Scope::Own { t("← My household") } else { t("← The household") }}
            </A>
        </p>
        <Transition fallback=|| view! { <Loading what=k("Loading the member…")/> }>
            {move || member.get().map(|result| match result {
                Err(error) => view! { <h1>{move || t("Member")}</h1><ErrorView error retry=move |_| member.refetch()/> }.into_any(),
                Ok((member, profile)) => {
                    title.set(member.name.clone());
                    view! {
                        <h1>{move || title.get()}</h1>
                        <MemberDetails member=member.clone() household_href=back() title/>
                        <ProfileForm member_id=member.id.clone() profile/>
                        <MemberMealPlans member_id=member.id.clone() household_id=member.household_id.clone() name=title.into()/>
                        <MemberLibrary member_id=member.id.clone()/>
                    }.into_any()
                }
            })}
        </Transition>
    }
}

/// A member's page: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct MemberRoute;

impl crate::lazy::Page for MemberRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Member;

    fn data(_: crate::session::Session) -> Self {
        MemberRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_member(self).await
    }
}

crate::split_entry!(member_pages, draw_member, MemberRoute => |_| view! { <MemberPage/> });
