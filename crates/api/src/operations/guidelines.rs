//! Guidelines of a guide: listing, creation, search and bulk import.

use larder_contract::collections::{GUIDELINES, GUIDELINE_ITEM};
use serde_json::{json, Value};

use super::records::{by_parent_path, creatable};
use super::search::SearchQuery;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::{Guideline, GuidelineImport, Resource, SearchResults};

/// The most guidelines one import takes.
pub const MAX_IMPORT: usize = larder_contract::limits::MAX_GUIDELINE_IMPORT;

/// The guideline lists production's later data service added (production.md §10.5).
const LATER_LISTS: [&str; 8] = [
    "life_stage",
    "setting",
    "audience",
    "topic",
    "nutrients",
    "health_conditions",
    "applicable_regions",
    "ai_generated_fields",
];

/// Whether `key` is one of the facet or provenance lists production added after its first
/// data service (production.md §10.5) and `value` is empty: such a list is left out, as the
/// later service defaults it to `[]` and the earlier one refuses the key (422).
fn is_later_and_empty(key: &str, value: &Value) -> bool {
    LATER_LISTS.contains(&key) && value.as_array().is_some_and(Vec::is_empty)
}

impl<T: Transport> Client<T> {
    /// `GET guidelines/by-guide/{guide urn}?limit&offset`: full guidelines by `sequence_no`.
    pub async fn guidelines_of(
        &self,
        guide_urn: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Guideline>, ApiError> {
        self.children_page(&GUIDELINES, guide_urn, limit, offset)
            .await
    }

    /// `POST guidelines`; the guideline names its guide in `guide_urn`.
    pub async fn create_guideline(&self, guideline: &Guideline) -> Result<Guideline, ApiError> {
        if guideline.guide_urn.trim().is_empty() {
            return Err(ApiError::Caller("A guideline needs its guide_urn.".into()));
        }
        let mut record = creatable(&GUIDELINES, &guideline.to_record()?);
        record.retain(|k, v| !is_later_and_empty(k, v));
        let body = Value::Object(record);
        self.call(Request::new(Api::Data, Method::Post(body), "guidelines"))
            .await
    }

    /// `POST guidelines/by-guide/{guide urn}/search`.
    pub async fn search_guidelines_of(
        &self,
        guide_urn: &str,
        query: &SearchQuery,
    ) -> Result<SearchResults<Guideline>, ApiError> {
        let path = format!("{}/search", by_parent_path(&GUIDELINES, guide_urn)?);
        self.search_at(&GUIDELINES, path, query).await
    }

    /// `POST guidelines/by-guide/{guide urn}/import` with `{guidelines: [...]}`: all are stored
    /// or none. More than [`MAX_IMPORT`] fail before any request.
    pub async fn import_guidelines(
        &self,
        guide_urn: &str,
        guidelines: &[Guideline],
    ) -> Result<GuidelineImport, ApiError> {
        if guidelines.len() > MAX_IMPORT {
            return Err(ApiError::Caller(format!(
                "At most {MAX_IMPORT} guidelines per import; split the {} into batches.",
                guidelines.len()
            )));
        }
        // Items take the guideline's fields but `guide_urn` (the path names the guide) and
        // anything the service sets: production refuses any other key.
        let items = guidelines
            .iter()
            .map(|g| {
                g.to_record().map(|record| {
                    Value::Object(
                        record
                            .into_iter()
                            .filter(|(k, v)| {
                                !v.is_null()
                                    && !is_later_and_empty(k, v)
                                    && GUIDELINE_ITEM.iter().any(|f| f.name == k)
                            })
                            .collect(),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let path = format!("{}/import", by_parent_path(&GUIDELINES, guide_urn)?);
        let request = Request::new(
            Api::Data,
            Method::Post(json!({ "guidelines": items })),
            path,
        );
        GuidelineImport::from_result(self.execute(request).await?)
    }
}
