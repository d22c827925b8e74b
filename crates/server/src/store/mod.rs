//! SQLite storage: one database file, migrations embedded and applied at start.
//!
//! Durability: WAL with `synchronous = FULL`, so a write is on disk before it is acknowledged
//! and survives a crash of the process or the machine.

mod records;

use std::sync::{Arc, Mutex};

use rusqlite::Connection;

pub use records::{RecordRow, Records};

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
];

/// The database, shared by every handler.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
}

impl Store {
    /// Opens (or creates) the database at `path`, or an in-memory one for `:memory:`.
    pub fn open(path: &str) -> anyhow::Result<Store> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()?
        } else {
            Connection::open(path)?
        };
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
        )?;
        migrate(&conn)?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` with the connection, blocking this thread.
    pub fn with<T>(&self, f: impl FnOnce(&mut Connection) -> T) -> T {
        let mut conn = self
            .conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut conn)
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
