//! Records of the seven data collections, stored as JSON documents with indexed columns.
//!
//! `parent` holds the URN a record hangs from: a guideline's guide, a passage's textbook, an
//! artifact's parent. Visibility is one SQL predicate per collection, so lists, reads, searches and
//! embedded children all hide the same records.

use larder_contract::{collections, Collection};
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, params_from_iter, OptionalExtension};
use serde_json::Value;

use super::Store;

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

/// Which records a caller may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// `admin` and `expert`: everything.
    Curator,
    /// Everyone else: verified-or-active records and public textbooks only.
    Public,
}

/// Record operations over a [`Collection`].
pub struct Records<'a> {
    pub(super) store: &'a Store,
}

/// Verified-or-active for a record aliased `a`; a deleted record is never shown.
fn active_or_verified(a: &str) -> String {
    format!(
        "(json_extract({a}.doc, '$.status') = 'active' OR (json_extract({a}.doc, '$.review_status') = 'verified' AND coalesce(json_extract({a}.doc, '$.status'), '') <> 'deleted'))"
    )
}

fn public_textbook(a: &str) -> String {
    format!("json_extract({a}.doc, '$.visibility') = 'public'")
}

/// The SQL predicate (no parameters) that a record aliased `a` is visible to `viewer`.
pub fn visibility_clause(collection: &Collection, viewer: Viewer, a: &str) -> String {
    if viewer == Viewer::Curator {
        return "1".into();
    }
    let parent = |condition: String| {
        format!("EXISTS (SELECT 1 FROM records p WHERE p.urn = {a}.parent AND {condition})")
    };
    match collection.path {
        "textbooks" => public_textbook(a),
        "textbook-passages" => parent(public_textbook("p")),
        "guidelines" => format!(
            "{} AND {}",
            active_or_verified(a),
            parent(active_or_verified("p"))
        ),
        "artifacts" => parent(format!(
            "CASE p.collection WHEN 'textbooks' THEN {} ELSE {} END",
            public_textbook("p"),
            active_or_verified("p")
        )),
        _ => active_or_verified(a),
    }
}

/// The field naming a record's parent URN, for collections whose records hang from another.
pub fn parent_field(collection: &Collection) -> Option<&'static str> {
    match collection.path {
        "guidelines" => Some("guide_urn"),
        "textbook-passages" => Some("textbook_urn"),
        "artifacts" => Some("parent_urn"),
        _ => None,
    }
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
            "SELECT coalesce(r.urn, r.id) FROM records r WHERE r.collection = ?1 AND {} ORDER BY r.rowid LIMIT ?2 OFFSET ?3",
            visibility_clause(collection, viewer, "r")
        );
        self.store.with(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows =
                statement.query_map(params![collection.path, limit, offset], |row| row.get(0))?;
            rows.collect()
        })
    }

    /// Finds a visible record by slug, full URN or UUID.
    pub fn get(
        &self,
        collection: &Collection,
        identifier: &str,
        viewer: Viewer,
    ) -> rusqlite::Result<Option<RecordRow>> {
        let urn = collection.full_urn(identifier);
        let sql = format!(
            "SELECT r.id, r.urn, r.doc FROM records r WHERE r.collection = ?1 AND (r.id = ?2 OR r.urn = ?3) AND {}",
            visibility_clause(collection, viewer, "r")
        );
        self.store.with(|conn| {
            conn.query_row(&sql, params![collection.path, identifier, urn], |row| {
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
        let Some(collection) = collections::COLLECTIONS
            .iter()
            .find(|c| c.urn_prefix().is_some_and(|p| urn.starts_with(&p)))
        else {
            return Ok(None);
        };
        Ok(self
            .get(collection, urn, viewer)?
            .map(|row| (collection, row)))
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
    pub fn insert(&self, collection: &Collection, doc: &Value) -> rusqlite::Result<()> {
        self.store.with(|conn| insert_with(conn, collection, doc))
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
        let sql = format!(
            "SELECT r.id, r.urn, r.doc FROM records r WHERE r.collection = ?1 AND r.parent = ?2 AND {} ORDER BY {} LIMIT ?3 OFFSET ?4",
            visibility_clause(collection, viewer, "r"),
            order.sql()
        );
        self.store.with(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement
                .query_map(params![collection.path, parent, limit, offset], |row| {
                    Ok(row_of(row.get(0)?, row.get(1)?, row.get(2)?).doc)
                })?;
            rows.collect()
        })
    }

    /// Every record of `collection` hanging from `parent`, whatever its visibility.
    pub fn all_children(
        &self,
        collection: &Collection,
        parent: &str,
    ) -> rusqlite::Result<Vec<RecordRow>> {
        self.store.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT id, urn, doc FROM records WHERE collection = ?1 AND parent = ?2 ORDER BY rowid",
            )?;
            let rows = statement.query_map(params![collection.path, parent], |row| {
                Ok(row_of(row.get(0)?, row.get(1)?, row.get(2)?))
            })?;
            rows.collect()
        })
    }

    /// The highest `sequence_no` among a parent's children, optionally on one page.
    pub fn max_sequence(
        &self,
        collection: &Collection,
        parent: &str,
        page_no: Option<i64>,
    ) -> rusqlite::Result<i64> {
        let mut sql = String::from(
            "SELECT coalesce(max(json_extract(doc, '$.sequence_no')), 0) FROM records WHERE collection = ? AND parent = ?",
        );
        let mut values = vec![
            SqlValue::Text(collection.path.into()),
            SqlValue::Text(parent.into()),
        ];
        if let Some(page) = page_no {
            sql.push_str(" AND json_extract(doc, '$.page_no') = ?");
            values.push(SqlValue::Integer(page));
        }
        self.store.with(|conn| {
            conn.query_row(&sql, params_from_iter(values), |row| {
                row.get::<_, Option<i64>>(0)
            })
            .map(|max| max.unwrap_or(0))
        })
    }
}

