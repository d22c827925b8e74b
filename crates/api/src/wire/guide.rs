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
    /// Life stages it applies to (`pregnancy`, `infancy`, ...).
    #[serde(deserialize_with = "or_default")]
    pub life_stage: Vec<String>,
    /// Lower age bound in months, inclusive; absent = unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_min_months: Option<i64>,
    /// Upper age bound in months, inclusive; absent = unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_max_months: Option<i64>,
    /// Settings it applies in (`school`, `home`, ...).
    #[serde(deserialize_with = "or_default")]
    pub setting: Vec<String>,
    /// The nature of the recommendation (`food_based`, `behavioral`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guideline_type: Option<String>,
    /// Who it addresses (`caregiver`, `health_professional`, ...); singular on the wire.
    #[serde(deserialize_with = "or_default")]
    pub audience: Vec<String>,
    /// Topical labels (an open vocabulary); singular on the wire.
    #[serde(deserialize_with = "or_default")]
    pub topic: Vec<String>,
    /// Nutrients it concerns (an open vocabulary).
    #[serde(deserialize_with = "or_default")]
    pub nutrients: Vec<String>,
    /// Health conditions it addresses (an open vocabulary).
    #[serde(deserialize_with = "or_default")]
    pub health_conditions: Vec<String>,
    /// Countries it applies to (ISO 3166-1 alpha-2); defaults to the guide's region.
    #[serde(deserialize_with = "or_default")]
    pub applicable_regions: Vec<String>,
    /// What the source page covered, captured at extraction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_summary: Option<String>,
    /// The heading or caption the rule sits under in the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section_label: Option<String>,
    /// The extraction pipeline that produced it (provenance, read-only after create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_name: Option<String>,
    /// The extraction run that produced it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_run_id: Option<String>,
    /// The model the extraction used (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extraction_model: Option<String>,
    /// The enrichment pass last applied (set by enrichment).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enrichment_version: Option<i64>,
    /// The confidence the enrichment agent reported, 0 to 1 (set by enrichment).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enrichment_confidence: Option<f64>,
    /// Fields whose current value a machine wrote; a person's edit takes a field off the list.
    #[serde(deserialize_with = "or_default")]
    pub ai_generated_fields: Vec<String>,
    /// The audit trail of enrichments: `{agent, run_id, enhanced_at, fields, skipped_fields,
    /// before, after}` each.
    #[serde(deserialize_with = "or_default")]
    pub enhancements: Vec<Map<String, Value>>,
    /// When the record was last embedded for retrieval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedded_at: Option<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Guideline {
    /// Whether a machine wrote `field`'s current value (it is in `ai_generated_fields`).
    pub fn is_ai_generated(&self, field: &str) -> bool {
        self.ai_generated_fields.iter().any(|f| f == field)
    }
}

impl Resource for Guideline {
    const COLLECTION: Collection = collections::GUIDELINES;
    fn identifier(&self) -> Option<&str> {
        self.id.as_deref()
    }
}
