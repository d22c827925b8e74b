//! Guidelines, the rules of a guide (production.md §3.3), as single records and as the items of
//! an import.

use super::shared::{roles, updatable, with_first, DATE, LIFECYCLE_STATUS, PAGE, STAMPS};
use super::{Collection, IdentifierKind, Offered, Parent, ReadRule, Routes, CURATORS};
use crate::enums::{
    ACTION_TYPE, APPLICABILITY_STATUS, FOOD_GROUPS, FREQUENCY, REVIEW_STATUS, TARGET_POPULATIONS,
    VISIBILITY,
};
use crate::types::{list, Field, Type, LINE, S15K, S2K};

const QUANTITY: &[Field] = &[
    Field::req(
        "operator",
        Type::Enum(&["lt", "lte", "eq", "gte", "gt", "approx"]),
    ),
    Field::req(
        "value",
        Type::Float {
            min: None,
            max: None,
        },
    ),
    Field::req("unit", S2K),
    Field::opt("period", S2K),
    Field::opt("raw_text", S2K),
];

const SOURCE_REF: &[Field] = &[
    Field::opt("artifact_id", Type::Uuid),
    Field::req("page_start", PAGE),
    Field::opt("page_end", PAGE),
    Field::opt("section_label", S2K),
];

/// A guideline's fields as one item of an import: the create schema without `guide_urn`.
pub const GUIDELINE_ITEM: &[Field] = &[
    Field::opt("sequence_no", PAGE),
    Field::opt("title", S2K),
    Field::req("rule_text", S15K),
    Field::opt("action_type", Type::Enum(ACTION_TYPE)),
    Field::opt("frequency", Type::Enum(FREQUENCY)),
    Field::opt("food_groups", list(&Type::Enum(FOOD_GROUPS), 0, None)),
    Field::opt(
        "target_populations",
        list(&Type::Enum(TARGET_POPULATIONS), 0, None),
    ),
    Field::opt("page_no", PAGE),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("notes", S15K),
    Field::opt("quantity", Type::Shape(QUANTITY)),
    Field::opt("source_refs", list(&Type::Shape(SOURCE_REF), 0, None)),
];

const GUIDELINE_CREATE: &[Field] = &with_first::<18>(
    Field::req("guide_urn", Type::Urn(Some("urn:guide:"))),
    GUIDELINE_ITEM,
);

const GUIDELINE_UPDATE: &[Field] = &updatable::<17>(GUIDELINE_ITEM, &[]);

/// The body of `POST guidelines/by-guide/{urn}/import`.
pub const GUIDELINE_IMPORT: &[Field] = &[Field::req(
    "guidelines",
    list(
        &Type::Shape(GUIDELINE_ITEM),
        1,
        Some(crate::limits::MAX_GUIDELINE_IMPORT as u32),
    ),
)];

/// Guidelines, the rules of a guide (production.md §2.3, §3.3).
pub const GUIDELINES: Collection = Collection {
    path: "guidelines",
    singular: "Guideline",
    plural: "Guidelines",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "guide_urn",
        collection: Some("guides"),
        by: Some("by-guide"),
    }),
    create: GUIDELINE_CREATE,
    update: GUIDELINE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("guide_region", Type::Country),
        Field::opt("verifier_user_id", LINE),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[],
    defaults: &[
        ("status", "draft"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    record_type: None,
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Production,
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::ActiveOrVerified,
};
