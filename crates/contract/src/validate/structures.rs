//! Checks of the nested types: lists (with their length and uniqueness rules), objects of known
//! fields, and a textbook's structure tree (bounded by [`MAX_TREE_NODES`] and [`MAX_TREE_DEPTH`]).

use serde_json::{json, Map, Value};

use super::problems::{fail, fail_ctx, Loc, Problems};
use super::{check, check_object, Extra, MAX_SHOWN, MAX_TREE_DEPTH, MAX_TREE_NODES};
use crate::collections::TREE_NODE;
use crate::types::{Field, Type};

/// The rules of a `Type::List`.
pub(super) struct ListRules {
    /// The type of each element.
    pub item: &'static Type,
    /// Fewest elements.
    pub min: u32,
    /// Most elements.
    pub max: Option<u32>,
    /// Whether elements must differ ignoring case.
    pub unique: bool,
}

/// `Type::List`: the length first (a list over its limit is refused without looking at its
/// elements), then each element, then uniqueness.
pub(super) fn check_list(
    value: &Value,
    rules: &ListRules,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
) -> Option<Value> {
    let ListRules {
        item,
        min,
        max,
        unique,
    } = *rules;
    let Some(items) = value.as_array() else {
        return fail(
            problems,
            "list_type",
            "Input should be a valid list".into(),
            value,
        );
    };
    let count = items.len();
    if count < min as usize {
        let plural = if min == 1 { "" } else { "s" };
        return fail_ctx(
            problems,
            "too_short",
            format!("List should have at least {min} item{plural} after validation, not {count}"),
            value,
            json!({ "field_type": "List", "min_length": min, "actual_length": count }),
        );
    }
    if let Some(max) = max.filter(|max| count > *max as usize) {
        return fail_ctx(
            problems,
            "too_long",
            format!("List should have at most {max} items after validation, not {count}"),
            value,
            json!({ "field_type": "List", "max_length": max, "actual_length": count }),
        );
    }
    let mut out = Vec::with_capacity(count);
    let mut ok = true;
    for (index, element) in items.iter().enumerate() {
        if problems.total() > MAX_SHOWN * 4 {
            // Enough is known to refuse the body; stop working on it.
            return None;
        }
        let checked = problems.within(Loc::Index(index), |p| check(item, element, p, nodes, depth));
        match checked {
            Some(v) => out.push(v),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    if unique {
        let mut seen = std::collections::HashSet::new();
        for element in &out {
            if let Some(s) = element.as_str() {
                if !seen.insert(crate::text::lowercase(s)) {
                    return fail(
                        problems,
                        "value_error",
                        format!("Value error, duplicate value {s:?} (compared ignoring case)"),
                        value,
                    );
                }
            }
        }
    }
    Some(Value::Array(out))
}

/// `Type::Shape` (`extra` forbids) and `Type::Loose` (`extra` ignores): an object of `fields`.
pub(super) fn check_model(
    value: &Value,
    fields: &[Field],
    extra: Extra,
    problems: &mut Problems,
) -> Option<Value> {
    let Some(map) = value.as_object() else {
        return fail(
            problems,
            "model_type",
            "Input should be a valid dictionary or instance of a model".into(),
            value,
        );
    };
    let before = problems.total();
    let out = check_object(fields, extra, map, problems);
    (problems.total() == before).then_some(Value::Object(out))
}

/// `Type::Tree`: `{roots: [node]}` and nothing else.
pub(super) fn check_tree(
    value: &Value,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
) -> Option<Value> {
    let Some(map) = value.as_object() else {
        return fail(
            problems,
            "model_type",
            "Input should be a valid dictionary or instance of a model".into(),
            value,
        );
    };
    let before = problems.total();
    let mut out = Map::new();
    for key in map.keys().filter(|k| k.as_str() != "roots") {
        problems.add(
            Some(Loc::Key(key.clone())),
            "extra_forbidden",
            "Extra inputs are not permitted",
            map.get(key),
            None,
        );
    }
    match map.get("roots") {
        None => problems.add(
            Some(Loc::Key("roots".into())),
            "missing",
            "Field required",
            None,
            None,
        ),
        Some(roots) => {
            let mut ids = std::collections::HashSet::new();
            let roots = problems.within(Loc::Key("roots".into()), |p| {
                nodes_of(roots, p, nodes, depth, &mut ids)
            });
            if let Some(roots) = roots {
                out.insert("roots".into(), roots);
            }
        }
    }
    (problems.total() == before).then_some(Value::Object(out))
}

/// A list of tree nodes: each checked against [`TREE_NODE`], `kind` defaulting to `other` and
/// `page_end` to `page_start`, `page_end >= page_start`, ids unique in the tree.
fn nodes_of(
    value: &Value,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
    ids: &mut std::collections::HashSet<String>,
) -> Option<Value> {
    let Some(items) = value.as_array() else {
        return fail(
            problems,
            "list_type",
            "Input should be a valid list".into(),
            value,
        );
    };
    if depth >= MAX_TREE_DEPTH {
        return fail(
            problems,
            "value_error",
            format!("Value error, a structure tree nests at most {MAX_TREE_DEPTH} levels"),
            value,
        );
    }
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (index, node) in items.iter().enumerate() {
        *nodes += 1;
        if *nodes > MAX_TREE_NODES {
            return fail(
                problems,
                "value_error",
                format!("Value error, a structure tree holds at most {MAX_TREE_NODES} nodes"),
                value,
            );
        }
        let checked = problems.within(Loc::Index(index), |p| {
            let Some(map) = node.as_object() else {
                return fail(
                    p,
                    "model_type",
                    "Input should be a valid dictionary or instance of a model".into(),
                    node,
                );
            };
            let before = p.total();
            let mut plain = map.clone();
            let children = plain.remove("children");
            let mut checked = check_object(TREE_NODE, Extra::Forbid, &plain, p);
            let children = match children {
                None | Some(Value::Null) => Some(Value::Array(Vec::new())),
                Some(children) => p.within(Loc::Key("children".into()), |p| {
                    nodes_of(&children, p, nodes, depth + 1, ids)
                }),
            };
            if p.total() != before {
                return None;
            }
            checked
                .entry("kind")
                .and_modify(|k| {
                    if k.is_null() {
                        *k = json!("other")
                    }
                })
                .or_insert(json!("other"));
            let start = checked.get("page_start").and_then(Value::as_i64);
            match (start, checked.get("page_end").and_then(Value::as_i64)) {
                (Some(start), Some(end)) if end < start => {
                    p.value_error("page_end", "page_end must not be below page_start");
                    return None;
                }
                (Some(start), None) => {
                    checked.insert("page_end".into(), json!(start));
                }
                _ => {}
            }
            if let Some(id) = checked.get("id").and_then(Value::as_str) {
                if !ids.insert(id.to_string()) {
                    p.value_error("id", "another node of the tree has this id");
                    return None;
                }
            }
            checked.insert("children".into(), children?);
            Some(Value::Object(checked))
        });
        match checked {
            Some(node) => out.push(node),
            None => ok = false,
        }
    }
    ok.then_some(Value::Array(out))
}
