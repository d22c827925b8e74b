//! Building blocks the collection tables share: the const functions that derive an update
//! allow-list from a create schema, the common role rules, and field types every table uses.

use super::{Roles, WriteRoles, CURATORS_AND_AGENTS};
use crate::enums::STATUS;
use crate::types::{int_from, list, Field, Type, LINE};

/// The role rules of most collections: `write` creates and updates, `delete` deletes, and
/// curators and agents enhance.
pub(super) const fn roles(write: WriteRoles, delete: WriteRoles) -> Roles {
    Roles {
        create: write,
        update: write,
        delete,
        enhance: CURATORS_AND_AGENTS,
    }
}

/// The fields of `create` but those named in `except`, each optional: an update allow-list that
/// production derives from its create schema. `N` must be the count left (checked at compile time).
pub(super) const fn updatable<const N: usize>(create: &[Field], except: &[&str]) -> [Field; N] {
    let mut out = [create[0].optional(); N];
    let (mut from, mut to) = (0, 0);
    while from < create.len() {
        let mut skip = false;
        let mut e = 0;
        while e < except.len() {
            if same(create[from].name, except[e]) {
                skip = true;
            }
            e += 1;
        }
        if !skip {
            assert!(to < N, "the update list holds more fields than N");
            out[to] = create[from].optional();
            to += 1;
        }
        from += 1;
    }
    assert!(to == N, "the update list holds fewer fields than N");
    out
}

/// `first` followed by `rest`.
pub(super) const fn with_first<const N: usize>(first: Field, rest: &[Field]) -> [Field; N] {
    assert!(rest.len() + 1 == N);
    let mut out = [first; N];
    let mut i = 0;
    while i < rest.len() {
        out[i + 1] = rest[i];
        i += 1;
    }
    out
}

/// `a == b` in a const context.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Field types several tables name.
pub(super) const TIMESTAMP: Type = Type::DateTime;
pub(super) const LIFECYCLE_STATUS: Type = Type::Enum(STATUS);
pub(super) const URN: Type = Type::Urn(None);
pub(super) const DATE: Type = Type::Date;
pub(super) const PAGE: Type = int_from(1);
pub(super) const COUNT: Type = int_from(0);
pub(super) const ARTIFACT_LIST: Type = list(&Type::Object, 0, None);

/// `id`, `creator` and the timestamps: set by the service on every record.
pub(super) const STAMPS: [Field; 4] = [
    Field::opt("id", Type::Uuid),
    Field::opt("creator", LINE),
    Field::opt("created_at", TIMESTAMP),
    Field::opt("updated_at", TIMESTAMP),
];

/// What the service sets on the reviewed collections (guides, textbooks): the stamps, the
/// verifier and the version.
pub(super) const REVIEWED_SERVICE_SET: &[Field] = &[
    STAMPS[0],
    Field::opt("verifier_user_id", LINE),
    Field::opt("version", Type::Any),
    STAMPS[1],
    STAMPS[2],
    STAMPS[3],
];

/// The artifacts a record carries embedded in its answer.
pub(super) const EMBEDDED_ARTIFACTS: Field = Field::opt("artifacts", ARTIFACT_LIST);
