//! Textbooks and their table of contents (interface.md 2.5, wire-notes' structure tree).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{or_default, Artifact, Resource, Year};
use larder_contract::{collections, Collection};

/// A textbook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Textbook {
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
    /// Digital Object Identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Edition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    /// ISBN-10.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub isbn10: Option<String>,
    /// ISBN-13.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub isbn13: Option<String>,
    /// Language code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Licence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The owning organisation's URN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organization_urn: Option<String>,
    /// Publication date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publication_date: Option<String>,
    /// Publisher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// Region the record applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Editorial review state (`unreviewed`, `verified`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_status: Option<String>,
    /// Subtitle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
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
    /// Authors.
    #[serde(deserialize_with = "or_default")]
    pub authors: Vec<String>,
    /// Editors.
    #[serde(deserialize_with = "or_default")]
    pub editors: Vec<String>,
    /// Keywords.
    #[serde(deserialize_with = "or_default")]
    pub keywords: Vec<String>,
    /// Tags.
    #[serde(deserialize_with = "or_default")]
    pub tags: Vec<String>,
    /// Topics.
    #[serde(deserialize_with = "or_default")]
    pub topics: Vec<String>,
    /// Table of contents (`structure_tree_payload` in interface.md).
    #[serde(
        alias = "structure_tree_payload",
        skip_serializing_if = "Option::is_none"
    )]
    pub structure_tree: Option<StructureTree>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Resource for Textbook {
    const COLLECTION: Collection = collections::TEXTBOOKS;
    fn identifier(&self) -> Option<&str> {
        self.urn.as_deref().or(self.id.as_deref())
    }
}

/// A table of contents: `{roots: [node]}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StructureTree {
    /// The top-level nodes, in reading order.
    #[serde(deserialize_with = "or_default")]
    pub roots: Vec<Node>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry of a table of contents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Node {
    /// Unique within the tree.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub id: String,
    /// Heading.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub title: String,
    /// `part`, `chapter`, `section`, `subsection`, `appendix` or `other`.
    #[serde(
        deserialize_with = "or_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub kind: String,
    /// First page, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_start: Option<i64>,
    /// Last page; the service defaults it to `page_start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_end: Option<i64>,
    /// The artifact (file) the pages belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_id: Option<String>,
    /// Sub-entries, in reading order.
    #[serde(deserialize_with = "or_default")]
    pub children: Vec<Node>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl StructureTree {
    /// The node with `id`, anywhere in the tree.
    pub fn find(&self, id: &str) -> Option<&Node> {
        self.roots.iter().find_map(|root| root.find(id))
    }

    /// Every node, depth first, in reading order.
    pub fn nodes(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        // An explicit stack: a tree from the network may be deep.
        let mut stack: Vec<&Node> = self.roots.iter().rev().collect();
        while let Some(node) = stack.pop() {
            out.push(node);
            stack.extend(node.children.iter().rev());
        }
        out
    }
}

impl Node {
    /// This node or a descendant with `id`.
    pub fn find(&self, id: &str) -> Option<&Node> {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if node.id == id {
                return Some(node);
            }
            stack.extend(node.children.iter().rev());
        }
        None
    }

    /// The last page, `page_end` or else `page_start`.
    pub fn last_page(&self) -> Option<i64> {
        self.page_end.or(self.page_start)
    }
}
