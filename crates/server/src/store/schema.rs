//! Tables the store creates for modules above it (the migration list is the store's, and the
//! store uses nothing of the modules that read and write these tables).

/// The accounts guests claimed (migration 8; `auth::claim`).
pub(crate) const CLAIMED_ACCOUNTS: &str = r#"
    CREATE TABLE claimed_accounts (
        name TEXT PRIMARY KEY,
        guest_name TEXT NOT NULL,
        declaration_tag TEXT NOT NULL,
        guest_fingerprint TEXT NOT NULL,
        claimed_at TEXT NOT NULL
    );
"#;

/// The embeddings of articles and guidelines (migration 10; `embeddings`).
pub(crate) const RECORD_EMBEDDINGS: &str = r#"
    CREATE TABLE record_embeddings (
        record_id TEXT PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        embedded_at TEXT NOT NULL,
        vector BLOB NOT NULL
    );
"#;
