//! Articles (production.md §3.1): their create schema, update allow-list, what the service sets,
//! and the enhancement bodies.

use super::policy::{AI_INDEXING_TIER, POLICY_FIELDS};
use super::shared::{roles, updatable, LIFECYCLE_STATUS, STAMPS, TIMESTAMP, URN};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Routes, CURATORS_AND_AGENTS,
};
use crate::types::{list, Field, Type, INT, LICENSES, LINE, PROSE, S15K, S2K, S2K_LIST};

const GEOGRAPHIC_CONTEXT: &[Field] = &[
    Field::opt("country_or_region", S2K),
    Field::opt("income_setting", S2K),
];

const ARTICLE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("venue", S2K),
    Field::opt("authors", list(&S2K, 1, Some(1000))),
    Field::opt("publication_year", Type::YearDate),
    Field::opt("type", LINE),
    Field::opt("description", S2K),
    Field::opt("abstract", S15K),
    Field::req("content", PROSE),
    Field::opt("doi", S2K),
    Field::opt("url", Type::Url),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("open_access", Type::Bool),
    Field::opt("study_type", S2K),
    Field::opt("category", S2K),
    Field::opt("reader_group", S2K),
    Field::opt("age_group", S2K),
    Field::opt("population_group", S2K),
    Field::opt("biological_model", S2K),
    Field::opt("external_id", S2K),
    Field::opt("organization_urn", URN),
    Field::opt("citation_count", INT),
    Field::opt("reference_count", INT),
    Field::opt("influential_citation_count", INT),
    Field::opt(
        "annotation_confidence",
        Type::Float {
            min: Some(0.0),
            max: Some(1.0),
        },
    ),
    Field::opt("keywords", list(&S2K, 0, Some(250))),
    Field::opt("topics", list(&S2K, 0, Some(100))),
    Field::opt(
        "tags",
        Type::List {
            item: &S2K,
            min: 0,
            max: Some(50),
            unique: true,
        },
    ),
    Field::opt("key_takeaways", list(&S2K, 0, Some(10))),
    Field::opt("hard_exclusion_flags", list(&S2K, 0, Some(50))),
    Field::opt("geographic_context", Type::Shape(GEOGRAPHIC_CONTEXT)),
    Field::opt("extras", Type::Object),
    // Production's later write schemas (production.md §10.5): region is free text and language
    // "an ISO code or name", not the `Lang` pattern.
    Field::opt("region", S2K),
    Field::opt("language", S2K),
    POLICY_FIELDS[0],
    POLICY_FIELDS[1],
];

/// The update allow-list: every create field but `urn` (§3.1, §10.5).
const ARTICLE_UPDATE: &[Field] = &updatable::<35>(ARTICLE_CREATE, &["urn"]);

/// The fields an enhancement may write (production.md §5.3).
pub const ENHANCE_FIELDS: &[Field] = &[
    Field::opt("ai_tags", list(&S2K, 1, Some(100))),
    Field::opt("ai_category", S2K),
    Field::opt("ai_key_takeaways", list(&S2K, 1, Some(100))),
];

/// The body of `PATCH {path}/{urn}/enhance`: the agent and the values it derived.
pub const ENHANCE_BODY: &[Field] = &[
    Field::req("agent", Type::Slug),
    Field::opt("fields", Type::Shape(ENHANCE_FIELDS)),
];

const ARTICLE_SERVICE_SET: &[Field] = &[
    STAMPS[0],
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("ai_category", S2K),
    Field::opt("ai_tags", S2K_LIST),
    Field::opt("ai_key_takeaways", S2K_LIST),
    Field::opt("embedded_at", TIMESTAMP),
    AI_INDEXING_TIER,
    Field::opt("version", Type::Any),
    // The audit trail of enhancements (production.md §5.3), shown as the record's history.
    Field::opt("enhancements", list(&Type::Object, 0, None)),
    Field::opt("ai_generated_fields", S2K_LIST),
    STAMPS[1],
    STAMPS[2],
    STAMPS[3],
];

/// Articles (production.md §2.1, §3.1).
pub const ARTICLES: Collection = Collection {
    path: "articles",
    singular: "Article",
    plural: "Articles",
    identifier: IdentifierKind::Urn {
        urn_type: "article",
    },
    parent: None,
    create: ARTICLE_CREATE,
    update: ARTICLE_UPDATE,
    service_set: ARTICLE_SERVICE_SET,
    derived: &[],
    defaults: &[("status", "active")],
    starts: &[],
    record_type: None,
    clearable: &[],
    advised: &["authors"],
    provenance: &[],
    write_only: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::InterfaceOnly,
        search_narrows: true,
        put: Offered::InterfaceOnly,
        enhance: Offered::Production,
        children: Offered::Absent,
        delete: Offered::Production,
        autocomplete: Autocomplete {
            offered: Offered::Production,
            item: &["urn", "title", "authors", "publication_year", "venue"],
            works_in_production: true,
        },
    },
    roles: roles(CURATORS_AND_AGENTS, CURATORS_AND_AGENTS),
    read_rule: ReadRule::ReaderVisibility,
};
