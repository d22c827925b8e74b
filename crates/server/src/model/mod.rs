//! Records as the service shapes them: create defaults, update rules and field validation.
//! Pure functions over JSON; the routes do the storing.

pub mod query;
pub mod schema;
pub mod tree;

use larder_contract::{slug::is_valid_slug, Collection, IdentifierKind};
use serde_json::{json, Map, Value};

use crate::error::{ApiError, ApiResult};
use schema::Kind;

/// Field problems collected before answering 422 with all of them.
#[derive(Debug, Default)]
pub struct Problems(Vec<(String, String)>);

impl Problems {
    /// Records one problem at `field` (a dotted location inside the body).
    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push((field.into(), message.into()));
    }

    /// `Ok` when there are none, else a 422 listing every problem.
    /// The problems are taken, so the same collector can check a next stage.
    pub fn finish(&mut self) -> ApiResult<()> {
        let found = std::mem::take(&mut self.0);
        if found.is_empty() {
            return Ok(());
        }
        let detail = found
            .iter()
            .map(|(field, message)| format!("body.{field}: {message}"))
            .collect::<Vec<_>>()
            .join("; ");
        let errors = found
            .iter()
            .map(|(field, message)| {
                let mut loc = vec![json!("body")];
                loc.extend(field.split('.').map(|part| match part.parse::<u64>() {
                    Ok(index) => json!(index),
                    Err(_) => json!(part),
                }));
                json!({ "loc": loc, "msg": message })
            })
            .collect();
        Err(ApiError::new(larder_contract::ErrorKind::Data, detail)
            .with_errors(Value::Array(errors)))
    }
}

fn check_value(field: &str, kind: Kind, value: &Value, problems: &mut Problems) {
    if value.is_null() {
        return;
    }
    let ok = match kind {
        Kind::Str => value.is_string(),
        Kind::Int => value.is_i64(),
        Kind::Float => value.is_number(),
        Kind::Bool => value.is_boolean(),
        Kind::IntOrStr => value.is_i64() || value.is_string(),
        Kind::StrList => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        Kind::List => value.is_array(),
        Kind::Object => value.is_object(),
        Kind::Tree => true,
        Kind::Enum(values) => value.as_str().is_some_and(|s| values.contains(&s)),
        Kind::EnumList(values) => value.as_array().is_some_and(|items| {
            items
                .iter()
                .all(|item| item.as_str().is_none_or(|s| values.contains(&s)))
        }),
        Kind::EnumOrAny(values) => value.as_str().is_none_or(|s| values.contains(&s)),
    };
    if !ok {
        let message = match kind {
            Kind::Str => "must be a string".to_string(),
            Kind::Int => "must be an integer".into(),
            Kind::Float => "must be a number".into(),
            Kind::Bool => "must be true or false".into(),
            Kind::IntOrStr => "must be an integer or a string".into(),
            Kind::StrList => "must be a list of strings".into(),
            Kind::List => "must be a list".into(),
            Kind::Object => "must be an object".into(),
            Kind::Enum(values) | Kind::EnumOrAny(values) => {
                format!("must be one of {}", values.join(", "))
            }
            Kind::EnumList(values) => format!("must list values among {}", values.join(", ")),
            Kind::Tree => String::new(),
        };
        problems.add(field, message);
    }
    if matches!(
        field,
        "page_no" | "page_count" | "file_size" | "char_start" | "char_end"
    ) && value
        .as_i64()
        .is_some_and(|n| n < i64::from(field == "page_no"))
    {
        problems.add(field, "is out of range");
    }
}

/// Checks the types of the known fields present in `fields`, and normalises a structure tree.
fn check_fields(collection: &Collection, fields: &mut Map<String, Value>, problems: &mut Problems) {
    for (field, value) in fields.iter_mut() {
        match schema::kind_of(collection.path, field) {
            Some(Kind::Tree) if !value.is_null() => match tree::normalize(value) {
                Ok(canonical) => *value = canonical,
                Err(found) => {
                    for (at, message) in found {
                        problems.add(at, message);
                    }
                }
            },
            Some(kind) => check_value(field, kind, value, problems),
            None => {}
        }
    }
}

