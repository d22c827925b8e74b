//! SQLite storage: one database file, migrations embedded and applied at start.
//!
//! Durability: WAL with `synchronous = FULL`, so a write is on disk before it is acknowledged
//! and survives a crash of the process or the machine.

mod household_search;
mod households;
pub mod ledger;
mod library;
mod plans;
mod presented;
mod private;
mod records;
mod schema;
mod search;
pub mod shares;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use rusqlite::Connection;

pub use household_search::{fold, HouseholdFilter, HouseholdHits, HouseholdSort};
pub use households::{Creation, Households, MemberOrder};
pub use larder_search::Index;
pub use larder_search::{FacetValue, Filter, NaturalOrder, SearchQuery, SortKey};
pub use library::{Kept, Library};
pub use plans::{NewPlan, Plan, Plans, Revoked, Stored};
pub use presented::Presented;
pub use records::{ChildOrder, RecordRow, RecordTooLarge, Records, Viewer};
pub use search::SearchHits;

/// Connections that serve reads beside the one writer (file databases only: WAL lets readers
/// run while a write commits).
pub const READERS: usize = 4;

/// Each migration runs once, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, signing key, records, households.
    r#"
    CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
    CREATE TABLE accounts (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        roles TEXT NOT NULL,
        PRIMARY KEY (kind, name)
    );
    CREATE TABLE records (
        id TEXT PRIMARY KEY,
        collection TEXT NOT NULL,
        urn TEXT UNIQUE,
        parent TEXT,
        doc TEXT NOT NULL
    );
    CREATE INDEX records_by_collection ON records (collection);
    CREATE INDEX records_by_parent ON records (collection, parent);
    CREATE TABLE households (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL UNIQUE,
        doc TEXT NOT NULL
    );
    CREATE TABLE members (
        id TEXT PRIMARY KEY,
        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
        doc TEXT NOT NULL
    );
    CREATE INDEX members_by_household ON members (household_id);
    CREATE TABLE profiles (
        member_id TEXT PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        doc TEXT NOT NULL
    );
    "#,
    // 2: full-text search over every record, kept in step by triggers, and the enhancement log.
    // The FTS rowid is the record's rowid; the service never runs VACUUM, which could renumber it.
    r#"
    CREATE VIRTUAL TABLE records_fts USING fts5 (
        title, body, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
        INSERT INTO records_fts (rowid, title, body) VALUES (new.rowid, coalesce(json_extract(new.doc, '$.title'), ''), concat_ws(' ',
            json_extract(new.doc, '$.abstract'), json_extract(new.doc, '$.content'),
            json_extract(new.doc, '$.description'), json_extract(new.doc, '$.rule_text'),
            json_extract(new.doc, '$.text'), json_extract(new.doc, '$.notes'),
            json_extract(new.doc, '$.short_title'), json_extract(new.doc, '$.subtitle'),
            json_extract(new.doc, '$.keywords'), json_extract(new.doc, '$.tags'),
            json_extract(new.doc, '$.topics'), json_extract(new.doc, '$.authors'),
            json_extract(new.doc, '$.ai_tags')));
    END;
    CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
        DELETE FROM records_fts WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER records_fts_update AFTER UPDATE OF doc ON records BEGIN
        DELETE FROM records_fts WHERE rowid = old.rowid;
        INSERT INTO records_fts (rowid, title, body) VALUES (new.rowid, coalesce(json_extract(new.doc, '$.title'), ''), concat_ws(' ',
            json_extract(new.doc, '$.abstract'), json_extract(new.doc, '$.content'),
            json_extract(new.doc, '$.description'), json_extract(new.doc, '$.rule_text'),
            json_extract(new.doc, '$.text'), json_extract(new.doc, '$.notes'),
            json_extract(new.doc, '$.short_title'), json_extract(new.doc, '$.subtitle'),
            json_extract(new.doc, '$.keywords'), json_extract(new.doc, '$.tags'),
            json_extract(new.doc, '$.topics'), json_extract(new.doc, '$.authors'),
            json_extract(new.doc, '$.ai_tags')));
    END;
    INSERT INTO records_fts (rowid, title, body) SELECT rowid, coalesce(json_extract(doc, '$.title'), ''), concat_ws(' ',
            json_extract(doc, '$.abstract'), json_extract(doc, '$.content'),
            json_extract(doc, '$.description'), json_extract(doc, '$.rule_text'),
            json_extract(doc, '$.text'), json_extract(doc, '$.notes'),
            json_extract(doc, '$.short_title'), json_extract(doc, '$.subtitle'),
            json_extract(doc, '$.keywords'), json_extract(doc, '$.tags'),
            json_extract(doc, '$.topics'), json_extract(doc, '$.authors'),
            json_extract(doc, '$.ai_tags')) FROM records;
    CREATE TABLE enhance_runs (
        id TEXT PRIMARY KEY,
        record_id TEXT NOT NULL,
        collection TEXT NOT NULL,
        agent TEXT NOT NULL,
        caller TEXT NOT NULL,
        fields TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX enhance_runs_by_record ON enhance_runs (record_id);
    "#,
    // 3: search moved to the in-memory index (crate larder-search), built from the records at start.
    r#"
    DROP TRIGGER records_fts_insert;
    DROP TRIGGER records_fts_delete;
    DROP TRIGGER records_fts_update;
    DROP TABLE records_fts;
    "#,
    // 4: accounts erased by their owners (`DELETE users/me`), with the secret hash they had: the
    // same declaration read again (SIGHUP, restart) does not bring them back; a new secret does.
    r#"
    CREATE TABLE erased_accounts (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        erased_at TEXT NOT NULL,
        PRIMARY KEY (kind, name)
    );
    "#,
    // 5: an erasure keeps a keyed digest of the declaration, not the secret hash (security review
    // 3, finding 5); hashes stored by version 4 are turned into digests when the accounts load
    // (`auth::table::scrub_erasures`), where the signing key is at hand.
    r#"
    ALTER TABLE erased_accounts RENAME COLUMN secret_hash TO declaration_tag;
    "#,
    // 6: members' meal plans and library (production.md §10.3).
    plans::TABLES,
    // 7: the consent ledger (issue 41, production.md §10.4).
    ledger::TABLE,
    // 8: the accounts guests claimed (issue 41).
    schema::CLAIMED_ACCOUNTS,
    // 9: share links (issue 41).
    shares::TABLE,
    // 10: the embeddings of articles and guidelines (issue 40, production.md §10.6).
    schema::RECORD_EMBEDDINGS,
    // 11: households searchable by name, owner and region, ordered by name, members, creation.
    household_search::COLUMNS,
];

/// The database, shared by every handler: one writer, a few readers, and the search index.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    readers: Arc<Vec<Mutex<Connection>>>,
    next_reader: Arc<AtomicUsize>,
    index: Arc<RwLock<Index>>,
    presented: Arc<Presented>,
    files: PathBuf,
    // Keeps the artifact folder of an in-memory database alive; it is removed when the last clone drops.
    _temp: Option<Arc<tempfile::TempDir>>,
}

