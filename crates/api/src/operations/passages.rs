//! Passages of a textbook: listing, one page, search and bulk replacement.

use super::records::by_parent_path;
use super::search::SearchQuery;
use crate::machinery::client::interpret;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::exchange::Exchange;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::{ProgressFn, Transport};
use crate::wire::{Passage, ReplacePassages, ReplaceResult, SearchResults};
use larder_contract::collections::TEXTBOOK_PASSAGES;

/// `textbook-passages/by-textbook/{urn}`.
fn by_textbook(textbook_urn: &str) -> Result<String, ApiError> {
    by_parent_path(&TEXTBOOK_PASSAGES, textbook_urn)
}

impl<T: Transport> Client<T> {
    /// `GET textbook-passages/by-textbook/{urn}?limit&offset`: full passages by page and sequence.
    pub async fn passages_of(
        &self,
        textbook_urn: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Passage>, ApiError> {
        self.children_page(&TEXTBOOK_PASSAGES, textbook_urn, limit, offset)
            .await
    }

    /// The passages of page `page_no`, in sequence: the textbook's search with
    /// `fq: ["page_no:N"]`.
    pub async fn passages_on_page(
        &self,
        textbook_urn: &str,
        page_no: u32,
        limit: u32,
    ) -> Result<Vec<Passage>, ApiError> {
        let query = SearchQuery::new("")
            .filter("page_no", page_no)
            .sort("sequence_no asc")
            .page(limit, 0);
        let page = self.search_passages_of(textbook_urn, &query).await?;
        Ok(page.results.into_iter().map(|hit| hit.record).collect())
    }

    /// `POST textbook-passages/by-textbook/{urn}/search`.
    pub async fn search_passages_of(
        &self,
        textbook_urn: &str,
        query: &SearchQuery,
    ) -> Result<SearchResults<Passage>, ApiError> {
        let path = format!("{}/search", by_textbook(textbook_urn)?);
        self.search_at(&TEXTBOOK_PASSAGES, path, query).await
    }

    /// `POST textbook-passages/by-textbook/{urn}/replace`: the passages of one artifact, and
    /// optionally the textbook's page count and table of contents, replaced at once.
    pub async fn replace_passages(
        &self,
        textbook_urn: &str,
        replacement: &ReplacePassages,
    ) -> Result<ReplaceResult, ApiError> {
        let body = replace_body(replacement)?;
        let path = format!("{}/replace", by_textbook(textbook_urn)?);
        ReplaceResult::from_result(
            self.execute(Request::new(Api::Data, Method::Post(body), path))
                .await?,
        )
    }

    /// [`Client::replace_passages`], telling `progress` how much of the (possibly large) body
    /// has been sent; once all of it has, the service is storing the passages.
    pub async fn replace_passages_tracked(
        &self,
        textbook_urn: &str,
        replacement: &ReplacePassages,
        progress: ProgressFn,
    ) -> Result<ReplaceResult, ApiError> {
        let body = replace_body(replacement)?;
        let path = format!("{}/replace", by_textbook(textbook_urn)?);
        let request = Request::new(Api::Data, Method::Post(body), path);
        let response = self
            .respond_via(&request, &Exchange::Tracked(progress), None)
            .await?;
        ReplaceResult::from_result(interpret(response)?)
    }
}

/// A replacement as the wire carries it, checked against production's body schema first: a
/// body it would refuse is never sent.
pub fn replace_body(replacement: &ReplacePassages) -> Result<serde_json::Value, ApiError> {
    let body = serde_json::to_value(replacement).map_err(|e| ApiError::Caller(e.to_string()))?;
    let mut problems = larder_contract::validate::Problems::new();
    if let Some(map) = body.as_object() {
        larder_contract::validate::check_object(
            larder_contract::collections::PASSAGE_REPLACE,
            larder_contract::validate::Extra::Forbid,
            map,
            &mut problems,
        );
    }
    match problems.shown().first() {
        None => Ok(body),
        Some(problem) => Err(ApiError::Caller(format!(
            "{}: {} ({} problem{} in all).",
            problem.dotted(),
            problem.msg,
            problems.total(),
            if problems.total() == 1 { "" } else { "s" }
        ))),
    }
}
