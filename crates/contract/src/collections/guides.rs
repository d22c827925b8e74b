//! Dietary guides (production.md §3.2): revisions, identifiers and their schemas.

use super::shared::{
    roles, updatable, ARTIFACT_LIST, DATE, EMBEDDED_ARTIFACTS, LIFECYCLE_STATUS, PAGE,
    REVIEWED_SERVICE_SET, URN,
};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Routes, ADMINS, CURATORS,
};
use crate::enums::{APPLICABILITY_STATUS, REVIEW_STATUS, VISIBILITY};
use crate::types::{list, Field, Type, INT, LICENSES, LINE, PROSE, S15K, S2K, S2K_LIST, TAGS_25};

const REVISION: &[Field] = &[
    Field::opt("previous_guide_urn", Type::Urn(Some("urn:guide:"))),
    Field::opt("previous_guide_label", S2K),
    Field::opt("previous_publication_year", INT),
];

const IDENTIFIER: &[Field] = &[
    Field::req("scheme", S2K),
    Field::req("value", S2K),
    Field::opt("url", Type::Url),
];

const GUIDE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::opt("short_title", S2K),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::req("description", S2K),
    Field::req("url", Type::Url),
    Field::req("license", Type::Enum(LICENSES)),
    Field::req("content", PROSE),
    Field::opt("region", Type::Country),
    Field::opt("language", Type::Lang),
    Field::opt("issuing_authority", S2K),
    Field::opt("responsible_ministry", S2K),
    Field::opt("publication_year", Type::Year),
    Field::opt("publication_date", Type::DateTime),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("page_count", PAGE),
    Field::opt("document_type", S2K),
    Field::opt("legal_status", S2K),
    Field::opt("evidence_basis", S2K),
    Field::opt("graphical_model", S2K),
    Field::opt("topic", LINE),
    Field::opt("audience", LINE),
    Field::opt("target_audiences", S2K_LIST),
    Field::opt("tags", TAGS_25),
    Field::opt("notes", S15K),
    Field::opt("organization_urn", URN),
    Field::opt("revision", Type::Shape(REVISION)),
    Field::opt("identifiers", list(&Type::Shape(IDENTIFIER), 0, None)),
    Field::opt("artifacts", ARTIFACT_LIST),
];

const GUIDE_UPDATE: &[Field] = &updatable::<32>(GUIDE_CREATE, &["urn"]);

/// Dietary guides (production.md §2.2, §3.2).
pub const GUIDES: Collection = Collection {
    path: "guides",
    singular: "Guide",
    plural: "Guides",
    identifier: IdentifierKind::Urn { urn_type: "guide" },
    parent: None,
    create: GUIDE_CREATE,
    update: GUIDE_UPDATE,
    service_set: REVIEWED_SERVICE_SET,
    derived: &[
        EMBEDDED_ARTIFACTS,
        Field::opt("guidelines", list(&Type::Uuid, 0, None)),
    ],
    defaults: &[
        ("status", "active"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    starts: &[("status", "draft")],
    record_type: None,
    clearable: &["publication_year"],
    advised: &[],
    provenance: &[],
    write_only: &[],
    frozen_when: &[("status", "active"), ("visibility", "public")],
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
            item: &["urn", "title", "short_title", "region", "publication_year"],
            works_in_production: true,
        },
    },
    roles: roles(CURATORS, ADMINS),
    read_rule: ReadRule::ActiveOrVerified,
};
