//! Records of the seven data collections, stored as JSON documents with indexed columns.

use larder_contract::Collection;
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

use super::Store;

/// One stored record.
#[derive(Debug, Clone)]
pub struct RecordRow {
    /// The UUID.
    pub id: String,
    /// The full URN, for URN collections.
    pub urn: Option<String>,
    /// The document as served.
    pub doc: Value,
}

/// Record operations over a [`Collection`].
pub struct Records<'a> {
    pub(super) store: &'a Store,
}

impl Records<'_> {
    /// Identifiers of a page of records, oldest first: URNs, or UUIDs where there are none.
    pub fn list_identifiers(
        &self,
        collection: &Collection,
        limit: u32,
        offset: u32,
    ) -> rusqlite::Result<Vec<String>> {
        self.store.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT coalesce(urn, id) FROM records WHERE collection = ?1 ORDER BY rowid LIMIT ?2 OFFSET ?3",
            )?;
            let rows = statement.query_map(params![collection.path, limit, offset], |row| row.get(0))?;
            rows.collect()
        })
    }

    /// Finds a record by slug, full URN or UUID.
    pub fn get(
        &self,
        collection: &Collection,
        identifier: &str,
    ) -> rusqlite::Result<Option<RecordRow>> {
        let urn = collection.full_urn(identifier);
        self.store.with(|conn| {
            conn.query_row(
                "SELECT id, urn, doc FROM records WHERE collection = ?1 AND (id = ?2 OR urn = ?3)",
                params![collection.path, identifier, urn],
                |row| Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?, row.get::<_, String>(2)?)),
            )
            .optional()
        })
        .map(|found| {
            found.map(|(id, urn, doc)| RecordRow { id, urn, doc: serde_json::from_str(&doc).unwrap_or(Value::Null) })
        })
    }

    /// Whether a URN is taken.
    pub fn urn_exists(&self, urn: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.query_row("SELECT 1 FROM records WHERE urn = ?1", [urn], |_| Ok(()))
                .optional()
                .map(|found| found.is_some())
        })
    }

    /// Stores a new record; `doc` must carry `id` (and `urn` for URN collections).
    pub fn insert(
        &self,
        collection: &Collection,
        doc: &Value,
        parent: Option<&str>,
    ) -> rusqlite::Result<()> {
        let id = doc["id"].as_str().unwrap_or_default();
        let urn = doc["urn"].as_str();
        self.store.with(|conn| {
            conn.execute(
                "INSERT INTO records (id, collection, urn, parent, doc) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, collection.path, urn, parent, doc.to_string()],
            )
            .map(|_| ())
        })
    }

    /// Replaces the stored document of record `id`.
    pub fn replace(&self, id: &str, doc: &Value) -> rusqlite::Result<()> {
        self.store.with(|conn| {
            conn.execute(
                "UPDATE records SET doc = ?2 WHERE id = ?1",
                params![id, doc.to_string()],
            )
            .map(|_| ())
        })
    }

    /// Deletes record `id`; true when it existed.
    pub fn delete(&self, id: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute("DELETE FROM records WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    /// How many records a collection holds.
    pub fn count(&self, collection: &Collection) -> rusqlite::Result<u64> {
        self.store.with(|conn| {
            conn.query_row(
                "SELECT count(*) FROM records WHERE collection = ?1",
                [collection.path],
                |row| row.get(0),
            )
        })
    }
}
