//! The accounts in force: the `accounts` table in SQLite, a copy of it in memory (the
//! [`Registry`]) that sign-in and every request consult, and [`sync`], which brings both to the
//! accounts the configuration declares.
//!
//! Revocation rests on the fingerprint: a keyed hash of an account's kind, name, secret hash and
//! roles, carried in each token and compared with the registry's on every request. Changing a
//! secret or a role changes the fingerprint, removing the account removes its entry: either way
//! older tokens are refused. Secret hashes are salted from the signing key and the account's
//! name, so the same declaration gives the same hash (and fingerprint) after a restart or on
//! another database with the same key; an unchanged account keeps its tokens.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::RwLock;

use rusqlite::{params, Connection, OptionalExtension};

use super::accounts::{AccountKind, AccountSpec};
use super::tokens::Signer;
use crate::store::Store;

/// An account as sign-in and token checks see it.
#[derive(Clone, Debug)]
pub struct Live {
    /// The argon2 hash of its secret.
    pub hash: String,
    /// Its roles.
    pub roles: Vec<String>,
    /// What its tokens must carry (see the module's documentation).
    pub fingerprint: String,
}

type Key = (AccountKind, String);

/// The accounts in force, in memory.
#[derive(Default)]
pub struct Registry {
    accounts: RwLock<HashMap<Key, Live>>,
}

impl Registry {
    /// The account, if it is in force.
    pub fn get(&self, kind: AccountKind, name: &str) -> Option<Live> {
        self.read().get(&(kind, name.to_string())).cloned()
    }

    /// Whether a token of the account carrying `fingerprint` still holds.
    pub fn is_current(&self, kind: AccountKind, name: &str, fingerprint: &str) -> bool {
        self.read()
            .get(&(kind, name.to_string()))
            .is_some_and(|live| live.fingerprint == fingerprint)
    }

    fn remove(&self, kind: AccountKind, name: &str) {
        self.write().remove(&(kind, name.to_string()));
    }

