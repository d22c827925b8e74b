//! Textbook structure trees: `{roots: [node]}`, node `{id, title, kind, page_start, page_end?,
//! artifact_id?, children[]}`; and the node a page falls in.

use std::collections::HashSet;

use larder_contract::enums::NODE_KIND;
use serde_json::{json, Value};

/// Checks a tree and returns it in the canonical `{roots: [...]}` form (a bare list of roots is
/// accepted too); the problems are `(location, message)` pairs.
pub fn normalize(tree: &Value) -> Result<Value, Vec<(String, String)>> {
    let roots = match tree {
        Value::Array(roots) => roots.clone(),
        Value::Object(map) => match map.get("roots") {
            Some(Value::Array(roots)) => roots.clone(),
            _ => {
                return Err(vec![(
                    "structure_tree.roots".into(),
                    "must be a list of nodes".into(),
                )])
            }
        },
        _ => {
            return Err(vec![(
                "structure_tree".into(),
                "must be an object with roots".into(),
            )])
        }
    };
    let mut problems = Vec::new();
    let mut ids = HashSet::new();
    for (index, node) in roots.iter().enumerate() {
        check_node(
            node,
            &format!("structure_tree.roots.{index}"),
            &mut ids,
            &mut problems,
        );
    }
    if problems.is_empty() {
        let mut canonical = match tree {
            Value::Object(map) => Value::Object(map.clone()),
            _ => json!({}),
        };
        canonical["roots"] = Value::Array(roots);
        Ok(canonical)
    } else {
        Err(problems)
    }
}

fn check_node(
    node: &Value,
    at: &str,
    ids: &mut HashSet<String>,
    problems: &mut Vec<(String, String)>,
) {
    let mut problem = |field: &str, message: &str| {
        problems.push((format!("{at}.{field}"), message.to_string()));
    };
    if !node.is_object() {
        problems.push((at.to_string(), "must be an object".into()));
        return;
    }
    match node["id"].as_str() {
        Some(id) if !id.is_empty() => {
            if !ids.insert(id.to_string()) {
                problem("id", "is used by another node");
            }
        }
        _ => problem("id", "must be a non-empty string"),
    }
    if !node["title"].is_string() {
        problem("title", "must be a string");
    }
    if !node["kind"]
        .as_str()
        .is_some_and(|kind| NODE_KIND.contains(&kind))
    {
        problem("kind", &format!("must be one of {}", NODE_KIND.join(", ")));
    }
    let start = &node["page_start"];
    if !start.is_null() && start.as_i64().is_none_or(|p| p < 1) {
        problem("page_start", "must be an integer of at least 1");
    }
    let end = &node["page_end"];
    if !end.is_null() {
        match (end.as_i64(), start.as_i64()) {
            (Some(end), Some(start)) if end >= start => {}
            (Some(_), None) if start.is_null() => problem("page_end", "needs page_start"),
            _ => problem("page_end", "must be an integer not below page_start"),
        }
    }
    if !node["artifact_id"].is_null() && !node["artifact_id"].is_string() {
        problem("artifact_id", "must be a string");
    }
    match &node["children"] {
        Value::Null => {}
        Value::Array(children) => {
            for (index, child) in children.iter().enumerate() {
                check_node(child, &format!("{at}.children.{index}"), ids, problems);
            }
        }
        _ => problem("children", "must be a list of nodes"),
    }
}

/// The deepest node covering `page` (a node without `page_end` covers its `page_start` only),
/// skipping subtrees bound to another artifact: its id and the titles from the root down to it.
pub fn locate(tree: &Value, page: i64, artifact_id: &str) -> Option<(String, Vec<String>)> {
    let roots = tree["roots"].as_array()?;
    let mut best: Option<(usize, String, Vec<String>)> = None;
    let mut path = Vec::new();
    for root in roots {
        walk(root, page, artifact_id, &mut path, &mut best);
    }
    best.map(|(_, id, titles)| (id, titles))
}

fn walk(
    node: &Value,
    page: i64,
    artifact_id: &str,
    path: &mut Vec<String>,
    best: &mut Option<(usize, String, Vec<String>)>,
) {
    if node["artifact_id"]
        .as_str()
        .is_some_and(|bound| bound != artifact_id)
    {
        return;
    }
    path.push(node["title"].as_str().unwrap_or_default().to_string());
    if let Some(start) = node["page_start"].as_i64() {
        let end = node["page_end"].as_i64().unwrap_or(start);
        let deeper = best
            .as_ref()
            .is_none_or(|(depth, _, _)| path.len() > *depth);
        if (start..=end).contains(&page) && deeper {
            *best = Some((
                path.len(),
                node["id"].as_str().unwrap_or_default().to_string(),
                path.clone(),
            ));
        }
    }
    if let Some(children) = node["children"].as_array() {
        for child in children {
            walk(child, page, artifact_id, path, best);
        }
    }
    path.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Value {
        json!({"roots": [{"id": "p1", "title": "Part I", "kind": "part", "page_start": 1, "page_end": 20, "children": [
            {"id": "c1", "title": "Chapter 1", "kind": "chapter", "page_start": 1, "page_end": 10, "children": [
                {"id": "s1", "title": "Section 1.1", "kind": "section", "page_start": 3, "page_end": 5}
            ]},
            {"id": "c2", "title": "Chapter 2", "kind": "chapter", "page_start": 11, "page_end": 20, "artifact_id": "other"}
        ]}]})
    }

    #[test]
    fn deepest_covering_node() {
        let t = tree();
        assert_eq!(
            locate(&t, 4, "a"),
            Some((
                "s1".into(),
                vec!["Part I".into(), "Chapter 1".into(), "Section 1.1".into()]
            ))
        );
        assert_eq!(locate(&t, 7, "a").unwrap().0, "c1");
        assert_eq!(locate(&t, 12, "a").unwrap().0, "p1");
        assert_eq!(locate(&t, 12, "other").unwrap().0, "c2");
        assert_eq!(locate(&t, 99, "a"), None);
    }

    #[test]
    fn bad_trees_are_refused() {
        assert!(normalize(&tree()).is_ok());
        assert!(normalize(&json!([{"id": "x", "title": "X", "kind": "other"}])).is_ok());
        let bad = json!({"roots": [{"id": "x", "title": "X", "kind": "volume", "page_start": 0},
                                   {"id": "x", "title": 3, "kind": "part", "page_start": 5, "page_end": 2}]});
        let problems = normalize(&bad).unwrap_err();
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(normalize(&json!("tree")).is_err());
    }
}
