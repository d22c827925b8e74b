//! Guidelines, the rules of a guide (production.md §3.3, §10.5), as single records and as the
//! items of an import; their facets, provenance and machine enrichment.

use super::shared::{
    roles, updatable, with_first, DATE, LIFECYCLE_STATUS, PAGE, STAMPS, TIMESTAMP,
};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, Parent, ReadRule, Routes, WriteRoles,
    ADMINS, CURATORS,
};
use crate::enums::{
    ACTION_TYPE, APPLICABILITY_STATUS, AUDIENCE, FOOD_GROUPS, FREQUENCY, GUIDELINE_TYPE,
    LIFE_STAGE, REVIEW_STATUS, SETTING, TARGET_POPULATIONS, VISIBILITY,
};
use crate::types::{int_from, list, Field, Type, LINE, S15K, S2K, S2K_LIST};
use crate::validate::Problems;

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

/// An age bound in months, inclusive; `null` is unbounded.
const MONTHS: Type = int_from(0);

/// The facets of production's later guideline schema (production.md §10.5; wisefood-data-api
/// src/schemas/schemas.py `GuidelineCreationSchema` @1c14741): every one optional, lists
/// defaulting to `[]`. `topic` and `audience` are singular on the wire.
pub const GUIDELINE_FACETS: [Field; 12] = [
    Field::opt("life_stage", list(&Type::Enum(LIFE_STAGE), 0, None)),
    Field::opt("age_min_months", MONTHS),
    Field::opt("age_max_months", MONTHS),
    Field::opt("setting", list(&Type::Enum(SETTING), 0, None)),
    Field::opt("guideline_type", Type::Enum(GUIDELINE_TYPE)),
    Field::opt("audience", list(&Type::Enum(AUDIENCE), 0, None)),
    Field::opt("topic", S2K_LIST),
    Field::opt("nutrients", S2K_LIST),
    Field::opt("health_conditions", S2K_LIST),
    Field::opt("applicable_regions", list(&Type::Country, 0, None)),
    Field::opt("page_summary", S15K),
    Field::opt("section_label", S2K),
];

/// The facets whose values the console labels in each language (`<field>:<value>` in its
/// catalogs): the closed vocabularies of production's facet schema.
pub const LABELLED_FACETS: [(&str, &[&str]); 4] = [
    ("life_stage", LIFE_STAGE),
    ("setting", SETTING),
    ("guideline_type", GUIDELINE_TYPE),
    ("audience", AUDIENCE),
];

/// Production's own English labels of facet values where they are not the value in words
/// (wisefood-ui `app/utils/guidelineFacets.ts`, production.md §10.5): `(field, value, label)`.
/// Every other value of [`LABELLED_FACETS`] reads in English as its words, capitalised.
pub const ENGLISH_FACET_LABELS: [(&str, &str, &str); 10] = [
    ("life_stage", "lactation", "Breastfeeding"),
    ("life_stage", "older_adulthood", "Older adults"),
    ("guideline_type", "food_based", "Food-based"),
    ("guideline_type", "nutrient_based", "Nutrient-based"),
    ("guideline_type", "behavioral", "Behavioural"),
    ("audience", "caregiver", "Carers"),
    ("audience", "individual", "Individuals"),
    ("audience", "health_professional", "Health professionals"),
    ("audience", "policy_maker", "Policy makers"),
    ("audience", "educator", "Educators"),
];

/// The age bounds, in months (shown in months below two years, else in years).
pub const AGE_BOUNDS: [&str; 2] = ["age_min_months", "age_max_months"];

