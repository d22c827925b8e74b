//! RFC 4180 CSV, written a line at a time: UTF-8, CRLF line ends, a field quoted when it holds a
//! comma, a quote, CR or LF (quotes doubled), lists joined as "a; b", objects as JSON text.
//!
//! Hand-written rather than taken from the `csv` crate: the writer is twenty lines, and `csv`
//! (with `csv-core` and its serde layer) would add to the wasm module for what `escape` does.
//!
//! Formula guard: a text cell that a spreadsheet would run as a formula (starting with `=`, `+`,
//! `-`, `@`, TAB or CR, and not a number) gets a leading `'`, as OWASP advises for CSV injection.
//! These files are made for opening in spreadsheets, and titles, notes and profile texts are
//! typed by many people (and AI enhancements); a cell that runs on opening is the larger harm. The
//! JSON export is the exact copy: whoever needs the raw text reads that one. Numbers (`-5`,
//! `+3.2`) are not touched.

use serde_json::{Map, Value};

/// The line end RFC 4180 asks for.
pub const CRLF: &str = "\r\n";

/// How a list's items are joined in one cell.
pub const LIST_SEPARATOR: &str = "; ";

/// A value as the text of one cell: strings as they are, numbers and booleans as JSON writes
/// them, `null` empty, lists joined with [`LIST_SEPARATOR`] (objects inside them as JSON), and
/// objects as JSON text.
pub fn cell_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => text.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(LIST_SEPARATOR),
        other => other.to_string(),
    }
}

/// Whether a spreadsheet would read `text` as a formula.
fn looks_like_formula(text: &str) -> bool {
    let starts = text
        .chars()
        .next()
        .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'));
    starts && larder_contract::text::parse_f64(text.trim()).is_none()
}

/// Appends `text` as one field: guarded (see the module), then quoted when RFC 4180 needs it.
pub fn push_field(text: &str, out: &mut String) {
    let guarded;
    let text = if looks_like_formula(text) {
        guarded = format!("'{text}");
        guarded.as_str()
    } else {
        text
    };
    if text.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Appends one line of fields, CRLF included.
pub fn push_line<S: AsRef<str>>(fields: impl IntoIterator<Item = S>, out: &mut String) {
    for (n, field) in fields.into_iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        push_field(field.as_ref(), out);
    }
    out.push_str(CRLF);
}

/// Appends the line of `record` under `columns`; with `rest`, one more cell holds the fields
/// not among the columns as a JSON object (empty when there are none), so nothing is dropped.
pub fn push_record(columns: &[&str], rest: bool, record: &Map<String, Value>, out: &mut String) {
    push_line(record_cells(columns, rest, record), out);
}

/// The cells [`push_record`] writes, for a caller that adds cells of its own.
pub fn record_cells(columns: &[&str], rest: bool, record: &Map<String, Value>) -> Vec<String> {
    let mut cells: Vec<String> = columns
        .iter()
        .map(|name| record.get(*name).map(cell_text).unwrap_or_default())
        .collect();
    if rest {
        let others: Map<String, Value> = record
            .iter()
            .filter(|(name, _)| !columns.contains(&name.as_str()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        cells.push(if others.is_empty() {
            String::new()
        } else {
            Value::Object(others).to_string()
        });
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(fields: &[&str]) -> String {
        let mut out = String::new();
        push_line(fields, &mut out);
        out
    }

    #[test]
    fn plain_fields_are_left_bare_and_lines_end_in_crlf() {
        assert_eq!(line(&["a", "b c", ""]), "a,b c,\r\n");
    }

    #[test]
    fn comma_quote_and_line_breaks_are_quoted_with_quotes_doubled() {
        assert_eq!(
            line(&["Salt, \"low\"", "two\nlines", "cr\rhere", "x"]),
            "\"Salt, \"\"low\"\"\",\"two\nlines\",\"cr\rhere\",x\r\n"
        );
    }

    #[test]
    fn utf8_passes_through_unchanged() {
        assert_eq!(
            line(&["Árvíztűrő", "Σαλάτα", "čaj"]),
            "Árvíztűrő,Σαλάτα,čaj\r\n"
        );
    }

    #[test]
    fn lists_are_joined_readably_and_objects_are_json() {
        assert_eq!(cell_text(&json!(["vegan", "halal"])), "vegan; halal");
        assert_eq!(cell_text(&json!([1, {"a": 2}, null])), "1; {\"a\":2}; ");
        assert_eq!(
            cell_text(&json!({"goal": "less salt"})),
            "{\"goal\":\"less salt\"}"
        );
        assert_eq!(cell_text(&json!(null)), "");
        assert_eq!(cell_text(&json!(true)), "true");
        assert_eq!(cell_text(&json!(-2.5)), "-2.5");
    }

    #[test]
    fn formulas_are_guarded_but_numbers_are_not() {
        assert_eq!(
            line(&["=HYPERLINK(\"x\")"]),
            "\"'=HYPERLINK(\"\"x\"\")\"\r\n"
        );
        assert_eq!(line(&["@SUM(A1)", "+1+2", "-x"]), "'@SUM(A1),'+1+2,'-x\r\n");
        assert_eq!(line(&["-5", "+3.2", "a=b"]), "-5,+3.2,a=b\r\n");
    }

    #[test]
    fn a_record_keeps_unlisted_fields_in_the_last_cell() {
        let record = json!({"title": "Oats, rolled", "tags": ["a", "b"], "extra": {"k": 1}});
        let mut out = String::new();
        push_record(
            &["title", "tags", "missing"],
            true,
            record.as_object().unwrap(),
            &mut out,
        );
        assert_eq!(
            out,
            "\"Oats, rolled\",a; b,,\"{\"\"extra\"\":{\"\"k\"\":1}}\"\r\n"
        );
        let mut bare = String::new();
        push_record(&["title"], false, record.as_object().unwrap(), &mut bare);
        assert_eq!(bare, "\"Oats, rolled\"\r\n");
    }
}
