//! Checks a JSON body against a list of [`Field`]s the way the production service's pydantic
//! models do (production.md §1.5, §3): unknown keys refused (or ignored, for the systemic
//! service), required fields, types, lengths, patterns and bounds, with pydantic's error shape
//! (`type`, `loc`, `msg`, `input`, `ctx`). Values come back normalised as the service stores them
//! (strings trimmed, URLs with a path, an article's year as a date, file types as extensions).
//!
//! Work is bounded whatever the body: a list over its limit is reported once without looking at
//! its elements, a tree stops at [`MAX_TREE_NODES`] nodes, and at most [`MAX_SHOWN`] problems are
//! kept (the rest are counted).

mod formats;
mod problems;
mod scalars;
mod structures;
#[cfg(test)]
mod tests;
mod text;

use serde_json::{Map, Value};

use crate::types::{Field, Type};

pub use formats::{
    is_canonical_uuid, is_date, is_datetime, is_valid_urn, normalise_file_type, normalise_url,
    parse_uuid,
};
pub use problems::{Loc, Problem, Problems};

/// Problems kept in an answer; the rest are only counted.
pub const MAX_SHOWN: usize = 50;
/// Nodes a structure tree may hold.
pub const MAX_TREE_NODES: usize = 10_000;
/// Levels a structure tree may nest.
pub const MAX_TREE_DEPTH: usize = 32;

/// What to do with keys a schema does not name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// A 422 (`extra_forbidden`): every data-service create and update schema.
    Forbid,
    /// Drop them silently: the systemic service's schemas.
    Ignore,
}

/// Checks `body` against `fields` (a create schema, an update schema or an item's shape, each
/// with its own required flags); answers the normalised object (unknown keys dropped when
/// `extra` is [`Extra::Ignore`]) and records problems in `problems`.
pub fn check_object(
    fields: &[Field],
    extra: Extra,
    body: &Map<String, Value>,
    problems: &mut Problems,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in body {
        match fields.iter().find(|f| f.name == key.as_str()) {
            Some(field) => {
                let step = Loc::Key(key.clone());
                let checked = problems.within(step, |p| check_field(field, value, p));
                if let Some(checked) = checked {
                    out.insert(key.clone(), checked);
                }
            }
            None if extra == Extra::Forbid => problems.add(
                Some(Loc::Key(key.clone())),
                "extra_forbidden",
                "Extra inputs are not permitted",
                Some(value),
                None,
            ),
            None => {}
        }
    }
    for field in fields {
        if field.required && !body.contains_key(field.name) {
            problems.add(
                Some(Loc::Key(field.name.into())),
                "missing",
                "Field required",
                None,
                None,
            );
        }
    }
    out
}

/// Checks one field's value; `null` passes for optional fields.
fn check_field(field: &Field, value: &Value, problems: &mut Problems) -> Option<Value> {
    if value.is_null() && !field.required {
        return Some(Value::Null);
    }
    check_value(&field.ty, value, problems)
}

/// Checks a value of `ty` at the current location; `None` when it failed.
pub fn check_value(ty: &Type, value: &Value, problems: &mut Problems) -> Option<Value> {
    let mut nodes = 0;
    check(ty, value, problems, &mut nodes, 0)
}

/// Checks `value` against `ty`: one named check per kind of type. `nodes` counts the tree nodes
/// seen so far and `depth` how deep a tree is, so that nested values share one budget.
fn check(
    ty: &Type,
    value: &Value,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
) -> Option<Value> {
    match *ty {
        Type::Str {
            min, max, trimmed, ..
        } => text::check_text(value, min, max, trimmed, problems),
        Type::Slug => text::check_slug(value, problems),
        Type::Urn(prefix) => text::check_urn(value, prefix, problems),
        Type::Uuid => text::check_uuid(value, problems),
        Type::Lang => text::check_lang(value, problems),
        Type::Country => text::check_country(value, problems),
        Type::Url => text::check_url(value, problems),
        Type::Email => text::check_email(value, problems),
        Type::Date => text::check_date(value, problems),
        Type::DateTime => text::check_datetime(value, problems),
        Type::FileType => text::check_file_type(value, problems),
        Type::Enum(values) => scalars::check_enum(value, values, problems),
        Type::EnumFolded(values) => scalars::check_enum_folded(value, values, problems),
        Type::Int { min, max } => scalars::check_int(value, min, max, problems),
        Type::Float { min, max } => scalars::check_float(value, min, max, problems),
        Type::Bool => scalars::check_bool(value, problems),
        Type::YearDate => scalars::check_year_date(value, problems),
        Type::Year => scalars::check_year(value, problems),
        Type::Object => scalars::check_any_object(value, problems),
        Type::Any => Some(value.clone()),
        Type::List {
            item,
            min,
            max,
            unique,
        } => {
            let rules = structures::ListRules {
                item,
                min,
                max,
                unique,
            };
            structures::check_list(value, &rules, problems, nodes, depth)
        }
        Type::Shape(fields) => structures::check_model(value, fields, Extra::Forbid, problems),
        Type::Loose(fields) => structures::check_model(value, fields, Extra::Ignore, problems),
        Type::Tree => structures::check_tree(value, problems, nodes, depth),
    }
}