/// Rules over a whole record: required fields (only those in `changed`, when given, so a PATCH
/// of an older record is not refused for what it does not touch), and a public record is
/// verified and not draft or deleted.
fn check_record(
    collection: &Collection,
    record: &Map<String, Value>,
    changed: Option<&Map<String, Value>>,
    problems: &mut Problems,
) {
    for field in schema::required(collection.path) {
        if changed.is_some_and(|changed| !changed.contains_key(*field)) {
            continue;
        }
        match record.get(*field) {
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            Some(Value::String(_)) => problems.add(*field, "must not be empty"),
            None | Some(Value::Null) => problems.add(*field, "field required"),
            // The type check has already reported it.
            Some(_) => {}
        }
    }
    if record.get("visibility").and_then(Value::as_str) == Some("public") {
        let status = record.get("status").and_then(Value::as_str);
        if matches!(status, Some("draft" | "deleted")) {
            problems.add("visibility", "a public record can't be draft or deleted");
        }
        if record.get("review_status").and_then(Value::as_str) != Some("verified") {
            problems.add("visibility", "a public record must be verified");
        }
    }
}

fn apply_defaults(collection: &Collection, record: &mut Map<String, Value>) {
    if let Some(status) = collection.default_status {
        record
            .entry("status")
            .or_insert_with(|| Value::String(status.into()));
    }
    if collection.has_review {
        record
            .entry("review_status")
            .or_insert_with(|| "unreviewed".into());
        record
            .entry("visibility")
            .or_insert_with(|| "internal".into());
        record
            .entry("applicability_status")
            .or_insert_with(|| "unknown".into());
    }
}

/// A body as a JSON object, or 422.
pub fn object(body: Value) -> ApiResult<Map<String, Value>> {
    match body {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::unprocessable("body", "must be a JSON object")),
    }
}

/// The full URN a create asks for (from a slug `urn` or `identifier`), or `None` to mint one.
pub fn requested_urn(
    collection: &Collection,
    record: &mut Map<String, Value>,
) -> ApiResult<Option<String>> {
    let slug = record.remove("identifier").or_else(|| record.remove("urn"));
    if !matches!(collection.identifier, IdentifierKind::Urn { .. }) {
        return Ok(None);
    }
    match slug {
        Some(Value::String(slug)) => {
            let bare = collection
                .urn_prefix()
                .and_then(|p| slug.strip_prefix(&p).map(str::to_string))
                .unwrap_or(slug);
            if !is_valid_slug(&bare) {
                return Err(ApiError::unprocessable(
                    "urn",
                    "must be a slug of lower-case letters and digits separated by - or _",
                ));
            }
            Ok(Some(collection.full_urn(&bare)))
        }
        Some(Value::Null) | None => Ok(None),
        Some(_) => Err(ApiError::unprocessable("urn", "must be a string")),
    }
}

/// A new record from a create body: identifiers, creator, timestamps, type and defaults,
/// validated. `urn` is the full URN for URN collections.
pub fn new_record(
    collection: &Collection,
    mut record: Map<String, Value>,
    urn: Option<String>,
    creator: &str,
    now: &str,
) -> ApiResult<Map<String, Value>> {
    for field in schema::derived(collection.path) {
        record.remove(*field);
    }
    let id = uuid::Uuid::new_v4().to_string();
    if let IdentifierKind::Urn { .. } = collection.identifier {
        let urn = urn.unwrap_or_else(|| collection.full_urn(&id));
        record.insert("urn".into(), Value::String(urn));
    }
    record.insert("id".into(), Value::String(id));
    record.insert("creator".into(), Value::String(creator.into()));
    record.insert("created_at".into(), Value::String(now.into()));
    record.insert("updated_at".into(), Value::String(now.into()));
    if let Some(record_type) = collection.record_type {
        record.insert("type".into(), Value::String(record_type.into()));
    }
    apply_defaults(collection, &mut record);
    let mut problems = Problems::default();
    check_fields(collection, &mut record, &mut problems);
    check_record(collection, &record, None, &mut problems);
    problems.finish()?;
    Ok(record)
}

