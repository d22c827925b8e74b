//! Search: the old `GET articles/search?q&limit` and `POST {collection}/search` with filters,
//! facets, sorting, highlighting and paging.

use larder_contract::Collection;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::Record;
use crate::wire::{Article, Resource, SearchResults};

/// The body of a `POST .../search`. Unset parts are left out, so the service's defaults apply
/// (`limit` 10, `offset` 0, `facet_limit` 50, `<em>`/`</em>` highlight tags).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchQuery {
    /// The text to search for; empty matches everything.
    pub q: String,
    /// Filters, each `field:value` (also `field:*` and `field:[low TO high]`).
    pub fq: Vec<String>,
    /// `"field asc, other desc"`; `relevance` or `score` for the score.
    pub sort: Option<String>,
    /// Fields each hit carries (all when empty).
    pub fl: Vec<String>,
    /// Facet fields.
    pub fields: Vec<String>,
    /// Values per facet (1..=1000).
    pub facet_limit: Option<u32>,
    /// Whether hits carry `_highlight`.
    pub highlight: Option<bool>,
    /// Fields to highlight.
    pub highlight_fields: Vec<String>,
    /// Opening highlight tag.
    pub highlight_pre_tag: Option<String>,
    /// Closing highlight tag.
    pub highlight_post_tag: Option<String>,
    /// Page size (1..=1000; `offset + limit <= 10000`).
    pub limit: Option<u32>,
    /// Hits to skip.
    pub offset: Option<u32>,
}

impl SearchQuery {
    /// A search for `q`.
    pub fn new(q: impl Into<String>) -> SearchQuery {
        SearchQuery {
            q: q.into(),
            ..SearchQuery::default()
        }
    }
    /// Adds the filter `field:value`.
    pub fn filter(mut self, field: &str, value: impl std::fmt::Display) -> SearchQuery {
        self.fq.push(format!("{field}:{value}"));
        self
    }
    /// Adds a filter written out, e.g. `publication_year:[2015 TO *]`.
    pub fn filter_raw(mut self, filter: impl Into<String>) -> SearchQuery {
        self.fq.push(filter.into());
        self
    }
    /// Sets the order, e.g. `"publication_year desc, title asc"`.
    pub fn sort(mut self, sort: impl Into<String>) -> SearchQuery {
        self.sort = Some(sort.into());
        self
    }
    /// Limits the fields of each hit.
    pub fn only_fields<S: Into<String>>(
        mut self,
        fields: impl IntoIterator<Item = S>,
    ) -> SearchQuery {
        self.fl = fields.into_iter().map(Into::into).collect();
        self
    }
    /// Asks for the value counts of `field`.
    pub fn facet(mut self, field: impl Into<String>) -> SearchQuery {
        self.fields.push(field.into());
        self
    }
    /// Sets how many values each facet lists.
    pub fn facet_limit(mut self, facet_limit: u32) -> SearchQuery {
        self.facet_limit = Some(facet_limit);
        self
    }
    /// Asks for highlighted fragments of `fields` (all text fields when empty).
    pub fn highlight<S: Into<String>>(
        mut self,
        fields: impl IntoIterator<Item = S>,
    ) -> SearchQuery {
        self.highlight = Some(true);
        self.highlight_fields = fields.into_iter().map(Into::into).collect();
        self
    }
    /// Sets the highlight tags.
    pub fn highlight_tags(
        mut self,
        pre: impl Into<String>,
        post: impl Into<String>,
    ) -> SearchQuery {
        self.highlight_pre_tag = Some(pre.into());
        self.highlight_post_tag = Some(post.into());
        self
    }
    /// Sets the page: `limit` hits after skipping `offset`.
    pub fn page(mut self, limit: u32, offset: u32) -> SearchQuery {
        self.limit = Some(limit);
        self.offset = Some(offset);
        self
    }

