//! Reading a bulk passage replacement from pasted or loaded JSON, and its preview.

use std::collections::BTreeSet;

use larder_api::types::ReplacePassages;
use larder_contract::collections::PASSAGE_REPLACE;
use larder_contract::limits::MAX_PASSAGE_REPLACE_BYTES;
use larder_contract::validate::{check_object, Extra, Problems};
use serde_json::{Map, Value};

use super::{bounded_json, import_size};

/// Bytes of a replacement file (or pasted text): the whole megabytes of what the reference
/// service takes in one call (32 MiB: 33 MB).
pub const MAX_FILE_BYTES: usize = import_size::whole_megabytes(MAX_PASSAGE_REPLACE_BYTES);

/// Values of a replacement: 20,000 passages of six values and a tree of 10,000 nodes fit many
/// times over; a file of tiny values (`[0,0,…]`) stops here, at about 32 MiB of `Value`s.
const MAX_JSON_VALUES: usize = 1_000_000;

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

/// Reads the JSON: the replace body (`{artifact_id, passages?, structure_tree?, page_count?,
/// extractor_name?, extractor_run_id?}`), or a bare list of passages; `artifact_id` given in the
/// form wins over one in the file when not empty. The body is checked against production's
/// schema, so what it would refuse (a passage without offsets, a key it does not take) is said
/// here and never sent.
pub fn parse(text: &str, artifact_id: &str) -> Result<ReplacePassages, String> {
    if let Some(refusal) = import_size::text_refusal(text, MAX_FILE_BYTES) {
        return Err(refusal);
    }
    let value = bounded_json::parse(text.trim(), MAX_JSON_VALUES).map_err(|e| e.message())?;
    let mut body: Map<String, Value> = match value {
        Value::Array(items) => Map::from_iter([("passages".to_string(), Value::Array(items))]),
        Value::Object(object) => object,
        _ => return Err("Expected an object with passages, or a list of passages.".into()),
    };
    if !artifact_id.trim().is_empty() {
        body.insert(
            "artifact_id".into(),
            Value::String(artifact_id.trim().to_string()),
        );
    }
    if body
        .get("artifact_id")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err("Choose the artifact (file) the passages come from.".into());
    }
    if ["passages", "structure_tree", "page_count"]
        .iter()
        .all(|k| body.get(*k).is_none_or(Value::is_null))
    {
        return Err("Nothing to replace: give passages, a structure_tree or a page_count.".into());
    }
    let mut problems = Problems::new();
    let checked = check_object(PASSAGE_REPLACE, Extra::Forbid, &body, &mut problems);
    if !problems.is_empty() {
        let mut lines: Vec<String> = problems
            .shown()
            .iter()
            .take(5)
            .map(|p| format!("{}: {}", p.dotted(), p.msg))
            .collect();
        if problems.total() > lines.len() {
            lines.push(format!("… {} problems in all.", problems.total()));
        }
        return Err(lines.join("\n"));
    }
    serde_json::from_value(Value::Object(checked)).map_err(|e| format!("Not a replacement: {e}."))
}

