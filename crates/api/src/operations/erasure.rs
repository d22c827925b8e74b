//! Account erasure (issue 22, production.md §8 row 3): `DELETE users/me`, its answer, and
//! whether the service offers it at all, so a console shows the option only where it works.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::machinery::client::decode;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

/// What the service says it erased, and what it keeps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Erasure {
    /// Whether the account was erased.
    pub erased: bool,
    /// Households deleted.
    #[serde(default)]
    pub households_deleted: u64,
    /// Members deleted.
    #[serde(default)]
    pub members_deleted: u64,
    /// Chat sessions deleted.
    #[serde(default)]
    pub chat_sessions_deleted: u64,
    /// What the service keeps, e.g. `consent_ledger`, `model_request_traces`.
    #[serde(default)]
    pub retained: Vec<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<T: Transport> Client<T> {
    /// `DELETE users/me`: erases the caller's account and everything the service holds about
    /// them. `Ok(None)` when the service does not offer it (404 without the envelope, or 405),
    /// so the option can be hidden. After an erasure the client forgets its token and
    /// credentials: the account they named is gone.
    pub async fn erase_account(&self) -> Result<Option<Erasure>, ApiError> {
        let request = Request::new(Api::System, Method::Delete, "users/me");
        match self.execute(request).await {
            Ok(result) => {
                let erasure: Erasure = decode(result)?;
                if erasure.erased {
                    self.sign_out().await;
                }
                Ok(Some(erasure))
            }
            Err(error) if error.is_not_offered() => Ok(None),
            Err(error) => Err(error),
        }
    }
}
