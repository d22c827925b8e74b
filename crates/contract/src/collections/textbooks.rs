//! Textbooks (production.md §3.4) and the nodes of their structure trees.

use super::shared::{
    roles, updatable, ARTIFACT_LIST, DATE, EMBEDDED_ARTIFACTS, LIFECYCLE_STATUS, PAGE,
    REVIEWED_SERVICE_SET, URN,
};
use super::{Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Routes, CURATORS};
use crate::enums::{APPLICABILITY_STATUS, NODE_KIND, REVIEW_STATUS, VISIBILITY};
use crate::types::{list, Field, Type, LICENSES, S2K, TAGS_25};

/// One node of a structure tree (its `children` are nodes too; see `validate`).
pub const TREE_NODE: &[Field] = &[
    Field::req("id", S2K),
    Field::req("title", S2K),
    Field::opt("kind", Type::Enum(NODE_KIND)),
    Field::req("page_start", PAGE),
    Field::opt("page_end", PAGE),
    Field::opt("artifact_id", Type::Uuid),
];

const TEXTBOOK_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::opt("subtitle", S2K),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt("authors", list(&S2K, 0, Some(1000))),
    Field::opt("editors", list(&S2K, 0, Some(1000))),
    Field::opt("publisher", S2K),
    Field::opt("edition", S2K),
    Field::opt("publication_year", Type::Year),
    Field::opt("publication_date", Type::DateTime),
    Field::opt("page_count", PAGE),
    Field::opt("isbn10", S2K),
    Field::opt("isbn13", S2K),
    Field::opt("doi", S2K),
    Field::opt("language", Type::Lang),
    Field::opt("region", S2K),
    Field::opt("audience", S2K),
    Field::opt("description", S2K),
    Field::opt("keywords", list(&S2K, 0, Some(250))),
    Field::opt("topics", list(&S2K, 0, Some(100))),
    Field::opt("tags", TAGS_25),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("url", Type::Url),
    Field::opt("organization_urn", URN),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("structure_tree", Type::Tree),
    Field::opt("artifacts", ARTIFACT_LIST),
];

const TEXTBOOK_UPDATE: &[Field] = &updatable::<30>(TEXTBOOK_CREATE, &["urn"]);

/// Textbooks (production.md §2.4, §3.4).
pub const TEXTBOOKS: Collection = Collection {
    path: "textbooks",
    singular: "Textbook",
    plural: "Textbooks",
    identifier: IdentifierKind::Urn {
        urn_type: "textbook",
    },
    parent: None,
    create: TEXTBOOK_CREATE,
    update: TEXTBOOK_UPDATE,
    service_set: REVIEWED_SERVICE_SET,
    derived: &[EMBEDDED_ARTIFACTS],
    defaults: &[
        ("status", "draft"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    starts: &[],
    record_type: None,
    clearable: &["publication_year"],
    advised: &[],
    provenance: &[],
    write_only: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        search_narrows: true,
        put: Offered::InterfaceOnly,
        enhance: Offered::InterfaceOnly,
        children: Offered::Absent,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::Production,
            item: &["urn", "title", "subtitle", "authors", "publication_year"],
            works_in_production: true,
        },
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::PublicAndActiveOrVerified,
};
