//! Recipe collections (production.md §2.9): where recipes come from. Schemas from
//! wisefood-data-api src/schemas/schemas.py (`RCollectionCreationSchema`,
//! `RCollectionUpdateSchema`, `RCollectionSchema`).

use super::shared::{roles, updatable, LIFECYCLE_STATUS, REVIEWED_SERVICE_SET, URN};
use super::{Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Routes, CURATORS};
use crate::enums::{DATA_COMPLETENESS, REVIEW_STATUS, SOURCE_TYPE, VISIBILITY};
use crate::types::{int_from, list, Field, Type, LICENSES, S2K, TAGS_25};

const RCOLLECTION_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("source_type", Type::Enum(SOURCE_TYPE)),
    Field::opt("description", S2K),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("organization_urn", URN),
    Field::opt("recipe_count", int_from(0)),
    Field::opt("cuisines", list(&S2K, 0, Some(100))),
    Field::opt("meal_types", list(&S2K, 0, Some(50))),
    Field::opt("dietary_patterns", list(&S2K, 0, Some(50))),
    Field::opt("geographic_coverage", list(&Type::Country, 0, Some(250))),
    Field::opt("has_nutritional_data", Type::Bool),
    Field::opt("has_images", Type::Bool),
    Field::opt("data_completeness", Type::Enum(DATA_COMPLETENESS)),
    Field::opt("is_curated", Type::Bool),
    Field::opt("curation_notes", S2K),
    Field::opt("tags", TAGS_25),
    Field::opt("url", Type::Url),
    Field::opt("image_url", Type::Url),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("language", Type::Lang),
    Field::opt("extras", Type::Object),
];

const RCOLLECTION_UPDATE: &[Field] = &updatable::<23>(RCOLLECTION_CREATE, &["urn"]);

/// Recipe collections (production.md §2.9): the textbook's routes and roles (administrators and
/// curators write), and the textbook's read rule (public and verified or active).
pub const RCOLLECTIONS: Collection = Collection {
    path: "rcollections",
    singular: "Recipe collection",
    plural: "Recipe collections",
    identifier: IdentifierKind::Urn {
        urn_type: "rcollection",
    },
    parent: None,
    create: RCOLLECTION_CREATE,
    update: RCOLLECTION_UPDATE,
    service_set: REVIEWED_SERVICE_SET,
    derived: &[],
    defaults: &[
        ("status", "draft"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
    ],
    starts: &[],
    record_type: None,
    clearable: &[],
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
        enhance: Offered::Absent,
        children: Offered::Absent,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::Production,
            item: &["urn", "title", "source_type", "recipe_count"],
            works_in_production: true,
        },
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::PublicAndActiveOrVerified,
};
