//! Checks of the non-string scalars: enumerations, integers, numbers, booleans, years and bare
//! objects, with pydantic's coercions (a digit string is an integer, `"yes"` is true).

use serde_json::{json, Value};

use super::formats::is_datetime;
use super::problems::{fail, fail_ctx, Problems};

/// `'a', 'b' or 'c'`, as pydantic lists an enumeration's values.
fn expected_text(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// An integer, from a whole number or a digit string.
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// `Type::Enum`: exactly one of `values`.
pub(super) fn check_enum(value: &Value, values: &[&str], problems: &mut Problems) -> Option<Value> {
    match value.as_str() {
        Some(s) if values.contains(&s) => Some(json!(s)),
        _ => {
            let expected = expected_text(values);
            fail_ctx(
                problems,
                "enum",
                format!("Input should be {expected}"),
                value,
                json!({ "expected": expected }),
            )
        }
    }
}

/// `Type::EnumFolded`: one of `values` after trimming and lower-casing.
pub(super) fn check_enum_folded(
    value: &Value,
    values: &[&str],
    problems: &mut Problems,
) -> Option<Value> {
    let folded = value.as_str().map(|s| crate::text::lowercase(s.trim()));
    match folded {
        Some(s) if values.contains(&s.as_str()) => Some(json!(s)),
        _ => {
            let expected = expected_text(values);
            fail_ctx(
                problems,
                "enum",
                format!("Input should be {expected}"),
                value,
                json!({ "expected": expected }),
            )
        }
    }
}

/// `Type::Int`: an integer within the bounds.
pub(super) fn check_int(
    value: &Value,
    min: Option<i64>,
    max: Option<i64>,
    problems: &mut Problems,
) -> Option<Value> {
    let Some(n) = integer(value) else {
        let (kind, msg) = if value.is_string() {
            (
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer",
            )
        } else {
            ("int_type", "Input should be a valid integer")
        };
        return fail(problems, kind, msg.into(), value);
    };
    if let Some(min) = min.filter(|min| n < *min) {
        return fail_ctx(
            problems,
            "greater_than_equal",
            format!("Input should be greater than or equal to {min}"),
            value,
            json!({ "ge": min }),
        );
    }
    if let Some(max) = max.filter(|max| n > *max) {
        return fail_ctx(
            problems,
            "less_than_equal",
            format!("Input should be less than or equal to {max}"),
            value,
            json!({ "le": max }),
        );
    }
    Some(json!(n))
}

/// `Type::Float`: a finite number within the bounds.
pub(super) fn check_float(
    value: &Value,
    min: Option<f64>,
    max: Option<f64>,
    problems: &mut Problems,
) -> Option<Value> {
    let n = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => crate::text::parse_f64(s.trim()).filter(|f| f.is_finite()),
        _ => None,
    };
    let Some(n) = n else {
        return fail(
            problems,
            "float_type",
            "Input should be a valid number".into(),
            value,
        );
    };
    if let Some(min) = min.filter(|min| n < *min) {
        return fail_ctx(
            problems,
            "greater_than_equal",
            format!("Input should be greater than or equal to {min}"),
            value,
            json!({ "ge": min }),
        );
    }
    if let Some(max) = max.filter(|max| n > *max) {
        return fail_ctx(
            problems,
            "less_than_equal",
            format!("Input should be less than or equal to {max}"),
            value,
            json!({ "le": max }),
        );
    }
    Some(value.as_number().map(|_| value.clone()).unwrap_or(json!(n)))
}

/// `Type::Bool`: a boolean, 0 or 1, or one of pydantic's words.
pub(super) fn check_bool(value: &Value, problems: &mut Problems) -> Option<Value> {
    match value {
        Value::Bool(b) => Some(json!(b)),
        Value::Number(n) if n.as_i64() == Some(0) || n.as_i64() == Some(1) => {
            Some(json!(n.as_i64() == Some(1)))
        }
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" | "t" | "y" => Some(json!(true)),
            "false" | "0" | "no" | "off" | "f" | "n" => Some(json!(false)),
            _ => fail(
                problems,
                "bool_parsing",
                "Input should be a valid boolean, unable to interpret input".into(),
                value,
            ),
        },
        _ => fail(
            problems,
            "bool_type",
            "Input should be a valid boolean".into(),
            value,
        ),
    }
}

/// `Type::YearDate`: an article's year, stored as `YYYY-MM-DD`.
pub(super) fn check_year_date(value: &Value, problems: &mut Problems) -> Option<Value> {
    let date = match value {
        Value::Number(_) => integer(value)
            .filter(|y| (1..=9999).contains(y))
            .map(|y| format!("{y:04}-01-01")),
        Value::String(s) => {
            let s = s.trim();
            if s.len() == 4 && s.chars().all(|c| c.is_ascii_digit()) {
                Some(format!("{s}-01-01"))
            } else if is_datetime(s) {
                Some(s[..10].to_string())
            } else {
                None
            }
        }
        _ => None,
    };
    match date {
        Some(date) => Some(json!(date)),
        None => fail(
            problems,
            "value_error",
            "Value error, publication_year must be a year, a digit string or an ISO date".into(),
            value,
        ),
    }
}

/// `Type::Year`: an integer or a digit string; a blank string is null.
pub(super) fn check_year(value: &Value, problems: &mut Problems) -> Option<Value> {
    match value {
        Value::String(s) if s.trim().is_empty() => Some(Value::Null),
        _ => match integer(value) {
            Some(n) => Some(json!(n)),
            None => fail(
                problems,
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer".into(),
                value,
            ),
        },
    }
}

/// `Type::Object`: any JSON object, as it is.
pub(super) fn check_any_object(value: &Value, problems: &mut Problems) -> Option<Value> {
    match value {
        Value::Object(_) => Some(value.clone()),
        _ => fail(
            problems,
            "dict_type",
            "Input should be a valid dictionary".into(),
            value,
        ),
    }
}
