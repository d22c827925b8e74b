//! The writes that touch many rows in one transaction: a record deleted with everything hanging
//! from it, a textbook's passages replaced, bulk updates and decisions, inserts by the thousand.

use larder_contract::collections::{ARTIFACTS, TEXTBOOK_PASSAGES};
use larder_contract::Collection;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use super::{insert_with, parent_of, stored, RecordRow, Records};

fn delete_returning(tx: &Connection, sql: &str, key: &str) -> rusqlite::Result<Vec<i64>> {
    let mut statement = tx.prepare_cached(sql)?;
    let rows = statement.query_map([key], |row| row.get(0))?;
    rows.collect()
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
        let delete = |tx: &rusqlite::Transaction<'_>| {
            let mut artifacts = Vec::new();
            let mut gone = Vec::new();
            if collection.path == ARTIFACTS.path {
                artifacts.push(row.id.clone());
            }
            if let Some(urn) = &row.urn {
                let mut statement = tx.prepare_cached(
                    "SELECT id FROM records WHERE collection = ?1 AND parent = ?2",
                )?;
                let ids = statement.query_map([ARTIFACTS.path, urn], |r| r.get::<_, String>(0))?;
                for id in ids {
                    artifacts.push(id?);
                }
                gone.extend(delete_returning(
                    tx,
                    "DELETE FROM records WHERE parent = ?1 RETURNING rowid",
                    urn,
                )?);
            }
            for artifact in &artifacts {
                let mut statement = tx.prepare_cached(
                    "DELETE FROM records WHERE collection = ?1 AND json_extract(doc, '$.artifact_id') = ?2 RETURNING rowid",
                )?;
                let rows = statement.query_map([TEXTBOOK_PASSAGES.path, artifact], |r| r.get(0))?;
                for rid in rows {
                    gone.push(rid?);
                }
            }
            gone.extend(delete_returning(
                tx,
                "DELETE FROM records WHERE id = ?1 RETURNING rowid",
                &row.id,
            )?);
            Ok::<_, rusqlite::Error>((artifacts, gone))
        };
        let (artifacts, _) = self.store.transaction_indexed(delete, |index, (_, gone)| {
            for rid in gone {
                index.remove(*rid);
            }
        })?;
        Ok(artifacts)
    }

    /// Replaces the passages of one artifact of a textbook, and optionally the textbook's
    /// document, in one transaction; answers how many passages were stored.
    pub fn replace_passages(
        &self,
        textbook: Option<(&'static Collection, &str, &Value)>,
        textbook_urn: &str,
        artifact_id: &str,
        passages: &[Value],
    ) -> rusqlite::Result<usize> {
        let replace = |tx: &rusqlite::Transaction<'_>| {
            let mut updated = None;
            if let Some((_, id, doc)) = textbook {
                updated = tx
                    .prepare_cached("UPDATE records SET doc = ?2 WHERE id = ?1 RETURNING rowid")?
                    .query_row(params![id, stored(doc)?], |row| row.get::<_, i64>(0))
                    .optional()?;
            }
            let mut statement = tx.prepare_cached(
                "DELETE FROM records WHERE collection = ?1 AND parent = ?2 AND json_extract(doc, '$.artifact_id') = ?3 RETURNING rowid",
            )?;
            let gone = statement
                .query_map(
                    params![TEXTBOOK_PASSAGES.path, textbook_urn, artifact_id],
                    |r| r.get(0),
                )?
                .collect::<rusqlite::Result<Vec<i64>>>()?;
            let mut added = Vec::with_capacity(passages.len());
            for passage in passages {
                added.push(insert_with(tx, &TEXTBOOK_PASSAGES, passage)?);
            }
            Ok::<_, rusqlite::Error>((updated, gone, added))
        };
        self.store
            .transaction_indexed(replace, |index, (updated, gone, added)| {
                for rid in gone {
                    index.remove(*rid);
                }
                if let (Some(rid), Some((collection, _, doc))) = (updated, textbook) {
                    index.put(*rid, collection, None, doc);
                }
                for (rid, passage) in added.iter().zip(passages) {
                    index.put(
                        *rid,
                        &TEXTBOOK_PASSAGES,
                        parent_of(&TEXTBOOK_PASSAGES, passage),
                        passage,
                    );
                }
            })?;
        Ok(passages.len())
    }

    /// Changes records of one collection by id in one transaction: each current document is
    /// read inside it, changed by `change` and written back, so no write made before it is
    /// undone. Records no longer there are skipped; answers how many changed.
    pub fn update_each(
        &self,
        collection: &'static Collection,
        ids: &[String],
        change: impl Fn(&mut serde_json::Map<String, Value>),
    ) -> rusqlite::Result<usize> {
        self.update_each_with(collection, ids, |_, _, doc| {
            change(doc);
            Ok(true)
        })
    }

    /// [`Records::update_each`] whose `change` also sees the transaction and the record's id
    /// (to write beside it) and says whether it changed the record (if not, it is not written).
    pub fn update_each_with(
        &self,
        collection: &'static Collection,
        ids: &[String],
        mut change: impl FnMut(
            &rusqlite::Transaction<'_>,
            &str,
            &mut serde_json::Map<String, Value>,
        ) -> rusqlite::Result<bool>,
    ) -> rusqlite::Result<usize> {
        self.each(collection, ids, |tx, id, doc| match doc {
            Some(doc) => change(tx, id, doc),
            None => Ok(false),
        })
    }

    /// Changes records of one collection by id in one transaction, each as `decide` says:
    /// `decide` is handed each id with its current document (`None` when the record is gone),
    /// changes it in place and answers whether to write it. Answers how many were written.
    pub fn decide_each(
        &self,
        collection: &'static Collection,
        ids: &[String],
        mut decide: impl FnMut(&str, Option<&mut serde_json::Map<String, Value>>) -> bool,
    ) -> rusqlite::Result<usize> {
        self.each(collection, ids, |_, id, doc| Ok(decide(id, doc)))
    }

    /// The loop of both: each record read inside one transaction (`None` when it is gone or is
    /// not an object), handed to `change`, written back and re-indexed when it says so.
    fn each(
        &self,
        collection: &'static Collection,
        ids: &[String],
        mut change: impl FnMut(
            &rusqlite::Transaction<'_>,
            &str,
            Option<&mut serde_json::Map<String, Value>>,
        ) -> rusqlite::Result<bool>,
    ) -> rusqlite::Result<usize> {
        let changed = self.store.transaction_indexed(
            |tx| {
                let mut changed = Vec::with_capacity(ids.len());
                let mut read = tx.prepare_cached(
                    "SELECT rowid, doc FROM records WHERE id = ?1 AND collection = ?2",
                )?;
                let mut write =
                    tx.prepare_cached("UPDATE records SET doc = ?2 WHERE rowid = ?1")?;
                for id in ids {
                    let found = read
                        .query_row(params![id, collection.path], |row| {
                            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
                        })
                        .optional()?;
                    let read_back =
                        found.and_then(|(rid, text)| match serde_json::from_str::<Value>(&text) {
                            Ok(Value::Object(doc)) => Some((rid, doc)),
                            _ => None,
                        });
                    let Some((rid, mut doc)) = read_back else {
                        change(tx, id, None)?;
                        continue;
                    };
                    if !change(tx, id, Some(&mut doc))? {
                        continue;
                    }
                    let doc = Value::Object(doc);
                    write.execute(params![rid, stored(&doc)?])?;
                    changed.push((rid, doc));
                }
                Ok(changed)
            },
            |index, changed| {
                for (rid, doc) in changed {
                    index.put(*rid, collection, parent_of(collection, doc), doc);
                }
            },
        )?;
        Ok(changed.len())
    }

    /// Stores many records of one collection in one transaction.
    pub fn insert_many(
        &self,
        collection: &'static Collection,
        docs: &[Value],
    ) -> rusqlite::Result<()> {
        self.store.transaction_indexed(
            |tx| {
                docs.iter()
                    .map(|doc| insert_with(tx, collection, doc))
                    .collect::<rusqlite::Result<Vec<i64>>>()
            },
            |index, rids| {
                for (rid, doc) in rids.iter().zip(docs) {
                    index.put(*rid, collection, parent_of(collection, doc), doc);
                }
            },
        )?;
        Ok(())
    }
}
