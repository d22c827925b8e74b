//! Which of a record's values a machine wrote (production's `ai_generated_fields`, §10.5), and
//! by which agent and run: the newest enhancement that wrote the field. A curator's edit takes a
//! field over (the service drops it from `ai_generated_fields`), so its mark goes by itself.

use std::collections::BTreeMap;

use larder_api::Record;
use serde_json::Value;

use super::history::{history, What};

/// Who wrote a machine-written value, as far as the record says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AiMark {
    /// The agent's name.
    pub agent: Option<String>,
    /// The run that wrote it.
    pub run_id: Option<String>,
    /// When (ISO 8601, as the service wrote it).
    pub at: Option<String>,
}

/// The fields the record names as machine-written, in its order, each once.
pub fn ai_generated(record: &Record) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in record
        .get("ai_generated_fields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// Each machine-written field with who wrote it (the newest enhancement naming the field; an
/// empty mark when no enhancement does).
pub fn ai_marks(record: &Record) -> BTreeMap<String, AiMark> {
    let names = ai_generated(record);
    if names.is_empty() {
        return BTreeMap::new();
    }
    let events = history(record);
    names
        .into_iter()
        .map(|name| {
            let mark = events
                .iter()
                .find_map(|event| match &event.what {
                    What::Enhanced {
                        agent,
                        run_id,
                        fields,
                    } if fields.iter().any(|f| f.field == name) => Some(AiMark {
                        agent: agent.clone(),
                        run_id: run_id.clone(),
                        at: event.at.clone(),
                    }),
                    _ => None,
                })
                .unwrap_or_default();
            (name, mark)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn each_machine_written_field_names_its_newest_writer() {
        let r = record(json!({
            "ai_generated_fields": ["life_stage", "nutrients", "life_stage", "setting"],
            "enhancements": [
                {"agent": "old-bot", "run_id": "r1", "enhanced_at": "2026-01-01T00:00:00Z",
                 "fields": ["life_stage", "nutrients"]},
                {"agent": "new-bot", "run_id": "r2", "enhanced_at": "2026-02-01T00:00:00Z",
                 "fields": {"life_stage": {"before": [], "after": ["infancy"]}}},
            ]
        }));
        assert_eq!(ai_generated(&r), ["life_stage", "nutrients", "setting"]);
        let marks = ai_marks(&r);
        assert_eq!(marks["life_stage"].agent.as_deref(), Some("new-bot"));
        assert_eq!(marks["life_stage"].run_id.as_deref(), Some("r2"));
        assert_eq!(marks["nutrients"].agent.as_deref(), Some("old-bot"));
        // Named machine-written, but by no enhancement the record keeps.
        assert_eq!(marks["setting"], AiMark::default());
    }

    #[test]
    fn a_record_without_machine_values_has_no_marks() {
        assert!(ai_marks(&record(json!({"title": "x"}))).is_empty());
        assert!(ai_marks(&record(json!({"ai_generated_fields": "title"}))).is_empty());
        assert!(ai_marks(&record(json!({"ai_generated_fields": [1, null, ""]}))).is_empty());
    }
}