impl Store {
    /// Opens (or creates) the database at `path`, or an in-memory one for `:memory:`.
    pub fn open(path: &str) -> anyhow::Result<Store> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()?
        } else {
            private::create_database(Path::new(path))?;
            Connection::open(path)?
        };
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
        )?;
        migrate(&conn)?;
        household_search::register(&conn)?;
        let mut readers = Vec::new();
        if path != ":memory:" {
            for _ in 0..READERS {
                let reader = Connection::open(path)?;
                reader.execute_batch("PRAGMA query_only = 1; PRAGMA busy_timeout = 5000;")?;
                household_search::register(&reader)?;
                readers.push(Mutex::new(reader));
            }
        }
        let index = build_index(&conn)?;
        let (files, temp) = if path == ":memory:" {
            let temp = tempfile::Builder::new()
                .prefix("larder-artifacts-")
                .tempdir()?;
            (temp.path().to_path_buf(), Some(Arc::new(temp)))
        } else {
            (artifact_folder(Path::new(path)), None)
        };
        private::create_folder(&files)?;
        if path != ":memory:" {
            for warning in private::exposed(Path::new(path), &files) {
                tracing::warn!("{warning}");
            }
        }
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            readers: Arc::new(readers),
            next_reader: Arc::new(AtomicUsize::new(0)),
            index: Arc::new(RwLock::new(index)),
            presented: Arc::new(Presented::default()),
            files,
            _temp: temp,
        })
    }

    /// The folder holding artifact files, each named by its artifact's UUID.
    pub fn files(&self) -> &Path {
        &self.files
    }

    /// Runs `f` inside one transaction, committed when it returns `Ok`.
    pub fn transaction<T, E: From<rusqlite::Error>>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        self.with(|conn| {
            let tx = conn.transaction()?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        })
    }

    /// Runs `f` inside one transaction and, when it returns `Ok`, commits it and applies
    /// `to_index` to the search index as one step: the index's write lock is taken before the
    /// commit and let go after the index has changed. A search holds the read lock from its pass
    /// over the index until its page's documents are read (see `search.rs`), so it sees either
    /// the state before this write, in the index and in the database alike, or the state after.
    /// Lock order: the database connection, then the index, everywhere.
    pub(crate) fn transaction_indexed<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
        to_index: impl FnOnce(&mut Index, &T),
    ) -> rusqlite::Result<T> {
        self.with(|conn| {
            let tx = conn.transaction()?;
            let value = f(&tx)?;
            let mut index = self.index_mut();
            tx.commit()?;
            to_index(&mut index, &value);
            Ok(value)
        })
    }

    /// Runs `f` with the writing connection, blocking this thread. Whatever `f` does may write,
    /// so the cache of presented records is emptied around it.
    pub fn with<T>(&self, f: impl FnOnce(&mut Connection) -> T) -> T {
        let mut conn = self.writer();
        let _writing = self.presented.writing();
        f(&mut conn)
    }

    fn writer(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records as `GET` presents them, until the next write.
    pub fn presented(&self) -> &Presented {
        &self.presented
    }

    /// Runs a read with one of the reading connections (the writer for an in-memory database).
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> T) -> T {
        if self.readers.is_empty() {
            return f(&self.writer());
        }
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        for offset in 0..self.readers.len() {
            if let Ok(conn) = self.readers[(start + offset) % self.readers.len()].try_lock() {
                return f(&conn);
            }
        }
        let conn = self.readers[start % self.readers.len()]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&conn)
    }

    /// The search index, for reading.
    pub fn index(&self) -> RwLockReadGuard<'_, Index> {
        self.index.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The search index, for changing as a write commits (see `transaction_indexed`).
    fn index_mut(&self) -> RwLockWriteGuard<'_, Index> {
        self.index.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> T + Send + 'static,
    ) -> T {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.with(f))
            .await
            .expect("database task panicked")
    }

    /// The record operations.
    pub fn records(&self) -> Records<'_> {
        Records { store: self }
    }

    /// The household, member and profile operations.
    pub fn households(&self) -> Households<'_> {
        Households { store: self }
    }

    /// The meal-plan operations.
    pub fn plans(&self) -> Plans<'_> {
        Plans { store: self }
    }

    /// The operations on members' libraries.
    pub fn library(&self) -> Library<'_> {
        Library { store: self }
    }
}

