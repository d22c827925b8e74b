//! Textbook structure trees (checked by the contract's validator): the node a page falls in.

use serde_json::Value;

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
    use serde_json::json;

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
}
