//! Field values as editors hold them (text) and as the service holds them (JSON), both ways.

use serde_json::Value;

use super::FieldKind;

/// The editor a value actually gets. A value the declared kind cannot hold without loss (a list
/// with objects in it, a date that is not `YYYY-MM-DD`, a number in a text field) is edited as
/// JSON or text instead, so an edit never silently rewrites what the service sent.
pub fn effective_kind(kind: FieldKind, value: Option<&Value>) -> FieldKind {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return kind;
    };
    let fits = match kind {
        FieldKind::Text | FieldKind::LongText | FieldKind::Enum(_) => value.is_string(),
        FieldKind::Date => value.as_str().is_some_and(is_date),
        FieldKind::Integer => value.is_i64() || value.is_u64(),
        FieldKind::Decimal => value.is_number(),
        FieldKind::YesNo => value.is_boolean(),
        FieldKind::Strings | FieldKind::StringsOf(_) => value.as_array().is_some_and(|items| {
            items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| !s.contains('\n')))
        }),
        FieldKind::Json => true,
    };
    match (fits, kind, value) {
        (true, _, _) => kind,
        (false, FieldKind::Date, Value::String(_)) => FieldKind::Text,
        (false, FieldKind::Text, Value::String(_)) => FieldKind::LongText,
        _ => FieldKind::Json,
    }
}

/// `YYYY-MM-DD` with a plausible month and day.
pub fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| text[range].parse::<u32>().ok();
    match (digits(0..4), digits(5..7), digits(8..10)) {
        (Some(_), Some(month), Some(day)) => (1..=12).contains(&month) && (1..=31).contains(&day),
        _ => false,
    }
}

/// The editor's text for a value: strings as they are, lists one item per line, JSON pretty.
pub fn to_input(kind: FieldKind, value: Option<&Value>) -> String {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return String::new();
    };
    match (kind, value) {
        (FieldKind::Json, value) => pretty(value),
        (_, Value::String(s)) => s.clone(),
        (FieldKind::Strings | FieldKind::StringsOf(_), Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| i.to_string())
            })
            .collect::<Vec<_>>()
            .join("\n"),
        (_, other) => other.to_string(),
    }
}

/// Pretty JSON.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// The list items of a list editor's text (one per line, blanks dropped).
pub fn items(raw: &str) -> Vec<String> {
    raw.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads an editor's text as the field's JSON value; empty text is `null` (no value).
/// The error says what to type instead.
pub fn parse(kind: FieldKind, raw: &str) -> Result<Value, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() && !matches!(kind, FieldKind::Strings | FieldKind::StringsOf(_)) {
        return Ok(Value::Null);
    }
    match kind {
        FieldKind::Text | FieldKind::Enum(_) => Ok(Value::String(trimmed.to_string())),
        // Long text keeps its inner layout; only the ends are trimmed.
        FieldKind::LongText => Ok(Value::String(trimmed.to_string())),
        FieldKind::Integer => trimmed
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| "Enter a whole number, such as 2024.".to_string()),
        FieldKind::Decimal => match larder_contract::text::parse_f64(trimmed) {
            Some(n) if n.is_finite() => Ok(Value::from(n)),
            _ => Err("Enter a number, such as 92.5.".to_string()),
        },
        FieldKind::YesNo => match trimmed {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("Choose yes or no.".to_string()),
        },
        FieldKind::Date if is_date(trimmed) => Ok(Value::String(trimmed.to_string())),
        FieldKind::Date => Err("Enter a date as YYYY-MM-DD.".to_string()),
        FieldKind::Strings | FieldKind::StringsOf(_) => Ok(Value::Array(
            items(raw).into_iter().map(Value::String).collect(),
        )),
        FieldKind::Json => {
            serde_json::from_str(trimmed).map_err(|e| format!("Not valid JSON: {e}."))
        }
    }
}

/// A value as one line of text for lists and chips-less places.
pub fn display(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(true) => "Yes".into(),
        Value::Bool(false) => "No".into(),
        Value::Array(items) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use FieldKind::*;

    #[test]
    fn numbers_are_validated() {
        assert_eq!(parse(Integer, " 2024 "), Ok(json!(2024)));
        assert!(parse(Integer, "20.5").is_err());
        assert!(parse(Integer, "twenty").is_err());
        assert_eq!(parse(Decimal, "92.5"), Ok(json!(92.5)));
        assert!(parse(Decimal, "NaN").is_err());
        assert!(parse(Decimal, "1e999").is_err());
        assert_eq!(parse(Integer, "  "), Ok(Value::Null));
    }

    #[test]
    fn other_kinds_parse() {
        assert_eq!(parse(YesNo, "true"), Ok(json!(true)));
        assert!(parse(YesNo, "maybe").is_err());
        assert_eq!(parse(Strings, "a\n\n b \n"), Ok(json!(["a", "b"])));
        assert_eq!(parse(Strings, ""), Ok(json!([])));
        assert_eq!(parse(Date, "2024-02-29"), Ok(json!("2024-02-29")));
        assert!(parse(Date, "2024-13-01").is_err());
        assert!(parse(Date, "29/02/2024").is_err());
        assert_eq!(parse(Json, "{\"a\": [1]}"), Ok(json!({"a": [1]})));
        assert!(parse(Json, "{a: 1}")
            .unwrap_err()
            .starts_with("Not valid JSON"));
        assert_eq!(parse(Text, "  x  "), Ok(json!("x")));
        assert_eq!(parse(Enum(&["a"]), ""), Ok(Value::Null));
    }

    #[test]
    fn values_round_trip_through_their_editor() {
        for (kind, value) in [
            (Text, json!("hello")),
            (Integer, json!(12)),
            (Decimal, json!(2.5)),
            (YesNo, json!(false)),
            (Strings, json!(["a", "b c"])),
            (Date, json!("2021-05-01")),
            (Json, json!({"k": [1, {"x": null}]})),
        ] {
            let kind = effective_kind(kind, Some(&value));
            assert_eq!(
                parse(kind, &to_input(kind, Some(&value))),
                Ok(value.clone()),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn values_that_do_not_fit_get_a_lossless_editor() {
        assert_eq!(effective_kind(Strings, Some(&json!(["a", {"b": 1}]))), Json);
        assert_eq!(effective_kind(Strings, Some(&json!(["two\nlines"]))), Json);
        assert_eq!(effective_kind(Date, Some(&json!("2024"))), Text);
        assert_eq!(effective_kind(Integer, Some(&json!("1999"))), Json);
        assert_eq!(
            effective_kind(Enum(&["daily"]), Some(&json!({"times": 2}))),
            Json
        );
        assert_eq!(effective_kind(Text, Some(&json!(3))), Json);
        assert_eq!(effective_kind(Date, None), Date);
        assert_eq!(effective_kind(Integer, Some(&Value::Null)), Integer);
    }

    #[test]
    fn display_is_plain_text() {
        assert_eq!(display(&json!(["a", "b"])), "a, b");
        assert_eq!(display(&json!(true)), "Yes");
        assert_eq!(display(&json!(null)), "");
        assert_eq!(display(&json!({"a": 1})), "{\"a\":1}");
    }
}
