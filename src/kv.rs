//! Key/value pairs with typed values, as the console edits household metadata and nutritional
//! preferences: rows a person can type into, turned into a JSON object and back without loss.

use crate::i18n::{k, t, tf};
use serde_json::{Map, Number, Value};

/// The type of a value, chosen per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A string.
    Text,
    /// An integer or decimal.
    Number,
    /// true or false.
    YesNo,
    /// A list of strings, typed comma-separated.
    List,
    /// Anything else (objects, nulls, mixed lists), edited as JSON so nothing is lost.
    Json,
}

impl ValueKind {
    /// Every kind with its label, for the select.
    pub const ALL: [(ValueKind, &'static str); 5] = [
        (ValueKind::Text, k("Text")),
        (ValueKind::Number, k("Number")),
        (ValueKind::YesNo, k("Yes/no")),
        (ValueKind::List, k("List")),
        (ValueKind::Json, k("JSON")),
    ];

    /// The kind of a label's value attribute.
    pub fn from_name(name: &str) -> ValueKind {
        match name {
            "number" => ValueKind::Number,
            "yesno" => ValueKind::YesNo,
            "list" => ValueKind::List,
            "json" => ValueKind::Json,
            _ => ValueKind::Text,
        }
    }

    /// The value attribute of the kind.
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Text => "text",
            ValueKind::Number => "number",
            ValueKind::YesNo => "yesno",
            ValueKind::List => "list",
            ValueKind::Json => "json",
        }
    }
}

/// One row as typed: the value is kept as text until it is read.
#[derive(Clone, Debug, PartialEq)]
pub struct KvRow {
    /// The key.
    pub key: String,
    /// The chosen type.
    pub kind: ValueKind,
    /// The value as typed ("true"/"false" for yes/no).
    pub text: String,
    /// The key as stored, for a row read from the service: kept byte for byte (spaces, even an
    /// empty key) while the typed key differs from it only by spaces at its ends.
    pub stored_key: Option<String>,
}

impl KvRow {
    /// An empty text row.
    pub fn empty() -> KvRow {
        KvRow {
            key: String::new(),
            kind: ValueKind::Text,
            text: String::new(),
            stored_key: None,
        }
    }

    /// Reads the typed text as a JSON value of the row's kind.
    pub fn value(&self) -> Result<Value, String> {
        let text = self.text.trim();
        match self.kind {
            ValueKind::Text => Ok(Value::String(self.text.clone())),
            ValueKind::Number => {
                if let Ok(integer) = text.parse::<i64>() {
                    return Ok(Value::from(integer));
                }
                // Above i64 but within u64, as serde_json holds it: not rounded to a float.
                if let Ok(integer) = text.parse::<u64>() {
                    return Ok(Value::from(integer));
                }
                larder_contract::text::parse_f64(text)
                    .and_then(Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(|| {
                        tf(
                            "{value} is not a number",
                            &[("value", &format!("{text:?}"))],
                        )
                    })
            }
            ValueKind::YesNo => Ok(Value::Bool(text == "true")),
            ValueKind::List => Ok(Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| Value::String(s.to_string()))
                    .collect(),
            )),
            ValueKind::Json => serde_json::from_str(text)
                .map_err(|e| tf("not valid JSON: {problem}", &[("problem", &e.to_string())])),
        }
    }
}

/// Whether a list is edited as comma-separated text without loss: strings only, none empty, none
/// with a comma or spaces at its ends (a split on commas trims each item and drops empties).
fn is_plain_list(items: &[Value]) -> bool {
    items.iter().all(|item| {
        item.as_str()
            .is_some_and(|s| !s.is_empty() && !s.contains(',') && s.trim() == s)
    })
}

/// The rows of an object, each with the kind its value has (a list that commas would not give
/// back as it is, as JSON).
pub fn rows_from_map(map: &Map<String, Value>) -> Vec<KvRow> {
    map.iter()
        .map(|(key, value)| {
            let (kind, text) = match value {
                Value::String(s) => (ValueKind::Text, s.clone()),
                Value::Number(n) => (ValueKind::Number, n.to_string()),
                Value::Bool(b) => (ValueKind::YesNo, b.to_string()),
                Value::Array(items) if is_plain_list(items) => (
                    ValueKind::List,
                    items
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                other => (
                    ValueKind::Json,
                    serde_json::to_string(other).unwrap_or_default(),
                ),
            };
            KvRow {
                key: key.clone(),
                kind,
                text,
                stored_key: Some(key.clone()),
            }
        })
        .collect()
}

/// The object the rows describe, or each faulty row's index and problem. New rows with neither
/// key nor value are ignored (a blank row left at the end is not an error); a stored row keeps
/// its key, even an empty one, until it is removed.
pub fn map_from_rows(rows: &[KvRow]) -> Result<Map<String, Value>, Vec<(usize, String)>> {
    let mut map = Map::new();
    let mut problems = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let stored = row
            .stored_key
            .as_deref()
            .filter(|stored| stored.trim() == row.key.trim());
        let key = stored.unwrap_or(row.key.trim());
        if stored.is_none() && key.is_empty() {
            if !row.text.trim().is_empty() {
                problems.push((index, t("the key is empty")));
            }
            continue;
        }
        if map.contains_key(key) {
            problems.push((
                index,
                tf(
                    "the key {key} appears twice",
                    &[("key", &format!("{key:?}"))],
                ),
            ));
            continue;
        }
        match row.value() {
            Ok(value) => {
                map.insert(key.to_string(), value);
            }
            Err(problem) => problems.push((index, problem)),
        }
    }
    if problems.is_empty() {
        Ok(map)
    } else {
        Err(problems)
    }
}

