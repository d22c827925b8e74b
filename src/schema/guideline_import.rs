//! Reading a guideline import from JSON (`{"guidelines": [...]}` or a bare list) or CSV (a
//! header of field names, one guideline per row), checking every item against the contract's
//! import item (production.md §5.1) before anything is sent, and splitting it into calls of at
//! most production's limit. Pure, tested natively.

use std::collections::HashMap;
use std::ops::Range;

use larder_contract::collections::{GUIDELINE_IMPORT, GUIDELINE_ITEM};
use larder_contract::limits::MAX_GUIDELINE_IMPORT;
use larder_contract::validate::{check_object, Extra, Problems};
use larder_contract::Type;
use serde_json::{Map, Number, Value};

use super::csv;
use crate::i18n::tf;

/// The most problems listed; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// The items of the text, checked: every problem is named by row (1-based, the header of a
/// CSV not counted) and field.
pub fn parse(text: &str) -> Result<Vec<Map<String, Value>>, Vec<String>> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(vec![tf(
            "Nothing to import: paste or load guidelines.",
            &[],
        )]);
    }
    let items = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        from_json(trimmed)?
    } else {
        from_csv(trimmed)?
    };
    check(items)
}

fn from_json(text: &str) -> Result<Vec<Value>, Vec<String>> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| vec![tf("Not valid JSON: {error}", &[("error", &e.to_string())])])?;
    match value {
        Value::Array(items) => Ok(items),
        // The body's one key, as the contract names it.
        Value::Object(mut body) => {
            match (body.remove(GUIDELINE_IMPORT[0].name), body.keys().next()) {
                (Some(Value::Array(items)), None) => Ok(items),
                (_, Some(key)) => Err(vec![tf(
                    "Unknown key \"{key}\": an import is {\"guidelines\": [...]} only.",
                    &[("key", key)],
                )]),
                _ => Err(vec![tf("\"guidelines\" must be a list.", &[])]),
            }
        }
        _ => Err(vec![tf(
            "Expected {\"guidelines\": [...]} or a list of guidelines.",
            &[],
        )]),
    }
}

/// The value of a CSV cell for a field of type `ty`: numbers as numbers, lists of words split
/// at `;`, objects and lists of objects as JSON; text that does not read as its type is kept as
/// text, so the check names it.
fn cell_value(ty: &Type, cell: &str) -> Value {
    match ty {
        Type::Int { .. } => cell
            .parse::<i64>()
            .map(|n| Value::Number(Number::from(n)))
            .unwrap_or_else(|_| Value::String(cell.into())),
        Type::List { item, .. } if !matches!(item, Type::Shape(_) | Type::Object) => cell
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Value::String(s.into()))
            .collect(),
        Type::List { .. } | Type::Shape(_) | Type::Object => {
            serde_json::from_str(cell).unwrap_or_else(|_| Value::String(cell.into()))
        }
        _ => Value::String(cell.into()),
    }
}

fn from_csv(text: &str) -> Result<Vec<Value>, Vec<String>> {
    let rows = csv::read(text).map_err(|e| {
        vec![tf(
            "CSV line {line}: {problem}",
            &[
                ("line", &e.line.to_string()),
                ("problem", &crate::i18n::t(e.message)),
            ],
        )]
    })?;
    let mut rows = rows.into_iter();
    let Some((_, header)) = rows.next() else {
        return Ok(Vec::new());
    };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
    let unknown: Vec<&str> = header
        .iter()
        .filter(|h| !GUIDELINE_ITEM.iter().any(|f| f.name == h.as_str()))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(vec![tf(
            "The header names columns a guideline does not have: {columns}",
            &[("columns", &unknown.join(", "))],
        )]);
    }
    let mut items = Vec::new();
    let mut problems = Vec::new();
    for (at, (line, cells)) in rows.enumerate() {
        if cells.len() != header.len() {
            problems.push(tf(
                "Row {row} (CSV line {line}): {count} cells, the header has {columns}",
                &[
                    ("row", &(at + 1).to_string()),
                    ("line", &line.to_string()),
                    ("count", &cells.len().to_string()),
                    ("columns", &header.len().to_string()),
                ],
            ));
            continue;
        }
        let item: Map<String, Value> = header
            .iter()
            .zip(cells)
            .filter(|(_, cell)| !cell.trim().is_empty())
            .filter_map(|(name, cell)| {
                let field = GUIDELINE_ITEM.iter().find(|f| f.name == name)?;
                Some((name.clone(), cell_value(&field.ty, cell.trim())))
            })
            .collect();
        items.push(Value::Object(item));
    }
    if problems.is_empty() {
        Ok(items)
    } else {
        Err(problems)
    }
}

