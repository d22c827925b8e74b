//! Reading a guideline import from JSON (`{"guidelines": [...]}` or a bare list) or CSV (a
//! header of field names, one guideline per row), checking every item against the contract's
//! import item (production.md §5.1) before anything is sent, and splitting it into calls of at
//! most production's limit. Reading is bounded: the text in bytes, the JSON in values, the CSV
//! in rows, fields and bytes per field, and the guidelines in number. Pure, tested natively.

use std::collections::HashMap;
use std::ops::Range;

use larder_contract::collections::{GUIDELINE_IMPORT, GUIDELINE_ITEM};
use larder_contract::limits::{MAX_GUIDELINE_IMPORT, MAX_GUIDELINE_IMPORT_BYTES};
use larder_contract::validate::{check_object, Extra, Problems};
use larder_contract::{Field, Type};
use serde_json::{Map, Number, Value};

use super::{bounded_json, csv, import_size};
use crate::i18n::tf;

/// The most problems listed; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// Bytes of a file (or pasted text) one import reads: the whole megabytes of what the reference
/// service takes in one call (8 MiB: 8 MB), which 1000 guidelines fit.
pub const MAX_FILE_BYTES: usize = import_size::whole_megabytes(MAX_GUIDELINE_IMPORT_BYTES);

/// Guidelines one import takes (sent in calls of [`MAX_GUIDELINE_IMPORT`]): a guide has tens to
/// hundreds; ten calls' worth is room to spare.
pub const MAX_GUIDELINES: usize = 10 * MAX_GUIDELINE_IMPORT;

/// Values of a JSON import: a guideline with lists and a quantity has some thirty, so
/// [`MAX_GUIDELINES`] of them fit; a file of tiny values (`[0,0,…]`) stops here, at about
/// 32 MiB of `Value`s, rather than at one per two bytes.
const MAX_JSON_VALUES: usize = 1_000_000;

/// Bytes of one CSV cell as written: `rule_text` and `notes` are at most 15,000 characters (up
/// to 60,000 bytes of UTF-8), and a JSON cell (`source_refs`) doubles its quotes.
const MAX_CELL_BYTES: usize = 64 << 10;

/// The items of the text, checked: every problem is named by row (1-based, the header of a
/// CSV not counted) and field.
pub fn parse(text: &str) -> Result<Vec<Map<String, Value>>, Vec<String>> {
    if let Some(refusal) = import_size::text_refusal(text, MAX_FILE_BYTES) {
        return Err(vec![refusal]);
    }
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
    if items.len() > MAX_GUIDELINES {
        return Err(vec![too_many()]);
    }
    check(items)
}

fn too_many() -> String {
    tf(
        "More than {max} guidelines: import them in several files.",
        &[("max", &MAX_GUIDELINES.to_string())],
    )
}

