//! The accounts the options declare — `--user`/`--client`, `--user-file`/`--client-file`,
//! `LARDER_USERS`/`LARDER_CLIENTS`, and the demo's with `--demo` — applied at start and again
//! whenever the process receives SIGHUP, so an operator revokes an account by editing its file.
//!
//! The declaration is the whole truth: an account no longer declared is deleted, one whose
//! secret or roles changed is rewritten, and either way its older tokens are refused (see
//! `auth::table`). With `--demo` the demo accounts are kept as they are.

use std::collections::HashSet;

use crate::auth::{account_specs, AccountKind, AccountSpec, Auth, Changes};
use crate::store::Store;
use crate::{demo, Options, SharedState};

/// Every account the options declare, the files and environment variables read now.
pub fn declared(options: &Options) -> anyhow::Result<Vec<(AccountKind, AccountSpec)>> {
    let sources = [
        (
            AccountKind::User,
            &options.users,
            &options.user_file,
            "LARDER_USERS",
        ),
        (
            AccountKind::Client,
            &options.clients,
            &options.client_file,
            "LARDER_CLIENTS",
        ),
    ];
    let mut accounts = Vec::new();
    for (kind, specs, file, variable) in sources {
        for spec in account_specs(specs, file.as_deref(), variable)? {
            accounts.push((kind, spec));
        }
    }
    Ok(accounts)
}

/// The accounts a sync leaves alone: with `--demo`, the demo's (created by `demo::load` when
/// missing, and never changed after, so their tokens survive restarts).
pub fn kept(options: &Options) -> HashSet<(AccountKind, String)> {
    if !options.demo {
        return HashSet::new();
    }
    let users = demo::DEMO_USERS.iter().map(|(name, _, _)| name.to_string());
    let families = (1..=demo::FAMILY_COUNT).map(|n| format!("family{n:02}"));
    let clients = demo::DEMO_CLIENTS
        .iter()
        .map(|(id, _, _)| (AccountKind::Client, id.to_string()));
    users
        .chain(families)
        .map(|name| (AccountKind::User, name))
        .chain(clients)
        .collect()
}

/// Reads the declaration and brings the accounts in force to it. Nothing changes when a file
/// cannot be read or a line is malformed.
pub fn apply(store: &Store, auth: &Auth, options: &Options) -> anyhow::Result<Changes> {
    let declared = declared(options)?;
    auth.sync(store, &declared, &kept(options))
}

/// [`apply`] on a running server, logging what changed (names only, never secrets).
pub fn reload(state: &SharedState) -> anyhow::Result<Changes> {
    let changes = apply(&state.store, &state.auth, &state.options)?;
    if changes.is_empty() {
        tracing::info!("accounts reloaded: nothing changed");
    } else {
        tracing::info!("accounts reloaded: {changes}");
    }
    Ok(changes)
}

/// Reloads the accounts on every SIGHUP until the runtime stops; a failed reload is logged and
/// leaves the accounts as they were.
#[cfg(unix)]
pub fn reload_on_hangup(state: SharedState) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut hangups = signal(SignalKind::hangup())?;
    Ok(tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            let state = state.clone();
            // Hashing is slow: off the async workers.
            match tokio::task::spawn_blocking(move || reload(&state)).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => {
                    tracing::error!("account reload failed, accounts unchanged: {error:#}")
                }
                Err(error) => tracing::error!("account reload failed: {error}"),
            }
        }
    }))
}