/// A PATCH: the mutable fields of `changes` replace those of `doc`; immutable and derived
/// fields are ignored; unknown fields are kept.
pub fn patched(
    collection: &Collection,
    doc: &Value,
    changes: Map<String, Value>,
    now: &str,
) -> ApiResult<Value> {
    let mut changes: Map<String, Value> = changes
        .into_iter()
        .filter(|(field, _)| {
            collection.is_mutable(field)
                && !schema::derived(collection.path).contains(&field.as_str())
        })
        .collect();
    let mut problems = Problems::default();
    check_fields(collection, &mut changes, &mut problems);
    let mut record = doc.as_object().cloned().unwrap_or_default();
    record.extend(changes.clone());
    record.insert("updated_at".into(), Value::String(now.into()));
    check_record(collection, &record, Some(&changes), &mut problems);
    problems.finish()?;
    Ok(Value::Object(record))
}

/// A PUT: the record becomes the immutable fields of `doc` plus the mutable fields of `body`,
/// with create defaults for what the body leaves out.
pub fn replaced(
    collection: &Collection,
    doc: &Value,
    body: Map<String, Value>,
    now: &str,
) -> ApiResult<Value> {
    let mut record: Map<String, Value> = doc
        .as_object()
        .map(|old| {
            old.iter()
                .filter(|(field, _)| !collection.is_mutable(field))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    if let Some(record_type) = collection.record_type {
        record
            .entry("type")
            .or_insert_with(|| Value::String(record_type.into()));
    }
    let fresh: Map<String, Value> = body
        .into_iter()
        .filter(|(field, _)| {
            collection.is_mutable(field)
                && !schema::derived(collection.path).contains(&field.as_str())
        })
        .collect();
    let mut problems = Problems::default();
    let mut fresh = fresh;
    check_fields(collection, &mut fresh, &mut problems);
    record.extend(fresh);
    apply_defaults(collection, &mut record);
    record.insert("updated_at".into(), Value::String(now.into()));
    check_record(collection, &record, None, &mut problems);
    problems.finish()?;
    Ok(Value::Object(record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::{ARTICLES, GUIDES, TEXTBOOKS};

    #[test]
    fn create_defaults_and_types() {
        let body = object(json!({"title": "T", "x": 1})).unwrap();
        let record = new_record(&GUIDES, body, None, "me", "now").unwrap();
        assert_eq!(record["status"], "active");
        assert_eq!(record["review_status"], "unreviewed");
        assert_eq!(record["visibility"], "internal");
        assert_eq!(record["applicability_status"], "unknown");
        assert_eq!(record["type"], "guide");
        assert!(record["urn"].as_str().unwrap().starts_with("urn:guide:"));

        let bad =
            object(json!({"title": 3, "citation_count": "many", "status": "gone", "tags": [1]}))
                .unwrap();
        let error = new_record(&ARTICLES, bad, None, "me", "now").unwrap_err();
        assert_eq!(error.status, 422);
        assert_eq!(error.errors.unwrap().as_array().unwrap().len(), 4);
    }

    #[test]
    fn public_needs_verified() {
        let body = object(json!({"title": "T", "visibility": "public"})).unwrap();
        assert!(new_record(&TEXTBOOKS, body, None, "me", "now").is_err());
        let body = object(json!({"title": "T", "visibility": "public", "review_status": "verified", "status": "active"})).unwrap();
        assert!(new_record(&TEXTBOOKS, body, None, "me", "now").is_ok());
    }

    #[test]
    fn updates_keep_immutables_and_unknowns() {
        let doc = json!({"urn": "urn:guide:a", "id": "1", "type": "guide", "title": "A", "extra": true, "status": "active"});
        let patched = patched(
            &GUIDES,
            &doc,
            object(json!({"urn": "urn:guide:b", "type": "x", "title": "B"})).unwrap(),
            "t",
        )
        .unwrap();
        assert_eq!(patched["urn"], "urn:guide:a");
        assert_eq!(patched["type"], "guide");
        assert_eq!(patched["title"], "B");
        assert_eq!(patched["extra"], true);
        let put = replaced(
            &GUIDES,
            &doc,
            object(json!({"title": "C", "id": "9"})).unwrap(),
            "t",
        )
        .unwrap();
        assert_eq!(put["id"], "1");
        assert_eq!(put["title"], "C");
        assert!(put.get("extra").is_none());
        assert_eq!(put["status"], "active");
    }
}
