//! The accounts in force, in memory (the [`Registry`]): what sign-in and every request consult.
//! `table` keeps it equal to the accounts table.
//!
//! A claimed guest account (see `claim`) is in force under its new name; the tokens it was
//! given as a guest stay good until they expire, through an alias from the guest's name and
//! fingerprint to the name the account has now (production's token keeps its `sub` and still
//! carries `guest` until it is renewed).

use std::collections::HashMap;
use std::sync::RwLock;

use super::accounts::AccountKind;

/// An account as sign-in and token checks see it.
#[derive(Clone, Debug)]
pub struct Live {
    /// The argon2 hash of its secret.
    pub hash: String,
    /// Its roles.
    pub roles: Vec<String>,
    /// What its tokens must carry (see `table`'s documentation).
    pub fingerprint: String,
}

pub(super) type Key = (AccountKind, String);

/// Where a claimed guest's tokens lead: the account's name now, and the fingerprint those
/// tokens carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The account's name now.
    pub name: String,
    /// The fingerprint of the guest's tokens.
    pub fingerprint: String,
}

/// The accounts in force, in memory.
#[derive(Default)]
pub struct Registry {
    accounts: RwLock<HashMap<Key, Live>>,
    aliases: RwLock<HashMap<Key, Alias>>,
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

    /// The name now of a claimed guest `name` whose tokens carry `fingerprint`, while that
    /// account is in force.
    pub fn renamed(&self, kind: AccountKind, name: &str, fingerprint: &str) -> Option<String> {
        let alias = self
            .aliases
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(kind, name.to_string()))
            .cloned()?;
        (alias.fingerprint == fingerprint && self.read().contains_key(&(kind, alias.name.clone())))
            .then_some(alias.name)
    }

    pub(super) fn remove(&self, kind: AccountKind, name: &str) {
        self.write().remove(&(kind, name.to_string()));
        // Tokens of a guest who became this account lead nowhere once it is gone.
        self.aliases_mut()
            .retain(|(k, _), alias| !(*k == kind && alias.name == name));
    }

    pub(super) fn insert(&self, kind: AccountKind, name: &str, live: Live) {
        self.write().insert((kind, name.to_string()), live);
    }

    /// Leads the tokens of `from` carrying `alias.fingerprint` to `alias.name`.
    pub(super) fn alias(&self, kind: AccountKind, from: &str, alias: Alias) {
        self.aliases_mut().insert((kind, from.to_string()), alias);
    }

    /// Replaces every account and alias at once.
    pub(super) fn replace(&self, accounts: HashMap<Key, Live>, aliases: HashMap<Key, Alias>) {
        let mut held = self.write();
        *self.aliases_mut() = aliases;
        *held = accounts;
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<Key, Live>> {
        self.accounts.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Key, Live>> {
        self.accounts.write().unwrap_or_else(|p| p.into_inner())
    }

    fn aliases_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Key, Alias>> {
        self.aliases.write().unwrap_or_else(|p| p.into_inner())
    }
}
