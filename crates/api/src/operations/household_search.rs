//! An administrator's household search (issue 40 item 5): `GET households` with `q`, `region`,
//! `sort` and `order` beside the page. The reference service answers a search as
//! `{households, total, applied}`; production's list takes only paging and answers a bare list,
//! which [`HouseholdListing::searched`] tells apart, so a console can say the service cannot
//! search instead of showing an unfiltered page as if it were the answer.

use larder_contract::households::{
    HOUSEHOLD_SORTS, MAX_HOUSEHOLD_QUERY_CHARS, MAX_HOUSEHOLD_REGION_CHARS,
};
use serde::Deserialize;
use serde_json::Value;

use super::households::list_from_result;
use crate::machinery::client::{decode, Client};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::Household;

/// What a household listing asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HouseholdSearch {
    /// A piece of the name or the owner.
    pub q: String,
    /// The region, exactly.
    pub region: String,
    /// `name`, `member_count` or `created_at`; empty = the service's order.
    pub sort: String,
    /// Descending.
    pub descending: bool,
    /// Page size.
    pub limit: u32,
    /// Households skipped.
    pub offset: u32,
}

impl HouseholdSearch {
    /// Whether it asks for more than a page.
    pub fn is_search(&self) -> bool {
        !self.q.trim().is_empty() || !self.region.trim().is_empty() || !self.sort.is_empty()
    }

    /// Why the service would refuse it, checked before sending, or `None`.
    pub fn problem(&self) -> Option<String> {
        if self.q.trim().chars().count() > MAX_HOUSEHOLD_QUERY_CHARS {
            return Some(format!(
                "a search has at most {MAX_HOUSEHOLD_QUERY_CHARS} characters"
            ));
        }
        if self.region.trim().chars().count() > MAX_HOUSEHOLD_REGION_CHARS {
            return Some(format!(
                "a region has at most {MAX_HOUSEHOLD_REGION_CHARS} characters"
            ));
        }
        if !self.sort.is_empty() && !HOUSEHOLD_SORTS.contains(&self.sort.as_str()) {
            return Some(format!("households sort by {}", HOUSEHOLD_SORTS.join(", ")));
        }
        None
    }

    /// The query it is sent with: the page, then only the search parameters that are set.
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("limit", self.limit.to_string()),
            ("offset", self.offset.to_string()),
        ];
        if !self.q.trim().is_empty() {
            pairs.push(("q", self.q.trim().to_string()));
        }
        if !self.region.trim().is_empty() {
            pairs.push(("region", self.region.trim().to_string()));
        }
        if !self.sort.is_empty() {
            pairs.push(("sort", self.sort.clone()));
            pairs.push(("order", if self.descending { "desc" } else { "asc" }.into()));
        }
        pairs
    }
}

/// A page of a household listing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HouseholdListing {
    /// The households of the page.
    pub households: Vec<Household>,
    /// How many match, where the service searched.
    pub total: Option<u64>,
    /// Whether the service applied the search (`false`: it ignored the parameters and listed a
    /// plain page, as production does).
    pub searched: bool,
}

#[derive(Deserialize)]
struct Searched {
    households: Vec<Household>,
    #[serde(default)]
    total: Option<u64>,
}

/// Reads a listing's answer: `{households, total, applied}` from a service that searched, else
/// a plain list.
pub fn listing_from_result(result: Value) -> Result<HouseholdListing, ApiError> {
    let searched = result.get("applied").is_some() && result.get("households").is_some();
    if searched {
        let answer: Searched = decode(result)?;
        return Ok(HouseholdListing {
            households: answer.households,
            total: answer.total,
            searched: true,
        });
    }
    Ok(HouseholdListing {
        households: list_from_result(result)?,
        total: None,
        searched: false,
    })
}

impl<T: Transport> Client<T> {
    /// `GET households?limit&offset&q&region&sort&order` (role admin).
    pub async fn search_households(
        &self,
        search: &HouseholdSearch,
    ) -> Result<HouseholdListing, ApiError> {
        if let Some(problem) = search.problem() {
            return Err(ApiError::Caller(problem));
        }
        let mut request = Request::new(Api::System, Method::Get, "households");
        for (key, value) in search.query_pairs() {
            request = request.query(key, value);
        }
        listing_from_result(self.execute(request).await?)
    }
}
