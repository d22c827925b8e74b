//! The success and error envelopes of interface.md part 7.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `{"help", "success": true, "result"}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SuccessEnvelope<T> {
    /// The URL of the request.
    #[serde(default)]
    pub help: String,
    /// Always true here.
    pub success: bool,
    /// The payload.
    pub result: T,
}

/// The `error` object of a failure.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ErrorBody {
    /// A class-like name, e.g. `NotFoundError` or `InvalidPagination`.
    #[serde(default)]
    pub title: String,
    /// A sentence for people.
    #[serde(default)]
    pub detail: String,
    /// A slash-separated category, e.g. `resource/not_found`.
    #[serde(default)]
    pub code: String,
    /// Field-level problems, when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<Value>,
    /// Any further keys.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{"success": false, "error": {...}, "help": url}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ErrorEnvelope {
    /// Always false here.
    pub success: bool,
    /// What went wrong.
    pub error: ErrorBody,
    /// The URL of the request that failed.
    #[serde(default)]
    pub help: String,
}
