//! Passages extracted from textbooks (production.md §3.5, §5.2), one at a time or as a bulk
//! replacement.

use super::shared::{roles, updatable, COUNT, PAGE, STAMPS};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, Parent, ReadRule, Routes, CURATORS,
};
use crate::types::{list, Field, Type, LINE, S15K, S2K, S2K_LIST};

const PASSAGE_CREATE: &[Field] = &[
    Field::req("textbook_urn", Type::Urn(Some("urn:textbook:"))),
    Field::req("artifact_id", Type::Uuid),
    Field::req("page_no", PAGE),
    Field::opt("sequence_no", PAGE),
    Field::req("text", S15K),
    Field::req("char_start", COUNT),
    Field::req("char_end", COUNT),
    Field::opt("extractor_name", S2K),
    Field::opt("extractor_run_id", S2K),
];

const PASSAGE_UPDATE: &[Field] = &updatable::<7>(PASSAGE_CREATE, &["textbook_urn", "artifact_id"]);

/// One passage of a bulk replacement.
pub const PASSAGE_ITEM: &[Field] = &[
    Field::req("page_no", PAGE),
    Field::req("text", S15K),
    Field::req("char_start", COUNT),
    Field::req("char_end", COUNT),
    Field::opt("sequence_no", PAGE),
];

/// The body of `POST textbook-passages/by-textbook/{urn}/replace`.
pub const PASSAGE_REPLACE: &[Field] = &[
    Field::req("artifact_id", Type::Uuid),
    Field::opt("page_count", PAGE),
    Field::opt("structure_tree", Type::Tree),
    Field::opt("extractor_name", S2K),
    Field::opt("extractor_run_id", S2K),
    Field::opt(
        "passages",
        list(
            &Type::Shape(PASSAGE_ITEM),
            0,
            Some(crate::limits::MAX_REPLACED_PASSAGES as u32),
        ),
    ),
];

/// Passages extracted from textbooks (production.md §2.5, §3.5).
pub const TEXTBOOK_PASSAGES: Collection = Collection {
    path: "textbook-passages",
    singular: "Passage",
    plural: "Passages",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "textbook_urn",
        collection: Some("textbooks"),
        by: Some("by-textbook"),
    }),
    create: PASSAGE_CREATE,
    update: PASSAGE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("structure_node_id", LINE),
        Field::opt("structure_path", S2K_LIST),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[],
    defaults: &[],
    starts: &[],
    record_type: None,
    clearable: &[],
    advised: &[],
    provenance: &[],
    write_only: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Absent,
        search: Offered::Absent,
        search_get: Offered::Absent,
        search_narrows: false,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Production,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::InterfaceOnly,
            item: &[
                "id",
                "textbook_urn",
                "page_no",
                "sequence_no",
                "structure_path",
            ],
            works_in_production: false,
        },
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::AsParent,
};
