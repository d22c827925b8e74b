//! The rows of a whole search ("all N matches"), read page by page by identifier before a
//! bulk action acts on them: used by the bulk delete, enrichment and the embeddings backfill.

use futures::StreamExt;
use larder_api::{ApiError, Record, SearchQuery};
use larder_contract::limits::{DATA_CONNECTIONS, MAX_PAGE_SIZE, MAX_SEARCH_WINDOW};
use leptos::prelude::GetUntracked;

use crate::kb::list::selection::{Selection, WholeSearch};
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
    each_hit(client, schema, search, &[], |record| {
        if let Some(id) = schema.identifier_of(record) {
            let title = schema.title_of(record).unwrap_or_else(|| id.clone());
            rows.push(Chosen { id, title });
        }
    })
    .await?;
    Ok(rows)
}

/// Hands each record of a whole search to `each`, page by page up to the service's window;
/// with `fields`, only those fields are asked for.
pub async fn each_hit(
    client: &ApiClient,
    schema: &'static Schema,
    search: &WholeSearch,
    fields: &[&str],
    mut each: impl FnMut(&Record),
) -> Result<(), ApiError> {
    let mut offset = 0;
    while offset < MAX_SEARCH_WINDOW {
        let mut query = SearchQuery::new(search.q.clone().unwrap_or_default())
            .page(MAX_PAGE_SIZE.min(MAX_SEARCH_WINDOW - offset), offset)
            .only_fields(fields.iter().copied());
        query.fq = search.fq.clone();
        let found = client.search_records(schema.collection, &query).await?;
        let short = (found.results.len() as u32) < query.limit.unwrap_or(MAX_PAGE_SIZE);
        for hit in &found.results {
            each(&hit.record);
        }
        offset += found.results.len() as u32;
        if short || found.results.is_empty() {
            break;
        }
    }
    Ok(())
}

/// Hands each record of a selection to `each`: a whole search through [`each_hit`] (only
/// `fields`), or each chosen record read by identifier, at most the data API's connection limit
/// at once.
pub async fn each_selected(
    client: &ApiClient,
    schema: &'static Schema,
    selection: Selection,
    fields: &[&str],
    mut each: impl FnMut(&Record),
) -> Result<(), ApiError> {
    match selection.search.get_untracked() {
        Some(search) => each_hit(client, schema, &search, fields, each).await,
        None => {
            let mut reads = futures::stream::iter(selection.ids().into_iter().map(|id| {
                let client = client.clone();
                async move { client.get_record(schema.collection, &id).await }
            }))
            .buffer_unordered(DATA_CONNECTIONS);
            while let Some(read) = reads.next().await {
                each(&read?);
            }
            Ok(())
        }
    }
}