/// Reads the raw-JSON mode's text: it must be an object.
pub fn map_from_json(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(t("the JSON must be an object of keys and values")),
        Err(e) => Err(tf(
            "not valid JSON: {problem}",
            &[("problem", &e.to_string())],
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(key: &str, kind: ValueKind, text: &str) -> KvRow {
        KvRow {
            key: key.into(),
            kind,
            text: text.into(),
            stored_key: None,
        }
    }

    #[test]
    fn typed_rows_become_typed_values() {
        let rows = [
            row("kcal", ValueKind::Number, "2000"),
            row("protein_g", ValueKind::Number, " 55.5 "),
            row("note", ValueKind::Text, " keep spaces "),
            row("spicy", ValueKind::YesNo, "true"),
            row("avoid", ValueKind::List, "okra, liver,, "),
            row("meals", ValueKind::Json, r#"{"breakfast": true}"#),
            row("", ValueKind::Text, ""),
        ];
        assert_eq!(
            Value::Object(map_from_rows(&rows).unwrap()),
            json!({"kcal": 2000, "protein_g": 55.5, "note": " keep spaces ", "spicy": true, "avoid": ["okra", "liver"], "meals": {"breakfast": true}})
        );
    }

    #[test]
    fn problems_name_their_rows() {
        let rows = [
            row("a", ValueKind::Number, "12abc"),
            row("", ValueKind::Text, "x"),
            row("b", ValueKind::Text, "1"),
            row("b", ValueKind::Text, "2"),
            row("c", ValueKind::Json, "{"),
        ];
        let problems = map_from_rows(&rows).unwrap_err();
        let indexes: Vec<_> = problems.iter().map(|p| p.0).collect();
        assert_eq!(indexes, [0, 1, 3, 4]);
        assert!(problems[0].1.contains("not a number"));
        assert!(problems[2].1.contains("twice"));
    }

    #[test]
    fn objects_survive_a_round_trip() {
        let original = json!({"n": 1.25, "t": "x", "b": false, "l": ["a", "b"], "nested": {"k": [1, null]}, "commas": ["a,b"], "none": null});
        let rows = rows_from_map(original.as_object().unwrap());
        assert_eq!(
            rows.iter().find(|r| r.key == "commas").unwrap().kind,
            ValueKind::Json
        );
        assert_eq!(Value::Object(map_from_rows(&rows).unwrap()), original);
    }

    #[test]
    fn what_the_service_stored_survives_a_round_trip_byte_for_byte() {
        // Keys with spaces, an empty key, lists commas would not give back, a u64.
        let original = json!({" note": 1, "": "", "spaced": [" a", ""], "empty": [], "plain": ["a", "b"], "big": 12345678901234567890u64});
        let rows = rows_from_map(original.as_object().unwrap());
        let kind = |key: &str| rows.iter().find(|r| r.key == key).unwrap().kind;
        assert_eq!(
            (kind("spaced"), kind("plain")),
            (ValueKind::Json, ValueKind::List)
        );
        assert_eq!(Value::Object(map_from_rows(&rows).unwrap()), original);
        // A stored key retyped with spaces around it is the same key; a changed one is trimmed.
        let mut edited = rows.clone();
        edited.iter_mut().find(|r| r.key == " note").unwrap().key = "note ".into();
        edited.iter_mut().find(|r| r.key == "plain").unwrap().key = " plainer ".into();
        let map = map_from_rows(&edited).unwrap();
        assert!(
            map.contains_key(" note") && map.contains_key("plainer") && !map.contains_key("plain")
        );
        // A new row still needs a key.
        let mut added = rows.clone();
        added.push(row(" ", ValueKind::Text, "x"));
        assert!(map_from_rows(&added).unwrap_err()[0]
            .1
            .contains("key is empty"));
    }

    #[test]
    fn raw_json_must_be_an_object() {
        assert_eq!(map_from_json(r#"{"a": 1}"#).unwrap().len(), 1);
        assert!(map_from_json("[1]")
            .unwrap_err()
            .contains("must be an object"));
        assert!(map_from_json("{").unwrap_err().contains("not valid JSON"));
    }
}
