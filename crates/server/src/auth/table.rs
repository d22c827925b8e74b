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

use std::collections::{BTreeMap, HashSet};

use rusqlite::{params, Connection, OptionalExtension};

use super::accounts::{AccountKind, AccountSpec};
use super::tokens::Signer;
use crate::store::Store;

use super::registry::Key;
pub use super::registry::{Live, Registry};

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
    let fingerprint = signer.fingerprint(kind, name, hash, roles);
    let tag = signer.erasure_tag(kind, name, hash);
    // The registry changes while the writer is held, as every change of the accounts does: an
    // erasure cannot fall between this write and its copy in memory.
    store.with(|conn| {
        if is_erased(conn, kind, name, &tag)? {
            return Ok(());
        }
        conn.execute(
            "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, roles = excluded.roles",
            params![kind.as_str(), name, hash, roles.join(",")],
        )?;
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
    })
}

/// Fills the registry from the table (everything the table holds is in force), first turning
/// any secret hash an older version kept for an erasure into its digest.
pub fn load(store: &Store, signer: &Signer, registry: &Registry) -> rusqlite::Result<()> {
    store.with(|conn| {
        scrub_erasures(conn, signer)?;
        load_with(conn, signer, registry)
    })
}

/// Replaces, in `erased_accounts`, every secret hash a version before 5 kept by its digest
/// ([`Signer::erasure_tag`]): what proves an erasure stays, the hash goes.
fn scrub_erasures(conn: &Connection, signer: &Signer) -> rusqlite::Result<()> {
    let old: Vec<(String, String, String)> = conn
        .prepare("SELECT kind, name, declaration_tag FROM erased_accounts WHERE declaration_tag LIKE '$argon2%'")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (kind, name, hash) in old {
        let tag = signer.erasure_tag(kind_of(&kind), &name, &hash);
        conn.execute(
            "UPDATE erased_accounts SET declaration_tag = ?3 WHERE kind = ?1 AND name = ?2",
            params![kind, name, tag],
        )?;
    }
    Ok(())
}