/// Inserts a record inside an open connection or transaction.
pub fn insert_with(
    conn: &rusqlite::Connection,
    collection: &Collection,
    doc: &Value,
) -> rusqlite::Result<()> {
    let id = doc["id"].as_str().unwrap_or_default();
    let urn = doc["urn"].as_str();
    let parent = parent_field(collection).and_then(|field| doc[field].as_str());
    conn.execute(
        "INSERT INTO records (id, collection, urn, parent, doc) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, collection.path, urn, parent, doc.to_string()],
    )
    .map(|_| ())
}

impl Records<'_> {
    /// Deletes a record with everything hanging from it (guidelines, passages, artifacts, and an
    /// artifact's passages), in one transaction. Answers the ids of the artifacts removed, whose
    /// files the caller then deletes.
    pub fn delete_cascade(
        &self,
        collection: &Collection,
        row: &RecordRow,
    ) -> rusqlite::Result<Vec<String>> {
        self.store.transaction(|tx| {
            let mut artifacts = Vec::new();
            if collection.path == "artifacts" {
                artifacts.push(row.id.clone());
            }
            if let Some(urn) = &row.urn {
                let mut statement = tx.prepare_cached(
                    "SELECT id FROM records WHERE collection = 'artifacts' AND parent = ?1",
                )?;
                let ids = statement.query_map([urn], |r| r.get::<_, String>(0))?;
                for id in ids {
                    artifacts.push(id?);
                }
                tx.execute("DELETE FROM records WHERE parent = ?1", [urn])?;
            }
            for artifact in &artifacts {
                tx.execute(
                    "DELETE FROM records WHERE collection = 'textbook-passages' AND json_extract(doc, '$.artifact_id') = ?1",
                    [artifact],
                )?;
            }
            tx.execute("DELETE FROM records WHERE id = ?1", [&row.id])?;
            Ok(artifacts)
        })
    }

    /// Replaces the passages of one artifact of a textbook, and optionally the textbook's
    /// document, in one transaction; answers how many passages were stored.
    pub fn replace_passages(
        &self,
        textbook: Option<(&str, &Value)>,
        textbook_urn: &str,
        artifact_id: &str,
        passages: &[Value],
    ) -> rusqlite::Result<usize> {
        self.store.transaction(|tx| {
            if let Some((id, doc)) = textbook {
                tx.execute(
                    "UPDATE records SET doc = ?2 WHERE id = ?1",
                    params![id, doc.to_string()],
                )?;
            }
            tx.execute(
                "DELETE FROM records WHERE collection = 'textbook-passages' AND parent = ?1 AND json_extract(doc, '$.artifact_id') = ?2",
                params![textbook_urn, artifact_id],
            )?;
            for passage in passages {
                insert_with(tx, &collections::TEXTBOOK_PASSAGES, passage)?;
            }
            Ok(passages.len())
        })
    }

    /// Stores many records of one collection in one transaction.
    pub fn insert_many(&self, collection: &Collection, docs: &[Value]) -> rusqlite::Result<()> {
        self.store.transaction(|tx| {
            for doc in docs {
                insert_with(tx, collection, doc)?;
            }
            Ok(())
        })
    }
}
