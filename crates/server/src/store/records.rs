//! Records of the seven data collections, stored as JSON documents with indexed columns.
//!
//! `parent` holds the URN a record hangs from (the contract's parent field). Visibility follows
//! each collection's read rule as one SQL predicate, so lists, reads and embedded children hide
//! the same records. Every write changes the search index as it commits (`transaction_indexed`).

use larder_contract::collections::policy::PUBLIC_READING;
use larder_contract::collections::ReadRule;
use larder_contract::limits::{MAX_PAGE_BYTES, MAX_RECORD_BYTES};
use larder_contract::{Collection, COLLECTIONS};
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, params_from_iter, Connection, OptionalExtension};
use serde_json::Value;

use super::Store;

mod writes;

/// One stored record.
#[derive(Debug, Clone)]
pub struct RecordRow {
    /// The UUID.
    pub id: String,
    /// The full URN, for URN collections.
    pub urn: Option<String>,
    /// The document as stored.
    pub doc: Value,
}

pub use larder_search::Viewer;

/// A write that would store a record over [`MAX_RECORD_BYTES`] of JSON (its size in bytes).
#[derive(Debug)]
pub struct RecordTooLarge(pub usize);

impl std::fmt::Display for RecordTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "The record would take {} bytes of JSON; this service stores at most {MAX_RECORD_BYTES}.",
            self.0
        )
    }
}

impl std::error::Error for RecordTooLarge {}

/// A record's document as stored, refused past [`MAX_RECORD_BYTES`]: every write of a record
/// passes here, so no route can grow one past it.
fn stored(doc: &Value) -> rusqlite::Result<String> {
    let text = doc.to_string();
    if text.len() > MAX_RECORD_BYTES {
        return Err(rusqlite::Error::ToSqlConversionFailure(Box::new(
            RecordTooLarge(text.len()),
        )));
    }
    Ok(text)
}

/// Record operations over a [`Collection`].
pub struct Records<'a> {
    pub(super) store: &'a Store,
}

/// Verified-or-active for a record aliased `a`.
fn active_or_verified(a: &str) -> String {
    format!(
        "(json_extract({a}.doc, '$.status') = 'active' OR (json_extract({a}.doc, '$.review_status') = 'verified' AND coalesce(json_extract({a}.doc, '$.status'), '') <> 'deleted'))"
    )
}

fn rule_clause(rule: ReadRule, a: &str) -> String {
    match rule {
        ReadRule::Always | ReadRule::AsParent => "1".into(),
        ReadRule::ActiveOrVerified => active_or_verified(a),
        ReadRule::PublicAndActiveOrVerified => format!(
            "(json_extract({a}.doc, '$.visibility') = 'public' AND {})",
            active_or_verified(a)
        ),
        ReadRule::ReaderVisibility => format!(
            "coalesce(json_extract({a}.doc, '$.reader_visibility'), '{PUBLIC_READING}') = '{PUBLIC_READING}'"
        ),
    }
}

/// The SQL predicate (no parameters) that a record aliased `a` is visible to `viewer`.
pub fn visibility_clause(collection: &Collection, viewer: Viewer, a: &str) -> String {
    if viewer == Viewer::Curator {
        return "1".into();
    }
    if collection.read_rule != ReadRule::AsParent {
        return rule_clause(collection.read_rule, a);
    }
    let parents: Vec<String> = COLLECTIONS
        .iter()
        .filter(|c| c.has_urn())
        .filter(|c| {
            collection
                .parent
                .and_then(|p| p.collection)
                .is_none_or(|only| only == c.path)
        })
        .map(|c| format!("WHEN '{}' THEN {}", c.path, rule_clause(c.read_rule, "p")))
        .collect();
    format!(
        "EXISTS (SELECT 1 FROM records p WHERE p.urn = {a}.parent AND CASE p.collection {} ELSE 0 END)",
        parents.join(" ")
    )
}

/// Lists leave out deleted records for every caller (production.md §1.7).
fn listed(a: &str) -> String {
    format!("coalesce(json_extract({a}.doc, '$.status'), '') <> 'deleted'")
}

/// The order of children under their parent.
#[derive(Clone, Copy, Debug)]
pub enum ChildOrder {
    /// Oldest first.
    Created,
    /// By `sequence_no`, missing numbers last.
    Sequence,
    /// By `page_no`, then `sequence_no`.
    Page,
}