/// Every item checked against the import item's schema (unknown keys refused, as production
/// does), and `sequence_no` unique across the whole import.
fn check(items: Vec<Value>) -> Result<Vec<Map<String, Value>>, Vec<String>> {
    if items.is_empty() {
        return Err(vec![tf("Nothing to import: the list is empty.", &[])]);
    }
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut sequences: HashMap<i64, usize> = HashMap::new();
    for (at, item) in items.into_iter().enumerate() {
        let row = (at + 1).to_string();
        let Value::Object(item) = item else {
            problems.push(tf("Row {row}: not an object", &[("row", &row)]));
            continue;
        };
        let mut found = Problems::new();
        let checked = check_object(GUIDELINE_ITEM, Extra::Forbid, &item, &mut found);
        for problem in found.shown() {
            problems.push(tf(
                "Row {row}, {field}: {problem}",
                &[
                    ("row", &row),
                    ("field", &problem.dotted()),
                    ("problem", &problem.msg),
                ],
            ));
        }
        if let Some(sequence) = checked.get("sequence_no").and_then(Value::as_i64) {
            if let Some(first) = sequences.insert(sequence, at + 1) {
                problems.push(tf(
                    "Row {row}, sequence_no: {sequence} is also the sequence of row {first}",
                    &[
                        ("row", &row),
                        ("sequence", &sequence.to_string()),
                        ("first", &first.to_string()),
                    ],
                ));
            }
        }
        out.push(checked.into_iter().filter(|(_, v)| !v.is_null()).collect());
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The calls an import of `count` items takes: consecutive ranges of at most production's limit.
pub fn batches(count: usize) -> Vec<Range<usize>> {
    (0..count)
        .step_by(MAX_GUIDELINE_IMPORT)
        .map(|start| start..(start + MAX_GUIDELINE_IMPORT).min(count))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_in_both_shapes_is_read_and_checked_by_row() {
        let body = r#"{"guidelines": [{"rule_text": "Eat greens", "sequence_no": 1},
            {"rule_text": "Drink water", "action_type": "eat", "food_groups": ["vegetables"]}]}"#;
        let items = parse(body).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0]["sequence_no"], 1);
        let bare = r#"[{"rule_text": "A"}, {"title": "no rule"}, {"rule_text": "C", "colour": "red"},
            {"rule_text": "D", "action_type": "juggle"}]"#;
        let problems = parse(bare).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("Row 2, rule_text: Field required"),
            "{problems:?}"
        );
        assert!(problems[1].starts_with("Row 3, colour:"), "{problems:?}");
        assert!(
            problems[2].starts_with("Row 4, action_type:"),
            "{problems:?}"
        );
        assert!(parse("[]").unwrap_err()[0].contains("empty"));
        assert!(parse("{\"guidelines\": [], \"x\": 1}").unwrap_err()[0].contains("\"x\""));
        assert!(parse("[1").unwrap_err()[0].starts_with("Not valid JSON"));
        let twice = parse(
            r#"[{"rule_text": "A", "sequence_no": 2}, {"rule_text": "B", "sequence_no": 2}]"#,
        );
        assert!(twice.unwrap_err()[0].contains("row 1"));
    }

    #[test]
    fn csv_cells_take_their_field_types() {
        let text = "rule_text,sequence_no,food_groups,quantity\n\
            \"Eat greens, daily\",1,vegetables; fruits,\n\
            Limit salt,2,,\"{\"\"operator\"\": \"\"lte\"\", \"\"value\"\": 5, \"\"unit\"\": \"\"g\"\"}\"\n";
        let items = parse(text).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0]["rule_text"], "Eat greens, daily");
        assert_eq!(items[0]["food_groups"], json!(["vegetables", "fruits"]));
        assert!(!items[0].contains_key("quantity"));
        assert_eq!(items[1]["sequence_no"], 2);
        let problems = parse("rule_text,sequence_no\nA,one\n").unwrap_err();
        assert!(
            problems[0].starts_with("Row 1, sequence_no:"),
            "{problems:?}"
        );
        let problems = parse("rule_text,shoe\nA,1\n").unwrap_err();
        assert!(problems[0].contains("shoe"));
        let problems = parse("rule_text,sequence_no\nA\n").unwrap_err();
        assert!(
            problems[0].starts_with("Row 1 (CSV line 2): 1 cells"),
            "{problems:?}"
        );
        assert!(parse("rule_text\n\"open").unwrap_err()[0].starts_with("CSV line 2"));
    }

    #[test]
    fn imports_split_into_calls_of_at_most_the_limit() {
        assert_eq!(batches(0), Vec::<Range<usize>>::new());
        assert_eq!(batches(3), vec![0..3]);
        assert_eq!(batches(1000), vec![0..1000]);
        assert_eq!(batches(2501), vec![0..1000, 1000..2000, 2000..2501]);
    }
}
