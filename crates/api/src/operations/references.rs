//! Reference pickers' reads: records found by the beginning of their titles' words, across the
//! collections a reference field may name (`larder_contract::collections::references`), and a
//! stored URN resolved to its title.
//!
//! A search with a prefix filter rather than `{collection}/autocomplete`: production's
//! autocomplete is a full-text match that a partial word ("medit") never meets, its guidelines
//! route fails on any hit and organizations have none (production.md §10.7), while a search's
//! `fq` takes `title:medit*` on every service (its query string; larder-search's prefix filter).

use larder_contract::collections::references::title_prefix_filters;
use larder_contract::Collection;
use serde_json::Value;

use super::search::SearchQuery;
use crate::machinery::client::Client;
use crate::machinery::error::ApiError;
use crate::machinery::transport::Transport;

/// A record a picker offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Its URN: what the field stores.
    pub urn: String,
    /// Its title.
    pub title: String,
    /// Its collection.
    pub collection: &'static Collection,
}

impl<T: Transport> Client<T> {
    /// Up to `limit` records of each of `targets` whose title has a word beginning with each
    /// word of `typed`, in the targets' order; nothing is asked when `typed` holds no word.
    pub async fn find_references(
        &self,
        targets: &[&'static Collection],
        typed: &str,
        limit: u32,
    ) -> Result<Vec<Found>, ApiError> {
        let fq = title_prefix_filters(typed);
        if fq.is_empty() {
            return Ok(Vec::new());
        }
        let mut found = Vec::new();
        for collection in targets {
            let query = SearchQuery {
                fq: fq.clone(),
                fl: vec!["urn".into(), "title".into()],
                limit: Some(limit),
                ..SearchQuery::default()
            };
            let results = self.search_records(collection, &query).await?;
            found.extend(results.results.into_iter().filter_map(|hit| {
                let text = |name: &str| {
                    hit.record
                        .get(name)
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                Some(Found {
                    urn: collection.full_urn(&text("urn")?),
                    title: text("title").unwrap_or_default(),
                    collection,
                })
            }));
        }
        Ok(found)
    }

    /// The title of the record `urn` names among `targets`: `Ok(None)` when none has it (a
    /// reference that no longer resolves), or when its kind is none of the targets'.
    pub async fn reference_title(
        &self,
        targets: &[&'static Collection],
        urn: &str,
    ) -> Result<Option<String>, ApiError> {
        let Some(collection) = Collection::of_urn(urn).filter(|c| targets.contains(c)) else {
            return Ok(None);
        };
        match self.get_record(collection, urn).await {
            Ok(record) => Ok(Some(
                record
                    .get("title")
                    .and_then(Value::as_str)
                    .unwrap_or(urn)
                    .to_string(),
            )),
            Err(ApiError::Api(failure)) if failure.status == 404 => Ok(None),
            Err(error) => Err(error),
        }
    }
}
