//! Machine enrichment of guidelines (production.md §10.5): `PATCH guidelines/{id}/enrich` and
//! `POST guidelines/enrich-batch` (up to 200, with a dry run), after production's
//! `Guideline.enrich`, `enrich_batch` and `select_enrichable_updates` (wisefood-data-api
//! src/entities/guidelines.py, src/catalog_access.py @1c14741).
//!
//! The ownership rule: a field is written only when its current value is empty (`null`, `[]`,
//! `{}`, `""`), a machine wrote it (it is in `ai_generated_fields`), or `force_fields` names it;
//! the others are reported in `skipped_fields`. `enrichment_version` and `enrichment_confidence`
//! are always written. Every written name joins `ai_generated_fields`, and an audit event
//! `{agent, run_id, enhanced_at, fields, skipped_fields, before, after}` joins `enhancements`
//! (a value over 8 KiB of JSON is left out of `before`/`after` and named in the event's
//! `omitted`, and the trail keeps its newest events within the record's bounds, as enhance's).
//!
//! Where this service is stricter than production, and why:
//! - every value is checked against its field's type, skipped ones and the two metadata fields
//!   included (production checks the written facets only, so a bad `enrichment_confidence` is
//!   stored there and every later read of the guideline fails);
//! - a list field cannot be set to `null` (production would store it, and fail reading it);
//! - the age range is checked on the guideline as it would be stored, not on the values sent
//!   alone;
//! - an empty `fields` is a 422 naming it, where production answers 500 (production.md §1.1).

use std::collections::HashSet;

use axum::extract::State;
use larder_contract::collections::guidelines::{ENRICH, ENRICHMENT_METADATA, ENRICH_BATCH};
use larder_contract::collections::{
    check_age_range, ENRICHABLE, ENRICH_BATCH_BODY, ENRICH_BODY, GUIDELINES,
};
use larder_contract::limits::MAX_ENHANCEMENT_VALUE_BYTES;
use larder_contract::validate::{check_value, Extra, Loc, Problems};
use larder_contract::{ErrorKind, Type};
use rusqlite::params;
use serde_json::{json, Map, Value};

use super::{blocking, find, require};
use crate::auth::{Caller, Identity};
use crate::enhance::{bound_history, json_bytes};
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams};
use crate::model;
use crate::store::{now, RecordRow, Viewer};
use crate::SharedState;

/// What one guideline is asked to take.
#[derive(Clone, Debug)]
struct Asked {
    fields: Map<String, Value>,
    force: Vec<String>,
}

/// The enrichable names, in the contract's order.
fn enrichable(name: &str) -> bool {
    ENRICHABLE.iter().any(|f| f.name == name)
}

fn is_metadata(name: &str) -> bool {
    ENRICHMENT_METADATA.iter().any(|f| f.name == name)
}