/// What an extraction pipeline records about where a guideline came from: a create and an
/// import may carry them, no update may (production.md §10.5, "Provenance").
pub const GUIDELINE_PROVENANCE_INPUT: [Field; 4] = [
    Field::opt("extractor_name", S2K),
    Field::opt("extractor_run_id", S2K),
    Field::opt("extraction_model", S2K),
    Field::opt("ai_generated_fields", list(&LINE, 0, None)),
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
    GUIDELINE_FACETS[0],
    GUIDELINE_FACETS[1],
    GUIDELINE_FACETS[2],
    GUIDELINE_FACETS[3],
    GUIDELINE_FACETS[4],
    GUIDELINE_FACETS[5],
    GUIDELINE_FACETS[6],
    GUIDELINE_FACETS[7],
    GUIDELINE_FACETS[8],
    GUIDELINE_FACETS[9],
    Field::opt("page_no", PAGE),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("notes", S15K),
    GUIDELINE_FACETS[10],
    GUIDELINE_FACETS[11],
    Field::opt("quantity", Type::Shape(QUANTITY)),
    Field::opt("source_refs", list(&Type::Shape(SOURCE_REF), 0, None)),
    GUIDELINE_PROVENANCE_INPUT[0],
    GUIDELINE_PROVENANCE_INPUT[1],
    GUIDELINE_PROVENANCE_INPUT[2],
    GUIDELINE_PROVENANCE_INPUT[3],
];

const GUIDELINE_CREATE: &[Field] = &with_first::<34>(
    Field::req("guide_urn", Type::Urn(Some("urn:guide:"))),
    GUIDELINE_ITEM,
);

/// The update allow-list: every item field but the provenance (production.md §10.5: "PATCH
/// accepts none of the provenance fields").
const GUIDELINE_UPDATE: &[Field] = &updatable::<29>(
    GUIDELINE_ITEM,
    &[
        "extractor_name",
        "extractor_run_id",
        "extraction_model",
        "ai_generated_fields",
    ],
);

/// Every provenance field, read-only in a console: what a machine wrote and when (production.md
/// §10.5). `embedding` is declared by production but never serialised.
pub const GUIDELINE_PROVENANCE: &[&str] = &[
    "extractor_name",
    "extractor_run_id",
    "extraction_model",
    "enrichment_version",
    "enrichment_confidence",
    "ai_generated_fields",
    "enhancements",
    "embedded_at",
];

/// The body of `POST guidelines/by-guide/{urn}/import`.
pub const GUIDELINE_IMPORT: &[Field] = &[Field::req(
    "guidelines",
    list(
        &Type::Shape(GUIDELINE_ITEM),
        1,
        Some(crate::limits::MAX_GUIDELINE_IMPORT as u32),
    ),
)];

/// The two fields that describe an enrichment pass itself: always written by one, whoever
/// owns the record's facets (production's `ENRICHMENT_METADATA_FIELDS`).
pub const ENRICHMENT_METADATA: [Field; 2] = [
    Field::opt("enrichment_version", int_from(0)),
    Field::opt(
        "enrichment_confidence",
        Type::Float {
            min: Some(0.0),
            max: Some(1.0),
        },
    ),
];

/// The fields an enrichment may write, with their types (production.md §10.5; production's
/// `GuidelineEnrichableField`): never `rule_text`, the editorial state, the verifier, the guide
/// or the sequence number.
pub const ENRICHABLE: [Field; 17] = [
    GUIDELINE_FACETS[0],
    GUIDELINE_FACETS[1],
    GUIDELINE_FACETS[2],
    GUIDELINE_FACETS[3],
    GUIDELINE_FACETS[8],
    GUIDELINE_FACETS[7],
    GUIDELINE_FACETS[4],
    GUIDELINE_FACETS[6],
    GUIDELINE_FACETS[5],
    GUIDELINE_FACETS[9],
    Field::opt(
        "target_populations",
        list(&Type::Enum(TARGET_POPULATIONS), 0, None),
    ),
    Field::opt("food_groups", list(&Type::Enum(FOOD_GROUPS), 0, None)),
    Field::opt("frequency", Type::Enum(FREQUENCY)),
    Field::opt("quantity", Type::Shape(QUANTITY)),
    Field::opt("action_type", Type::Enum(ACTION_TYPE)),
    ENRICHMENT_METADATA[0],
    ENRICHMENT_METADATA[1],
];

/// The names of [`ENRICHABLE`], for `force_fields`.
pub const ENRICHABLE_NAMES: [&str; 17] = {
    let mut names = [""; 17];
    let mut i = 0;
    while i < ENRICHABLE.len() {
        names[i] = ENRICHABLE[i].name;
        i += 1;
    }
    names
};

