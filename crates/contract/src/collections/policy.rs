//! Reading policy (production.md §8 row 4): who may read a record (`reader_visibility`) and how
//! its retrieval is ranked (`indexing_tier`), set one record at a time by an update or for a whole
//! selection by `POST {path}/policy`. Production has it for articles only; the table below names
//! the collections that offer it, so nothing else in the workspace names a collection for it.
//!
//! Production's newer `src/routers/articles.py`, `src/entities/articles.py` and
//! `tests/test_article_editorial_policy.py` (wisefood-data-api) give the body and answer: a
//! selection (`urns` and/or `q`/`fq` as in search) and at least one change; a selection without
//! `urns`, `q` or `fq` (the whole corpus) is refused; at most 10,000 records; `dry_run` writes
//! nothing and answers `{dry_run, matched, updated: 0, capped, max_docs, sample}` (the sample is
//! the first 25 matches with `urn`, `title` and the policy fields).

use super::access::{Offered, WriteRoles, CURATORS};
use crate::types::{list, Field, Type, LINE};

/// Who reads a record: everyone, experts only, or nobody; absent reads as `public` (records
/// stored before the field existed stay visible).
pub const READER_VISIBILITY: &[&str] = &["public", "expert_only", "hidden"];
/// The value an absent `reader_visibility` stands for.
pub const PUBLIC_READING: &str = "public";
/// Retrieval tiers. `prime` is an editor's decision only; production's tests also name `core` and
/// `do_not_index` (the range its enrichment agent proposes); the source read here shows no other.
pub const INDEXING_TIER: &[&str] = &["prime", "core", "do_not_index"];
/// The most records one policy call changes.
pub const MAX_POLICY_DOCS: u32 = 10_000;
/// Matches the answer's `sample` carries.
pub const POLICY_SAMPLE: usize = 25;

/// The policy fields an update of a record may carry (appended to the collection's allow-list).
pub const POLICY_FIELDS: [Field; 2] = [
    Field::opt("reader_visibility", Type::Enum(READER_VISIBILITY)),
    Field::opt("indexing_tier", Type::Enum(INDEXING_TIER)),
];

/// The tier the enrichment agent proposed: the service's, never written by a client.
pub const AI_INDEXING_TIER: Field = Field::opt("ai_indexing_tier", LINE);

const URN_LIST: Type = list(&Type::Urn(None), 1, Some(MAX_POLICY_DOCS));
const FILTERS: Type = list(&LINE, 0, Some(crate::limits::MAX_FILTERS as u32));

/// The body of `POST {path}/policy` as production takes it; any other key is refused.
pub const POLICY_BODY: &[Field] = &POLICY_BODY_FIELDS;

/// The reference service's body: production's and `all`. Production refuses a selection that
/// names nothing, yet `fq: ["urn:*"]` passes its check and selects everything; the reference
/// service refuses any `q`/`fq` selection that matches every record unless `all: true` says so.
pub const POLICY_BODY_REFERENCE: &[Field] = &{
    let mut fields = [POLICY_ALL; POLICY_BODY_FIELDS.len() + 1];
    let mut i = 0;
    while i < POLICY_BODY_FIELDS.len() {
        fields[i] = POLICY_BODY_FIELDS[i];
        i += 1;
    }
    fields
};

/// `all: true`: the caller means every record (reference service only).
pub const POLICY_ALL: Field = Field::opt("all", Type::Bool);

const POLICY_BODY_FIELDS: [Field; 8] = [
    Field::opt("urns", URN_LIST),
    Field::opt("q", LINE),
    Field::opt("fq", FILTERS),
    POLICY_FIELDS[0],
    POLICY_FIELDS[1],
    Field::opt("clear_indexing_tier", Type::Bool),
    Field::opt(
        "max_docs",
        Type::Int {
            min: Some(1),
            max: Some(MAX_POLICY_DOCS as i64),
        },
    ),
    Field::opt("dry_run", Type::Bool),
];

/// A collection's bulk reading-policy route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadingPolicy {
    /// The collection's path.
    pub collection: &'static str,
    /// The segment after the collection: `POST {collection}/{route}`.
    pub route: &'static str,
    /// Where it is served.
    pub offered: Offered,
    /// Who may call it.
    pub roles: WriteRoles,
}

/// Every collection with a reading policy.
pub const READING_POLICIES: &[ReadingPolicy] = &[ReadingPolicy {
    collection: "articles",
    route: "policy",
    offered: Offered::Production,
    roles: CURATORS,
}];

/// Whether a record with this `reader_visibility` (`None` when absent) is shown to readers
/// without `admin` or `expert`.
pub fn readable_by_all(reader_visibility: Option<&str>) -> bool {
    reader_visibility.is_none_or(|v| v == PUBLIC_READING)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_and_public_are_read_by_all_the_rest_is_not() {
        assert!(readable_by_all(None));
        assert!(readable_by_all(Some("public")));
        assert!(!readable_by_all(Some("expert_only")));
        assert!(!readable_by_all(Some("hidden")));
    }

    #[test]
    fn the_body_takes_the_policy_fields_and_a_selection() {
        for name in [
            "urns",
            "q",
            "fq",
            "reader_visibility",
            "indexing_tier",
            "dry_run",
        ] {
            assert!(POLICY_BODY.iter().any(|f| f.name == name), "{name}");
        }
        assert!(POLICY_BODY.iter().all(|f| !f.required));
    }
}