fn from_json(text: &str) -> Result<Vec<Value>, Vec<String>> {
    let value = bounded_json::parse(text, MAX_JSON_VALUES).map_err(|e| vec![e.message()])?;
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

/// The rows of a CSV import, read one at a time into items: the header names each of its
/// columns once, so no row may have more cells than a guideline has fields.
fn from_csv(text: &str) -> Result<Vec<Value>, Vec<String>> {
    let csv_problem = |e: csv::CsvError| {
        vec![tf(
            "CSV line {line}: {problem}",
            &[("line", &e.line.to_string()), ("problem", &e.message())],
        )]
    };
    let limits = csv::Limits {
        fields: GUIDELINE_ITEM.len(),
        field_bytes: MAX_CELL_BYTES,
        // The header and the rows that may be imported.
        records: MAX_GUIDELINES + 1,
    };
    let mut rows = csv::records(text, limits);
    let header = match rows.next() {
        None => return Ok(Vec::new()),
        Some(header) => header.map_err(csv_problem)?,
    };
    let mut columns: Vec<&'static Field> = Vec::new();
    let mut unknown = Vec::new();
    for name in header.fields.iter().map(|h| h.trim()) {
        match GUIDELINE_ITEM.iter().find(|f| f.name == name) {
            Some(field) if columns.iter().any(|c| c.name == name) => {
                return Err(vec![tf(
                    "The header names the column {column} twice.",
                    &[("column", field.name)],
                )])
            }
            Some(field) => columns.push(field),
            None => unknown.push(name.to_string()),
        }
    }
    if !unknown.is_empty() {
        return Err(vec![tf(
            "The header names columns a guideline does not have: {columns}",
            &[("columns", &unknown.join(", "))],
        )]);
    }
    let mut items = Vec::new();
    let mut problems = Vec::new();
    for (at, row) in rows.enumerate() {
        let row = match row {
            Ok(row) => row,
            Err(e) if matches!(e.problem, csv::Problem::TooManyRecords(_)) => {
                return Err(vec![too_many()])
            }
            Err(e) => return Err(csv_problem(e)),
        };
        if row.fields.len() != columns.len() {
            problems.push(tf(
                "Row {row} (CSV line {line}): {count} cells, the header has {columns}",
                &[
                    ("row", &(at + 1).to_string()),
                    ("line", &row.line.to_string()),
                    ("count", &row.fields.len().to_string()),
                    ("columns", &columns.len().to_string()),
                ],
            ));
            continue;
        }
        let item: Map<String, Value> = columns
            .iter()
            .zip(&row.fields)
            .filter(|(_, cell)| !cell.trim().is_empty())
            .map(|(field, cell)| (field.name.to_string(), cell_value(&field.ty, cell.trim())))
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
    fn csv_rows_cells_and_bytes_are_bounded_with_their_line() {
        let commas = ",".repeat(MAX_FILE_BYTES);
        assert_eq!(
            parse(&commas).unwrap_err(),
            [format!(
                "CSV line 1: More than {} fields.",
                GUIDELINE_ITEM.len()
            )]
        );
        let long = format!("rule_text\nfine\n\"{}\"\n", "x".repeat(MAX_CELL_BYTES));
        assert_eq!(
            parse(&long).unwrap_err(),
            [format!(
                "CSV line 3: A field longer than {MAX_CELL_BYTES} bytes."
            )]
        );
        let rows = |n: usize| format!("rule_text\n{}", "x\n".repeat(n));
        assert_eq!(parse(&rows(MAX_GUIDELINES)).unwrap().len(), MAX_GUIDELINES);
        assert_eq!(parse(&rows(MAX_GUIDELINES + 1)).unwrap_err(), [too_many()]);
        assert!(parse("rule_text,title,rule_text\nA,B,C").unwrap_err()[0].contains("twice"));
    }

    #[test]
    fn json_is_bounded_in_values_and_guidelines() {
        let zeros = format!("[{}0]", "0,".repeat(2 * MAX_JSON_VALUES));
        assert!(parse(&zeros).unwrap_err()[0].starts_with("More than 1000000 values"));
        let items = format!(
            "[{}]",
            vec![r#"{"rule_text": "x"}"#; MAX_GUIDELINES + 1].join(",")
        );
        assert_eq!(parse(&items).unwrap_err(), [too_many()]);
    }

    #[test]
    fn a_text_over_the_file_limit_is_not_parsed() {
        let text = format!("rule_text\n{}", "x".repeat(MAX_FILE_BYTES));
        assert!(parse(&text).unwrap_err()[0].starts_with("The text is 8.00001 megabyte"));
    }

    #[test]
    fn imports_split_into_calls_of_at_most_the_limit() {
        assert_eq!(batches(0), Vec::<Range<usize>>::new());
        assert_eq!(batches(3), vec![0..3]);
        assert_eq!(batches(1000), vec![0..1000]);
        assert_eq!(batches(2501), vec![0..1000, 1000..2000, 2000..2501]);
    }
}