/// The bulk and machine routes of guidelines (production.md §10.5; wisefood-data-api
/// src/routers/guidelines.py @1c14741), each under `guidelines/`: what it is called and who may
/// call it. All are production's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuidelineRoute {
    /// The method.
    pub method: &'static str,
    /// The path below `guidelines/`; `{id}` stands for a guideline's UUID.
    pub path: &'static str,
    /// Who may call it.
    pub roles: WriteRoles,
}

/// `PATCH guidelines/{id}/enrich`: one guideline's machine facets (administrators, curators).
pub const ENRICH: GuidelineRoute = GuidelineRoute {
    method: "PATCH",
    path: "{id}/enrich",
    roles: CURATORS,
};
/// `POST guidelines/enrich-batch`: up to [`MAX_ENRICH_BATCH`] at once, with a dry run.
pub const ENRICH_BATCH: GuidelineRoute = GuidelineRoute {
    method: "POST",
    path: "enrich-batch",
    roles: CURATORS,
};
/// `POST guidelines/editorial-policy`: the editorial state of a selection (administrators).
pub const EDITORIAL_POLICY: GuidelineRoute = GuidelineRoute {
    method: "POST",
    path: "editorial-policy",
    roles: ADMINS,
};
/// `POST guidelines/embeddings/backfill`: embed what is not (administrators).
pub const EMBEDDINGS_BACKFILL: GuidelineRoute = GuidelineRoute {
    method: "POST",
    path: "embeddings/backfill",
    roles: ADMINS,
};

/// The most items one `POST guidelines/enrich-batch` carries (production.md §10.5).
pub const MAX_ENRICH_BATCH: usize = 200;

/// The body of `PATCH guidelines/{id}/enrich`: the agent, the values (at least one, keyed by
/// [`ENRICHABLE`] names) and the fields to write over a person's value. `fields` is a map the
/// server checks against [`ENRICHABLE`]; production ignores other top-level keys.
pub const ENRICH_BODY: &[Field] = &[
    Field::req("agent", Type::Slug),
    Field::req("fields", Type::Object),
    Field::opt(
        "force_fields",
        list(&Type::Enum(&ENRICHABLE_NAMES), 0, None),
    ),
];

/// One item of `POST guidelines/enrich-batch`.
pub const ENRICH_BATCH_ITEM: &[Field] = &[
    Field::req("id", Type::Uuid),
    Field::req("fields", Type::Object),
    Field::opt(
        "force_fields",
        list(&Type::Enum(&ENRICHABLE_NAMES), 0, None),
    ),
];

/// The body of `POST guidelines/enrich-batch`: 1 to [`MAX_ENRICH_BATCH`] items.
pub const ENRICH_BATCH_BODY: &[Field] = &[
    Field::req("agent", Type::Slug),
    Field::req(
        "items",
        list(
            &Type::Loose(ENRICH_BATCH_ITEM),
            1,
            Some(MAX_ENRICH_BATCH as u32),
        ),
    ),
    Field::opt("dry_run", Type::Bool),
];

/// The most guidelines one editorial-policy run selects by id, and changes (production.md
/// §10.5).
pub const MAX_EDITORIAL_DOCS: u32 = 10_000;
/// Rows of an editorial-policy answer's `sample`.
pub const EDITORIAL_SAMPLE: usize = 25;
/// The fields an editorial-policy run may change.
pub const EDITORIAL_FIELDS: [&str; 4] = [
    "status",
    "review_status",
    "visibility",
    "applicability_status",
];
/// The keys of each `sample` row (production's `source_includes`).
pub const EDITORIAL_SAMPLE_FIELDS: [&str; 7] = [
    "id",
    "guide_urn",
    "title",
    "status",
    "review_status",
    "visibility",
    "applicability_status",
];

