//! The records read for the signed-in person: a listing of identifiers shows titles without
//! fetching each record again on every page turn. Part of the [`Person`](super::Person), so it
//! goes with them; bounded in bytes ([`BUDGET`], `crate::lru`), the least recently used first.

use futures::future::join_all;
use larder_api::{ApiError, Record};

use super::Session;
use crate::kb::schema::Schema;
use crate::lru::{json_bytes, Lru};
use crate::ApiClient;

/// The bytes of records a person's session keeps: some thousands of typical records, a few
/// hundred large ones; a list page needs its 25 to 1,000 rows' titles.
pub const BUDGET: usize = 4 << 20;

/// Records by `(collection path, identifier)`.
pub struct RecordCache(Lru<(&'static str, String), Record>);

impl Default for RecordCache {
    fn default() -> Self {
        RecordCache(Lru::new(BUDGET))
    }
}

impl Session {
    fn with_records<R>(&self, use_them: impl FnOnce(&mut RecordCache) -> R) -> Option<R> {
        let person = self.person()?;
        let mut records = person.0.records.borrow_mut();
        Some(use_them(&mut records))
    }

    /// Remembers a record read or written.
    pub fn remember_record(&self, path: &'static str, identifier: &str, record: &Record) {
        let size = json_bytes(&serde_json::Value::Object(record.clone()));
        self.with_records(|r| {
            r.0.insert((path, identifier.to_string()), record.clone(), size)
        });
    }

    /// Forgets a record (deleted, or changed elsewhere).
    pub fn forget_record(&self, path: &'static str, identifier: &str) {
        self.with_records(|r| r.0.remove(&(path, identifier.to_string())));
    }

    /// The identifiers with whatever the cache already holds for them; nothing is fetched.
    pub fn cached_records(
        &self,
        schema: &'static Schema,
        identifiers: Vec<String>,
    ) -> Vec<(String, Option<Record>)> {
        let path = schema.collection.path;
        identifiers
            .into_iter()
            .map(|id| {
                let record = self
                    .with_records(|r| r.0.get(&(path, id.clone())).cloned())
                    .flatten();
                (id, record)
            })
            .collect()
    }

    /// The records behind listed identifiers: cached ones at once, the others fetched all at
    /// once (the client keeps its connections' limit). A record that fails to load stays
    /// `None` (the row shows its identifier).
    pub async fn resolve_records(
        &self,
        client: &ApiClient,
        schema: &'static Schema,
        identifiers: Vec<String>,
    ) -> Vec<(String, Option<Record>)> {
        let path = schema.collection.path;
        let missing: Vec<String> = identifiers
            .iter()
            .filter(|id| {
                !self
                    .with_records(|r| r.0.contains(&(path, id.to_string())))
                    .unwrap_or(false)
            })
            .cloned()
            .collect();
        let fetched = join_all(
            missing
                .iter()
                .map(|id| client.get_record(schema.collection, id)),
        )
        .await;
        let mut found: Vec<(String, Record)> = Vec::new();
        for (id, record) in missing.into_iter().zip(fetched) {
            if let Ok(record) = record {
                self.remember_record(path, &id, &record);
                found.push((id, record));
            }
        }
        // From what was fetched, not the cache: a budget smaller than the page must not lose it.
        identifiers
            .into_iter()
            .map(|id| {
                let fetched = found.iter().find(|(f, _)| *f == id).map(|(_, r)| r.clone());
                let record = fetched.or_else(|| {
                    self.with_records(|r| r.0.get(&(path, id.clone())).cloned())
                        .flatten()
                });
                (id, record)
            })
            .collect()
    }

    /// A record read through the cache's bookkeeping.
    pub async fn load_record(
        &self,
        client: &ApiClient,
        schema: &'static Schema,
        identifier: &str,
    ) -> Result<Record, ApiError> {
        let record = client.get_record(schema.collection, identifier).await?;
        self.remember_record(schema.collection.path, identifier, &record);
        Ok(record)
    }
}
