//! Reading a bulk passage replacement from pasted or loaded JSON, and its preview.

use std::collections::BTreeSet;

use larder_api::types::{PassageInput, ReplacePassages, StructureTree};
use serde_json::Value;

/// What a replacement will do, shown before it is sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// Passages sent.
    pub passages: usize,
    /// Distinct pages they are on.
    pub pages: usize,
    /// Nodes of the structure tree sent (0 when none).
    pub nodes: usize,
    /// The page count sent, if any.
    pub page_count: Option<i64>,
}

/// Reads the JSON: the replace body (`{artifact_id?, passages?, structure_tree?, page_count?,
/// extractor_name?, extractor_run_id?}`), or a bare list of passages. `artifact_id` given in the
/// form wins over one in the file when not empty.
pub fn parse(text: &str, artifact_id: &str) -> Result<ReplacePassages, String> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("Not valid JSON: {e}."))?;
    let mut body: ReplacePassages = match value {
        Value::Array(items) => ReplacePassages {
            passages: Some(passages(Value::Array(items))?),
            ..ReplacePassages::default()
        },
        Value::Object(mut object) => {
            let list = object.remove("passages").map(passages).transpose()?;
            let tree = match object.remove("structure_tree") {
                None | Some(Value::Null) => None,
                Some(tree) => Some(
                    serde_json::from_value::<StructureTree>(tree)
                        .map_err(|e| format!("structure_tree: {e}."))?,
                ),
            };
            let mut body: ReplacePassages = serde_json::from_value(Value::Object(object))
                .map_err(|e| format!("Not a replacement: {e}."))?;
            body.passages = list;
            body.structure_tree = tree;
            body
        }
        _ => return Err("Expected an object with passages, or a list of passages.".into()),
    };
    if !artifact_id.trim().is_empty() {
        body.artifact_id = artifact_id.trim().to_string();
    }
    if body.artifact_id.is_empty() {
        return Err("Choose the artifact (file) the passages come from.".into());
    }
    if body.passages.is_none() && body.structure_tree.is_none() && body.page_count.is_none() {
        return Err("Nothing to replace: give passages, a structure_tree or a page_count.".into());
    }
    Ok(body)
}

fn passages(value: Value) -> Result<Vec<PassageInput>, String> {
    let Value::Array(items) = value else {
        return Err("passages must be a list.".into());
    };
    items
        .into_iter()
        .enumerate()
        .map(|(at, item)| {
            let page = item.get("page_no").and_then(Value::as_i64);
            if page.is_none_or(|p| p < 1) {
                return Err(format!("passages[{at}]: page_no must be a number from 1."));
            }
            if !item.get("text").is_some_and(Value::is_string) {
                return Err(format!("passages[{at}]: text is missing."));
            }
            serde_json::from_value(item).map_err(|e| format!("passages[{at}]: {e}."))
        })
        .collect()
}

/// Counts for the preview.
pub fn preview(body: &ReplacePassages) -> Preview {
    let list = body.passages.as_deref().unwrap_or_default();
    let pages: BTreeSet<i64> = list.iter().map(|p| p.page_no).collect();
    Preview {
        passages: list.len(),
        pages: pages.len(),
        nodes: body
            .structure_tree
            .as_ref()
            .map(|t| t.nodes().len())
            .unwrap_or(0),
        page_count: body.page_count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_body_is_read_and_previewed() {
        let text = r#"{"artifact_id": "a-1", "page_count": 3, "extractor_name": "x",
            "structure_tree": {"roots": [{"id": "c1", "title": "One", "kind": "chapter", "page_start": 1, "page_end": 3,
                "children": [{"id": "s1", "title": "S", "kind": "section", "page_start": 2}]}]},
            "passages": [{"page_no": 1, "text": "a", "char_start": 0, "char_end": 1},
                         {"page_no": 1, "text": "b", "char_start": 1, "char_end": 2},
                         {"page_no": 3, "text": "c", "char_start": 0, "char_end": 1}]}"#;
        let body = parse(text, "").unwrap();
        assert_eq!(body.artifact_id, "a-1");
        assert_eq!(body.extractor_name.as_deref(), Some("x"));
        assert_eq!(
            preview(&body),
            Preview {
                passages: 3,
                pages: 2,
                nodes: 2,
                page_count: Some(3)
            }
        );
    }

    #[test]
    fn a_bare_list_needs_the_chosen_artifact() {
        let text = r#"[{"page_no": 2, "text": "t", "char_start": 0, "char_end": 1}]"#;
        assert!(parse(text, " ").unwrap_err().contains("artifact"));
        let body = parse(text, "a-2").unwrap();
        assert_eq!(body.artifact_id, "a-2");
        assert_eq!(preview(&body).passages, 1);
    }

    #[test]
    fn mistakes_are_named() {
        assert!(parse("{", "a").unwrap_err().starts_with("Not valid JSON"));
        assert!(parse("5", "a").is_err());
        assert!(parse(r#"[{"text": "t"}]"#, "a")
            .unwrap_err()
            .contains("passages[0]: page_no"));
        assert!(parse(r#"[{"page_no": 1}]"#, "a")
            .unwrap_err()
            .contains("text"));
        assert!(parse(r#"{"artifact_id": "a"}"#, "")
            .unwrap_err()
            .starts_with("Nothing to replace"));
        assert!(parse(r#"{"structure_tree": {"roots": 3}}"#, "a")
            .unwrap_err()
            .starts_with("structure_tree"));
    }
}
