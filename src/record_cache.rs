//! Records read recently: a listing of identifiers shows titles without fetching each record
//! again on every page turn. Beside the pages and components rather than in `kb`, as the
//! records table (a component) reads it and the knowledge-base screens fill it.

use std::cell::RefCell;
use std::collections::HashMap;

use futures::future::join_all;
use larder_api::{ApiError, Record};

use crate::schema::Schema;
use crate::ApiClient;

thread_local! {
    /// Records read recently, by `path identifier`: a listing of identifiers shows titles
    /// without fetching each record again on every page turn.
    static CACHE: RefCell<HashMap<String, Record>> = RefCell::new(HashMap::new());
}

fn cache_key(path: &str, identifier: &str) -> String {
    format!("{path} {identifier}")
}

/// Remembers a record read or written.
pub fn remember(path: &str, identifier: &str, record: &Record) {
    CACHE.with(|c| {
        c.borrow_mut()
            .insert(cache_key(path, identifier), record.clone())
    });
}

/// Forgets a record (deleted, or changed elsewhere).
pub fn forget(path: &str, identifier: &str) {
    CACHE.with(|c| c.borrow_mut().remove(&cache_key(path, identifier)));
}

/// The identifiers with whatever the cache already holds for them; nothing is fetched.
pub fn cached_records(
    schema: &'static Schema,
    identifiers: Vec<String>,
) -> Vec<(String, Option<Record>)> {
    CACHE.with(|c| {
        let cache = c.borrow();
        identifiers
            .into_iter()
            .map(|id| {
                let record = cache.get(&cache_key(schema.collection.path, &id)).cloned();
                (id, record)
            })
            .collect()
    })
}

/// The records behind listed identifiers: cached ones at once, the others fetched together in
/// batches of ten. A record that fails to load stays `None` (the row shows its identifier).
pub async fn resolve(
    client: &ApiClient,
    schema: &'static Schema,
    identifiers: Vec<String>,
) -> Vec<(String, Option<Record>)> {
    let path = schema.collection.path;
    let missing: Vec<String> = CACHE.with(|c| {
        let cache = c.borrow();
        identifiers
            .iter()
            .filter(|id| !cache.contains_key(&cache_key(path, id)))
            .cloned()
            .collect()
    });
    for batch in missing.chunks(10) {
        let fetched = join_all(
            batch
                .iter()
                .map(|id| client.get_record(schema.collection, id)),
        )
        .await;
        for (id, record) in batch.iter().zip(fetched) {
            if let Ok(record) = record {
                remember(path, id, &record);
            }
        }
    }
    cached_records(schema, identifiers)
}

/// A record read through the cache's bookkeeping.
pub async fn load(
    client: &ApiClient,
    schema: &'static Schema,
    identifier: &str,
) -> Result<Record, ApiError> {
    let record = client.get_record(schema.collection, identifier).await?;
    remember(schema.collection.path, identifier, &record);
    Ok(record)
}
