//! Households, their members and the members' profiles.
//!
//! Documents are stored as served, without the derived parts (`members`, `member_count`,
//! a member's `profile`), which are composed on every read so they cannot go stale.
//!
//! Reads go through the reading connections ([`Store::read`]): composing a household with a
//! thousand members' profiles must not hold the writer, which every write waits for.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::Store;

/// What [`Households::create`] did.
#[derive(Debug, PartialEq)]
pub enum Creation {
    /// The household, as stored and composed.
    Created(Value),
    /// The owner owns one already.
    Taken,
    /// The owner's account is not in force (erased or removed since its token was checked).
    NoAccount,
}

/// Whether the account an owner key names (`user:NAME`, `client:ID`) is in the accounts table,
/// read with `conn` (inside the caller's transaction).
fn account_in_force(conn: &Connection, owner: &str) -> rusqlite::Result<bool> {
    let Some((kind, name)) = owner.split_once(':') else {
        return Ok(false);
    };
    conn.query_row(
        "SELECT 1 FROM accounts WHERE kind = ?1 AND name = ?2",
        params![kind, name],
        |_| Ok(()),
    )
    .optional()
    .map(|found| found.is_some())
}

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
        self.store.read(|conn| {
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

    /// The owner key of household `id`, without composing its members (an access check).
    pub fn owner_of(&self, id: &str) -> rusqlite::Result<Option<String>> {
        self.store.read(|conn| {
            conn.query_row("SELECT owner FROM households WHERE id = ?1", [id], |row| {
                row.get(0)
            })
            .optional()
        })
    }

    /// The household `owner` owns.
    pub fn by_owner(&self, owner: &str) -> rusqlite::Result<Option<Value>> {
        self.store.read(|conn| {
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

    /// A page of every household (or only `owner`'s), oldest first, with their members when
    /// `with_members`. The page stops early, after at least one household, once the stored
    /// documents it composes pass `budget` bytes: a page of a thousand full households would
    /// otherwise be gigabytes. Callers continue from `offset` plus the households returned.
    pub fn list(
        &self,
        owner: Option<&str>,
        limit: u32,
        offset: u32,
        with_members: bool,
        budget: usize,
    ) -> rusqlite::Result<Vec<Value>> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT doc FROM households WHERE ?1 IS NULL OR owner = ?1 ORDER BY rowid LIMIT ?2 OFFSET ?3",
            )?;
            let docs = statement
                .query_map(params![owner, limit, offset], |row| row.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            compose_page(conn, docs, with_members, budget)
        })
    }

    /// Creates a household and its first members in one transaction, for an `owner`
    /// (`user:NAME`, `client:ID`) whose account is in force at that moment and owns none yet.
    ///
    /// The account is looked up inside the transaction: a request that passed the token check
    /// just before its account was erased reaches this after the erasure's transaction (there is
    /// one writer) and finds no account, so nothing it would create outlives the erasure.
    pub fn create(
        &self,
        owner: &str,
        household: &Value,
        members: &[Value],
    ) -> rusqlite::Result<Creation> {
        self.create_checked(owner, household, members, true)
    }

    /// [`Households::create`] for an owner the identity provider vouches for (`--oidc-issuer`:
    /// the owner is the token's `sub`), who has no account here to look up.
    pub fn create_for_provider(
        &self,
        owner: &str,
        household: &Value,
        members: &[Value],
    ) -> rusqlite::Result<Creation> {
        self.create_checked(owner, household, members, false)
    }

    fn create_checked(
        &self,
        owner: &str,
        household: &Value,
        members: &[Value],
        local_account: bool,
    ) -> rusqlite::Result<Creation> {
        let id = household["id"].as_str().unwrap_or_default().to_string();
        self.store.transaction(|tx| {
            if local_account && !account_in_force(tx, owner)? {
                return Ok(Creation::NoAccount);
            }
            let taken = tx
                .query_row("SELECT 1 FROM households WHERE owner = ?1", [owner], |_| {
                    Ok(())
                })
                .optional()?
                .is_some();
            if taken {
                return Ok(Creation::Taken);
            }
            tx.execute(
                "INSERT INTO households (id, owner, doc) VALUES (?1, ?2, ?3)",
                params![id, owner, household.to_string()],
            )?;
            for member in members {
                insert_member_with(tx, member)?;
            }
            household_view(tx, household.to_string()).map(Creation::Created)
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
            .read(|conn| members_with(conn, household_id, order, limit, offset))
    }

    /// How many members a household has.
    pub fn member_count(&self, household_id: &str) -> rusqlite::Result<u64> {
        self.store
            .read(|conn| member_count_with(conn, household_id))
    }

    /// A member by id, with its profile when there is one, and the owner of its household.
    pub fn member(&self, id: &str) -> rusqlite::Result<Option<(String, Value)>> {
        self.store.read(|conn| {
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

    /// Stores a new member unless its household already holds `cap`; whether it was stored.
    /// The count and the insert are one transaction on the one writer, so concurrent creates
    /// can't all see room for one more.
    pub fn insert_member_within(&self, member: &Value, cap: u64) -> rusqlite::Result<bool> {
        let household_id = member["household_id"].as_str().unwrap_or_default();
        self.store.transaction(|tx| {
            if member_count_with(tx, household_id)? >= cap {
                return Ok(false);
            }
            insert_member_with(tx, member)?;
            Ok(true)
        })
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
        self.store.read(|conn| profile_with(conn, member_id))
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
            .read(|conn| conn.query_row("SELECT count(*) FROM households", [], |row| row.get(0)))
    }
}

/// Stored household documents as a listing answers them: with their members when
/// `with_members`, stopping early, after at least one household, once the documents composed
/// pass `budget` bytes.
pub(super) fn compose_page(
    conn: &Connection,
    docs: Vec<String>,
    with_members: bool,
    budget: usize,
) -> rusqlite::Result<Vec<Value>> {
    let mut households = Vec::with_capacity(docs.len());
    let mut spent = 0usize;
    for doc in docs {
        if !with_members {
            households.push(parse(doc));
            continue;
        }
        let household = parse(doc.clone());
        let id = household["id"].as_str().unwrap_or_default();
        spent = spent.saturating_add(doc.len() + member_bytes(conn, id)?);
        if spent > budget && !households.is_empty() {
            break;
        }
        households.push(household_view(conn, doc)?);
    }
    Ok(households)
}

fn member_count_with(conn: &Connection, household_id: &str) -> rusqlite::Result<u64> {
    conn.query_row(
        "SELECT count(*) FROM members WHERE household_id = ?1",
        [household_id],
        |row| row.get(0),
    )
}

/// The bytes of the member and profile documents of a household, as stored.
fn member_bytes(conn: &Connection, household_id: &str) -> rusqlite::Result<usize> {
    conn.query_row(
        "SELECT coalesce(sum(length(CAST(m.doc AS BLOB))), 0) + coalesce(sum(length(CAST(p.doc AS BLOB))), 0)
         FROM members m LEFT JOIN profiles p ON p.member_id = m.id WHERE m.household_id = ?1",
        [household_id],
        |row| row.get::<_, i64>(0),
    )
    .map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX))
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

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    fn household(n: usize) -> Value {
        json!({"id": format!("h{n}"), "name": format!("Home {n}"), "owner_id": format!("user:{n}"), "metadata": {}})
    }

    fn member(household: usize, n: usize, profile_bytes: usize) -> Value {
        json!({
            "id": format!("h{household}-m{n}"), "household_id": format!("h{household}"),
            "name": "Member", "age_group": "adult",
            "profile": {"properties": {"note": "p".repeat(profile_bytes)}},
        })
    }

    /// A store on a file with the accounts `user:0` to `user:9`, owners of the households below.
    fn on_file() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("h.db").to_str().unwrap()).unwrap();
        store
            .with(|conn| {
                (0..10).try_for_each(|n| {
                    conn.execute(
                        "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES ('user', ?1, 'h', '')",
                        [n.to_string()],
                    )
                    .map(|_| ())
                })
            })
            .unwrap();
        (dir, store)
    }

    /// A member written into a household deleted in the same instant is a 404, not a 500.
    #[test]
    fn a_member_of_a_deleted_household_is_not_found() {
        let (_dir, store) = on_file();
        let error = store
            .households()
            .insert_member_within(&member(7, 0, 0), 1000)
            .unwrap_err();
        assert_eq!(crate::error::ApiError::from(error).status, 404);
    }

    #[test]
    fn a_household_is_created_only_for_an_account_in_force() {
        let (_dir, store) = on_file();
        let households = store.households();
        assert_eq!(
            households.create("user:42", &household(42), &[]).unwrap(),
            Creation::NoAccount
        );
        assert!(matches!(
            households.create("user:1", &household(1), &[]).unwrap(),
            Creation::Created(_)
        ));
        assert_eq!(
            households.create("user:1", &household(2), &[]).unwrap(),
            Creation::Taken
        );
        assert_eq!(households.count().unwrap(), 1);
    }

    /// Security review 2, finding 5: composing a household held the writing connection.
    #[test]
    fn reads_leave_the_writer_free() {
        let (_dir, store) = on_file();
        let members: Vec<Value> = (0..3).map(|n| member(1, n, 10)).collect();
        store
            .households()
            .create("user:1", &household(1), &members)
            .unwrap();
        let writer = store.writer();
        let (sent, received) = mpsc::channel();
        let reader = store.clone();
        std::thread::spawn(move || {
            let households = reader.households();
            let home = households.by_owner("user:1").unwrap().unwrap();
            let listed = households
                .list(None, 10, 0, true, usize::MAX)
                .unwrap()
                .len();
            let member = households.member("h1-m0").unwrap().is_some();
            let count = households.member_count("h1").unwrap();
            sent.send((home["member_count"].clone(), listed, member, count))
                .unwrap();
        });
        let answer = received.recv_timeout(Duration::from_secs(10));
        drop(writer);
        assert_eq!(
            answer,
            Ok((json!(3), 1, true, 3)),
            "read while the writer is held"
        );
    }

    /// The administrator's page stops once its documents pass the budget, after at least one.
    #[test]
    fn a_page_of_households_stays_within_its_budget() {
        let (_dir, store) = on_file();
        for n in 0..4 {
            let members: Vec<Value> = (0..4).map(|m| member(n, m, 10_000)).collect();
            let owner = format!("user:{n}");
            store
                .households()
                .create(&owner, &household(n), &members)
                .unwrap();
        }
        let households = store.households();
        let page = |budget| households.list(None, 100, 0, true, budget).unwrap();
        assert_eq!(page(usize::MAX).len(), 4);
        assert_eq!(page(1).len(), 1, "one household even past the budget");
        let two = page(2 * 41_000 + 2_000);
        assert_eq!(two.len(), 2);
        let size: usize = two.iter().map(|h| h.to_string().len()).sum();
        assert!(size < 2 * 41_000 + 2_000 + 4_000, "{size} bytes");
        // Without members the budget does not apply (nothing large is composed).
        assert_eq!(households.list(None, 100, 0, false, 1).unwrap().len(), 4);
    }

    /// Security review 2, finding 9: 64 concurrent creates on 990 members left 1,004.
    #[test]
    fn the_member_cap_holds_under_concurrent_inserts() {
        let (_dir, store) = on_file();
        store
            .households()
            .create("user:1", &household(1), &[])
            .unwrap();
        store
            .transaction(|tx| (0..990).try_for_each(|n| insert_member_with(tx, &member(1, n, 0))))
            .unwrap();
        let threads: Vec<_> = (0..64)
            .map(|n| {
                let store = store.clone();
                std::thread::spawn(move || {
                    store
                        .households()
                        .insert_member_within(&member(1, 1000 + n, 0), 1000)
                        .unwrap()
                })
            })
            .collect();
        let stored = threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .filter(|stored| *stored)
            .count();
        assert_eq!(stored, 10);
        assert_eq!(store.households().member_count("h1").unwrap(), 1000);
    }
}