    /// The JSON body.
    pub fn to_body(&self) -> Value {
        let mut body = Map::new();
        body.insert("q".into(), Value::from(self.q.clone()));
        let lists = [
            ("fq", &self.fq),
            ("fl", &self.fl),
            ("fields", &self.fields),
            ("highlight_fields", &self.highlight_fields),
        ];
        for (key, list) in lists {
            if !list.is_empty() {
                body.insert(key.into(), Value::from(list.clone()));
            }
        }
        let texts = [
            ("sort", &self.sort),
            ("highlight_pre_tag", &self.highlight_pre_tag),
            ("highlight_post_tag", &self.highlight_post_tag),
        ];
        for (key, text) in texts {
            if let Some(text) = text {
                body.insert(key.into(), Value::from(text.clone()));
            }
        }
        let numbers = [
            ("facet_limit", self.facet_limit),
            ("limit", self.limit),
            ("offset", self.offset),
        ];
        for (key, number) in numbers {
            if let Some(number) = number {
                body.insert(key.into(), Value::from(number));
            }
        }
        if let Some(highlight) = self.highlight {
            body.insert("highlight".into(), Value::from(highlight));
        }
        Value::Object(body)
    }
}

impl<T: Transport> Client<T> {
    /// The older `GET articles/search?q&limit` form.
    pub async fn search_articles(
        &self,
        q: &str,
        limit: u32,
    ) -> Result<SearchResults<Article>, ApiError> {
        let request = Request::data_get("articles/search")
            .query("q", q)
            .query("limit", limit);
        SearchResults::from_result(self.execute(request).await?)
    }

    /// `POST {collection}/search`, hits decoded as `R`. Artifacts and passages have no
    /// collection-wide search: asking fails before any request.
    pub async fn search<R: DeserializeOwned>(
        &self,
        collection: &Collection,
        query: &SearchQuery,
    ) -> Result<SearchResults<R>, ApiError> {
        if !collection.routes.search.by_reference() {
            return Err(ApiError::Caller(format!(
                "{} cannot be searched as a whole.",
                collection.path
            )));
        }
        self.search_at(collection, format!("{}/search", collection.path), query)
            .await
    }

    /// [`Client::search`] with the hits as plain records, for schema-driven screens.
    pub async fn search_records(
        &self,
        collection: &Collection,
        query: &SearchQuery,
    ) -> Result<SearchResults<Record>, ApiError> {
        self.search(collection, query).await
    }

    /// [`Client::search`] in the collection of `R`, e.g. `client.search_typed::<Guide>(&query)`.
    pub async fn search_typed<R: Resource>(
        &self,
        query: &SearchQuery,
    ) -> Result<SearchResults<R>, ApiError> {
        self.search(&R::COLLECTION, query).await
    }

    /// `POST {path}` with a search body for `collection`'s records; search is a read, yet it is
    /// a POST and so never retried. Where production cannot narrow a hit (guidelines and
    /// passages: a 500 for an `fl` that leaves out a required field), whole records are asked
    /// for, and the caller reads the fields it wanted.
    pub(crate) async fn search_at<R: DeserializeOwned>(
        &self,
        collection: &Collection,
        path: String,
        query: &SearchQuery,
    ) -> Result<SearchResults<R>, ApiError> {
        let body = if collection.routes.search_narrows {
            query.to_body()
        } else {
            SearchQuery {
                fl: Vec::new(),
                ..query.clone()
            }
            .to_body()
        };
        let request = Request::new(Api::Data, Method::Post(body), path);
        SearchResults::from_result(self.execute(request).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unset_parts_are_left_out() {
        assert_eq!(SearchQuery::new("").to_body(), json!({"q": ""}));
        let full = SearchQuery::new("vitamin d")
            .filter("status", "active")
            .filter_raw("publication_year:[2015 TO *]")
            .sort("publication_year desc")
            .only_fields(["urn", "title"])
            .facet("language")
            .facet_limit(5)
            .highlight(["title"])
            .highlight_tags("<b>", "</b>")
            .page(20, 40);
        assert_eq!(
            full.to_body(),
            json!({
                "q": "vitamin d",
                "fq": ["status:active", "publication_year:[2015 TO *]"],
                "sort": "publication_year desc",
                "fl": ["urn", "title"],
                "fields": ["language"],
                "facet_limit": 5,
                "highlight": true,
                "highlight_fields": ["title"],
                "highlight_pre_tag": "<b>",
                "highlight_post_tag": "</b>",
                "limit": 20,
                "offset": 40
            })
        );
    }
}
