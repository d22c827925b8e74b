//! Organizations and recipe collections (production.md §2.8, §2.9): the records guides,
//! articles and textbooks point at through `organization_urn`, and the sources of recipes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{or_default, Resource};
use larder_contract::{collections, Collection};

/// An organization that publishes guides, articles or textbooks. Production answers
/// `{urn, id, title, description, url, contact_email, image_url, created_at, updated_at}`; its
/// `status` is taken on writes and never answered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Organization {
    /// The URN, e.g. `urn:organization:who`; on create, the slug alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urn: Option<String>,
    /// The service's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Name.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub title: String,
    /// What it is (production requires it on create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its web site (production requires it on create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Where to write to it (production requires it on create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_email: Option<String>,
    /// Its logo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Lifecycle status: written, never answered by production.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Organization {
    const COLLECTION: Collection = collections::ORGANIZATIONS;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}

/// A collection of recipes: a data set, a web portal, a partner's or a curated set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RCollection {
    /// The URN, e.g. `urn:rcollection:greek-home-cooking`; on create, the slug alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urn: Option<String>,
    /// The service's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Title.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub title: String,
    /// Where the recipes come from (`dataset`, `web_portal`, `manual_curation`, `partner`,
    /// `user_generated`).
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub source_type: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Lifecycle status (`draft` by default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Editorial review state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_status: Option<String>,
    /// Who may see it (`internal` or `public`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// The publishing or partner organization's URN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organization_urn: Option<String>,
    /// How many recipes it holds (may be approximate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe_count: Option<i64>,
    /// Cuisines represented.
    #[serde(deserialize_with = "or_default")]
    pub cuisines: Vec<String>,
    /// Meal types covered.
    #[serde(deserialize_with = "or_default")]
    pub meal_types: Vec<String>,
    /// Dietary patterns represented.
    #[serde(deserialize_with = "or_default")]
    pub dietary_patterns: Vec<String>,
    /// Countries covered (ISO 3166-1 alpha-2).
    #[serde(deserialize_with = "or_default")]
    pub geographic_coverage: Vec<String>,
    /// Whether recipes carry nutritional data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_nutritional_data: Option<bool>,
    /// Whether recipes carry images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_images: Option<bool>,
    /// How complete the data is (`full`, `partial`, `minimal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_completeness: Option<String>,
    /// Whether recipes were reviewed by hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_curated: Option<bool>,
    /// Notes on the curation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curation_notes: Option<String>,
    /// Topic tags.
    #[serde(deserialize_with = "or_default")]
    pub tags: Vec<String>,
    /// The source's address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A cover picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Source-specific data.
    #[serde(deserialize_with = "or_default")]
    pub extras: Map<String, Value>,
    /// Who verified it (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verifier_user_id: Option<String>,
    /// The record's version (set by the service; its shape is the service's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Value>,
    /// Who created the record (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// When the record was created (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When the record last changed (set by the service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for RCollection {
    const COLLECTION: Collection = collections::RCOLLECTIONS;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}
