//! Records as the service shapes them: bodies checked against the contract's schemas (the same
//! tables production's models are transcribed into), create defaults, update merging, and the
//! editorial rules over a whole record. Pure functions over JSON; the routes do the storing.

pub mod meal_plan;
pub mod query;
pub mod rules;
pub mod tree;

use larder_contract::types::Field;
use larder_contract::validate::{check_object, Extra, Problems};
use larder_contract::Collection;
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};

/// A body as a JSON object, or 422.
pub fn object(body: Value) -> ApiResult<Map<String, Value>> {
    match body {
        Value::Object(map) => Ok(map),
        other => {
            let mut problems = Problems::new();
            problems.add(
                None,
                "model_attributes_type",
                "Input should be a valid dictionary or object to extract fields from",
                Some(&other),
                None,
            );
            Err(ApiError::validation(&problems))
        }
    }
}

/// `body` checked against `fields`: the normalised object, or production's 422 with every
/// problem (the first 50 listed).
pub fn validated(
    fields: &[Field],
    extra: Extra,
    body: &Map<String, Value>,
) -> ApiResult<Map<String, Value>> {
    let mut problems = Problems::new();
    let out = check_object(fields, extra, body, &mut problems);
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(ApiError::validation(&problems))
    }
}

/// Fails with a 422 when `problems` holds any.
pub fn finish(problems: &Problems) -> ApiResult<()> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(problems))
    }
}

/// A new record from a validated create body: the full URN from the slug, a fresh id, creator,
/// timestamps, the stamped `type` and the collection's defaults. The editorial rules are checked.
pub fn new_record(
    collection: &Collection,
    mut record: Map<String, Value>,
    creator: &str,
    now: &str,
) -> ApiResult<Map<String, Value>> {
    for field in collection.derived {
        record.remove(field.name);
    }
    let id = uuid::Uuid::new_v4().to_string();
    if collection.has_urn() {
        let slug = record
            .get("urn")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| id.clone());
        record.insert("urn".into(), Value::String(collection.full_urn(&slug)));
    }
    record.insert("id".into(), Value::String(id));
    record.insert("creator".into(), Value::String(creator.into()));
    record.insert("created_at".into(), Value::String(now.into()));
    record.insert("updated_at".into(), Value::String(now.into()));
    if let Some(record_type) = collection.record_type {
        record.insert("type".into(), Value::String(record_type.into()));
    }
    for (field, value) in collection.defaults {
        if record.get(*field).is_none_or(Value::is_null) {
            record.insert((*field).into(), Value::String((*value).into()));
        }
    }
    let mut problems = Problems::new();
    rules::editorial(collection, &record, &mut problems);
    finish(&problems)?;
    Ok(record)
}

/// The changes of a validated update as they apply: `null` drops out (production never clears a
/// field that way) except for the collection's clearable fields.
pub fn effective_changes(
    collection: &Collection,
    changes: Map<String, Value>,
) -> Map<String, Value> {
    changes
        .into_iter()
        .filter(|(field, value)| !value.is_null() || collection.clearable.contains(&field.as_str()))
        .collect()
}

/// A PATCH over `doc`: the effective changes replace its fields; fields the console does not
/// know, and those no update may carry, stay as they were. The editorial rules are checked on the
/// merged record.
pub fn patched(
    collection: &Collection,
    doc: &Value,
    changes: &Map<String, Value>,
    now: &str,
) -> ApiResult<Map<String, Value>> {
    let mut record = doc.as_object().cloned().unwrap_or_default();
    for field in collection.derived {
        record.remove(field.name);
    }
    for (field, value) in changes {
        record.insert(field.clone(), value.clone());
    }
    record.insert("updated_at".into(), Value::String(now.into()));
    let mut problems = Problems::new();
    rules::editorial(collection, &record, &mut problems);
    finish(&problems)?;
    Ok(record)
}

/// A PUT (only interface.md has it): every updatable field of the record becomes the body's;
/// what the body leaves out is dropped, and a field a create requires must be there.
pub fn replaced(
    collection: &Collection,
    doc: &Value,
    body: Map<String, Value>,
    now: &str,
) -> ApiResult<Map<String, Value>> {
    let mut record: Map<String, Value> = doc
        .as_object()
        .map(|old| {
            old.iter()
                .filter(|(field, _)| !collection.is_updatable(field))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    for field in collection.derived {
        record.remove(field.name);
    }
    record.extend(body.into_iter().filter(|(_, v)| !v.is_null()));
    let mut problems = Problems::new();
    for field in collection.create.iter().filter(|f| f.required) {
        if record.get(field.name).is_none_or(Value::is_null) {
            problems.at_field(field.name, "missing", "Field required");
        }
    }
    for (field, value) in collection.defaults {
        if record.get(*field).is_none_or(Value::is_null) {
            record.insert((*field).into(), Value::String((*value).into()));
        }
    }
    record.insert("updated_at".into(), Value::String(now.into()));
    rules::editorial(collection, &record, &mut problems);
    finish(&problems)?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::{ARTICLES, GUIDES, TEXTBOOKS};
    use serde_json::json;

    fn body(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_create_is_refused_for_every_key_production_refuses() {
        let error = validated(
            ARTICLES.create,
            Extra::Forbid,
            &body(json!({"urn": "x", "title": "T", "content": "", "status": "active", "language": "en"})),
        )
        .unwrap_err();
        assert_eq!(error.status, 422);
        assert_eq!(error.title, "RequestValidationError");
        let errors = error.errors.unwrap();
        let locs: Vec<String> = errors
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["loc"].to_string())
            .collect();
        assert!(
            locs.contains(&r#"["body","venue"]"#.to_string()),
            "{locs:?}"
        );
        assert!(locs.contains(&r#"["body","status"]"#.to_string()));
        assert!(locs.contains(&r#"["body","language"]"#.to_string()));
    }

    #[test]
    fn create_defaults_and_stamps() {
        let fields = validated(
            GUIDES.create,
            Extra::Forbid,
            &body(
                json!({"urn": "eat-well", "title": "T", "description": "D", "url": "https://x.org",
                         "license": "CC0", "content": "C", "status": "draft"}),
            ),
        )
        .unwrap();
        let record = new_record(&GUIDES, fields, "me", "now").unwrap();
        assert_eq!(record["urn"], "urn:guide:eat-well");
        assert_eq!(record["status"], "draft");
        assert_eq!(record["review_status"], "unreviewed");
        assert_eq!(record["url"], "https://x.org/");
        assert!(record.get("type").is_none());
    }

    #[test]
    fn public_needs_verified() {
        let record = body(json!({"urn": "t", "title": "T", "visibility": "public"}));
        assert!(new_record(&TEXTBOOKS, record, "me", "now").is_err());
        let record = body(
            json!({"urn": "t", "title": "T", "visibility": "public", "review_status": "verified", "status": "active"}),
        );
        assert!(new_record(&TEXTBOOKS, record, "me", "now").is_ok());
    }

    #[test]
    fn nulls_do_not_clear_except_where_production_lets_them() {
        let changes = effective_changes(
            &GUIDES,
            body(json!({"title": null, "publication_year": null})),
        );
        assert_eq!(changes, body(json!({"publication_year": null})));
        let doc =
            json!({"urn": "urn:guide:a", "title": "A", "extra": true, "publication_year": 2001});
        let patched = patched(&GUIDES, &doc, &changes, "t").unwrap();
        assert_eq!(patched["title"], "A");
        assert_eq!(patched["extra"], true);
        assert_eq!(patched["publication_year"], Value::Null);
    }
}
