//! Accounts as the operator declares them: the two kinds, `NAME:SECRET[:ROLE,ROLE]` lines from
//! flags, files and environment variables, and the argon2 hashes their secrets are kept as.

use std::path::Path;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// The longest username or client id; longer ones are refused before anything is looked up.
pub const MAX_NAME: usize = 256;
/// The longest password or secret checked.
pub const MAX_SECRET: usize = 1024;

/// A user signs in with a password; a client (machine) with a secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccountKind {
    /// `system/login`.
    User,
    /// `system/mtm`.
    Client,
}

impl AccountKind {
    /// `user` or `client`, as tokens, owner keys and the accounts table spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountKind::User => "user",
            AccountKind::Client => "client",
        }
    }
}

/// `NAME:SECRET[:ROLE,ROLE]`.
#[derive(Clone, PartialEq)]
pub struct AccountSpec {
    /// Username or client id.
    pub name: String,
    /// Password or client secret.
    pub secret: String,
    /// Roles.
    pub roles: Vec<String>,
}

impl std::fmt::Debug for AccountSpec {
    // Secrets never reach logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AccountSpec({:?}, ***, {:?})", self.name, self.roles)
    }
}

impl AccountSpec {
    /// Parses `NAME:SECRET[:ROLE,ROLE]`.
    pub fn parse(spec: &str) -> anyhow::Result<AccountSpec> {
        let mut parts = spec.splitn(3, ':');
        let name = parts.next().unwrap_or_default().trim();
        let secret = parts.next().unwrap_or_default();
        anyhow::ensure!(
            !name.is_empty() && !secret.is_empty(),
            "expected NAME:SECRET[:ROLE,ROLE], got an entry for {name:?}"
        );
        anyhow::ensure!(
            name.len() <= MAX_NAME && secret.len() <= MAX_SECRET,
            "names are at most {MAX_NAME} bytes and secrets {MAX_SECRET}"
        );
        let roles: Vec<String> = parts
            .next()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .collect();
        for role in &roles {
            anyhow::ensure!(
                larder_contract::roles::ALL.contains(&role.as_str()),
                "unknown role {role:?}; roles are {}",
                larder_contract::roles::ALL.join(", ")
            );
        }
        Ok(AccountSpec {
            name: name.to_string(),
            secret: secret.to_string(),
            roles,
        })
    }
}

/// Every account to create: the command line's, then a file's lines, then an environment
/// variable's lines (`#` starts a comment, blank lines are skipped).
pub fn account_specs(
    specs: &[String],
    file: Option<&Path>,
    variable: &str,
) -> anyhow::Result<Vec<AccountSpec>> {
    let mut lines: Vec<String> = specs.to_vec();
    if let Some(file) = file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
        lines.extend(text.lines().map(str::to_string));
    }
    if let Ok(text) = std::env::var(variable) {
        lines.extend(text.lines().map(str::to_string));
    }
    lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(AccountSpec::parse)
        .collect()
}

/// An argon2 hash of `secret` with a fresh salt.
pub fn hash_secret(secret: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(secret.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

/// An argon2 hash of `secret` with the given salt (see `table`: the salt is derived from the
/// signing key and the account, so an unchanged declaration hashes the same).
pub fn hash_secret_salted(secret: &str, salt: &[u8]) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Argon2::default()
        .hash_password(secret.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

/// Whether `secret` matches an argon2 `hash` (a malformed hash matches nothing).
pub fn verify_secret(hash: &str, secret: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_lines() {
        let specs =
            account_specs(&["ann:pw:admin".into()], None, "LARDER_TEST_ACCOUNTS_UNSET").unwrap();
        assert_eq!(specs[0].roles, ["admin"]);
        assert!(AccountSpec::parse("x:y:wizard").is_err());
        assert!(AccountSpec::parse(&format!("{}:pw", "n".repeat(300))).is_err());
        assert!(!format!("{:?}", specs[0]).contains("pw"));
    }
}
