//! `GET households`, the administrator's listing (production.md §4.1): what the dialect lists
//! (every household on the reference wire, the caller's own on production's) and, where the
//! dialect searches, the search of issue 40 (by name and owner, filtered by region, ordered by
//! name, member count or creation; see `store::household_search`).

use axum::extract::State;
use larder_contract::households::{
    HOUSEHOLD_SORTS, MAX_HOUSEHOLD_QUERY_CHARS, MAX_HOUSEHOLD_REGION_CHARS, SORT_ORDERS,
};
use larder_contract::limits::MAX_HOUSEHOLD_PAGE_BYTES;
use larder_contract::roles::ADMIN;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{blocking, Page};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, QueryParams};
use crate::store::{fold, HouseholdFilter, HouseholdSort};
use crate::SharedState;

/// The query of `GET households`: a page, and (a reference-service extension) a search.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// Page size, 1..=1000.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// Households skipped.
    #[serde(default)]
    pub offset: u32,
    /// A piece of the name or the owner.
    pub q: Option<String>,
    /// The region.
    pub region: Option<String>,
    /// `name`, `member_count` or `created_at`.
    pub sort: Option<String>,
    /// `asc` (the default) or `desc`.
    pub order: Option<String>,
}

fn default_limit() -> u32 {
    larder_contract::limits::DEFAULT_PAGE_SIZE
}

/// The search a listing's query asks for, with what it applies as the answer echoes it; `None`
/// when it asks for none. A value over its bound or outside its choices is a 422.
fn search_of(query: &ListQuery) -> ApiResult<Option<(HouseholdFilter, Value)>> {
    let given = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let (q, region, sort, order) = (
        given(&query.q),
        given(&query.region),
        given(&query.sort),
        given(&query.order),
    );
    if q.is_none() && region.is_none() && sort.is_none() && order.is_none() {
        return Ok(None);
    }
    let too_long = |name: &str, max: usize| {
        ApiError::invalid_query(
            name,
            "string_too_long",
            format!("String should have at most {max} characters"),
        )
        .systemic()
    };
    if q.as_ref()
        .is_some_and(|q| q.chars().count() > MAX_HOUSEHOLD_QUERY_CHARS)
    {
        return Err(too_long("q", MAX_HOUSEHOLD_QUERY_CHARS));
    }
    if region
        .as_ref()
        .is_some_and(|r| r.chars().count() > MAX_HOUSEHOLD_REGION_CHARS)
    {
        return Err(too_long("region", MAX_HOUSEHOLD_REGION_CHARS));
    }
    let one_of = |name: &str, choices: &[&str]| {
        let listed: Vec<String> = choices.iter().map(|c| format!("'{c}'")).collect();
        ApiError::invalid_query(
            name,
            "enum",
            format!("Input should be {}", listed.join(", ")),
        )
        .systemic()
    };
    let sorted = match sort.as_deref() {
        None => None,
        Some(name) => {
            Some(HouseholdSort::parse(name).ok_or_else(|| one_of("sort", &HOUSEHOLD_SORTS))?)
        }
    };
    let order = order.unwrap_or_else(|| "asc".into());
    if !SORT_ORDERS.contains(&order.as_str()) {
        return Err(one_of("order", &SORT_ORDERS));
    }
    let applied = json!({ "q": q, "region": region, "sort": sort, "order": order });
    let filter = HouseholdFilter {
        q: q.as_deref().map(fold),
        region,
        sort: sorted,
        descending: order == "desc",
    };
    Ok(Some((filter, applied)))
}

/// `GET households?limit&offset`: for `admin`; what the dialect lists (every household, or as
/// production only the caller's own). A page of large households may hold fewer than `limit`
/// (see [`MAX_HOUSEHOLD_PAGE_BYTES`]). Where the dialect searches, `q`, `region`, `sort` and
/// `order` search it, and the answer is `{households, total, applied}`; production ignores them.
pub async fn list(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = super::require(
        &caller,
        larder_contract::collections::ADMINS,
        "listing households",
    )?
    .clone();
    debug_assert!(identity.has_role(ADMIN));
    let page = Page {
        limit: query.limit,
        offset: query.offset,
    };
    page.validate()?;
    let listing = state.dialect.households_list;
    // Every household only for a caller who may also read each of them (a realm `admin` or
    // `agent`): `admin` as one client's role opens the route's gate, as in production, but
    // lists only the caller's own, as production lists for everyone.
    let every = !listing.own_only() && identity.overrides_ownership();
    let search = if listing.searches() && every {
        search_of(&query)?
    } else {
        None
    };
    blocking(move || {
        if let Some((filter, applied)) = search {
            let hits = state.store.search_households(
                &filter,
                page.limit,
                page.offset,
                listing.with_members(),
                MAX_HOUSEHOLD_PAGE_BYTES,
            )?;
            let households: Vec<Value> = hits
                .households
                .into_iter()
                .map(|household| state.dialect.listed_household(household))
                .collect();
            return Ok(Envelope(json!({
                "households": households,
                "total": hits.total,
                "applied": applied,
            })));
        }
        let owner = (!every).then(|| identity.owner_key());
        let households = state.store.households().list(
            owner.as_deref(),
            page.limit,
            page.offset,
            listing.with_members(),
            MAX_HOUSEHOLD_PAGE_BYTES,
        )?;
        let households = households
            .into_iter()
            .map(|household| state.dialect.listed_household(household))
            .collect();
        Ok(Envelope(Value::Array(households)))
    })
    .await
}