/// The body of `POST guidelines/editorial-policy` (production's `GuidelineEditorialPolicySchema`;
/// other keys are refused). A selection (`ids`, `q`, `fq`) and at least one change are needed.
pub const EDITORIAL_POLICY_BODY: &[Field] = &[
    Field::opt("ids", list(&Type::Uuid, 0, Some(MAX_EDITORIAL_DOCS))),
    Field::opt("q", LINE),
    Field::opt("fq", list(&S2K, 0, Some(crate::limits::MAX_FILTERS as u32))),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt(
        "max_docs",
        Type::Int {
            min: Some(1),
            max: Some(MAX_EDITORIAL_DOCS as i64),
        },
    ),
    Field::opt("dry_run", Type::Bool),
];

/// The query of `POST guidelines/embeddings/backfill` (production.md §10.5): all optional;
/// `only_missing` defaults to true, `dry_run` to false, `max_docs` (≤ 10,000) to the cap.
pub const BACKFILL_QUERY: &[Field] = &[
    Field::opt("guide_urn", Type::Urn(Some("urn:guide:"))),
    Field::opt("only_missing", Type::Bool),
    Field::opt(
        "max_docs",
        Type::Int {
            min: Some(1),
            max: Some(MAX_EDITORIAL_DOCS as i64),
        },
    ),
    Field::opt("dry_run", Type::Bool),
];

/// The age range rule: an upper bound below the lower one is refused, the problem put at
/// `age_max_months` and naming both fields. Production's validator raises a `ValueError` (a 500
/// there, production.md §1.1); the contract says it as the 422 it means, so a form can say it
/// before sending. `record` is the whole guideline as it would be stored.
pub fn check_age_range(
    record: &serde_json::Map<String, serde_json::Value>,
    problems: &mut Problems,
) {
    let bound = |name: &str| record.get(name).and_then(serde_json::Value::as_i64);
    if let (Some(min), Some(max)) = (bound("age_min_months"), bound("age_max_months")) {
        if max < min {
            problems.value_error(
                "age_max_months",
                &format!(
                    "age_max_months ({max}) must be greater than or equal to age_min_months ({min})"
                ),
            );
        }
    }
}

/// Guidelines, the rules of a guide (production.md §2.3, §3.3, §10.5).
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
        ENRICHMENT_METADATA[0],
        ENRICHMENT_METADATA[1],
        Field::opt("enhancements", list(&Type::Object, 0, None)),
        Field::opt("embedded_at", TIMESTAMP),
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
    starts: &[],
    record_type: None,
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    provenance: GUIDELINE_PROVENANCE,
    write_only: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        search_narrows: false,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Production,
        delete: Offered::Production,
        // Production validates each hit against the full record after a narrow `fl`, so any hit
        // answers 500 (production.md §10.7); the reference service answers the items it means.
        autocomplete: Autocomplete {
            offered: Offered::Production,
            item: &["id", "guide_urn", "title", "action_type"],
            works_in_production: false,
        },
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::ActiveOrVerified,
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_age_range_upside_down_is_named() {
        let mut problems = Problems::new();
        let record = json!({"age_min_months": 24, "age_max_months": 6});
        check_age_range(record.as_object().unwrap(), &mut problems);
        assert_eq!(problems.total(), 1);
        let problem = &problems.shown()[0];
        assert_eq!(problem.field(), Some("age_max_months"));
        assert!(problem.msg.contains("age_min_months"), "{}", problem.msg);
        for fine in [
            json!({"age_min_months": 6, "age_max_months": 6}),
            json!({"age_min_months": 6}),
            json!({"age_max_months": 0, "age_min_months": null}),
        ] {
            let mut problems = Problems::new();
            check_age_range(fine.as_object().unwrap(), &mut problems);
            assert!(problems.is_empty(), "{fine}");
        }
    }

    #[test]
    fn enrichment_never_writes_the_editorial_state() {
        for name in [
            "rule_text",
            "status",
            "review_status",
            "visibility",
            "verifier_user_id",
            "guide_urn",
            "sequence_no",
        ] {
            assert!(!ENRICHABLE_NAMES.contains(&name), "{name}");
        }
        for field in ENRICHABLE {
            if let Some(item) = GUIDELINE_ITEM.iter().find(|f| f.name == field.name) {
                assert_eq!(item.ty, field.ty, "{}", field.name);
            }
        }
    }
}
