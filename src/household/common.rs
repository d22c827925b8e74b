//! Pieces the household pages share: the facts panel and the age-group select.

use crate::i18n::{t, value_label};
use larder_api::enums::AGE_GROUP;
use larder_api::types::{Household, Member};
use leptos::prelude::*;

/// A household with its members, as the pages show it.
pub type Loaded = (Household, Vec<Member>);

/// Shows an age group as words.
pub fn age_label(age_group: &str) -> String {
    value_label("age_group", age_group)
}

/// A select over the age groups of the enumeration.
#[component]
pub fn AgeGroupSelect(#[prop(into)] id: String, value: RwSignal<String>) -> impl IntoView {
    view! {
        <select id=id on:change=move |ev| value.set(event_target_value(&ev))>
            {AGE_GROUP.iter().map(|group| view! {
                <option value=*group selected=move || value.get() == *group>{age_label(group)}</option>
            }).collect_view()}
        </select>
    }
}

/// Name, region, metadata and when it was created and last changed, read-only.
#[component]
pub fn HouseholdFacts(household: Household) -> impl IntoView {
    view! {
        <dl class="facts">
            <dt>{move || t("Name")}</dt><dd>{household.name.clone()}</dd>
            <dt>{move || t("Region")}</dt><dd>{household.region.clone().filter(|r| !r.is_empty()).unwrap_or_else(|| "—".into())}</dd>
            <dt>{move || t("Metadata")}</dt>
            <dd>
                {if household.metadata.is_empty() {
                    view! { <span class="muted">{move || t("none")}</span> }.into_any()
                } else {
                    view! {
                        <dl class="kv-facts">
                            {household.metadata.iter().map(|(k, v)| view! {
                                <dt>{k.clone()}</dt><dd>{match v { serde_json::Value::String(s) => s.clone(), other => other.to_string() }}</dd>
                            }).collect_view()}
                        </dl>
                    }.into_any()
                }}
            </dd>
            // Production answers these without a zone, meaning UTC: `format::date` reads them so.
            {household.created_at.clone().map(|at| view! {
                <dt>{move || t("Created")}</dt><dd class="stamp">{crate::i18n::format::date(&at)}</dd>
            })}
            {household.updated_at.clone().map(|at| view! {
                <dt>{move || t("Last changed")}</dt><dd class="stamp">{crate::i18n::format::date(&at)}</dd>
            })}
        </dl>
    }
}
