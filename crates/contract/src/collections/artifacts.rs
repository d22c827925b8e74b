//! Files attached to records (production.md §3.7, §5.4).

use super::shared::{roles, COUNT, STAMPS, URN};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, Parent, ReadRule, Routes, CURATORS,
};
use crate::types::{Field, Type, LINE, S2K};

const ARTIFACT_CREATE: &[Field] = &[
    Field::req("parent_urn", URN),
    Field::req("title", S2K),
    Field::opt("description", S2K),
    Field::req("file_url", Type::Url),
    Field::req("file_type", Type::FileType),
    Field::req("file_size", COUNT),
    Field::opt("language", Type::Lang),
];

/// Production validates an artifact update (then discards it): `file_type` required.
const ARTIFACT_UPDATE: &[Field] = &[
    Field::req("file_type", Type::FileType),
    Field::opt("title", S2K),
    Field::opt("description", S2K),
];

/// Files attached to records (production.md §2.7, §3.7).
pub const ARTIFACTS: Collection = Collection {
    path: "artifacts",
    singular: "Artifact",
    plural: "Artifacts",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "parent_urn",
        collection: None,
        by: None,
    }),
    create: ARTIFACT_CREATE,
    update: ARTIFACT_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("file_s3_url", LINE),
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
        search_narrows: true,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::InterfaceOnly,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::InterfaceOnly,
            item: &["id", "parent_urn", "title", "file_type"],
            works_in_production: false,
        },
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::AsParent,
};
