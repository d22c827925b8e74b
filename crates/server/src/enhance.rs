//! `PATCH {collection}/{urn}/enhance` (production has it on articles only) and the built-in
//! `extractive` agent.
//!
//! There is no model on this machine, so the only agent is honest about what it is: it derives
//! `ai_tags` (the record's most frequent content words), `ai_category` (a small nutrition
//! lexicon) and `ai_key_takeaways` (the leading sentences) from the record's own text.

use std::collections::HashMap;

use axum::extract::State;
use larder_contract::collections::{ENHANCE_FIELDS, GUIDES};
use larder_contract::limits::{
    MAX_ENHANCEMENT_EVENTS, MAX_ENHANCEMENT_HISTORY_BYTES, MAX_ENHANCEMENT_VALUE_BYTES,
};
use larder_contract::validate::{check_object, check_value, Extra, Loc, Problems};
use larder_contract::{Collection, Type};
use rusqlite::params;
use serde_json::{json, Map, Value};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams};
use crate::model;
use crate::routes::{blocking, find, require, viewer};
use crate::store::now;
use crate::SharedState;

/// The agents this service runs.
pub const AGENTS: &[&str] = &["extractive"];
/// The fields the extractive agent derives.
pub const DERIVABLE: &[&str] = &["ai_tags", "ai_category", "ai_key_takeaways"];

const STOPWORDS: &[&str] = &[
    "about",
    "after",
    "also",
    "among",
    "been",
    "being",
    "between",
    "both",
    "could",
    "demo",
    "does",
    "each",
    "from",
    "have",
    "having",
    "into",
    "main",
    "more",
    "most",
    "only",
    "other",
    "over",
    "record",
    "same",
    "should",
    "such",
    "than",
    "that",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "under",
    "were",
    "what",
    "when",
    "which",
    "while",
    "with",
    "within",
    "without",
    "would",
    "your",
    "study",
    "summarises",
];

const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "micronutrients",
        &[
            "vitamin", "vitamins", "mineral", "minerals", "iron", "zinc", "iodine", "iodised",
            "folate", "folic", "calcium", "selenium", "anaemia",
        ],
    ),
    (
        "cardiometabolic health",
        &[
            "cardiovascular",
            "blood",
            "pressure",
            "cholesterol",
            "diabetes",
            "heart",
            "hypertension",
            "obesity",
            "sodium",
            "weight",
        ],
    ),
    (
        "maternal and child nutrition",
        &[
            "pregnancy",
            "pregnant",
            "children",
            "child",
            "infant",
            "infants",
            "breastfeeding",
            "school",
            "adolescents",
            "pupils",
        ],
    ),
    (
        "dietary patterns",
        &[
            "mediterranean",
            "vegan",
            "vegans",
            "vegetarian",
            "fasting",
            "pattern",
            "patterns",
            "plant",
            "processed",
        ],
    ),
    (
        "gut health",
        &[
            "microbiome",
            "microbial",
            "fiber",
            "fibre",
            "probiotics",
            "gut",
            "diarrhoea",
        ],
    ),
    (
        "food composition",
        &[
            "composition",
            "nutrient",
            "nutrients",
            "table",
            "database",
            "portion",
            "portions",
        ],
    ),
    (
        "healthy ageing",
        &[
            "elderly",
            "older",
            "ageing",
            "aging",
            "cognition",
            "memory",
            "bone",
        ],
    ),
];

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4 && w.chars().any(char::is_alphabetic))
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
}

fn text_of(doc: &Value, field: &str) -> String {
    match &doc[field] {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(". "),
        _ => String::new(),
    }
}

fn leading_sentences(text: &str, count: usize) -> Vec<String> {
    let mut sentences = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        current.push(*c);
        let at_end =
            matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if at_end {
            let sentence = current.trim().to_string();
            if sentence.split_whitespace().count() >= 3 {
                sentences.push(sentence);
            }
            current.clear();
            if sentences.len() == count {
                return sentences;
            }
        }
    }
    let rest = current.trim();
    if rest.split_whitespace().count() >= 3 && sentences.len() < count {
        sentences.push(rest.to_string());
    }
    sentences
}

/// What the extractive agent derives from a record's own text.
pub fn extract(doc: &Value) -> Map<String, Value> {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let mut order = 0;
    let weighted = [
        ("title", 3),
        ("keywords", 2),
        ("abstract", 1),
        ("content", 1),
        ("description", 1),
        ("rule_text", 1),
        ("text", 1),
        ("notes", 1),
    ];
    for (field, weight) in weighted {
        for word in words(&text_of(doc, field)) {
            let entry = counts.entry(word).or_insert((0, order));
            entry.0 += weight;
            order += 1;
        }
    }
    let mut ranked: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.1 .1.cmp(&b.1 .1)));
    let tags: Vec<String> = ranked.iter().take(5).map(|(w, _)| w.clone()).collect();
    let category = CATEGORIES
        .iter()
        .map(|(name, lexicon)| {
            let score: usize = ranked
                .iter()
                .filter(|(w, _)| lexicon.contains(&w.as_str()))
                .map(|(_, (n, _))| n)
                .sum();
            (score, *name)
        })
        .filter(|(score, _)| *score > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, name)| name)
        .unwrap_or("general nutrition");
    let source = ["abstract", "content", "description", "rule_text", "text"]
        .iter()
        .map(|f| text_of(doc, f))
        .find(|t| !t.trim().is_empty())
        .unwrap_or_default();
    let mut derived = Map::new();
    derived.insert("ai_tags".into(), json!(tags));
    derived.insert("ai_category".into(), json!(category));
    derived.insert(
        "ai_key_takeaways".into(),
        json!(leading_sentences(&source, 3)),
    );
    derived
}

