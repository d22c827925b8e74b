//! Food composition tables (interface.md 2.8).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{or_default, Artifact, Resource};
use larder_contract::{collections, Collection};

/// A food composition table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FcTable {
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
    /// Institution that compiled the table.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub compiling_institution: String,
    /// Name of the database.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub database_name: String,
    /// Abstract, `abstract` on the wire.
    #[serde(rename = "abstract", skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// Category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// How complete the table is, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completeness_description: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
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
    /// Region the record applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Where the record is published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The record's version (set by the service; its shape is the service's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Value>,
    /// How complete the table is, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completeness_percent: Option<f64>,
    /// Most nutrients given for one food.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nutrients_per_item: Option<i64>,
    /// Fewest nutrients given for one food.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_nutrients_per_item: Option<i64>,
    /// Number of foods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number_of_entries: Option<i64>,
    /// Attached files, embedded (`artifact_records` in interface.md).
    #[serde(alias = "artifact_records", deserialize_with = "or_default")]
    pub artifacts: Vec<Artifact>,
    /// Authors.
    #[serde(deserialize_with = "or_default")]
    pub authors: Vec<String>,
    /// Food classification schemes used.
    #[serde(deserialize_with = "or_default")]
    pub classification_schemes: Vec<String>,
    /// Formats the data comes in.
    #[serde(deserialize_with = "or_default")]
    pub data_formats: Vec<String>,
    /// Units of measurement.
    #[serde(deserialize_with = "or_default")]
    pub measurement_units: Vec<String>,
    /// Nutrients covered.
    #[serde(deserialize_with = "or_default")]
    pub nutrient_coverage: Vec<String>,
    /// Reference portions.
    #[serde(deserialize_with = "or_default")]
    pub reference_portions: Vec<String>,
    /// Standardisation schemes.
    #[serde(deserialize_with = "or_default")]
    pub standardization_schemes: Vec<String>,
    /// Tags.
    #[serde(deserialize_with = "or_default")]
    pub tags: Vec<String>,
    /// Tasks the table supports.
    #[serde(deserialize_with = "or_default")]
    pub tasks_supported: Vec<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for FcTable {
    const COLLECTION: Collection = collections::FCTABLES;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}
