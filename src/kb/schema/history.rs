//! A record's history from what it carries: its enhancement audit trail (`enhancements`,
//! production.md §5.3) and its stamps (created, last updated), newest first. Entries the
//! service shapes otherwise than expected are read leniently (a list of field names, a map of
//! fields, another name for the time): an audit trail is never a reason for an error.

use larder_api::Record;
use larder_contract::time::unix_ms;
use serde_json::Value;

/// How far apart an enhancement's time and the record's `updated_at` may be and still be one
/// write (production reads the clock once for each).
const SAME_WRITE_MS: i64 = 1000;

/// One field an enhancement wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldChange {
    /// The field.
    pub field: String,
    /// Its value before (`None` when the service did not say).
    pub before: Option<Value>,
    /// Its value after (`None` when the service did not say).
    pub after: Option<Value>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
pub enum What {
    /// The record was created, by `creator` when known.
    Created { creator: Option<String> },
    /// The record last changed.
    Updated,
    /// An agent enhanced it.
    Enhanced {
        agent: Option<String>,
        run_id: Option<String>,
        fields: Vec<FieldChange>,
    },
}

/// One entry of the history.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// When, as the service wrote it (ISO 8601); `None` when not said.
    pub at: Option<String>,
    /// What.
    pub what: What,
}

fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn fields_of(value: Option<&Value>) -> Vec<FieldChange> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(name) => Some(FieldChange {
                    field: name.clone(),
                    before: None,
                    after: None,
                }),
                Value::Object(o) => Some(FieldChange {
                    field: text(o.get("field").or_else(|| o.get("name")))?,
                    before: o.get("before").cloned(),
                    after: o.get("after").cloned(),
                }),
                _ => None,
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(field, change)| match change {
                Value::Object(o) if o.contains_key("before") || o.contains_key("after") => {
                    FieldChange {
                        field: field.clone(),
                        before: o.get("before").cloned(),
                        after: o.get("after").cloned(),
                    }
                }
                after => FieldChange {
                    field: field.clone(),
                    before: None,
                    after: Some(after.clone()),
                },
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn enhancement(entry: &Value) -> Option<Event> {
    let entry = entry.as_object()?;
    let at = ["timestamp", "at", "enhanced_at", "created_at", "time"]
        .iter()
        .find_map(|k| text(entry.get(*k)));
    let fields = entry
        .get("fields")
        .or_else(|| entry.get("changes"))
        .or_else(|| entry.get("enhanced_fields"));
    // Production names the fields, then keeps each side in a map of its own:
    // `{fields: [names], before: {field: value}, after: {field: value}}`.
    let side = |name: &str, field: &str| entry.get(name)?.as_object()?.get(field).cloned();
    let fields = fields_of(fields)
        .into_iter()
        .map(|change| FieldChange {
            before: change.before.or_else(|| side("before", &change.field)),
            after: change.after.or_else(|| side("after", &change.field)),
            field: change.field,
        })
        .collect();
    Some(Event {
        at,
        what: What::Enhanced {
            agent: text(entry.get("agent")),
            run_id: text(entry.get("run_id")),
            fields,
        },
    })
}

/// The record's history, newest first (entries without a time last, in their order).
pub fn history(record: &Record) -> Vec<Event> {
    let mut events: Vec<Event> = record
        .get("enhancements")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(enhancement).collect())
        .unwrap_or_default();
    let created = text(record.get("created_at"));
    let updated = text(record.get("updated_at"));
    // The last update is its own entry only when it is not an enhancement itself. Production
    // stamps an enhancement and the record's `updated_at` in two reads of the clock, so they
    // are the same write when within a second of each other.
    let same_write = |at: &str, other: &str| match (unix_ms(at), unix_ms(other)) {
        (Some(a), Some(b)) => (a - b).abs() <= SAME_WRITE_MS,
        _ => at == other,
    };
    let an_enhancement = |at: &str| {
        events
            .iter()
            .filter_map(|e| e.at.as_deref())
            .any(|enhanced| same_write(at, enhanced))
    };
    if updated
        .as_deref()
        .is_some_and(|at| updated != created && !an_enhancement(at))
    {
        events.push(Event {
            at: updated,
            what: What::Updated,
        });
    }
    if created.is_some() || record.contains_key("creator") {
        events.push(Event {
            at: created,
            what: What::Created {
                creator: text(record.get("creator")),
            },
        });
    }
    // A stable sort: equal or missing times keep their order (missing ones last).
    events.sort_by(|a, b| match (&a.at, &b.at) {
        (Some(x), Some(y)) => y.cmp(x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    events
}

/// The record's version, as text, when it carries one.
pub fn version(record: &Record) -> Option<String> {
    match record.get("version")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn enhancements_and_stamps_newest_first() {
        let r = record(json!({
            "created_at": "2026-01-01T10:00:00Z", "creator": "curator",
            "updated_at": "2026-03-01T10:00:00Z", "version": 3,
            "enhancements": [
                {"run_id": "r1", "agent": "extractive", "timestamp": "2026-02-01T10:00:00Z",
                 "fields": [{"field": "ai_tags", "before": null, "after": ["iron"]}]},
                {"run_id": "r2", "agent": "summariser", "timestamp": "2026-02-15T10:00:00Z",
                 "fields": [{"field": "ai_category", "before": "a", "after": "b"}]}
            ]
        }));
        let events = history(&r);
        assert_eq!(events.len(), 4);
        assert_eq!(events[0].what, What::Updated);
        match &events[1].what {
            What::Enhanced {
                agent,
                run_id,
                fields,
            } => {
                assert_eq!(agent.as_deref(), Some("summariser"));
                assert_eq!(run_id.as_deref(), Some("r2"));
                assert_eq!(fields[0].before, Some(json!("a")));
                assert_eq!(fields[0].after, Some(json!("b")));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(events[2].at.as_deref(), Some("2026-02-01T10:00:00Z"));
        assert_eq!(
            events[3].what,
            What::Created {
                creator: Some("curator".into())
            }
        );
        assert_eq!(version(&r).as_deref(), Some("3"));
    }

    #[test]
    fn productions_event_names_the_fields_and_keeps_each_side_in_a_map() {
        // `src/entities/articles.py`, `enhance`: `enhanced_at` zone-less, `updated_at` stamped by
        // a second read of the clock a few milliseconds later.
        let r = record(json!({
            "created_at": "2026-01-01T10:00:00",
            "updated_at": "2026-02-01T10:00:00.412",
            "enhancements": [{
                "agent": "summariser", "run_id": "r1", "enhanced_at": "2026-02-01T10:00:00.398",
                "fields": ["ai_category", "ai_tags"],
                "before": {"ai_category": null, "ai_tags": ["salt"]},
                "after": {"ai_category": "minerals", "ai_tags": ["salt", "iodine"]}
            }]
        }));
        let events = history(&r);
        assert_eq!(
            events.len(),
            2,
            "one enhancement and the creation: {events:?}"
        );
        let What::Enhanced { fields, .. } = &events[0].what else {
            panic!("{events:?}")
        };
        assert_eq!(fields[0].field, "ai_category");
        assert_eq!(
            (fields[0].before.clone(), fields[0].after.clone()),
            (Some(Value::Null), Some(json!("minerals")))
        );
        assert_eq!(fields[1].after, Some(json!(["salt", "iodine"])));
    }

    #[test]
    fn other_shapes_are_read_leniently_and_nothing_is_an_empty_history() {
        let r = record(json!({
            "updated_at": "2026-02-01T00:00:00Z",
            "enhancements": [
                {"agent": "a", "at": "2026-02-01T00:00:00Z", "fields": ["ai_tags"]},
                {"agent": "b", "fields": {"ai_category": {"before": "x", "after": "y"}, "ai_tags": ["t"]}},
                "garbage", 7
            ]
        }));
        let events = history(&r);
        // The update is the first enhancement: one entry, not two.
        assert_eq!(events.len(), 2, "{events:?}");
        let What::Enhanced { fields, .. } = &events[0].what else {
            panic!()
        };
        assert_eq!(fields[0].field, "ai_tags");
        assert_eq!(fields[0].after, None);
        let What::Enhanced { fields, .. } = &events[1].what else {
            panic!()
        };
        assert_eq!(events[1].at, None);
        assert_eq!(fields.len(), 2);
        assert!(history(&Record::new()).is_empty());
        assert_eq!(version(&Record::new()), None);
    }
}
