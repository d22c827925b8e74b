//! The consent ledger (production.md §10.4, production's `consent_ledger`): one row per recorded
//! acceptance, never changed by the user. An erasure keeps it (the record that a lawful basis
//! existed for what was processed) but takes the rows off the account's key, so a later account
//! of the same name does not inherit them (see `auth::table::erase`).

use rusqlite::{params, Connection, OptionalExtension};

use super::Store;

/// The table (migration 6).
pub(super) const TABLE: &str = r#"
    CREATE TABLE consent_ledger (
        id INTEGER PRIMARY KEY,
        user_key TEXT NOT NULL,
        consent_type TEXT NOT NULL,
        version TEXT NOT NULL,
        granted_at TEXT NOT NULL,
        ip_address TEXT
    );
    CREATE INDEX consent_ledger_by_user ON consent_ledger (user_key, consent_type, id);
"#;

/// One recorded acceptance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consent {
    /// What was consented to.
    pub consent_type: String,
    /// The version of the text accepted.
    pub version: String,
    /// When.
    pub granted_at: String,
    /// From where, as the request said.
    pub ip_address: Option<String>,
}

/// What recording a consent came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The row, as stored.
    Row(Consent),
    /// The account holds as many rows as the ledger keeps for one account.
    Full,
}

impl Store {
    /// The latest consent of `user_key` to `consent_type`.
    pub fn latest_consent(
        &self,
        user_key: &str,
        consent_type: &str,
    ) -> rusqlite::Result<Option<Consent>> {
        self.read(|conn| {
            conn.query_row(
                "SELECT consent_type, version, granted_at, ip_address FROM consent_ledger
                 WHERE user_key = ?1 AND consent_type = ?2 ORDER BY id DESC LIMIT 1",
                params![user_key, consent_type],
                |row| {
                    Ok(Consent {
                        consent_type: row.get(0)?,
                        version: row.get(1)?,
                        granted_at: row.get(2)?,
                        ip_address: row.get(3)?,
                    })
                },
            )
            .optional()
        })
    }

    /// Appends `consent` for `user_key`, unless the account already holds `cap` rows.
    pub fn record_consent(
        &self,
        user_key: &str,
        consent: Consent,
        cap: usize,
    ) -> rusqlite::Result<Recorded> {
        self.transaction(|tx| {
            let held: i64 = tx.query_row(
                "SELECT count(*) FROM consent_ledger WHERE user_key = ?1",
                [user_key],
                |row| row.get(0),
            )?;
            if usize::try_from(held).unwrap_or(usize::MAX) >= cap {
                return Ok(Recorded::Full);
            }
            tx.execute(
                "INSERT INTO consent_ledger (user_key, consent_type, version, granted_at, ip_address)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    user_key,
                    consent.consent_type,
                    consent.version,
                    consent.granted_at,
                    consent.ip_address
                ],
            )?;
            Ok(Recorded::Row(consent))
        })
    }
}

/// Moves the ledger rows of `from` to `to`, inside the caller's transaction (a claim renames the
/// account; an erasure takes them off the account, see the module's documentation).
pub fn rekey_consents(conn: &Connection, from: &str, to: &str) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE consent_ledger SET user_key = ?2 WHERE user_key = ?1",
        params![from, to],
    )
}