    fn insert(&self, kind: AccountKind, name: &str, live: Live) {
        self.write().insert((kind, name.to_string()), live);
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<Key, Live>> {
        self.accounts.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Key, Live>> {
        self.accounts.write().unwrap_or_else(|p| p.into_inner())
    }
}

fn kind_of(text: &str) -> AccountKind {
    if text == "client" {
        AccountKind::Client
    } else {
        AccountKind::User
    }
}

fn split_roles(roles: &str) -> Vec<String> {
    roles
        .split(',')
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every row of the accounts table: hash and roles as stored.
fn rows(conn: &Connection) -> rusqlite::Result<BTreeMap<Key, (String, String)>> {
    let mut statement = conn.prepare("SELECT kind, name, secret_hash, roles FROM accounts")?;
    let rows = statement.query_map([], |row| {
        Ok((
            (kind_of(&row.get::<_, String>(0)?), row.get::<_, String>(1)?),
            (row.get::<_, String>(2)?, row.get::<_, String>(3)?),
        ))
    })?;
    rows.collect()
}

/// Writes one account to the table and the registry.
pub fn put(
    store: &Store,
    signer: &Signer,
    registry: &Registry,
    kind: AccountKind,
    name: &str,
    hash: &str,
    roles: &[String],
) -> rusqlite::Result<()> {
    let erased = store.with(|conn| {
        if is_erased(conn, kind, name, hash)? {
            return Ok(true);
        }
        conn.execute(
            "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, roles = excluded.roles",
            params![kind.as_str(), name, hash, roles.join(",")],
        )
        .map(|_| false)
    })?;
    if erased {
        return Ok(());
    }
    let fingerprint = signer.fingerprint(kind, name, hash, roles);
    registry.insert(
        kind,
        name,
        Live {
            hash: hash.to_string(),
            roles: roles.to_vec(),
            fingerprint,
        },
    );
    Ok(())
}

/// Fills the registry from the table (everything the table holds is in force).
pub fn load(store: &Store, signer: &Signer, registry: &Registry) -> rusqlite::Result<()> {
    let accounts = store
        .with(|conn| rows(conn))?
        .into_iter()
        .map(|((kind, name), (hash, roles))| {
            let roles = split_roles(&roles);
            let fingerprint = signer.fingerprint(kind, &name, &hash, &roles);
            let live = Live {
                hash,
                roles,
                fingerprint,
            };
            ((kind, name), live)
        })
        .collect();
    *registry.write() = accounts;
    Ok(())
}

/// What a [`sync`] changed, as `user:NAME` and `client:ID`.
#[derive(Debug, Default, PartialEq)]
pub struct Changes {
    /// Accounts that were not there.
    pub added: Vec<String>,
    /// Accounts whose secret or roles changed: their older tokens are refused.
    pub changed: Vec<String>,
    /// Accounts deleted: their tokens are refused and they can no longer sign in.
    pub removed: Vec<String>,
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

impl std::fmt::Display for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |names: &[String]| {
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        };
        write!(
            f,
            "added: {}; changed: {}; removed: {}",
            list(&self.added),
            list(&self.changed),
            list(&self.removed)
        )
    }
}

/// Makes the table and the registry hold exactly the `declared` accounts (a later declaration
/// of a name wins) plus those of `kept` already there (the demo's), in one transaction.
/// Secrets are hashed before the transaction starts: hashing is slow and writers wait for it.
pub fn sync(
    store: &Store,
    signer: &Signer,
    registry: &Registry,
    declared: &[(AccountKind, AccountSpec)],
    kept: &HashSet<(AccountKind, String)>,
) -> anyhow::Result<Changes> {
    let mut wanted: BTreeMap<Key, &AccountSpec> = BTreeMap::new();
    for (kind, spec) in declared {
        wanted.insert((*kind, spec.name.clone()), spec);
    }
    let wanted: Vec<(Key, String, &AccountSpec)> = wanted
        .into_iter()
        .map(|((kind, name), spec)| {
            let hash = signer.hash_secret(kind, &name, &spec.secret)?;
            Ok(((kind, name), hash, spec))
        })
        .collect::<anyhow::Result<_>>()?;
    let declared_keys: HashSet<&Key> = wanted.iter().map(|(key, _, _)| key).collect();
    let owner = |(kind, name): &Key| format!("{}:{name}", kind.as_str());
    let mut changes = Changes::default();
    store.transaction(|tx| -> rusqlite::Result<()> {
        let existing = rows(tx)?;
        let mut erased: HashSet<&Key> = HashSet::new();
        for (key, hash, _) in &wanted {
            if is_erased(tx, key.0, &key.1, hash)? {
                erased.insert(key);
            }
        }
        for (key, hash, spec) in &wanted {
            if erased.contains(key) {
                continue;
            }
            let roles = spec.roles.join(",");
            match existing.get(key) {
                Some((old_hash, old_roles)) if *old_hash == *hash && *old_roles == roles => {
                    continue
                }
                Some(_) => changes.changed.push(owner(key)),
                None => changes.added.push(owner(key)),
            }
            tx.execute(
                "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, roles = excluded.roles",
                params![key.0.as_str(), key.1, hash, roles],
            )?;
        }
        for key in existing.keys() {
            if kept.contains(key) || (declared_keys.contains(key) && !erased.contains(key)) {
                continue;
            }
            tx.execute(
                "DELETE FROM accounts WHERE kind = ?1 AND name = ?2",
                params![key.0.as_str(), key.1],
            )?;
            changes.removed.push(owner(key));
        }
        Ok(())
    })?;
    load(store, signer, registry)?;
    Ok(changes)
}

/// Whether the account was erased by its owner while it had the secret hashed as `hash`: such a
/// declaration read again is not brought back (a new secret brings the account back, empty).
fn is_erased(
    conn: &Connection,
    kind: AccountKind,
    name: &str,
    hash: &str,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT 1 FROM erased_accounts WHERE kind = ?1 AND name = ?2 AND secret_hash = ?3",
        params![kind.as_str(), name, hash],
        |_| Ok(()),
    )
    .optional()
    .map(|found| found.is_some())
}

/// What an erasure deleted.
#[derive(Debug, Default, PartialEq)]
pub struct Erased {
    /// Households the account owned (0 or 1).
    pub households: u64,
    /// Their members (with their profiles).
    pub members: u64,
}

/// Erases an account in one transaction: the household `owner` owns with its members and
/// profiles, the account's row, and a record of the erasure (see [`is_erased`]); then takes it
/// out of the registry, so its tokens are refused from the next request on.
pub fn erase(
    store: &Store,
    registry: &Registry,
    kind: AccountKind,
    name: &str,
    owner: &str,
    erased_at: &str,
) -> rusqlite::Result<Erased> {
    let erased = store.transaction(|tx| -> rusqlite::Result<Erased> {
        let household: Option<String> = tx
            .query_row("SELECT id FROM households WHERE owner = ?1", [owner], |row| {
                row.get(0)
            })
            .optional()?;
        let mut erased = Erased::default();
        if let Some(id) = household {
            erased.members = tx.query_row(
                "SELECT count(*) FROM members WHERE household_id = ?1",
                [&id],
                |row| row.get(0),
            )?;
            // Profiles go with their members, members with their household (ON DELETE CASCADE).
            erased.households = tx.execute("DELETE FROM households WHERE id = ?1", [&id])? as u64;
        }
        let hash: Option<String> = tx
            .query_row(
                "SELECT secret_hash FROM accounts WHERE kind = ?1 AND name = ?2",
                params![kind.as_str(), name],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(hash) = hash {
            tx.execute(
                "INSERT INTO erased_accounts (kind, name, secret_hash, erased_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, erased_at = excluded.erased_at",
                params![kind.as_str(), name, hash, erased_at],
            )?;
            tx.execute(
                "DELETE FROM accounts WHERE kind = ?1 AND name = ?2",
                params![kind.as_str(), name],
            )?;
        }
        Ok(erased)
    })?;
    registry.remove(kind, name);
    Ok(erased)
}
