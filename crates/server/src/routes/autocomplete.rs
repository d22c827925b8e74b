//! `GET {collection}/autocomplete?q=&limit=15` (production.md §10.7): the records a reference
//! picker offers, each as the small item the contract names (`routes.autocomplete.item`, from
//! production's `src/schemas/autocomplete.py`), no total and no offset.
//!
//! It is the collection's search as the caller sees it. Where the words match is the dialect's
//! (`Dialect::autocomplete_match`): whole words on production's wire, as production's full-text
//! search matches them ("medit" finds nothing), the beginning of words on the reference wire
//! ("medit" finds "Mediterranean diet"). On production's wire the guidelines route answers 500
//! once anything matches, as production's does (`Dialect::broken_autocomplete_fails`); with
//! nothing found it answers `[]` there too.

use axum::extract::State;
use larder_contract::limits::{
    DEFAULT_AUTOCOMPLETE_LIMIT, MAX_AUTOCOMPLETE_QUERY_BYTES, MAX_PAGE_SIZE,
};
use larder_contract::{Collection, ErrorKind, Type};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{blocking, viewer};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, QueryParams};
use crate::model::query::terms;
use crate::store::{NaturalOrder, SearchQuery};
use crate::SharedState;

/// The query of an autocomplete.
#[derive(Debug, Deserialize)]
pub struct AutocompleteQuery {
    /// The words typed; empty matches every record.
    #[serde(default)]
    pub q: String,
    /// How many items, 1 to 1000 (15).
    pub limit: Option<i64>,
}

/// One hit as its item: every key the contract names, `null` (or `[]` for a list field) where
/// the record has none, as production's schema fills its defaults.
fn item(collection: &Collection, doc: &Value) -> Value {
    let mut out = Map::new();
    for key in collection.routes.autocomplete.item {
        let value = doc.get(*key).cloned().unwrap_or(Value::Null);
        let value = match (&value, collection.field(key).map(|f| f.ty)) {
            (Value::Null, Some(Type::List { .. })) => Value::Array(Vec::new()),
            _ => value,
        };
        out.insert((*key).to_string(), value);
    }
    Value::Object(out)
}

/// `GET {collection}/autocomplete`.
pub async fn autocomplete(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<AutocompleteQuery>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let limit = query.limit.unwrap_or(DEFAULT_AUTOCOMPLETE_LIMIT.into());
    if !(1..=i64::from(MAX_PAGE_SIZE)).contains(&limit) {
        // Production's words: its search schema refuses the limit (production.md §10.7).
        return Err(ApiError::new(
            ErrorKind::Data,
            format!(
                "Invalid search query: limit must be between 1 and {MAX_PAGE_SIZE}, not {limit}."
            ),
        ));
    }
    if query.q.len() > MAX_AUTOCOMPLETE_QUERY_BYTES {
        return Err(ApiError::unprocessable(
            "q",
            format!(
                "at most {MAX_AUTOCOMPLETE_QUERY_BYTES} bytes, not {}",
                query.q.len()
            ),
        ));
    }
    blocking(move || {
        let dialect = state.dialect;
        let search = SearchQuery {
            collection,
            viewer,
            parent: None,
            terms: terms(&query.q),
            prefix: dialect.autocomplete_match.by_prefix(),
            filters: Vec::new(),
            sort: Vec::new(),
            natural_order: NaturalOrder::Insertion,
            limit: limit as u32,
            offset: 0,
            facets: Vec::new(),
            facet_limit: 1,
        };
        let hits = state.store.search(&search)?;
        if !hits.results.is_empty()
            && dialect.broken_autocomplete_fails
            && !collection.routes.autocomplete.works_in_production
        {
            // Production validates each hit against the whole record after a narrow `fl`, which
            // fails: its catch-all answers 500 `Internal Server Error` (production.md §1.1, §10.7).
            tracing::warn!(
                collection = collection.path,
                "autocomplete answered 500 as production's does on any hit"
            );
            return Err(ApiError::new(ErrorKind::Internal, "Internal Server Error"));
        }
        let items: Vec<Value> = hits
            .results
            .iter()
            .map(|(doc, _)| item(collection, doc))
            .collect();
        Ok(Envelope(Value::Array(items)))
    })
    .await
}
