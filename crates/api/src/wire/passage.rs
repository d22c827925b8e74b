//! Passages extracted from textbooks (interface.md 2.6) and their bulk replacement.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{is_false, or_default, Resource, StructureTree};
use crate::machinery::error::ApiError;
use larder_contract::{collections, Collection};

/// A passage of a textbook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Passage {
    /// The service's id (a UUID for records without a URN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// URN of the textbook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub textbook_urn: Option<String>,
    /// Id of the artifact (file) the passage was extracted from.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub artifact_id: String,
    /// The passage's text.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub text: String,
    /// Titles of the structure nodes from the root to the passage's node.
    #[serde(deserialize_with = "or_default")]
    pub structure_path: Vec<String>,
    /// End offset in the page's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub char_end: Option<i64>,
    /// Start offset in the page's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub char_start: Option<i64>,
    /// Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_no: Option<i64>,
    /// Position in its sequence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_no: Option<i64>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Name of the extractor that produced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_name: Option<String>,
    /// Run of the extractor that produced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_run_id: Option<String>,
    /// Deepest structure node covering the passage's page (computed by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure_node_id: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Passage {
    const COLLECTION: Collection = collections::TEXTBOOK_PASSAGES;
    fn identifier(&self) -> Option<&str> {
        self.id.as_deref()
    }
}

/// One passage of a bulk replacement: production's item shape, nothing else (it refuses any
/// other key). The offsets are required: a passage without them is refused, never zeroed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassageInput {
    /// Page number, at most the textbook's `page_count`.
    pub page_no: i64,
    /// Position on the page; the service assigns the item's place in the list when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence_no: Option<i64>,
    /// The passage's text.
    pub text: String,
    /// Start offset in the page's text.
    pub char_start: i64,
    /// End offset in the page's text.
    pub char_end: i64,
}

/// The body of `POST textbook-passages/by-textbook/{urn}/replace`: the passages of one artifact.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplacePassages {
    /// The artifact (file) whose passages are replaced; it must belong to the textbook.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub artifact_id: String,
    /// The textbook's new page count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_count: Option<i64>,
    /// The textbook's new table of contents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure_tree: Option<StructureTree>,
    /// Name of the extractor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_name: Option<String>,
    /// Run of the extractor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_run_id: Option<String>,
    /// The new passages; `None` leaves the passages out of the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passages: Option<Vec<PassageInput>>,
}

/// What a bulk replacement answered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplaceResult {
    /// The textbook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub textbook_urn: Option<String>,
    /// The artifact whose passages were replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_id: Option<String>,
    /// How many passages are stored now.
    #[serde(deserialize_with = "or_default")]
    pub replaced_count: u64,
    /// The textbook's page count afterwards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_count: Option<i64>,
    /// Whether the table of contents was replaced too.
    #[serde(deserialize_with = "or_default", skip_serializing_if = "is_false")]
    pub structure_tree_updated: bool,
    /// The stored passages, when the service answered them instead of a summary.
    #[serde(deserialize_with = "or_default", skip_serializing_if = "Vec::is_empty")]
    pub passages: Vec<Passage>,
    /// Fields this client does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ReplaceResult {
    /// Reads either answer: the summary object, or the list of stored passages.
    pub fn from_result(result: Value) -> Result<ReplaceResult, ApiError> {
        match result {
            Value::Array(_) => {
                let passages: Vec<Passage> = crate::machinery::client::decode(result)?;
                Ok(ReplaceResult {
                    replaced_count: passages.len() as u64,
                    passages,
                    ..ReplaceResult::default()
                })
            }
            other => crate::machinery::client::decode(other),
        }
    }
}
