//! How each collection is presented: list columns, facets and sort choices. What a collection
//! is (its fields, their types, what a create needs and an update takes) is the contract's.

use larder_contract::collections::{
    ARTICLES, ARTIFACTS, FCTABLES, GUIDELINES, GUIDES, ORGANIZATIONS, RCOLLECTIONS, TEXTBOOKS,
    TEXTBOOK_PASSAGES,
};

use super::Schema;
use crate::i18n::k;

/// Every collection's presentation, in the contract's menu order.
pub const SCHEMAS: [Schema; larder_contract::COLLECTIONS.len()] = [
    Schema {
        collection: &ARTICLES,
        columns: &["publication_year", "venue", "status"],
        facets: &["status", "language", "study_type", "publication_year"],
        sorts: &[
            ("publication_year desc", k("Newest first")),
            ("title asc", k("Title A–Z")),
        ],
    },
    Schema {
        collection: &GUIDES,
        columns: &["region", "publication_year", "review_status"],
        facets: &["status", "review_status", "region", "language"],
        sorts: &[
            ("publication_year desc", k("Newest first")),
            ("title asc", k("Title A–Z")),
        ],
    },
    Schema {
        collection: &GUIDELINES,
        columns: &["guide_urn", "sequence_no", "action_type", "life_stage"],
        // Production's facets (§10.5) beside the older ones: who, where and what kind.
        facets: &[
            "life_stage",
            "guideline_type",
            "setting",
            "audience",
            "action_type",
            "frequency",
            "food_groups",
            "status",
        ],
        sorts: &[
            ("sequence_no asc", k("Sequence")),
            ("title asc", k("Title A–Z")),
        ],
    },
    Schema {
        collection: &TEXTBOOKS,
        columns: &["publisher", "publication_year", "review_status"],
        facets: &["status", "review_status", "language", "publication_year"],
        sorts: &[
            ("publication_year desc", k("Newest first")),
            ("title asc", k("Title A–Z")),
        ],
    },
    Schema {
        collection: &TEXTBOOK_PASSAGES,
        columns: &["page_no", "sequence_no", "textbook_urn"],
        facets: &[],
        sorts: &[],
    },
    Schema {
        collection: &FCTABLES,
        columns: &["region", "number_of_entries", "completeness_percent"],
        facets: &["region", "language", "data_formats"],
        sorts: &[
            ("number_of_entries desc", k("Most entries")),
            ("title asc", k("Title A–Z")),
        ],
    },
    Schema {
        collection: &ARTIFACTS,
        columns: &["parent_urn", "file_type", "file_size"],
        facets: &[],
        sorts: &[],
    },
    Schema {
        collection: &ORGANIZATIONS,
        columns: &["url", "contact_email"],
        facets: &[],
        sorts: &[("title asc", k("Title A–Z"))],
    },
    Schema {
        collection: &RCOLLECTIONS,
        columns: &["source_type", "recipe_count", "review_status"],
        facets: &["status", "review_status", "source_type", "language"],
        sorts: &[("title asc", k("Title A–Z"))],
    },
];
