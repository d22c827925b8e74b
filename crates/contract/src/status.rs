//! The administrator's status page (production.md §10.6): which indices the service reports,
//! which collections carry embeddings, and the bounds of an embedding backfill.

use crate::collections::{
    ARTICLES, ARTIFACTS, FCTABLES, GUIDELINES, GUIDES, ORGANIZATIONS, RCOLLECTIONS, TEXTBOOKS,
    TEXTBOOK_PASSAGES,
};
use crate::Collection;

/// Documents one backfill may process (`max_docs`, 1 to this; the default when none is sent).
pub const MAX_BACKFILL_DOCS: u32 = 10_000;

/// A collection as the status page names its search index, in production's order (production
/// also reports `persons` and `rag_chunks`, which this service does not keep).
pub const INDICES: [(&Collection, &str); 9] = [
    (&RCOLLECTIONS, "rcollections"),
    (&GUIDES, "guides"),
    (&GUIDELINES, "guidelines"),
    (&TEXTBOOKS, "textbooks"),
    (&TEXTBOOK_PASSAGES, "textbook_passages"),
    (&ARTIFACTS, "artifacts"),
    (&ARTICLES, "articles"),
    (&ORGANIZATIONS, "organizations"),
    (&FCTABLES, "fctables"),
];

/// A collection whose records carry an embedding of their text.
#[derive(Clone, Copy, Debug)]
pub struct Embedded {
    /// The collection.
    pub collection: &'static Collection,
    /// Its index name.
    pub index: &'static str,
    /// The field that names a record (`urn` or `id`).
    pub identifier_field: &'static str,
    /// The fields whose text the embedding is computed from (production's
    /// `embedding_policy.py`): a change to any of them makes the stored vector stale.
    pub text_fields: &'static [&'static str],
    /// The query parameter that narrows a backfill to one parent (`guide_urn`), if any.
    pub parent_filter: Option<&'static str>,
}

impl Embedded {
    /// `POST {path}/embeddings/backfill`.
    pub fn backfill_path(&self) -> String {
        format!("{}/embeddings/backfill", self.collection.path)
    }
}

/// The collections with a backfill route, as production has them.
pub const EMBEDDED: [Embedded; 2] = [
    Embedded {
        collection: &ARTICLES,
        index: "articles",
        identifier_field: "urn",
        text_fields: &["title", "abstract", "content"],
        parent_filter: None,
    },
    Embedded {
        collection: &GUIDELINES,
        index: "guidelines",
        identifier_field: "id",
        text_fields: &["rule_text", "title", "notes"],
        parent_filter: Some("guide_urn"),
    },
];

/// The embedded collection of `path`.
pub fn embedded(path: &str) -> Option<&'static Embedded> {
    EMBEDDED.iter().find(|e| e.collection.path == path)
}
