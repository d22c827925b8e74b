//! Households, their members and the members' profiles.
//!
//! Documents are stored as served, without the derived parts (`members`, `member_count`,
//! a member's `profile`), which are composed on every read so they cannot go stale.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::Store;

/// Household, member and profile operations.
pub struct Households<'a> {
    pub(super) store: &'a Store,
}

fn parse(doc: String) -> Value {
    serde_json::from_str(&doc).unwrap_or(Value::Null)
}

fn profile_with(conn: &Connection, member_id: &str) -> rusqlite::Result<Option<Value>> {
    conn.query_row(
        "SELECT doc FROM profiles WHERE member_id = ?1",
        [member_id],
        |row| row.get::<_, String>(0),
    )
    .optional()
    .map(|doc| doc.map(parse))
}

/// A member with its `profile` (always present, `null` when there is none, as production).
fn member_view(conn: &Connection, doc: String) -> rusqlite::Result<Value> {
    let mut member = parse(doc);
    let id = member["id"].as_str().unwrap_or_default().to_string();
    member["profile"] = profile_with(conn, &id)?.unwrap_or(Value::Null);
    Ok(member)
}

/// The order of a household's members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberOrder {
    /// The first to join first.
    Oldest,
    /// The last to join first (production).
    Newest,
}

fn members_with(
    conn: &Connection,
    household_id: &str,
    order: MemberOrder,
    limit: u32,
    offset: u32,
) -> rusqlite::Result<Vec<Value>> {
    let sql = match order {
        MemberOrder::Oldest => {
            "SELECT doc FROM members WHERE household_id = ?1 ORDER BY rowid LIMIT ?2 OFFSET ?3"
        }
        MemberOrder::Newest => {
            "SELECT doc FROM members WHERE household_id = ?1 ORDER BY rowid DESC LIMIT ?2 OFFSET ?3"
        }
    };
    let mut statement = conn.prepare_cached(sql)?;
    let docs = statement
        .query_map(params![household_id, limit, offset], |row| {
            row.get::<_, String>(0)
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    docs.into_iter().map(|doc| member_view(conn, doc)).collect()
}

fn household_view(conn: &Connection, doc: String) -> rusqlite::Result<Value> {
    let mut household = parse(doc);
    let id = household["id"].as_str().unwrap_or_default().to_string();
    let members = members_with(conn, &id, MemberOrder::Oldest, u32::MAX, 0)?;
    household["member_count"] = json!(members.len());
    household["members"] = Value::Array(members);
    Ok(household)
}

impl Households<'_> {
    /// A household by id, with its owner key.
    pub fn get(&self, id: &str) -> rusqlite::Result<Option<(String, Value)>> {
        self.store.with(|conn| {
            let found = conn
                .query_row(
                    "SELECT owner, doc FROM households WHERE id = ?1",
                    [id],
                    |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
                )
                .optional()?;
            found
                .map(|(owner, doc)| Ok((owner, household_view(conn, doc)?)))
                .transpose()
        })
    }

    /// The household `owner` owns.
    pub fn by_owner(&self, owner: &str) -> rusqlite::Result<Option<Value>> {
        self.store.with(|conn| {
            let found = conn
                .query_row(
                    "SELECT doc FROM households WHERE owner = ?1",
                    [owner],
                    |row| row.get::<_, String>(0),
                )
                .optional()?;
            found.map(|doc| household_view(conn, doc)).transpose()
        })
    }

    /// A page of every household (or only `owner`'s), oldest first.
    pub fn list(
        &self,
        owner: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> rusqlite::Result<Vec<Value>> {
        self.store.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT doc FROM households WHERE ?1 IS NULL OR owner = ?1 ORDER BY rowid LIMIT ?2 OFFSET ?3",
            )?;
            let docs = statement
                .query_map(params![owner, limit, offset], |row| row.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            docs.into_iter()
                .map(|doc| household_view(conn, doc))
                .collect()
        })
    }

    /// Creates a household and its first members in one transaction; `None` when `owner`
    /// already owns one.
    pub fn create(
        &self,
        owner: &str,
        household: &Value,
        members: &[Value],
    ) -> rusqlite::Result<Option<Value>> {
        let id = household["id"].as_str().unwrap_or_default().to_string();
        self.store.transaction(|tx| {
            let taken = tx
                .query_row("SELECT 1 FROM households WHERE owner = ?1", [owner], |_| {
                    Ok(())
                })
                .optional()?
                .is_some();
            if taken {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO households (id, owner, doc) VALUES (?1, ?2, ?3)",
                params![id, owner, household.to_string()],
            )?;
            for member in members {
                insert_member_with(tx, member)?;
            }
            household_view(tx, household.to_string()).map(Some)
        })
    }

    /// Replaces a household's stored document.
    pub fn update(&self, id: &str, household: &Value) -> rusqlite::Result<()> {
        self.store.with(|conn| {
            conn.execute(
                "UPDATE households SET doc = ?2 WHERE id = ?1",
                params![id, household.to_string()],
            )
            .map(|_| ())
        })
    }

    /// Deletes a household with its members and profiles.
    pub fn delete(&self, id: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute("DELETE FROM households WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    /// A page of a household's members.
    pub fn members(
        &self,
        household_id: &str,
        order: MemberOrder,
        limit: u32,
        offset: u32,
    ) -> rusqlite::Result<Vec<Value>> {
        self.store
            .with(|conn| members_with(conn, household_id, order, limit, offset))
    }

    /// How many members a household has.
    pub fn member_count(&self, household_id: &str) -> rusqlite::Result<u64> {
        self.store.with(|conn| {
            conn.query_row(
                "SELECT count(*) FROM members WHERE household_id = ?1",
                [household_id],
                |row| row.get(0),
            )
        })
    }

    /// A member by id, with its profile when there is one, and the owner of its household.
    pub fn member(&self, id: &str) -> rusqlite::Result<Option<(String, Value)>> {
        self.store.with(|conn| {
            let found = conn
                .query_row(
                    "SELECT h.owner, m.doc FROM members m JOIN households h ON h.id = m.household_id WHERE m.id = ?1",
                    [id],
                    |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
                )
                .optional()?;
            found
                .map(|(owner, doc)| Ok((owner, member_view(conn, doc)?)))
                .transpose()
        })
    }

    /// Stores a new member.
    pub fn insert_member(&self, member: &Value) -> rusqlite::Result<()> {
        self.store.with(|conn| insert_member_with(conn, member))
    }

    /// Replaces a member's stored document (without its profile).
    pub fn update_member(&self, id: &str, member: &Value) -> rusqlite::Result<()> {
        let mut stored = member.clone();
        if let Some(fields) = stored.as_object_mut() {
            fields.remove("profile");
        }
        self.store.with(|conn| {
            conn.execute(
                "UPDATE members SET doc = ?2 WHERE id = ?1",
                params![id, stored.to_string()],
            )
            .map(|_| ())
        })
    }

    /// Deletes a member and its profile.
    pub fn delete_member(&self, id: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute("DELETE FROM members WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    /// A member's profile.
    pub fn profile(&self, member_id: &str) -> rusqlite::Result<Option<Value>> {
        self.store.with(|conn| profile_with(conn, member_id))
    }

    /// Creates or replaces a member's profile.
    pub fn put_profile(&self, member_id: &str, profile: &Value) -> rusqlite::Result<()> {
        self.store.with(|conn| {
            conn.execute(
                "INSERT INTO profiles (member_id, doc) VALUES (?1, ?2)
                 ON CONFLICT (member_id) DO UPDATE SET doc = excluded.doc",
                params![member_id, profile.to_string()],
            )
            .map(|_| ())
        })
    }

    /// Deletes a member's profile.
    pub fn delete_profile(&self, member_id: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute("DELETE FROM profiles WHERE member_id = ?1", [member_id])
                .map(|n| n > 0)
        })
    }

    /// How many households exist.
    pub fn count(&self) -> rusqlite::Result<u64> {
        self.store
            .with(|conn| conn.query_row("SELECT count(*) FROM households", [], |row| row.get(0)))
    }
}

fn insert_member_with(conn: &Connection, member: &Value) -> rusqlite::Result<()> {
    let mut stored = member.clone();
    let profile = stored
        .as_object_mut()
        .and_then(|fields| fields.remove("profile"));
    let id = stored["id"].as_str().unwrap_or_default().to_string();
    conn.execute(
        "INSERT INTO members (id, household_id, doc) VALUES (?1, ?2, ?3)",
        params![id, stored["household_id"].as_str(), stored.to_string()],
    )?;
    if let Some(profile) = profile {
        conn.execute(
            "INSERT INTO profiles (member_id, doc) VALUES (?1, ?2)",
            params![id, profile.to_string()],
        )?;
    }
    Ok(())
}