impl ChildOrder {
    fn sql(self) -> &'static str {
        match self {
            ChildOrder::Created => "r.rowid",
            ChildOrder::Sequence => {
                "json_extract(r.doc, '$.sequence_no') IS NULL, json_extract(r.doc, '$.sequence_no'), r.rowid"
            }
            ChildOrder::Page => {
                "json_extract(r.doc, '$.page_no') IS NULL, json_extract(r.doc, '$.page_no'), json_extract(r.doc, '$.sequence_no'), r.rowid"
            }
        }
    }
}

fn row_of(id: String, urn: Option<String>, doc: String) -> RecordRow {
    RecordRow {
        id,
        urn,
        doc: serde_json::from_str(&doc).unwrap_or(Value::Null),
    }
}

fn parent_of<'d>(collection: &Collection, doc: &'d Value) -> Option<&'d str> {
    collection.parent.and_then(|p| doc[p.field].as_str())
}

impl Records<'_> {
    /// Identifiers of a page of visible records, oldest first: URNs, or UUIDs where there are none.
    pub fn list_identifiers(
        &self,
        collection: &Collection,
        viewer: Viewer,
        limit: u32,
        offset: u32,
    ) -> rusqlite::Result<Vec<String>> {
        let sql = format!(
            "SELECT coalesce(r.urn, r.id) FROM records r WHERE r.collection = ?1 AND {} AND {} ORDER BY r.rowid LIMIT ?2 OFFSET ?3",
            visibility_clause(collection, viewer, "r"),
            listed("r"),
        );
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows =
                statement.query_map(params![collection.path, limit, offset], |row| row.get(0))?;
            rows.collect()
        })
    }

    /// Finds a visible record by its identifier as the path carries it: a slug or full URN for
    /// URN collections, the UUID otherwise.
    pub fn get(
        &self,
        collection: &Collection,
        identifier: &str,
        viewer: Viewer,
    ) -> rusqlite::Result<Option<RecordRow>> {
        let (column, key) = if collection.has_urn() {
            ("urn", collection.full_urn(identifier))
        } else {
            ("id", identifier.to_string())
        };
        let sql = format!(
            "SELECT r.id, r.urn, r.doc FROM records r WHERE r.{column} = ?2 AND r.collection = ?1 AND {}",
            visibility_clause(collection, viewer, "r")
        );
        self.store.read(|conn| {
            conn.prepare_cached(&sql)?
                .query_row(params![collection.path, key], |row| {
                    Ok(row_of(row.get(0)?, row.get(1)?, row.get(2)?))
                })
                .optional()
        })
    }

    /// Finds a record of any URN collection by its full URN, with its collection.
    pub fn get_by_urn(
        &self,
        urn: &str,
        viewer: Viewer,
    ) -> rusqlite::Result<Option<(&'static Collection, RecordRow)>> {
        let Some(collection) = Collection::of_urn(urn) else {
            return Ok(None);
        };
        Ok(self
            .get(collection, urn, viewer)?
            .map(|row| (collection, row)))
    }

    /// Whether a URN is taken.
    pub fn urn_exists(&self, urn: &str) -> rusqlite::Result<bool> {
        self.store.read(|conn| {
            conn.prepare_cached("SELECT 1 FROM records WHERE urn = ?1")?
                .query_row([urn], |_| Ok(()))
                .optional()
                .map(|found| found.is_some())
        })
    }

    /// Stores a new record; `doc` must carry `id` (and `urn` for URN collections).
    pub fn insert(&self, collection: &'static Collection, doc: &Value) -> rusqlite::Result<()> {
        self.store.transaction_indexed(
            |tx| insert_with(tx, collection, doc),
            |index, rid| index.put(*rid, collection, parent_of(collection, doc), doc),
        )?;
        Ok(())
    }

    /// Replaces the stored document of record `id`.
    pub fn replace(
        &self,
        collection: &'static Collection,
        id: &str,
        doc: &Value,
    ) -> rusqlite::Result<()> {
        self.replace_and(collection, id, doc, |_| Ok(()))
    }

    /// Replaces the stored document of record `id` and runs `also` in the same transaction.
    pub fn replace_and(
        &self,
        collection: &'static Collection,
        id: &str,
        doc: &Value,
        also: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>,
    ) -> rusqlite::Result<()> {
        self.store.transaction_indexed(
            |tx| {
                let rid: Option<i64> = tx
                    .prepare_cached("UPDATE records SET doc = ?2 WHERE id = ?1 RETURNING rowid")?
                    .query_row(params![id, stored(doc)?], |row| row.get(0))
                    .optional()?;
                also(tx)?;
                Ok(rid)
            },
            |index, rid| {
                if let Some(rid) = rid {
                    index.put(*rid, collection, parent_of(collection, doc), doc);
                }
            },
        )?;
        Ok(())
    }

    /// How many records a collection holds.
    pub fn count(&self, collection: &Collection) -> rusqlite::Result<u64> {
        self.store.read(|conn| {
            conn.query_row(
                "SELECT count(*) FROM records WHERE collection = ?1",
                [collection.path],
                |row| row.get(0),
            )
        })
    }

    /// A page of the visible records of `collection` hanging from `parent`.
    pub fn children(
        &self,
        collection: &Collection,
        parent: &str,
        viewer: Viewer,
        order: ChildOrder,
        limit: u32,
        offset: u32,
    ) -> rusqlite::Result<Vec<Value>> {
        // Sizes first, documents after: a page ends once it passes MAX_PAGE_BYTES (after at
        // least one record), and what lies past that is never read.
        let sql = format!(
            "SELECT r.rowid, octet_length(r.doc) FROM records r WHERE r.collection = ?1 AND r.parent = ?2 AND {} AND {} ORDER BY {} LIMIT ?3 OFFSET ?4",
            visibility_clause(collection, viewer, "r"),
            listed("r"),
            order.sql()
        );
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let sized = statement
                .query_map(params![collection.path, parent, limit, offset], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)? as usize))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut bytes = 0;
            let mut page = Vec::with_capacity(sized.len());
            let mut read =
                conn.prepare_cached("SELECT id, urn, doc FROM records WHERE rowid = ?1")?;
            for (taken, (rowid, size)) in sized.into_iter().enumerate() {
                bytes += size;
                if taken > 0 && bytes > MAX_PAGE_BYTES {
                    break;
                }
                page.push(read.query_row([rowid], |row| {
                    Ok(row_of(row.get(0)?, row.get(1)?, row.get(2)?).doc)
                })?);
            }
            Ok(page)
        })
    }

    /// The ids of every visible record of `collection` hanging from `parent`, in `order`
    /// (documents are not read: a guide carries all its guidelines' ids however large they are).
    pub fn child_ids(
        &self,
        collection: &Collection,
        parent: &str,
        viewer: Viewer,
        order: ChildOrder,
    ) -> rusqlite::Result<Vec<String>> {
        let sql = format!(
            "SELECT r.id FROM records r WHERE r.collection = ?1 AND r.parent = ?2 AND {} AND {} ORDER BY {}",
            visibility_clause(collection, viewer, "r"),
            listed("r"),
            order.sql()
        );
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement.query_map(params![collection.path, parent], |row| row.get(0))?;
            rows.collect()
        })
    }

    /// Every record of `collection` hanging from `parent`, whatever its visibility.
    pub fn all_children(
        &self,
        collection: &Collection,
        parent: &str,
    ) -> rusqlite::Result<Vec<RecordRow>> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT id, urn, doc FROM records WHERE collection = ?1 AND parent = ?2 ORDER BY rowid",
            )?;
            let rows = statement.query_map(params![collection.path, parent], |row| {
                Ok(row_of(row.get(0)?, row.get(1)?, row.get(2)?))
            })?;
            rows.collect()
        })
    }

    /// The highest `sequence_no` among a parent's children, optionally of one artifact.
    pub fn max_sequence(
        &self,
        collection: &Collection,
        parent: &str,
        artifact_id: Option<&str>,
    ) -> rusqlite::Result<i64> {
        let mut sql = String::from(
            "SELECT coalesce(max(json_extract(doc, '$.sequence_no')), 0) FROM records WHERE collection = ? AND parent = ?",
        );
        let mut values = vec![
            SqlValue::Text(collection.path.into()),
            SqlValue::Text(parent.into()),
        ];
        if let Some(artifact) = artifact_id {
            sql.push_str(" AND json_extract(doc, '$.artifact_id') = ?");
            values.push(SqlValue::Text(artifact.into()));
        }
        self.store.read(|conn| {
            conn.query_row(&sql, params_from_iter(values), |row| {
                row.get::<_, Option<i64>>(0)
            })
            .map(|max| max.unwrap_or(0))
        })
    }
}

/// Inserts a record inside an open connection or transaction; answers its rowid.
pub fn insert_with(
    conn: &Connection,
    collection: &Collection,
    doc: &Value,
) -> rusqlite::Result<i64> {
    let id = doc["id"].as_str().unwrap_or_default();
    let urn = doc["urn"].as_str();
    conn.prepare_cached(
        "INSERT INTO records (id, collection, urn, parent, doc) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING rowid",
    )?
    .query_row(
        params![id, collection.path, urn, parent_of(collection, doc), stored(doc)?],
        |row| row.get(0),
    )
}
