//! The rows of a whole search ("all N matches"), read page by page by identifier before a
//! bulk action acts on them: used by the bulk delete and by enrichment.

use larder_api::{ApiError, SearchQuery};
use larder_contract::limits::{MAX_PAGE_SIZE, MAX_SEARCH_WINDOW};

use crate::kb::list::selection::WholeSearch;
use crate::kb::schema::bulk::Chosen;
use crate::kb::schema::Schema;
use crate::ApiClient;

/// The rows of a whole search, read page by page by identifier before anything is deleted
/// (deleting while paging would shift the pages).
pub async fn rows_of_search(
    client: &ApiClient,
    schema: &'static Schema,
    search: &WholeSearch,
) -> Result<Vec<Chosen>, ApiError> {
    let mut rows = Vec::new();
    let mut offset = 0;
    while offset < MAX_SEARCH_WINDOW {
        let mut query = SearchQuery::new(search.q.clone().unwrap_or_default())
            .page(MAX_PAGE_SIZE.min(MAX_SEARCH_WINDOW - offset), offset);
        query.fq = search.fq.clone();
        let found = client.search_records(schema.collection, &query).await?;
        let short = (found.results.len() as u32) < query.limit.unwrap_or(MAX_PAGE_SIZE);
        for hit in &found.results {
            if let Some(id) = schema.identifier_of(&hit.record) {
                let title = schema.title_of(&hit.record).unwrap_or_else(|| id.clone());
                rows.push(Chosen { id, title });
            }
        }
        offset += found.results.len() as u32;
        if short || found.results.is_empty() {
            break;
        }
    }
    Ok(rows)
}