/// The fields an enhancement asks for: values given, or (a reference-service extension) names
/// for the extractive agent to derive.
enum Wanted {
    Values(Map<String, Value>),
    Derive(Vec<String>),
}

/// Splits an enhance body into the agent and what it asks for. Production's body is
/// `{agent, fields: {ai_tags?, ai_category?, ai_key_takeaways?}}`, or the same keys flat beside
/// `agent` (stray top-level keys are merged into `fields`, nested values winning); any other key
/// is a 422. Where the dialect `derives` (the reference service), `fields` may also be a list of
/// names, or missing, and the extractive agent then derives the values.
fn read_body(mut body: Map<String, Value>, derives: bool) -> ApiResult<(String, Wanted)> {
    let mut problems = Problems::new();
    let agent = body.remove("agent");
    let agent = match &agent {
        None => {
            problems.at_field("agent", "missing", "Field required");
            None
        }
        Some(value) => problems.within(Loc::Key("agent".into()), |p| {
            check_value(&Type::Slug, value, p)
        }),
    };
    let nested = body.remove("fields");
    let names = match &nested {
        Some(Value::Array(names)) if derives => Some(names.clone()),
        _ => None,
    };
    let mut values = body;
    match nested {
        Some(Value::Object(inner)) => values.extend(inner),
        Some(Value::Array(_)) if names.is_some() => {}
        None | Some(Value::Null) => {}
        Some(other) => problems.add(
            Some(Loc::Key("fields".into())),
            "model_type",
            "Input should be a valid dictionary or instance of a model",
            Some(&other),
            None,
        ),
    }
    let values = problems.within(Loc::Key("fields".into()), |p| {
        check_object(ENHANCE_FIELDS, Extra::Forbid, &values, p)
    });
    if let Some(names) = &names {
        for (index, name) in names.iter().enumerate() {
            if !name.as_str().is_some_and(|n| DERIVABLE.contains(&n)) {
                problems.within(Loc::Key("fields".into()), |p| {
                    p.add(
                        Some(Loc::Index(index)),
                        "enum",
                        format!("Input should be {}", DERIVABLE.join(", ")),
                        Some(name),
                        None,
                    )
                });
            }
        }
    }
    crate::model::finish(&problems)?;
    let agent = agent
        .and_then(|a| a.as_str().map(str::to_string))
        .unwrap_or_default();
    let values: Map<String, Value> = values.into_iter().filter(|(_, v)| !v.is_null()).collect();
    if let Some(names) = names {
        let names: Vec<String> = names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        return Ok((agent, Wanted::Derive(names)));
    }
    if !values.is_empty() {
        return Ok((agent, Wanted::Values(values)));
    }
    if derives {
        return Ok((
            agent,
            Wanted::Derive(DERIVABLE.iter().map(|f| f.to_string()).collect()),
        ));
    }
    Err(ApiError::invalid_field(
        "fields",
        "value_error",
        "Value error, fields must carry at least one of ai_tags, ai_category, ai_key_takeaways",
    ))
}

