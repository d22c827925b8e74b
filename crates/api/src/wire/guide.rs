//! Dietary guides and the guidelines extracted from them (interface.md 2.3 and 2.4).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{or_default, Artifact, Resource, Year};
use larder_contract::{collections, Collection};

/// A dietary guide.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Guide {
    /// The URN, e.g. `urn:article:vit-d`; on create, the slug alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urn: Option<String>,
    /// The service's id (a UUID for records without a URN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Title.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub title: String,
    /// Full text or summary.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub content: String,
    /// Lifecycle status (`active`, `draft`, ...).
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub status: String,
    /// The record type (`article`, `guide`, ...), `type` on the wire.
    #[serde(
        rename = "type",
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub record_type: String,
    /// Last day the record applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_end_date: Option<String>,
    /// First day the record applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_start_date: Option<String>,
    /// Whether it still applies (`current`, `expired`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_status: Option<String>,
    /// Audience.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Kind of document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_type: Option<String>,
    /// Evidence the guide rests on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_basis: Option<String>,
    /// Graphical model (plate, pyramid, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graphical_model: Option<String>,
    /// Authority that issued the guide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuing_authority: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Legal status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_status: Option<String>,
    /// Licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// Curator notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The owning organisation's URN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organization_urn: Option<String>,
    /// Publication date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publication_date: Option<String>,
    /// Region the record applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Responsible ministry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub responsible_ministry: Option<String>,
    /// Editorial review state (`unreviewed`, `verified`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_status: Option<String>,
    /// Short title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_title: Option<String>,
    /// Topic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Who verified the record (set by the service when `review_status` becomes `verified`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verifier_user_id: Option<String>,
    /// The record's version (set by the service; its shape is the service's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Value>,
    /// Web address of the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Who may see the record (`internal` or `public`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// Number of pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_count: Option<i64>,
    /// Publication year, a number or a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publication_year: Option<Year>,
    /// Attached files, embedded (`artifact_records` in interface.md).
    #[serde(alias = "artifact_records", deserialize_with = "or_default")]
    pub artifacts: Vec<Artifact>,
    /// Further identifiers (ISBN, handle, ...): objects `{scheme, value, url?}`.
    #[serde(deserialize_with = "or_default")]
    pub identifiers: Vec<Map<String, Value>>,
    /// Ids of the guide's guidelines (`guideline_ids` in interface.md).
    #[serde(alias = "guideline_ids", deserialize_with = "or_default")]
    pub guidelines: Vec<String>,
    /// Tags.
    #[serde(deserialize_with = "or_default")]
    pub tags: Vec<String>,
    /// Target audiences.
    #[serde(deserialize_with = "or_default")]
    pub target_audiences: Vec<String>,
    /// The guide this one revises: `{previous_guide_urn?, previous_guide_label?,
    /// previous_publication_year?}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<Map<String, Value>>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Guide {
    const COLLECTION: Collection = collections::GUIDES;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}

/// A rule extracted from a guide.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Guideline {
    /// The service's id (a UUID for records without a URN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// URN of the guide the guideline belongs to.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub guide_urn: String,
    /// The rule, as written in the guide.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub rule_text: String,
    /// Lifecycle status (`active`, `draft`, ...).
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub status: String,
    /// What the rule asks for (`eat`, `limit`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_type: Option<String>,
    /// Last day the record applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_end_date: Option<String>,
    /// First day the record applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_start_date: Option<String>,
    /// Whether it still applies (`current`, `expired`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_status: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Region of the guide (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guide_region: Option<String>,
    /// Curator notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Editorial review state (`unreviewed`, `verified`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_status: Option<String>,
    /// Title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Who verified the record (set by the service when `review_status` becomes `verified`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verifier_user_id: Option<String>,
    /// Who may see the record (`internal` or `public`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_no: Option<i64>,
    /// Position in its sequence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_no: Option<i64>,
    /// Food groups concerned (`vegetables`, `dairy`, ...).
    #[serde(deserialize_with = "or_default")]
    pub food_groups: Vec<String>,
    /// Populations targeted (`adults`, `infants`, ...).
    #[serde(deserialize_with = "or_default")]
    pub target_populations: Vec<String>,
    /// How often it applies (`per_meal`, `daily`, `weekly`, `monthly`, `occasional`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frequency: Option<String>,
    /// How much: `{operator, value, unit, period?, raw_text?}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quantity: Option<Map<String, Value>>,
    /// Where in the source the rule was found: objects `{artifact_id?, page_start, page_end?,
    /// section_label?}`.
    #[serde(deserialize_with = "or_default")]
    pub source_refs: Vec<Map<String, Value>>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Guideline {
    const COLLECTION: Collection = collections::GUIDELINES;
    fn identifier(&self) -> Option<&str> {
        self.id.as_deref()
    }
}