/// `data/larder.db` keeps its files in `data/larder.db-artifacts/`.
fn artifact_folder(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push("-artifacts");
    db.with_file_name(name)
}

/// Indexes every stored record.
fn build_index(conn: &Connection) -> rusqlite::Result<Index> {
    let mut index = Index::default();
    let mut statement = conn.prepare("SELECT rowid, collection, parent, doc FROM records")?;
    let mut rows = statement.query([])?;
    while let Some(row) = rows.next()? {
        let collection: String = row.get(1)?;
        let Some(collection) = Index::collection_of(&collection) else {
            continue;
        };
        let doc: String = row.get(3)?;
        let doc: serde_json::Value = serde_json::from_str(&doc).unwrap_or_default();
        index.put(
            row.get(0)?,
            collection,
            row.get::<_, Option<String>>(2)?.as_deref(),
            &doc,
        );
    }
    Ok(index)
}

fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let applied: usize = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        conn.execute_batch(&format!(
            "BEGIN; {sql}; PRAGMA user_version = {}; COMMIT;",
            index + 1
        ))?;
    }
    Ok(())
}

/// Now, as the service writes timestamps (RFC 3339, UTC, milliseconds).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::ARTICLES;

    #[test]
    fn a_database_of_the_first_version_is_upgraded_and_indexed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(&format!("{} PRAGMA user_version = 1;", MIGRATIONS[0]))
                .unwrap();
            conn.execute(
                "INSERT INTO records (id, collection, urn, doc) VALUES ('1', 'articles', 'urn:article:old', ?1)",
                [r#"{"id": "1", "urn": "urn:article:old", "title": "Legacy lentils", "status": "active"}"#],
            )
            .unwrap();
        }
        let store = Store::open(path.to_str().unwrap()).unwrap();
        let version: usize = store.with(|c| {
            c.query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap()
        });
        assert_eq!(version, MIGRATIONS.len());
        let hits = store
            .search(&SearchQuery {
                collection: &ARTICLES,
                viewer: Viewer::Public,
                parent: None,
                terms: vec!["lentils".into()],
                prefix: false,
                filters: vec![],
                sort: vec![],
                natural_order: NaturalOrder::Insertion,
                limit: 10,
                offset: 0,
                facets: vec![],
                facet_limit: 10,
            })
            .unwrap();
        assert_eq!(hits.total, 1);
        assert!(dir.path().join("old.db-artifacts").is_dir());
        // Opening again applies nothing twice.
        drop(store);
        assert!(Store::open(path.to_str().unwrap()).is_ok());
    }
}