/// `PATCH {collection}/{urn}/enhance`: writes only the derived fields (`ai_tags`, `ai_category`,
/// `ai_key_takeaways`) and records the run; answers `{urn, run_id, enhanced_fields, agent}`.
pub async fn enhance(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(identifier): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(&caller, collection.roles.enhance, "enhancing records")?.clone();
    let body = model::object(body)?;
    let (agent, wanted) = read_body(body, state.dialect.enhance_derives)?;
    blocking(move || {
        let row = find(&state, collection, &identifier, viewer(&identity))?;
        // A published guide is frozen for enhance too, as for PATCH and DELETE: its derived
        // fields are part of what was published.
        if collection.path == GUIDES.path {
            model::rules::guide_unfrozen(&row.doc)?;
        }
        let changes: Map<String, Value> = match wanted {
            Wanted::Values(values) => values,
            Wanted::Derive(names) => {
                if !AGENTS.contains(&agent.as_str()) {
                    let message = format!(
                        "Value error, the {agent} agent is not run by this service; send the values in fields, or use one of: {}",
                        AGENTS.join(", ")
                    );
                    return Err(ApiError::invalid_field("agent", "value_error", message));
                }
                extract(&row.doc)
                    .into_iter()
                    .filter(|(field, _)| names.contains(field))
                    .collect()
            }
        };
        let mut doc = row.doc.as_object().cloned().unwrap_or_default();
        let timestamp = now();
        let enhanced: Vec<String> = changes.keys().cloned().collect();
        let run_id = uuid::Uuid::new_v4().to_string();
        // The audit event production appends to the record (production.md §5.3), with each
        // field's value before and after so a history can show what the agent changed. Who ran
        // it stays in `enhance_runs` only: a record is read by many, a caller's key is not theirs.
        let event = audit_event(&doc, &changes, &run_id, &agent, &timestamp);
        let mut events = doc
            .get("enhancements")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        events.push(event);
        bound_history(&mut events);
        let mut generated: Vec<Value> = doc
            .get("ai_generated_fields")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for name in &enhanced {
            if !generated.iter().any(|g| g == name) {
                generated.push(json!(name));
            }
        }
        doc.extend(changes.clone());
        doc.insert("enhancements".into(), Value::Array(events));
        doc.insert("ai_generated_fields".into(), Value::Array(generated));
        doc.insert("updated_at".into(), json!(timestamp));
        let fields = json!(enhanced);
        let (record_id, caller_key) = (row.id.clone(), identity.owner_key());
        state.store.records().replace_and(collection, &row.id, &Value::Object(doc), |tx| {
            tx.execute(
                "INSERT INTO enhance_runs (id, record_id, collection, agent, caller, fields, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![run_id, record_id, collection.path, agent, caller_key, fields.to_string(), timestamp],
            )
            .map(|_| ())
        })?;
        Ok(Envelope(json!({
            "urn": row.urn,
            "run_id": run_id,
            "enhanced_fields": enhanced,
            "agent": agent,
        })))
    })
    .await
}

/// One entry of a record's `enhancements`, as production's article enhance writes it
/// (`src/entities/articles.py`, `enhance`): `{agent, run_id, enhanced_at, fields: [names],
/// before: {field: value}, after: {field: value}}` (`before` is `null` for a field that was
/// unset). A value over [`MAX_ENHANCEMENT_VALUE_BYTES`] of JSON is left out of its side and
/// named in `omitted` (`"after.ai_tags"`), as a guideline's enrichment event does.
fn audit_event(
    doc: &Map<String, Value>,
    changes: &Map<String, Value>,
    run_id: &str,
    agent: &str,
    timestamp: &str,
) -> Value {
    let mut before = Map::new();
    let mut after = Map::new();
    let mut omitted = Vec::new();
    for (field, new_value) in changes {
        let old = doc.get(field).cloned().unwrap_or(Value::Null);
        for (side, value, into) in [
            ("before", old, &mut before),
            ("after", new_value.clone(), &mut after),
        ] {
            if json_bytes(&value) > MAX_ENHANCEMENT_VALUE_BYTES {
                omitted.push(format!("{side}.{field}"));
            } else {
                into.insert(field.clone(), value);
            }
        }
    }
    let mut event = json!({
        "agent": agent,
        "run_id": run_id,
        "enhanced_at": timestamp,
        "fields": changes.keys().collect::<Vec<_>>(),
        "before": before,
        "after": after,
    });
    if !omitted.is_empty() {
        event["omitted"] = json!(omitted);
    }
    event
}

/// Bytes of `value` as JSON, without building the text.
pub(crate) fn json_bytes(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Keeps the newest events that fit in [`MAX_ENHANCEMENT_EVENTS`] and
/// [`MAX_ENHANCEMENT_HISTORY_BYTES`] (the newest always stays). A record enhanced before the
/// byte bound existed sheds its oldest events on its next enhancement.
pub(crate) fn bound_history(events: &mut Vec<Value>) {
    let mut bytes = 2; // the brackets
    let mut kept = 0;
    for event in events.iter().rev() {
        let size = json_bytes(event) + 1;
        if kept > 0
            && (kept == MAX_ENHANCEMENT_EVENTS || bytes + size > MAX_ENHANCEMENT_HISTORY_BYTES)
        {
            break;
        }
        bytes += size;
        kept += 1;
    }
    let excess = events.len() - kept;
    events.drain(..excess);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extractive_agent_reads_the_record() {
        let doc = json!({
            "title": "Vitamin D and bone health in older adults",
            "abstract": "A review of vitamin D supplementation and fracture risk. Vitamin D lowered falls in adults over 65! Short.",
        });
        let derived = extract(&doc);
        let tags: Vec<&str> = derived["ai_tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(tags[0], "vitamin");
        assert!(tags.contains(&"bone"));
        // Bone and older outweigh vitamin alone.
        assert_eq!(derived["ai_category"], "healthy ageing");
        assert_eq!(
            derived["ai_key_takeaways"],
            json!([
                "A review of vitamin D supplementation and fracture risk.",
                "Vitamin D lowered falls in adults over 65!"
            ])
        );
        assert_eq!(extract(&json!({}))["ai_category"], "general nutrition");
    }
}