/// Reads `fields` and `force_fields` of a body (or of a batch item): every key an enrichable
/// field (production's enum: a 422 per key), at least one. Their values are checked later,
/// against the guideline, as production checks them.
fn asked(body: &Map<String, Value>, problems: &mut Problems) -> Asked {
    let fields = body
        .get("fields")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    problems.within(Loc::Key("fields".into()), |p| {
        for key in fields.keys().filter(|k| !enrichable(k)) {
            p.within(Loc::Key(key.clone()), |p| {
                p.add(
                    Some(Loc::Key("[key]".into())),
                    "enum",
                    format!(
                        "Input should be {}",
                        ENRICHABLE
                            .iter()
                            .map(|f| format!("'{}'", f.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    Some(&Value::String(key.clone())),
                    None,
                )
            });
        }
    });
    if body.get("fields").is_some_and(Value::is_object) && fields.is_empty() {
        problems.value_error(
            "fields",
            "fields must contain at least one enrichable field",
        );
    }
    let force = body
        .get("force_fields")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Asked { fields, force }
}

/// The values of `asked` checked against their fields' types: the normalised values, or the
/// problems (at `fields.<name>`).
fn checked_values(asked: &Asked) -> Result<Map<String, Value>, Problems> {
    let mut problems = Problems::new();
    let mut values = Map::new();
    problems.within(Loc::Key("fields".into()), |p| {
        for (name, value) in &asked.fields {
            let Some(field) = ENRICHABLE.iter().find(|f| f.name == name) else {
                continue;
            };
            p.within(Loc::Key(name.clone()), |p| {
                if value.is_null() {
                    if matches!(field.ty, Type::List { .. }) {
                        p.add(
                            None,
                            "list_type",
                            "Input should be a valid list",
                            Some(value),
                            None,
                        );
                    } else {
                        values.insert(name.clone(), Value::Null);
                    }
                } else if let Some(checked) = check_value(&field.ty, value, p) {
                    values.insert(name.clone(), checked);
                }
            });
        }
    });
    if problems.is_empty() {
        Ok(values)
    } else {
        Err(problems)
    }
}

/// A refusal of enrichment values: production's sentence, `Invalid enrichment values: …`, with
/// the problems listed where the dialect lists them.
fn invalid_values(state: &SharedState, problems: &Problems) -> ApiError {
    let summary: Vec<String> = problems
        .shown()
        .iter()
        .map(|p| format!("{}: {}", p.dotted(), p.msg))
        .collect();
    let error = ApiError::new(
        ErrorKind::Data,
        format!("Invalid enrichment values: {}", summary.join("; ")),
    );
    if state.dialect.enrichment_errors_listed {
        error.with_errors(problems.to_json("body"))
    } else {
        error
    }
}

/// Production's split of the asked values into those written and the names skipped.
fn select(
    current: &Map<String, Value>,
    values: &Map<String, Value>,
    force: &[String],
) -> (Map<String, Value>, Vec<String>) {
    let machine: HashSet<&str> = current
        .get("ai_generated_fields")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut writable = Map::new();
    let mut skipped = Vec::new();
    for (name, value) in values {
        let now = current.get(name).unwrap_or(&Value::Null);
        let empty = match now {
            Value::Null => true,
            Value::Array(items) => items.is_empty(),
            Value::Object(map) => map.is_empty(),
            Value::String(text) => text.is_empty(),
            _ => false,
        };
        if is_metadata(name) || empty || machine.contains(name.as_str()) || force.contains(name) {
            writable.insert(name.clone(), value.clone());
        } else {
            skipped.push(name.clone());
        }
    }
    (writable, skipped)
}

/// What an enrichment of one guideline comes to.
struct Plan {
    writable: Map<String, Value>,
    skipped: Vec<String>,
    /// The guideline as it would be stored.
    after: Map<String, Value>,
}

/// Checks an enrichment of `row` and works out what it writes; nothing is stored. 409 for a
/// deleted guideline; 422 for values the fields do not take, or an age range upside down.
fn plan(state: &SharedState, row: &RecordRow, asked: &Asked) -> ApiResult<Plan> {
    let current = row.doc.as_object().cloned().unwrap_or_default();
    if current.get("status").and_then(Value::as_str) == Some("deleted") {
        return Err(ApiError::conflict("Cannot enrich a deleted guideline."));
    }
    let values = checked_values(asked).map_err(|p| invalid_values(state, &p))?;
    let (writable, skipped) = select(&current, &values, &asked.force);
    let mut after = current;
    for (name, value) in &writable {
        after.insert(name.clone(), value.clone());
    }
    let mut problems = Problems::new();
    problems.within(Loc::Key("fields".into()), |p| check_age_range(&after, p));
    if !problems.is_empty() {
        return Err(invalid_values(state, &problems));
    }
    Ok(Plan {
        writable,
        skipped,
        after,
    })
}

/// The names written, without the two metadata fields (production's `enriched_fields`).
fn facets_of(writable: &Map<String, Value>) -> Vec<String> {
    writable
        .keys()
        .filter(|k| !is_metadata(k))
        .cloned()
        .collect()
}

/// The audit event of one enrichment; values over [`MAX_ENHANCEMENT_VALUE_BYTES`] left out and
/// named in `omitted`.
fn event(before: &Map<String, Value>, plan: &Plan, agent: &str, run_id: &str, at: &str) -> Value {
    let mut kept_before = Map::new();
    let mut kept_after = Map::new();
    let mut omitted = Vec::new();
    for (name, value) in &plan.writable {
        let old = before.get(name).cloned().unwrap_or(Value::Null);
        for (side, value, into) in [
            ("before", old, &mut kept_before),
            ("after", value.clone(), &mut kept_after),
        ] {
            if json_bytes(&value) > MAX_ENHANCEMENT_VALUE_BYTES {
                omitted.push(format!("{side}.{name}"));
            } else {
                into.insert(name.clone(), value);
            }
        }
    }
    let mut event = json!({
        "agent": agent,
        "run_id": run_id,
        "enhanced_at": at,
        "fields": plan.writable.keys().collect::<Vec<_>>(),
        "skipped_fields": plan.skipped,
        "before": kept_before,
        "after": kept_after,
    });
    if !omitted.is_empty() {
        event["omitted"] = json!(omitted);
    }
    event
}

/// Stores an enrichment of `row`: the values, the names in `ai_generated_fields`, the audit
/// event, the time; the run in `enhance_runs`. Answers production's `{id, run_id, agent,
/// enriched_fields, skipped_fields}`.
fn write(
    state: &SharedState,
    row: &RecordRow,
    plan: Plan,
    agent: &str,
    caller: &Identity,
) -> ApiResult<Value> {
    let before = row.doc.as_object().cloned().unwrap_or_default();
    let stamp = now();
    let run_id = uuid::Uuid::new_v4().to_string();
    let event = event(&before, &plan, agent, &run_id, &stamp);
    let mut doc = plan.after.clone();
    let mut machine: Vec<Value> = doc
        .get("ai_generated_fields")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for name in plan.writable.keys() {
        if !machine.iter().any(|m| m == name) {
            machine.push(json!(name));
        }
    }
    let mut events = doc
        .get("enhancements")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    events.push(event);
    bound_history(&mut events);
    doc.insert("ai_generated_fields".into(), Value::Array(machine));
    doc.insert("enhancements".into(), Value::Array(events));
    doc.insert("updated_at".into(), json!(stamp));
    let written = json!(plan.writable.keys().collect::<Vec<_>>());
    let caller_key = caller.owner_key();
    state.store.records().replace_and(
        &GUIDELINES,
        &row.id,
        &Value::Object(doc),
        |tx| {
            tx.execute(
                "INSERT INTO enhance_runs (id, record_id, collection, agent, caller, fields, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![run_id, row.id, GUIDELINES.path, agent, caller_key, written.to_string(), stamp],
            )
            .map(|_| ())
        },
    )?;
    Ok(json!({
        "id": row.id,
        "run_id": run_id,
        "agent": agent,
        "enriched_fields": facets_of(&plan.writable),
        "skipped_fields": plan.skipped,
    }))
}

/// `PATCH guidelines/{id}/enrich` (administrators and curators).
pub async fn enrich(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(&caller, ENRICH.roles, "enriching guidelines")?.clone();
    let body = model::object(body)?;
    // Production's schema ignores keys it does not know.
    let checked = model::validated(ENRICH_BODY, Extra::Ignore, &body)?;
    let mut problems = Problems::new();
    let asked = asked(&checked, &mut problems);
    model::finish(&problems)?;
    let agent = checked["agent"].as_str().unwrap_or_default().to_string();
    blocking(move || {
        let row = find(&state, &GUIDELINES, &identifier, Viewer::Curator)?;
        let plan = plan(&state, &row, &asked)?;
        write(&state, &row, plan, &agent, &identity).map(Envelope)
    })
    .await
}

/// One item's failure as production words it in a batch: `str()` of its exception, which
/// Starlette writes `"{status}: {detail}"`.
fn item_error(error: &ApiError) -> String {
    format!("{}: {}", error.status, error.detail)
}

/// `POST guidelines/enrich-batch` (administrators and curators): up to 200 items, each enriched
/// (or, with `dry_run`, planned) on its own; an item's 404, 409 or 422 is reported in its
/// result and does not stop the others.
pub async fn enrich_batch(
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(&caller, ENRICH_BATCH.roles, "enriching guidelines")?.clone();
    let body = model::object(body)?;
    let checked = model::validated(ENRICH_BATCH_BODY, Extra::Ignore, &body)?;
    let mut problems = Problems::new();
    let items: Vec<(String, Asked)> = problems.within(Loc::Key("items".into()), |p| {
        checked["items"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(index, item)| {
                let item = item.as_object().cloned().unwrap_or_default();
                let asked = p.within(Loc::Index(index), |p| asked(&item, p));
                (item["id"].as_str().unwrap_or_default().to_string(), asked)
            })
            .collect()
    });
    model::finish(&problems)?;
    let agent = checked["agent"].as_str().unwrap_or_default().to_string();
    let dry_run = checked.get("dry_run") == Some(&Value::Bool(true));
    blocking(move || {
        let mut results = Vec::with_capacity(items.len());
        let (mut succeeded, mut failed) = (0, 0);
        for (id, asked) in &items {
            let outcome = find(&state, &GUIDELINES, id, Viewer::Curator).and_then(|row| {
                let plan = plan(&state, &row, asked)?;
                if dry_run {
                    Ok(json!({
                        "id": id,
                        "ok": true,
                        "dry_run": true,
                        "would_enrich_fields": facets_of(&plan.writable),
                        "skipped_fields": plan.skipped,
                    }))
                } else {
                    let mut answer = write(&state, &row, plan, &agent, &identity)?;
                    answer["ok"] = json!(true);
                    Ok(answer)
                }
            });
            match outcome {
                Ok(result) => {
                    succeeded += 1;
                    results.push(result);
                }
                Err(error) if matches!(error.status, 404 | 409 | 422) => {
                    failed += 1;
                    results.push(json!({"id": id, "ok": false, "error": item_error(&error)}));
                }
                Err(error) => return Err(error),
            }
        }
        Ok(Envelope(json!({
            "dry_run": dry_run,
            "agent": agent,
            "total": items.len(),
            "succeeded": succeeded,
            "failed": failed,
            "results": results,
        })))
    })
    .await
}
