//! `DELETE users/me` (production.md §8 row 3): a user erases their account.
//!
//! The caller's household goes with its members and their profiles, their share links, then the
//! account itself, in one transaction; its tokens are refused from the next request on and it
//! can no longer sign in. A request of the same account that passed the token check just before creates nothing
//! that outlives the erasure (a household is created only for an account still in force, read
//! inside its transaction), and a reload of the accounts cannot fall between the erasure's
//! steps (both hold the writer).
//!
//! This server holds no chat sessions (`chat_sessions_deleted` is always 0), and it keeps, as
//! `retained` says, what is not the caller's private data: the library records they wrote (with
//! their `creator`), the consent ledger (as production keeps `consent_ledger`: the record that a
//! lawful basis existed; its rows move off the account's key, to `erased:<owner>:<when>`, so a
//! later account of the same name does not read them as its own), the enhancement log naming who
//! ran each enhancement, and the erasure record.
//! That record is what proves the erasure and keeps the operator's account file from bringing
//! the account back: its kind and name, when it was erased, and a digest of the declaration keyed
//! with the signing key (`Signer::erasure_tag`), never the password hash. Reading the same
//! declaration again (SIGHUP, restart) does not bring the account back; declaring it with a new
//! secret creates it again, empty.

use axum::extract::State;
use serde_json::{json, Value};

use super::blocking;
use crate::auth::{AccountKind, Caller};
use crate::error::{ApiError, ApiResult, Envelope};
use crate::SharedState;

/// What the server keeps after an erasure, as the answer's `retained` names it.
pub const RETAINED: [&str; 4] = [
    "authored_records",
    "consent_ledger",
    "enhancement_log",
    "erasure_record",
];

/// `DELETE users/me`: 200 with what was erased. Machine clients are refused (403): a client is
/// the operator's, declared for a service, not a person's account to erase; so are accounts of
/// the identity provider (`--oidc-issuer`, 403).
pub async fn erase_me(
    State(state): State<SharedState>,
    caller: Caller,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    if identity.kind == AccountKind::Client {
        return Err(ApiError::forbidden(
            "A machine client has no user account to erase.",
        ));
    }
    // The account is the identity provider's: this server can neither delete it nor stop it
    // signing in (and an account of this server with the same name is someone else's).
    if identity.from_provider() {
        return Err(ApiError::forbidden(
            "This account belongs to the identity provider: ask its administrators to erase it.",
        ));
    }
    blocking(move || {
        let erased = state.auth.erase(
            &state.store,
            identity.kind,
            &identity.name,
            &identity.owner_key(),
        )?;
        Ok(Envelope(json!({
            "erased": true,
            "households_deleted": erased.households,
            "members_deleted": erased.members,
            "chat_sessions_deleted": 0,
            "retained": RETAINED,
        })))
    })
    .await
}