/// Why production would refuse a passage of `body` only after deleting the artifact's passages:
/// it writes `page_count` (the body's, else the textbook's stays), deletes every passage of
/// that artifact, then refuses a passage past the page count (422), leaving none (production.md
/// §5.2). So a page past it is said here, and nothing is sent.
pub fn pages_past_the_count(
    body: &ReplacePassages,
    textbook_page_count: Option<i64>,
) -> Option<String> {
    let count = body.page_count.or(textbook_page_count)?;
    let (position, passage) = body
        .passages
        .as_deref()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .find(|(_, p)| p.page_no > count)?;
    Some(format!(
        "Passage {} is on page {}, past the page count of {count}: the service would delete this file's passages and then refuse the rest. Give a page_count of at least the last page, or correct the page numbers.",
        position + 1,
        passage.page_no
    ))
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
    fn a_page_past_the_count_is_said_before_anything_is_sent() {
        let passages = r#"[{"page_no": 2, "text": "a", "char_start": 0, "char_end": 1},
                          {"page_no": 5, "text": "b", "char_start": 0, "char_end": 1}]"#;
        let id = "0b6f0c2e-1111-4222-8333-444455556666";
        let bare = parse(passages, id).unwrap();
        // The textbook's own count, when the body sends none.
        let said = pages_past_the_count(&bare, Some(4)).unwrap();
        assert!(said.contains("Passage 2 is on page 5"), "{said}");
        assert_eq!(pages_past_the_count(&bare, Some(5)), None);
        assert_eq!(pages_past_the_count(&bare, None), None);
        // The body's count wins over the textbook's.
        let counted = format!(r#"{{"page_count": 5, "passages": {passages}}}"#);
        assert_eq!(
            pages_past_the_count(&parse(&counted, id).unwrap(), Some(1)),
            None
        );
        let short = format!(r#"{{"page_count": 4, "passages": {passages}}}"#);
        assert!(pages_past_the_count(&parse(&short, id).unwrap(), Some(9)).is_some());
    }

    #[test]
    fn a_full_body_is_read_and_previewed() {
        let text = r#"{"artifact_id": "0b6f0c2e-1111-4222-8333-444455556666", "page_count": 3, "extractor_name": "x",
            "structure_tree": {"roots": [{"id": "c1", "title": "One", "kind": "chapter", "page_start": 1, "page_end": 3,
                "children": [{"id": "s1", "title": "S", "kind": "section", "page_start": 2}]}]},
            "passages": [{"page_no": 1, "text": "a", "char_start": 0, "char_end": 1},
                         {"page_no": 1, "text": "b", "char_start": 1, "char_end": 2},
                         {"page_no": 3, "text": "c", "char_start": 0, "char_end": 1}]}"#;
        let body = parse(text, "").unwrap();
        assert_eq!(body.artifact_id, "0b6f0c2e-1111-4222-8333-444455556666");
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
        let body = parse(text, "1b6f0c2e-1111-4222-8333-444455556666").unwrap();
        assert_eq!(body.artifact_id, "1b6f0c2e-1111-4222-8333-444455556666");
        assert_eq!(preview(&body).passages, 1);
    }

    #[test]
    fn texts_and_values_are_bounded() {
        let a = "0b6f0c2e-1111-4222-8333-444455556666";
        let zeros = format!("[{}0]", "0,".repeat(MAX_JSON_VALUES));
        assert!(parse(&zeros, a)
            .unwrap_err()
            .starts_with("More than 1000000 values"));
        let long = " ".repeat(MAX_FILE_BYTES + 1);
        assert!(parse(&long, a)
            .unwrap_err()
            .starts_with("The text is 33.000001 megabyte"));
    }

    #[test]
    fn what_production_refuses_is_named_and_never_sent() {
        let a = "0b6f0c2e-1111-4222-8333-444455556666";
        assert!(parse("{", a).unwrap_err().starts_with("Not valid JSON"));
        assert!(parse("5", a).is_err());
        let missing = parse(r#"[{"text": "t"}]"#, a).unwrap_err();
        assert!(
            missing.contains("passages.0.page_no: Field required"),
            "{missing}"
        );
        assert!(
            missing.contains("passages.0.char_start: Field required"),
            "offsets are never made up: {missing}"
        );
        let extra = parse(
            r#"[{"page_no": 1, "text": "t", "char_start": 0, "char_end": 1, "structure_node_id": "s1"}]"#,
            a,
        )
        .unwrap_err();
        assert!(
            extra.contains("passages.0.structure_node_id: Extra inputs are not permitted"),
            "{extra}"
        );
        assert!(parse(r#"{"artifact_id": "x"}"#, "")
            .unwrap_err()
            .starts_with("Nothing to replace"));
        assert!(parse(r#"{"structure_tree": {"roots": 3}}"#, a)
            .unwrap_err()
            .starts_with("structure_tree.roots"));
        assert!(parse(r#"{"page_count": 2}"#, "not-a-uuid")
            .unwrap_err()
            .starts_with("artifact_id"));
    }
}
