//! Share links (production.md §10.4, production's `share_links`): a token, its owner, the
//! scrubbed snapshot it serves, when it expires, whether it was revoked, and how often it was
//! read. Revoking keeps the row (the owner still sees that it was shared and how often it was
//! opened); an erasure deletes the owner's rows.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use super::Store;

/// The table (migration 8).
pub(super) const TABLE: &str = r#"
    CREATE TABLE share_links (
        token TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        kind TEXT NOT NULL,
        source_id TEXT,
        title TEXT,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        view_count INTEGER NOT NULL DEFAULT 0,
        last_viewed_at TEXT
    );
    CREATE INDEX share_links_by_owner ON share_links (owner, created_at);
"#;

/// A share link as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    /// The token that opens it.
    pub token: String,
    /// Its kind (`meal_plan`, ...).
    pub kind: String,
    /// The id of what was shared.
    pub source_id: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// The snapshot.
    pub payload: Value,
    /// When it was made.
    pub created_at: String,
    /// When it stops being served, if ever.
    pub expires_at: Option<String>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<String>,
    /// How often the public read served it.
    pub view_count: i64,
    /// When it last did.
    pub last_viewed_at: Option<String>,
}

impl Share {
    /// Whether the public read serves it at `now` (RFC 3339): not revoked, not expired.
    pub fn is_live(&self, now: &str) -> bool {
        self.revoked_at.is_none()
            && self
                .expires_at
                .as_deref()
                .is_none_or(|expires| later(expires, now))
    }
}

/// Whether stamp `a` is after stamp `b`; an unreadable stamp is never after anything (an expiry
/// that cannot be read has passed).
fn later(a: &str, b: &str) -> bool {
    match (
        chrono::DateTime::parse_from_rfc3339(a),
        chrono::DateTime::parse_from_rfc3339(b),
    ) {
        (Ok(a), Ok(b)) => a > b,
        _ => false,
    }
}

const COLUMNS: &str = "token, kind, source_id, title, payload, created_at, expires_at, revoked_at, view_count, last_viewed_at";

fn share_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Share> {
    Ok(Share {
        token: row.get(0)?,
        kind: row.get(1)?,
        source_id: row.get(2)?,
        title: row.get(3)?,
        payload: serde_json::from_str(&row.get::<_, String>(4)?).unwrap_or(Value::Null),
        created_at: row.get(5)?,
        expires_at: row.get(6)?,
        revoked_at: row.get(7)?,
        view_count: row.get(8)?,
        last_viewed_at: row.get(9)?,
    })
}

/// What storing a new share came to.
#[derive(Debug, PartialEq)]
pub enum Stored {
    /// Stored.
    Stored,
    /// The owner holds `cap` links, all of them live.
    Full,
}

impl Store {
    /// Stores `share` for `owner`. An owner holding `cap` links first loses the oldest revoked
    /// or expired one; when every one is live, nothing is stored.
    pub fn insert_share(
        &self,
        owner: &str,
        share: &Share,
        cap: usize,
        now: &str,
    ) -> rusqlite::Result<Stored> {
        self.transaction(|tx| {
            let held: i64 = tx.query_row(
                "SELECT count(*) FROM share_links WHERE owner = ?1",
                [owner],
                |row| row.get(0),
            )?;
            if usize::try_from(held).unwrap_or(usize::MAX) >= cap {
                let spent = tx
                    .prepare(&format!(
                        "SELECT {COLUMNS} FROM share_links WHERE owner = ?1 ORDER BY created_at, rowid"
                    ))?
                    .query_map([owner], share_of)?
                    .collect::<rusqlite::Result<Vec<_>>>()?
                    .into_iter()
                    .find(|old| !old.is_live(now));
                match spent {
                    Some(old) => {
                        tx.execute("DELETE FROM share_links WHERE token = ?1", [old.token])?;
                    }
                    None => return Ok(Stored::Full),
                }
            }
            tx.execute(
                &format!("INSERT INTO share_links (owner, {COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"),
                params![
                    owner,
                    share.token,
                    share.kind,
                    share.source_id,
                    share.title,
                    share.payload.to_string(),
                    share.created_at,
                    share.expires_at,
                    share.revoked_at,
                    share.view_count,
                    share.last_viewed_at
                ],
            )?;
            Ok(Stored::Stored)
        })
    }

