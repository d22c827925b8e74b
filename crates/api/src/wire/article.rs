//! Articles: scientific articles (interface.md 2.2).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use super::{or_default, Resource, Year};
use larder_contract::{collections, Collection};

/// A scientific article.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Article {
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
    /// Where it was published (production requires it on create).
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub venue: String,
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
    /// Abstract, `abstract` on the wire.
    #[serde(rename = "abstract", skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// Age group the record concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_group: Option<String>,
    /// Category assigned by the enhancing agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_category: Option<String>,
    /// The retrieval tier the enrichment agent proposed (read-only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_indexing_tier: Option<String>,
    /// Biological model of a study (human, animal, in vitro).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biological_model: Option<String>,
    /// Category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Digital Object Identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// When the record's embedding was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedded_at: Option<String>,
    /// Retrieval tier an editor chose (`prime` ...); absent = untiered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indexing_tier: Option<String>,
    /// Identifier in a source system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The owning organisation's URN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organization_urn: Option<String>,
    /// Population studied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub population_group: Option<String>,
    /// Who reads it: `public`, `expert_only` or `hidden`; absent = public.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader_visibility: Option<String>,
    /// Intended readers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader_group: Option<String>,
    /// Region the record applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Study design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub study_type: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Where the record is published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The record's version (set by the service; its shape is the service's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Value>,
    /// Confidence of the automatic annotation (any JSON number, kept as sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotation_confidence: Option<Number>,
    /// Citations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_count: Option<i64>,
    /// Influential citations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub influential_citation_count: Option<i64>,
    /// References.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_count: Option<i64>,
    /// Publication year, a number or a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publication_year: Option<Year>,
    /// Whether the full text is open access.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_access: Option<bool>,
    /// Key takeaways written by the enhancing agent.
    #[serde(deserialize_with = "or_default")]
    pub ai_key_takeaways: Vec<String>,
    /// Tags assigned by the enhancing agent.
    #[serde(deserialize_with = "or_default")]
    pub ai_tags: Vec<String>,
    /// Authors (production takes one to a thousand; none at all is left out).
    #[serde(deserialize_with = "or_default", skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// Flags that exclude the record from use.
    #[serde(deserialize_with = "or_default")]
    pub hard_exclusion_flags: Vec<String>,
    /// Key takeaways.
    #[serde(deserialize_with = "or_default")]
    pub key_takeaways: Vec<String>,
    /// Keywords.
    #[serde(deserialize_with = "or_default")]
    pub keywords: Vec<String>,
    /// Tags.
    #[serde(deserialize_with = "or_default")]
    pub tags: Vec<String>,
    /// Topics.
    #[serde(deserialize_with = "or_default")]
    pub topics: Vec<String>,
    /// Free-form extra data.
    #[serde(deserialize_with = "or_default")]
    pub extras: Map<String, Value>,
    /// Where the record applies: `{country_or_region?, income_setting?}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geographic_context: Option<Map<String, Value>>,
    /// The audit trail of enhancements, oldest first (set by the service; each entry an object
    /// of the service's own shape, read by the console's history).
    #[serde(deserialize_with = "or_default", skip_serializing_if = "Vec::is_empty")]
    pub enhancements: Vec<Map<String, Value>>,
    /// Fields an enhancing agent wrote (set by the service).
    #[serde(deserialize_with = "or_default", skip_serializing_if = "Vec::is_empty")]
    pub ai_generated_fields: Vec<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Article {
    const COLLECTION: Collection = collections::ARTICLES;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}