/// Fills the registry from the table read with `conn`; the caller holds the writer, so no change
/// of the table falls between the read and the registry's update.
fn load_with(conn: &Connection, signer: &Signer, registry: &Registry) -> rusqlite::Result<()> {
    let accounts = rows(conn)?
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
    registry.replace(accounts, super::claim::aliases(conn)?);
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
    // One hold of the writer for the change and the registry's reload: an erasure between the
    // two would otherwise see its account put back in memory from a read made before it.
    store.with(|conn| -> rusqlite::Result<()> {
        let tx = conn.transaction()?;
        let existing = rows(&tx)?;
        // Accounts their guests claimed are the users', not the declaration's: kept.
        let claimed = super::claim::claimed_names(&tx)?;
        let mut erased: HashSet<&Key> = HashSet::new();
        for (key, hash, _) in &wanted {
            if is_erased(&tx, key.0, &key.1, &signer.erasure_tag(key.0, &key.1, hash))? {
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
            if kept.contains(key)
                || claimed.contains(key)
                || (declared_keys.contains(key) && !erased.contains(key))
            {
                continue;
            }
            tx.execute(
                "DELETE FROM accounts WHERE kind = ?1 AND name = ?2",
                params![key.0.as_str(), key.1],
            )?;
            changes.removed.push(owner(key));
        }
        tx.commit()?;
        load_with(conn, signer, registry)
    })?;
    Ok(changes)
}

/// Whether the account was erased by its owner, or claimed by its guest (see `claim`), while
/// declared as `tag` says ([`Signer::erasure_tag`]): such a declaration read again is not
/// brought back (a new secret brings the account back, empty).
fn is_erased(
    conn: &Connection,
    kind: AccountKind,
    name: &str,
    tag: &str,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT 1 FROM erased_accounts WHERE kind = ?1 AND name = ?2 AND declaration_tag = ?3
         UNION ALL SELECT 1 FROM claimed_accounts WHERE ?1 = 'user' AND guest_name = ?2 AND declaration_tag = ?3",
        params![kind.as_str(), name, tag],
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
/// profiles, its share links, the account's row, and a record of the erasure (see
/// [`is_erased`]), keeping its consent ledger under the erasure's key; then takes it out of the
/// registry, so its tokens are refused from the next request on.
pub fn erase(
    store: &Store,
    signer: &Signer,
    registry: &Registry,
    kind: AccountKind,
    name: &str,
    owner: &str,
    erased_at: &str,
) -> rusqlite::Result<Erased> {
    // The writer is held from the transaction until the registry forgets the account, so no
    // reload of the accounts (SIGHUP, a declaration) falls between the two steps.
    store.with(|conn| {
        let tx = conn.transaction()?;
        let erased = erase_within(&tx, signer, kind, name, owner, erased_at)?;
        tx.commit()?;
        registry.remove(kind, name);
        Ok(erased)
    })
}

/// The erasure's writes, inside the caller's transaction: the household `owner` owns (members
/// and profiles go with it), the account's row, and the record of the erasure.
fn erase_within(
    tx: &rusqlite::Transaction<'_>,
    signer: &Signer,
    kind: AccountKind,
    name: &str,
    owner: &str,
    erased_at: &str,
) -> rusqlite::Result<Erased> {
    let household: Option<String> = tx
        .query_row(
            "SELECT id FROM households WHERE owner = ?1",
            [owner],
            |row| row.get(0),
        )
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
    // Share links go; the consent ledger stays, taken off the account's key so a later account
    // of the same name does not inherit it; the record of a claim goes with the account.
    crate::store::shares::delete_shares_of(tx, owner)?;
    let ledger = format!("erased:{owner}:{erased_at}");
    crate::store::ledger::rekey_consents(tx, owner, &ledger)?;
    if kind == AccountKind::User {
        tx.execute("DELETE FROM claimed_accounts WHERE name = ?1", [name])?;
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
                "INSERT INTO erased_accounts (kind, name, declaration_tag, erased_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (kind, name) DO UPDATE SET declaration_tag = excluded.declaration_tag, erased_at = excluded.erased_at",
                params![kind.as_str(), name, signer.erasure_tag(kind, name, &hash), erased_at],
            )?;
        tx.execute(
            "DELETE FROM accounts WHERE kind = ?1 AND name = ?2",
            params![kind.as_str(), name],
        )?;
    }
    Ok(erased)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier};

    use super::*;
    use crate::Wire;

    /// Security review 3, finding 4: a reload of the accounts that read the table before an
    /// erasure and filled the registry after it brought the erased account's tokens back.
    #[test]
    fn a_reload_racing_an_erasure_never_brings_the_account_back() {
        let store = Store::open(":memory:").unwrap();
        let signer = Arc::new(Signer::new(vec![7; 32], 3600, Wire::Reference.dialect()));
        let registry = Arc::new(Registry::default());
        // Many accounts, so a reload takes a while between its read and its update.
        store
            .with(|conn| {
                (0..3000).try_for_each(|n| {
                    conn.execute(
                        "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES ('user', ?1, 'h', '')",
                        [format!("other{n}")],
                    )
                    .map(|_| ())
                })
            })
            .unwrap();
        let mut back = 0;
        for round in 0..40 {
            let name = format!("ann{round}");
            put(
                &store,
                &signer,
                &registry,
                AccountKind::User,
                &name,
                "hash",
                &[],
            )
            .unwrap();
            let barrier = Arc::new(Barrier::new(2));
            let reload = {
                let (store, signer, registry, barrier) = (
                    store.clone(),
                    signer.clone(),
                    registry.clone(),
                    barrier.clone(),
                );
                std::thread::spawn(move || {
                    barrier.wait();
                    load(&store, &signer, &registry).unwrap();
                })
            };
            barrier.wait();
            // Let the reload read the table first, then erase while it builds the registry.
            std::thread::sleep(std::time::Duration::from_micros(200 + 37 * round));
            let owner = format!("user:{name}");
            erase(
                &store,
                &signer,
                &registry,
                AccountKind::User,
                &name,
                &owner,
                "t",
            )
            .unwrap();
            reload.join().unwrap();
            if registry.get(AccountKind::User, &name).is_some() {
                back += 1;
            }
        }
        assert_eq!(back, 0, "erased accounts back in force after a reload");
    }

    /// Security review 3, finding 5: an erasure kept the account's secret hash.
    #[test]
    fn an_erasure_keeps_a_digest_not_the_hash() {
        let store = Store::open(":memory:").unwrap();
        let signer = Signer::new(vec![7; 32], 3600, Wire::Reference.dialect());
        let registry = Registry::default();
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";
        put(
            &store,
            &signer,
            &registry,
            AccountKind::User,
            "ann",
            hash,
            &[],
        )
        .unwrap();
        erase(
            &store,
            &signer,
            &registry,
            AccountKind::User,
            "ann",
            "user:ann",
            "t",
        )
        .unwrap();
        let kept: Vec<String> = store.with(|conn| {
            let mut statement = conn.prepare("SELECT * FROM erased_accounts").unwrap();
            let columns = statement.column_count();
            statement
                .query_map([], |row| {
                    (0..columns)
                        .map(|i| row.get::<_, String>(i))
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .unwrap()
                .flat_map(|row| row.unwrap())
                .collect()
        });
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(
            kept.iter()
                .all(|v| !v.contains("argon2") && !v.contains("aGFzaA")),
            "{kept:?}"
        );
        // The same declaration read again is still recognised, a new secret is not.
        put(
            &store,
            &signer,
            &registry,
            AccountKind::User,
            "ann",
            hash,
            &[],
        )
        .unwrap();
        assert!(registry.get(AccountKind::User, "ann").is_none());
        put(
            &store,
            &signer,
            &registry,
            AccountKind::User,
            "ann",
            "other",
            &[],
        )
        .unwrap();
        assert!(registry.get(AccountKind::User, "ann").is_some());
    }

    /// Rows a version before 5 wrote with the hash are turned into digests when accounts load.
    #[test]
    fn hashes_kept_by_an_older_version_are_scrubbed() {
        let store = Store::open(":memory:").unwrap();
        let signer = Signer::new(vec![7; 32], 3600, Wire::Reference.dialect());
        let registry = Registry::default();
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";
        store
            .with(|conn| {
                conn.execute(
                    "INSERT INTO erased_accounts (kind, name, declaration_tag, erased_at) VALUES ('user', 'ann', ?1, 't')",
                    [hash],
                )
            })
            .unwrap();
        load(&store, &signer, &registry).unwrap();
        let tag: String = store.with(|conn| {
            conn.query_row("SELECT declaration_tag FROM erased_accounts", [], |r| {
                r.get(0)
            })
            .unwrap()
        });
        assert_eq!(tag, signer.erasure_tag(AccountKind::User, "ann", hash));
        put(
            &store,
            &signer,
            &registry,
            AccountKind::User,
            "ann",
            hash,
            &[],
        )
        .unwrap();
        assert!(
            registry.get(AccountKind::User, "ann").is_none(),
            "still erased"
        );
    }
}
