//! The known fields of each collection and their wire types (interface.md part 2, with the
//! wire names and enumerations of wire-notes). Fields not listed here are kept as sent.

use larder_contract::enums::{
    ACTION_TYPE, APPLICABILITY_STATUS, FOOD_GROUPS, FREQUENCY, REVIEW_STATUS, STATUS,
    TARGET_POPULATIONS, VISIBILITY,
};

/// The type a known field must have; `null` is accepted for every optional field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    Str,
    /// An integer.
    Int,
    /// Any number.
    Float,
    /// true or false.
    Bool,
    /// An integer or a string (`publication_year`).
    IntOrStr,
    /// A list of strings.
    StrList,
    /// A list of anything.
    List,
    /// A JSON object.
    Object,
    /// One of the values.
    Enum(&'static [&'static str]),
    /// A list whose string elements are among the values.
    EnumList(&'static [&'static str]),
    /// A string among the values, or anything that is not a string.
    EnumOrAny(&'static [&'static str]),
    /// A textbook structure tree (checked by `tree`).
    Tree,
}

impl Kind {
    /// Whether values of this kind can be sorted on.
    pub fn is_scalar(self) -> bool {
        matches!(
            self,
            Kind::Str | Kind::Int | Kind::Float | Kind::Bool | Kind::IntOrStr | Kind::Enum(_)
        )
    }
}

use Kind::*;

const LIFECYCLE: &[(&str, Kind)] = &[
    ("status", Enum(STATUS)),
    ("review_status", Enum(REVIEW_STATUS)),
    ("visibility", Enum(VISIBILITY)),
    ("applicability_status", Enum(APPLICABILITY_STATUS)),
];

const COMMON: &[(&str, Kind)] = &[
    ("urn", Str),
    ("id", Str),
    ("type", Str),
    ("title", Str),
    ("creator", Str),
    ("created_at", Str),
    ("updated_at", Str),
    ("description", Str),
    ("language", Str),
    ("license", Str),
    ("organization_urn", Str),
    ("region", Str),
];

const ARTICLE: &[(&str, Kind)] = &[
    ("content", Str),
    ("abstract", Str),
    ("age_group", Str),
    ("ai_category", Str),
    ("biological_model", Str),
    ("category", Str),
    ("doi", Str),
    ("embedded_at", Str),
    ("external_id", Str),
    ("population_group", Str),
    ("reader_group", Str),
    ("study_type", Str),
    ("annotation_confidence", Int),
    ("citation_count", Int),
    ("influential_citation_count", Int),
    ("reference_count", Int),
    ("publication_year", IntOrStr),
    ("open_access", Bool),
    ("ai_key_takeaways", StrList),
    ("ai_tags", StrList),
    ("authors", StrList),
    ("hard_exclusion_flags", StrList),
    ("key_takeaways", StrList),
    ("keywords", StrList),
    ("tags", StrList),
    ("topics", StrList),
    ("extras", Object),
    ("geographic_context", Object),
];

const GUIDE: &[(&str, Kind)] = &[
    ("content", Str),
    ("applicability_end_date", Str),
    ("applicability_start_date", Str),
    ("audience", Str),
    ("document_type", Str),
    ("evidence_basis", Str),
    ("graphical_model", Str),
    ("issuing_authority", Str),
    ("legal_status", Str),
    ("notes", Str),
    ("publication_date", Str),
    ("responsible_ministry", Str),
    ("short_title", Str),
    ("topic", Str),
    ("url", Str),
    ("page_count", Int),
    ("publication_year", Int),
    ("identifiers", List),
    ("tags", StrList),
    ("target_audiences", StrList),
    ("revision", Object),
];

const GUIDELINE: &[(&str, Kind)] = &[
    ("guide_urn", Str),
    ("rule_text", Str),
    ("action_type", Enum(ACTION_TYPE)),
    ("applicability_end_date", Str),
    ("applicability_start_date", Str),
    ("guide_region", Str),
    ("notes", Str),
    ("page_no", Int),
    ("sequence_no", Int),
    ("food_groups", EnumList(FOOD_GROUPS)),
    ("target_populations", EnumList(TARGET_POPULATIONS)),
    ("frequency", EnumOrAny(FREQUENCY)),
    ("quantity", Object),
    ("source_refs", List),
];

const TEXTBOOK: &[(&str, Kind)] = &[
    ("applicability_end_date", Str),
    ("applicability_start_date", Str),
    ("audience", Str),
    ("doi", Str),
    ("edition", Str),
    ("isbn10", Str),
    ("isbn13", Str),
    ("publication_date", Str),
    ("publisher", Str),
    ("subtitle", Str),
    ("url", Str),
    ("page_count", Int),
    ("publication_year", Int),
    ("authors", StrList),
    ("editors", StrList),
    ("keywords", StrList),
    ("tags", StrList),
    ("topics", StrList),
    ("structure_tree", Tree),
];

const PASSAGE: &[(&str, Kind)] = &[
    ("textbook_urn", Str),
    ("artifact_id", Str),
    ("text", Str),
    ("structure_path", StrList),
    ("structure_node_id", Str),
    ("char_end", Int),
    ("char_start", Int),
    ("page_no", Int),
    ("sequence_no", Int),
    ("extractor_name", Str),
    ("extractor_run_id", Str),
];

const ARTIFACT: &[(&str, Kind)] = &[
    ("parent_urn", Str),
    ("file_s3_url", Str),
    ("file_type", Str),
    ("file_url", Str),
    ("file_name", Str),
    ("file_size", Int),
];

const FCTABLE: &[(&str, Kind)] = &[
    ("content", Str),
    ("compiling_institution", Str),
    ("database_name", Str),
    ("abstract", Str),
    ("category", Str),
    ("completeness_description", Str),
    ("external_id", Str),
    ("completeness_percent", Float),
    ("max_nutrients_per_item", Int),
    ("min_nutrients_per_item", Int),
    ("number_of_entries", Int),
    ("authors", StrList),
    ("classification_schemes", StrList),
    ("data_formats", StrList),
    ("measurement_units", StrList),
    ("nutrient_coverage", StrList),
    ("reference_portions", StrList),
    ("standardization_schemes", StrList),
    ("tags", StrList),
    ("tasks_supported", StrList),
];

fn own_fields(path: &str) -> &'static [(&'static str, Kind)] {
    match path {
        "articles" => ARTICLE,
        "guides" => GUIDE,
        "guidelines" => GUIDELINE,
        "textbooks" => TEXTBOOK,
        "textbook-passages" => PASSAGE,
        "artifacts" => ARTIFACT,
        "fctables" => FCTABLE,
        _ => &[],
    }
}

/// The kind of a known field of the collection at `path`.
pub fn kind_of(path: &str, field: &str) -> Option<Kind> {
    own_fields(path)
        .iter()
        .chain(COMMON)
        .chain(LIFECYCLE)
        .find(|(name, _)| *name == field)
        .map(|(_, kind)| *kind)
}

/// Fields a required on create, by collection.
pub fn required(path: &str) -> &'static [&'static str] {
    match path {
        "articles" | "guides" | "textbooks" | "fctables" | "artifacts" => &["title"],
        "guidelines" => &["guide_urn", "rule_text"],
        "textbook-passages" => &["textbook_urn", "text"],
        _ => &[],
    }
}

/// Fields the service derives on every read and never stores.
pub fn derived(path: &str) -> &'static [&'static str] {
    match path {
        "guides" => &["artifacts", "guidelines"],
        "textbooks" | "fctables" => &["artifacts"],
        _ => &[],
    }
}
