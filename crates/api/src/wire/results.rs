//! Answers that are not records: search pages, enhancement runs, imports, messages.

use std::collections::BTreeMap;
use std::ops::Deref;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Record;
use super::{or_default, Guideline};
use crate::machinery::client::decode;
use crate::machinery::error::ApiError;

/// A page of search hits: `{results, facets: {field: [{value, count}]}, total}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct SearchResults<T = Record> {
    /// The hits of this page.
    #[serde(default, deserialize_with = "or_default")]
    pub results: Vec<Hit<T>>,
    /// Counts per value of each requested facet field.
    #[serde(default, deserialize_with = "or_default")]
    pub facets: BTreeMap<String, Vec<FacetCount>>,
    /// Hits in all, beyond this page.
    #[serde(default, deserialize_with = "or_default")]
    pub total: u64,
    /// Fields this client does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<T> Default for SearchResults<T> {
    fn default() -> Self {
        SearchResults {
            results: Vec::new(),
            facets: BTreeMap::new(),
            total: 0,
            extra: Map::new(),
        }
    }
}

impl<T: DeserializeOwned> SearchResults<T> {
    /// Reads a search answer: the page object, or (from older services) a bare list of hits.
    /// A page without `total` counts its hits.
    pub fn from_result(result: Value) -> Result<SearchResults<T>, ApiError> {
        match result {
            Value::Array(_) => {
                let results: Vec<Hit<T>> = decode(result)?;
                Ok(SearchResults {
                    total: results.len() as u64,
                    results,
                    ..SearchResults::default()
                })
            }
            other => {
                let has_total = other.get("total").is_some_and(|t| !t.is_null());
                let mut page: SearchResults<T> = decode(other)?;
                if !has_total {
                    page.total = page.results.len() as u64;
                }
                Ok(page)
            }
        }
    }
}

impl<T> SearchResults<T> {
    /// The records of this page, without scores and highlights.
    pub fn records(&self) -> impl Iterator<Item = &T> {
        self.results.iter().map(|hit| &hit.record)
    }
    /// The counts of one facet field (empty when it was not requested).
    pub fn facet(&self, field: &str) -> &[FacetCount] {
        self.facets.get(field).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// One search hit: the record, plus `_score` and `_highlight` when the service sent them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit<T = Record> {
    /// The record.
    #[serde(flatten)]
    pub record: T,
    /// Relevance score.
    #[serde(rename = "_score", default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Highlighted fragments per field.
    #[serde(
        rename = "_highlight",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub highlight: Option<Value>,
}

impl<T> Deref for Hit<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.record
    }
}

/// One facet value and how many hits carry it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FacetCount {
    /// The value, with its JSON type.
    #[serde(default)]
    pub value: Value,
    /// Hits carrying it.
    #[serde(default, deserialize_with = "or_default")]
    pub count: u64,
}

/// What an enhancement answered: production's `{urn, run_id, enhanced_fields, agent}`; a service
/// answering the updated record instead leaves its fields in `extra`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EnhanceResult {
    /// The enhanced record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urn: Option<String>,
    /// The agent's run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// The fields the agent set: a list of names, or an object of values.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub enhanced_fields: Value,
    /// The agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Fields this client does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl EnhanceResult {
    /// The names of the enhanced fields, whichever form the answer used.
    pub fn field_names(&self) -> Vec<String> {
        match &self.enhanced_fields {
            Value::Array(items) => items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_string))
                .collect(),
            Value::Object(fields) => fields.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }
}

/// What a guideline import answered: `{guide_urn, imported_count, ids}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GuidelineImport {
    /// The guide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guide_urn: Option<String>,
    /// How many guidelines were stored.
    #[serde(deserialize_with = "or_default")]
    pub imported_count: u64,
    /// Ids of the stored guidelines, in import order.
    #[serde(deserialize_with = "or_default")]
    pub ids: Vec<String>,
    /// The stored guidelines, when the service answered them instead of ids.
    #[serde(deserialize_with = "or_default", skip_serializing_if = "Vec::is_empty")]
    pub guidelines: Vec<Guideline>,
    /// Fields this client does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl GuidelineImport {
    /// Reads either answer: the summary object, or a list of stored guidelines or their ids.
    pub fn from_result(result: Value) -> Result<GuidelineImport, ApiError> {
        match result {
            Value::Array(items) => {
                let mut import = GuidelineImport {
                    imported_count: items.len() as u64,
                    ..GuidelineImport::default()
                };
                if items.iter().all(Value::is_string) {
                    import.ids = decode(Value::Array(items))?;
                } else {
                    import.guidelines = decode(Value::Array(items))?;
                    import.ids = import
                        .guidelines
                        .iter()
                        .filter_map(|g| g.id.clone())
                        .collect();
                }
                Ok(import)
            }
            other => {
                let has_count = other.get("imported_count").is_some_and(|c| !c.is_null());
                let mut import: GuidelineImport = decode(other)?;
                if !has_count {
                    import.imported_count = import.ids.len().max(import.guidelines.len()) as u64;
                }
                Ok(import)
            }
        }
    }
}

/// A message answer, e.g. of a delete: `{"message": ...}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Message {
    /// The service's sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Fields this client does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Message {
    /// Reads any answer: an object with `message`, a bare string, or nothing.
    pub fn from_result(result: Value) -> Result<Message, ApiError> {
        match result {
            Value::Null => Ok(Message::default()),
            Value::String(text) => Ok(Message {
                message: Some(text),
                extra: Map::new(),
            }),
            Value::Object(_) => decode(result),
            other => Ok(Message {
                message: None,
                extra: Map::from_iter([("result".to_string(), other)]),
            }),
        }
    }
}
