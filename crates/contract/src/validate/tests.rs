//! The checker's behaviour on small schemas: pydantic's problem shapes, normalised values,
//! nulls, the cap on problems, trees, and the format predicates.

use serde_json::{json, Map, Value};

use super::*;
use crate::types::{list, Field, LICENSES, S2K};

fn run(fields: &[Field], body: Value) -> (Map<String, Value>, Value) {
    let mut problems = Problems::new();
    let out = check_object(
        fields,
        Extra::Forbid,
        body.as_object().unwrap(),
        &mut problems,
    );
    (out, problems.to_json("body"))
}

const FIELDS: &[Field] = &[
    Field::req("title", S2K),
    Field::opt("year", Type::YearDate),
    Field::opt("url", Type::Url),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("tags", list(&S2K, 0, Some(2))),
    Field::opt(
        "count",
        Type::Int {
            min: Some(0),
            max: None,
        },
    ),
    Field::opt(
        "score",
        Type::Float {
            min: Some(0.0),
            max: Some(1.0),
        },
    ),
];

#[test]
fn pydantic_shaped_problems() {
    let (_, errors) = run(
        FIELDS,
        json!({"status": "active", "year": "soon", "url": "ftp://x", "license": "WTFPL",
               "tags": ["a", "b", "c"], "count": -1, "score": 2}),
    );
    let kinds: Vec<(&str, String)> = errors
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap(),
                e["loc"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("extra_forbidden", r#""body","status""#.into())),
        "{kinds:?}"
    );
    assert!(kinds.contains(&("missing", r#""body","title""#.into())));
    assert!(kinds.contains(&("url_scheme", r#""body","url""#.into())));
    assert!(kinds.contains(&("enum", r#""body","license""#.into())));
    assert!(kinds.contains(&("too_long", r#""body","tags""#.into())));
    assert!(kinds.contains(&("greater_than_equal", r#""body","count""#.into())));
    assert!(kinds.contains(&("less_than_equal", r#""body","score""#.into())));
    assert!(kinds.contains(&("value_error", r#""body","year""#.into())));
    let missing = errors
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "missing")
        .unwrap();
    assert_eq!(missing["msg"], "Field required");
}

#[test]
fn values_are_normalised() {
    let (out, errors) = run(
        FIELDS,
        json!({"title": "  Lentils  ", "year": 2019, "url": "https://Example.org", "count": "4"}),
    );
    assert_eq!(errors, json!([]));
    assert_eq!(out["title"], "Lentils");
    assert_eq!(out["year"], "2019-01-01");
    assert_eq!(out["url"], "https://example.org/");
    assert_eq!(out["count"], 4);
}

#[test]
fn the_systemic_services_strings_keep_their_spaces_and_count_them() {
    use crate::households::{HOUSEHOLD_CREATE, PROFILE_CREATE};
    let systemic = |fields: &[Field], body: Value| {
        let mut problems = Problems::new();
        let out = check_object(
            fields,
            Extra::Ignore,
            body.as_object().unwrap(),
            &mut problems,
        );
        (out, problems.to_json("body"))
    };
    // Kept as sent, and counted with its spaces: 255 letters and a space is 256.
    let (out, errors) = systemic(
        HOUSEHOLD_CREATE,
        json!({"name": "  Oak  ", "region": " EU "}),
    );
    assert_eq!(errors, json!([]));
    assert_eq!(
        (out["name"].as_str(), out["region"].as_str()),
        (Some("  Oak  "), Some(" EU "))
    );
    let long = format!("{} ", "a".repeat(255));
    let (_, errors) = systemic(HOUSEHOLD_CREATE, json!({ "name": long }));
    assert_eq!(errors[0]["type"], "string_too_long");
    // Spaces alone are a name of three characters there (a data-service title of spaces is empty).
    let (out, errors) = systemic(HOUSEHOLD_CREATE, json!({"name": "   "}));
    assert_eq!((errors, out["name"].clone()), (json!([]), json!("   ")));
    let (_, errors) = run(FIELDS, json!({"title": "   "}));
    assert_eq!(errors[0]["type"], "string_too_short");
    let (out, _) = systemic(PROFILE_CREATE, json!({"allergies": [" peanuts "]}));
    assert_eq!(out["allergies"], json!([" peanuts "]));
}

#[test]
fn optional_fields_take_null_and_required_ones_do_not() {
    let (_, errors) = run(FIELDS, json!({"title": "T", "count": null}));
    assert_eq!(errors, json!([]));
    let (_, errors) = run(FIELDS, json!({"title": null}));
    assert_eq!(errors[0]["type"], "string_type");
    let (_, errors) = run(FIELDS, json!({"title": " "}));
    assert_eq!(errors[0]["type"], "string_too_short");
}

#[test]
fn problems_are_capped_and_counted() {
    let body: Map<String, Value> = (0..500).map(|i| (format!("k{i}"), json!(i))).collect();
    let mut problems = Problems::new();
    check_object(FIELDS, Extra::Forbid, &body, &mut problems);
    assert_eq!(
        problems.total(),
        501,
        "500 unknown keys and the missing title"
    );
    assert_eq!(problems.shown().len(), MAX_SHOWN);
    assert_eq!(problems.omitted(), 451);
}

#[test]
fn trees_are_checked_and_completed() {
    let tree = json!({"roots": [{"id": "c1", "title": "One", "page_start": 1, "children": [
        {"id": "s1", "title": "1.1", "kind": "section", "page_start": 2, "page_end": 3}]}]});
    let mut problems = Problems::new();
    let out = check_value(&Type::Tree, &tree, &mut problems).unwrap();
    assert!(problems.is_empty());
    assert_eq!(out["roots"][0]["kind"], "other");
    assert_eq!(out["roots"][0]["page_end"], 1);
    let bad = json!({"roots": [{"id": "c1", "title": "One", "page_start": 4, "page_end": 2, "x": 1},
                               {"id": "c1", "title": "Two", "kind": "volume", "page_start": 0}]});
    let mut problems = Problems::new();
    assert!(check_value(&Type::Tree, &bad, &mut problems).is_none());
    let kinds: Vec<&str> = problems.shown().iter().map(|p| p.kind).collect();
    assert!(kinds.contains(&"extra_forbidden"), "{kinds:?}");
    assert!(kinds.contains(&"enum"), "{kinds:?}");
    assert!(kinds.contains(&"greater_than_equal"), "{kinds:?}");
    let mut deep = json!([]);
    for level in 0..40 {
        deep =
            json!([{"id": format!("n{level}"), "title": "x", "page_start": 1, "children": deep}]);
    }
    let mut problems = Problems::new();
    assert!(check_value(&Type::Tree, &json!({"roots": deep}), &mut problems).is_none());
}

#[test]
fn helpers() {
    assert!(is_datetime("2020-02-29T10:00:00Z"));
    assert!(is_datetime("2020-02-29"));
    assert!(is_datetime("2020-02-29T10:00:00.123+02:00"));
    assert!(!is_datetime("2019-02-29"));
    assert!(!is_datetime("2020-02-29T25:00"));
    assert_eq!(normalise_file_type("application/pdf"), "pdf");
    assert_eq!(normalise_file_type(".PDF"), "pdf");
    assert_eq!(normalise_file_type("text/plain"), "txt");
    assert!(is_valid_urn("urn:guide:eat-well"));
    assert!(!is_valid_urn("urn:Guide:x"));
    assert!(is_canonical_uuid("0b6f0c2e-1111-4222-8333-444455556666"));
    assert!(!is_canonical_uuid("0B6F0C2E-1111-4222-8333-444455556666"));
    assert_eq!(
        parse_uuid("0B6F0C2E111142228333444455556666").as_deref(),
        Some("0b6f0c2e-1111-4222-8333-444455556666")
    );
}

#[test]
fn datetime_offsets_are_hours_and_minutes_in_digits() {
    for good in [
        "2020-02-29T10:00:00+02:00",
        "2020-02-29T10:00:00-0530",
        "2020-02-29T10:00+23",
        "2020-02-29T10:00:00.5-23:59",
        "2020-02-29 10:00:00z",
    ] {
        assert!(is_datetime(good), "{good}");
    }
    for bad in [
        "2020-02-29T10:00:00+ab:cd",
        "2020-02-29T10:00:00+abcd",
        "2020-02-29T10:00:00-ab",
        "2020-02-29T10:00:00+24:00",
        "2020-02-29T10:00:00+02:60",
        "2020-02-29T10:00:00+0260",
        "2020-02-29T10:00:00+02-00",
        "2020-02-29T10:00:00Z0200",
        "2020-02-29T10:00:00Zab",
        "2020-02-29T10:00:00+",
        "2020-02-29T10:00:00+é:00",
    ] {
        assert!(!is_datetime(bad), "{bad}");
    }
}

#[test]
fn email_addresses_as_pydantic_takes_them() {
    const EMAIL: &[Field] = &[Field::req("contact_email", Type::Email)];
    let (out, problems) = run(EMAIL, json!({"contact_email": " Info@Example.ORG "}));
    assert_eq!(problems, json!([]));
    assert_eq!(out["contact_email"], "Info@example.org");
    for bad in [
        "no-at-sign",
        "@example.org",
        "a@b",
        "a@@example.org",
        "a b@example.org",
        "a@-x.org",
        "a@example.o",
        "a@example.123",
        "a..b@example.org",
    ] {
        let (_, problems) = run(EMAIL, json!({ "contact_email": bad }));
        assert_eq!(problems[0]["type"], "value_error", "{bad}");
        assert!(
            problems[0]["msg"]
                .as_str()
                .unwrap()
                .starts_with("value is not a valid email address: "),
            "{bad}"
        );
    }
}