    /// `owner`'s links, newest first, at most `limit`.
    pub fn shares_of(&self, owner: &str, limit: u32) -> rusqlite::Result<Vec<Share>> {
        self.read(|conn| {
            conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM share_links WHERE owner = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2"
            ))?
            .query_map(params![owner, limit], share_of)?
            .collect()
        })
    }

    /// Revokes `owner`'s live-or-expired, not yet revoked link `token`; whether one was.
    pub fn revoke_share(&self, owner: &str, token: &str, now: &str) -> rusqlite::Result<bool> {
        self.with(|conn| {
            conn.execute(
                "UPDATE share_links SET revoked_at = ?3 WHERE token = ?1 AND owner = ?2 AND revoked_at IS NULL",
                params![token, owner, now],
            )
            .map(|changed| changed > 0)
        })
    }

    /// The link `token` if it is live at `now`, counting this read (the count is the
    /// reading's: a read that answers is a view).
    pub fn read_share(&self, token: &str, now: &str) -> rusqlite::Result<Option<Share>> {
        self.transaction(|tx| {
            let found = tx
                .query_row(
                    &format!("SELECT {COLUMNS} FROM share_links WHERE token = ?1"),
                    [token],
                    share_of,
                )
                .optional()?;
            let Some(mut share) = found.filter(|share| share.is_live(now)) else {
                return Ok(None);
            };
            tx.execute(
                "UPDATE share_links SET view_count = view_count + 1, last_viewed_at = ?2 WHERE token = ?1",
                params![token, now],
            )?;
            share.view_count += 1;
            share.last_viewed_at = Some(now.to_string());
            Ok(Some(share))
        })
    }
}

/// Deletes `owner`'s links, inside the caller's transaction (an erasure); how many.
pub fn delete_shares_of(conn: &Connection, owner: &str) -> rusqlite::Result<usize> {
    conn.execute("DELETE FROM share_links WHERE owner = ?1", [owner])
}

/// Gives `from`'s links to `to`, inside the caller's transaction (a claim renames the account).
pub fn move_shares(conn: &Connection, from: &str, to: &str) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE share_links SET owner = ?2 WHERE owner = ?1",
        params![from, to],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(token: &str, created_at: &str, expires_at: Option<&str>) -> Share {
        Share {
            token: token.into(),
            kind: "meal_plan".into(),
            source_id: Some("p".into()),
            title: Some("t".into()),
            payload: serde_json::json!({"meals": {}}),
            created_at: created_at.into(),
            expires_at: expires_at.map(str::to_string),
            revoked_at: None,
            view_count: 0,
            last_viewed_at: None,
        }
    }

    #[test]
    fn liveness_reads_stamps_as_instants() {
        let now = "2026-11-26T12:00:00.000Z";
        assert!(share("a", now, None).is_live(now));
        assert!(share("a", now, Some("2026-11-26T13:00:00+01:00")).is_live("2026-11-26T11:59:59Z"));
        assert!(!share("a", now, Some("2026-11-26T12:00:00Z")).is_live(now));
        assert!(!share("a", now, Some("soon")).is_live(now));
    }

    #[test]
    fn at_the_cap_the_oldest_spent_link_makes_room() {
        let store = Store::open(":memory:").unwrap();
        let now = "2026-11-26T12:00:00.000Z";
        store
            .insert_share(
                "u",
                &share(
                    "expired",
                    "2026-01-01T00:00:00Z",
                    Some("2026-02-01T00:00:00Z"),
                ),
                2,
                now,
            )
            .unwrap();
        store
            .insert_share("u", &share("live", "2026-01-02T00:00:00Z", None), 2, now)
            .unwrap();
        assert_eq!(
            store
                .insert_share("u", &share("new", now, None), 2, now)
                .unwrap(),
            Stored::Stored
        );
        let tokens: Vec<String> = store
            .shares_of("u", 10)
            .unwrap()
            .into_iter()
            .map(|s| s.token)
            .collect();
        assert_eq!(tokens, ["new", "live"]);
        assert_eq!(
            store
                .insert_share("u", &share("more", now, None), 2, now)
                .unwrap(),
            Stored::Full
        );
        assert_eq!(store.shares_of("u", 10).unwrap().len(), 2);
    }
}
