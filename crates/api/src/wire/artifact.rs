//! Files attached to records (interface.md 2.7).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{or_default, Resource};
use larder_contract::{collections, Collection};

/// A file attached to a record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Artifact {
    /// The service's id (a UUID for records without a URN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// URN of the record the file is attached to.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub parent_urn: String,
    /// Title.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub title: String,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Storage address of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_s3_url: Option<String>,
    /// MIME type or extension of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_type: Option<String>,
    /// Where the file can be fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_url: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_size: Option<i64>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Artifact {
    const COLLECTION: Collection = collections::ARTIFACTS;
    fn identifier(&self) -> Option<&str> {
        self.id.as_deref()
    }
}

/// The body of `POST artifacts`: an artifact described by its metadata, the file stored elsewhere.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewArtifact {
    /// URN of the record the file is attached to.
    pub parent_urn: String,
    /// Title.
    pub title: String,
    /// Where the file can be fetched.
    pub file_url: String,
    /// MIME type or extension of the file.
    pub file_type: String,
    /// Size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_size: Option<u64>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Further fields, sent as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
