//! A guest keeps their account (`POST users/me/claim`, production.md §10.4; production's
//! `guests.claim_guest`): the same account, its username now the e-mail address, its password
//! the one given, its `guest` role gone. Nothing of theirs moves elsewhere: the household (with
//! its members, profiles and plans), the consent ledger and the share links follow the account
//! to its new name in the same transaction.
//!
//! Accounts are declared by the operator (see `account_config`), and a declaration is the whole
//! truth, so a claim is remembered in `claimed_accounts`: the account it became is kept by every
//! later reload as the user's own (declared or not), and the guest's declaration read again does
//! not bring the guest back (its digest, [`Signer::erasure_tag`], is kept as an erasure keeps
//! one). The guest's tokens stay good until they expire, leading to the account's new name
//! while still carrying `guest`, as production's tokens do until renewed (see `registry`).

use rusqlite::{params, Connection, OptionalExtension};

use super::accounts::AccountKind;
use super::identity::Identity;
use super::registry::{Alias, Key, Live, Registry};
use super::tokens::Signer;
use crate::store::{ledger, now, shares, Store};

/// What a claim came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Claimed {
    /// The account is now `name`.
    Done {
        /// Its name now (the address).
        name: String,
    },
    /// The account does not hold the role `guest`.
    NotGuest,
    /// Another account has that address as its name.
    Taken,
    /// The account is gone (erased or removed since the token was checked).
    Gone,
}

/// The accounts guests claimed (users), kept by every reload.
pub(super) fn claimed_names(conn: &Connection) -> rusqlite::Result<std::collections::HashSet<Key>> {
    conn.prepare("SELECT name FROM claimed_accounts")?
        .query_map([], |row| Ok((AccountKind::User, row.get::<_, String>(0)?)))?
        .collect()
}

/// The guests' names whose tokens lead to the accounts they became.
pub(super) fn aliases(
    conn: &Connection,
) -> rusqlite::Result<std::collections::HashMap<Key, Alias>> {
    conn.prepare(
        "SELECT guest_name, name, guest_fingerprint FROM claimed_accounts WHERE guest_name <> name",
    )?
    .query_map([], |row| {
        Ok((
            (AccountKind::User, row.get::<_, String>(0)?),
            Alias {
                name: row.get(1)?,
                fingerprint: row.get(2)?,
            },
        ))
    })?
    .collect()
}

/// Whether a user other than `own` has `email` as their name, letter case aside.
fn taken(conn: &Connection, email: &str, own: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT 1 FROM accounts WHERE kind = 'user' AND lower(name) = lower(?1) AND name <> ?2
         AND lower(name) <> lower(?2)",
        params![email, own],
        |_| Ok(()),
    )
    .optional()
    .map(|found| found.is_some())
}

/// The guest's stored secret hash and roles, if the account is there.
fn account(conn: &Connection, name: &str) -> rusqlite::Result<Option<(String, Vec<String>)>> {
    conn.query_row(
        "SELECT secret_hash, roles FROM accounts WHERE kind = 'user' AND name = ?1",
        [name],
        |row| {
            let roles: String = row.get(1)?;
            Ok((
                row.get(0)?,
                roles
                    .split(',')
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
                    .collect(),
            ))
        },
    )
    .optional()
}

/// Claims the guest account `guest` as `email` (normalised) with `password`: see the module's
/// documentation. The password is hashed before the writer is taken.
pub fn claim(
    store: &Store,
    signer: &Signer,
    registry: &Registry,
    guest: &Identity,
    email: &str,
    password: &str,
) -> anyhow::Result<Claimed> {
    let guest_role = larder_contract::roles::GUEST;
    // A person the identity provider vouches for is never one of this server's guests, even
    // when their provider username is a guest's name here.
    if guest.kind != AccountKind::User || guest.from_provider() {
        return Ok(Claimed::NotGuest);
    }
    match registry.get(AccountKind::User, &guest.name) {
        None => return Ok(Claimed::Gone),
        Some(live) if !live.roles.iter().any(|r| r == guest_role) => return Ok(Claimed::NotGuest),
        Some(_) => {}
    }
    if store.read(|conn| taken(conn, email, &guest.name))? {
        return Ok(Claimed::Taken);
    }
    let hash = signer.hash_secret(AccountKind::User, email, password)?;
    let old_key = guest.owner_key();
    let new_key = format!("{}:{email}", AccountKind::User.as_str());
    // The writer is held until the registry has the account under its new name, as every
    // change of the accounts does (see `table`).
    let claimed = store.with(|conn| -> rusqlite::Result<Claimed> {
        let tx = conn.transaction()?;
        let Some((old_hash, roles)) = account(&tx, &guest.name)? else {
            return Ok(Claimed::Gone);
        };
        if !roles.iter().any(|r| r == guest_role) {
            return Ok(Claimed::NotGuest);
        }
        if taken(&tx, email, &guest.name)? {
            return Ok(Claimed::Taken);
        }
        // What the guest's tokens carry: the fingerprint of the account as stored (see `table`).
        let old_fingerprint = signer.fingerprint(AccountKind::User, &guest.name, &old_hash, &roles);
        let roles: Vec<String> = roles.into_iter().filter(|r| r != guest_role).collect();
        tx.execute(
            "DELETE FROM accounts WHERE kind = 'user' AND name = ?1",
            [&guest.name],
        )?;
        tx.execute(
            "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES ('user', ?1, ?2, ?3)
             ON CONFLICT (kind, name) DO UPDATE SET secret_hash = excluded.secret_hash, roles = excluded.roles",
            params![email, hash, roles.join(",")],
        )?;
        if new_key != old_key {
            tx.execute(
                "UPDATE households SET owner = ?2, doc = json_set(doc, '$.owner_id', ?2) WHERE owner = ?1",
                params![old_key, new_key],
            )?;
            ledger::rekey_consents(&tx, &old_key, &new_key)?;
            shares::move_shares(&tx, &old_key, &new_key)?;
        }
        tx.execute(
            "INSERT INTO claimed_accounts (name, guest_name, declaration_tag, guest_fingerprint, claimed_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (name) DO UPDATE SET guest_name = excluded.guest_name,
                declaration_tag = excluded.declaration_tag, guest_fingerprint = excluded.guest_fingerprint,
                claimed_at = excluded.claimed_at",
            params![
                email,
                guest.name,
                signer.erasure_tag(AccountKind::User, &guest.name, &old_hash),
                old_fingerprint,
                now()
            ],
        )?;
        tx.commit()?;
        registry.remove(AccountKind::User, &guest.name);
        let fingerprint = signer.fingerprint(AccountKind::User, email, &hash, &roles);
        registry.insert(
            AccountKind::User,
            email,
            Live {
                hash: hash.clone(),
                roles,
                fingerprint,
            },
        );
        if guest.name != email {
            registry.alias(
                AccountKind::User,
                &guest.name,
                Alias {
                    name: email.to_string(),
                    fingerprint: old_fingerprint,
                },
            );
        }
        Ok(Claimed::Done {
            name: email.to_string(),
        })
    })?;
    Ok(claimed)
}
