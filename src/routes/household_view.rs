//! Administrators: one household, read-only, with its members and their profiles.

use futures::future::join_all;
use larder_api::types::{Household, Member, Profile};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::household::{age_label, HouseholdFacts};
use crate::ApiClient;

type Loaded = (Household, Vec<(Member, Option<Profile>)>);

async fn load(client: ApiClient, id: String) -> Result<Loaded, ApiError> {
    let household = client.household(&id).await?;
    let members = client.members(&id, 100, 0).await?;
    // A member's profile may be embedded; otherwise it is fetched, all members side by side.
    let profiles = join_all(members.iter().map(|m| {
        let (client, embedded, id) = (client.clone(), m.profile.clone(), m.id.clone());
        async move {
            match embedded {
                Some(profile) => Ok(Some(profile)),
                None => client.profile(&id).await,
            }
        }
    }))
    .await;
    let mut rows = Vec::new();
    for (member, profile) in members.into_iter().zip(profiles) {
        rows.push((member, profile?));
    }
    Ok((household, rows))
}

/// The page.
#[component]
pub fn HouseholdView() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let params = use_params_map();
    let loaded = LocalResource::new(move || {
        load(
            client.clone(),
            params.with(|p| p.get("id").unwrap_or_default()),
        )
    });
    view! {
        <p><A href=crate::hosting::link("/households")>"← Households"</A></p>
        <Transition fallback=|| view! { <Loading what="Loading the household…"/> }>
            {move || loaded.get().map(|result| match result {
                Err(error) => view! { <h1>"Household"</h1><ErrorView error retry=move |_| loaded.refetch()/> }.into_any(),
                Ok((household, members)) => view! {
                    <h1>{household.name.clone()}</h1>
                    <p class="hint">"Read-only: only the owner changes a household."</p>
                    <HouseholdFacts household/>
                    <h2>"Members"</h2>
                    {if members.is_empty() {
                        view! { <p class="empty">"This household has no members."</p> }.into_any()
                    } else {
                        members.into_iter().map(|(member, profile)| view! { <MemberCard member profile/> }).collect_view().into_any()
                    }}
                }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn MemberCard(member: Member, profile: Option<Profile>) -> impl IntoView {
    view! {
        <article class="card member-card">
            <h3>{member.name.clone()} " " <span class="chip">{age_label(&member.age_group)}</span></h3>
            {match profile {
                None => view! { <p class="muted">"No dietary profile."</p> }.into_any(),
                Some(profile) => view! {
                    <dl class="facts">
                        <dt>"Dietary groups"</dt>
                        <dd>{if profile.dietary_groups.is_empty() { "none".to_string() } else { profile.dietary_groups.iter().map(|g| g.replace('_', " ")).collect::<Vec<_>>().join(", ") }}</dd>
                        <dt>"Allergies"</dt>
                        <dd>{if profile.allergies.is_empty() { "none".to_string() } else { profile.allergies.iter().map(|a| a.as_str().map(str::to_string).unwrap_or_else(|| a.to_string())).collect::<Vec<_>>().join(", ") }}</dd>
                        <dt>"Nutritional preferences"</dt>
                        <dd>{if profile.nutritional_preferences.is_empty() {
                            view! { "none" }.into_any()
                        } else {
                            view! { <pre class="code">{serde_json::to_string_pretty(&profile.nutritional_preferences).unwrap_or_default()}</pre> }.into_any()
                        }}</dd>
                    </dl>
                }.into_any(),
            }}
        </article>
    }
}
