//! Food composition tables (production.md §3.6).

use super::shared::{roles, updatable, COUNT, EMBEDDED_ARTIFACTS, LIFECYCLE_STATUS, STAMPS};
use super::{Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Routes, WriteRoles};
use crate::types::{Field, Type, LICENSES, LINE, S2K, S2K_LIST, TAGS_25};

const FCTABLE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("database_name", S2K),
    Field::req("compiling_institution", S2K),
    Field::opt("description", S2K),
    Field::opt("region", S2K),
    Field::opt("language", Type::Lang),
    Field::opt("number_of_entries", COUNT),
    Field::opt(
        "completeness_percent",
        Type::Float {
            min: Some(0.0),
            max: Some(100.0),
        },
    ),
    Field::opt("completeness_description", S2K),
    Field::opt("min_nutrients_per_item", COUNT),
    Field::opt("max_nutrients_per_item", COUNT),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("url", Type::Url),
    Field::opt("nutrient_coverage", S2K_LIST),
    Field::opt("data_formats", S2K_LIST),
    Field::opt("measurement_units", S2K_LIST),
    Field::opt("classification_schemes", S2K_LIST),
    Field::opt("standardization_schemes", S2K_LIST),
    Field::opt("reference_portions", S2K_LIST),
    Field::opt("tasks_supported", S2K_LIST),
    // Production's create schema takes any number, but a record with more than 25 tags can no
    // longer be read there (its read model caps them): keep to 25.
    Field::opt("tags", TAGS_25),
];

const FCTABLE_UPDATE: &[Field] = &updatable::<21>(FCTABLE_CREATE, &["urn"]);

/// Food composition tables (production.md §2.6, §3.6).
pub const FCTABLES: Collection = Collection {
    path: "fctables",
    singular: "Food composition table",
    plural: "Food composition tables",
    identifier: IdentifierKind::Urn {
        urn_type: "fctable",
    },
    parent: None,
    create: FCTABLE_CREATE,
    update: FCTABLE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("status", LIFECYCLE_STATUS),
        Field::opt("type", LINE),
        Field::opt("version", Type::Any),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[EMBEDDED_ARTIFACTS],
    defaults: &[("status", "active")],
    starts: &[],
    record_type: Some("food_composition_table"),
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
        enhance: Offered::InterfaceOnly,
        children: Offered::Absent,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::Production,
            item: &["urn", "title", "compiling_institution", "region"],
            works_in_production: true,
        },
    },
    roles: roles(WriteRoles::AnySignedIn, WriteRoles::AnySignedIn),
    read_rule: ReadRule::Always,
};
