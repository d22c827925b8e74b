//! Forms over a schema: which editors a create or an edit shows, and what they send.
//!
//! A form holds the editors' texts. A create sends the non-empty fields (plus the slug); an edit
//! starts from the record as it was read, applies only the editors that were touched, and lets
//! `larder_api::records::changed_fields` pick the mutable fields that differ. Fields the schema
//! does not know are never touched, so they survive an edit.

use std::collections::BTreeMap;

use larder_api::records::{changed_fields, update_body};
use larder_api::Record;
use larder_contract::slug::is_valid_slug;
use larder_contract::validate::{check_object, Extra, Problems};
use larder_contract::Field;
use serde_json::Value;

use super::problem_words::problem_message;
use super::record_rules;
use super::value::{effective_kind, parse, to_input};
use super::{FieldKind, Schema};
use crate::i18n::t;

/// Problems per field name (`urn` for the slug).
pub type Errors = BTreeMap<String, String>;

/// One editor of a form.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    /// The field.
    pub field: &'static Field,
    /// The editor it gets for this record's value.
    pub kind: FieldKind,
    /// The text it starts with.
    pub initial: String,
    /// False for immutables in an edit (shown, not editable).
    pub editable: bool,
    /// Whether a create must carry it.
    pub required: bool,
}

/// The editors of a create form: the create schema's fields (the slug has its own input),
/// pre-filled from `template` (e.g. a guideline's `guide_urn`).
pub fn create_editors(schema: &Schema, template: &Record) -> Vec<Editor> {
    // Where production's own default would refuse the create, the form starts elsewhere.
    let mut template = template.clone();
    for (field, value) in schema.collection.starts {
        template
            .entry(*field)
            .or_insert_with(|| Value::String((*value).into()));
    }
    schema
        .collection
        .create
        .iter()
        .filter(|f| schema.is_creatable(f.name))
        .map(|f| Editor {
            required: schema.is_required(f.name),
            ..editor(f, &template, true)
        })
        .collect()
}

/// The editors of an edit form for `record`: every known field, editable when the update
/// allow-list takes it.
pub fn edit_editors(schema: &Schema, record: &Record) -> Vec<Editor> {
    schema
        .fields()
        .into_iter()
        .map(|f| editor(f, record, schema.is_editable(f.name)))
        .collect()
}

fn editor(field: &'static Field, record: &Record, editable: bool) -> Editor {
    let value = record.get(field.name);
    let kind = effective_kind(FieldKind::of(&field.ty), value);
    Editor {
        field,
        kind,
        initial: to_input(kind, value),
        editable,
        required: false,
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// Problems the contract's schema finds in `body`, by the field they are about (the first
/// problem of each field), in the words the service would use.
pub fn problems_of(fields: &[Field], body: &Record) -> Errors {
    let mut problems = Problems::new();
    check_object(fields, Extra::Forbid, body, &mut problems);
    errors_of(&problems)
}

/// Problems by the field they are about (the first of each field), in the console's words.
fn errors_of(problems: &Problems) -> Errors {
    let mut errors = Errors::new();
    for problem in problems.shown() {
        let field = problem
            .loc
            .first()
            .and_then(|l| match l {
                larder_contract::validate::Loc::Key(k) => Some(k.clone()),
                larder_contract::validate::Loc::Index(_) => None,
            })
            .unwrap_or_default();
        let place = problem.dotted();
        let message = if place.contains('.') {
            format!("{place}: {}", problem_message(problem))
        } else {
            problem_message(problem)
        };
        errors.entry(field).or_insert(message);
    }
    errors
}

/// Checks the slug: a slug, or a full URN of this collection (production requires one).
pub fn slug_of(schema: &Schema, raw: &str) -> Result<Option<String>, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(t(
            "Required: a short name of lower-case letters and digits, e.g. vitamin-d-2024.",
        ));
    }
    let prefix = schema.collection.urn_prefix().unwrap_or_default();
    let slug = raw.strip_prefix(prefix.as_str()).unwrap_or(raw);
    if is_valid_slug(slug) {
        Ok(Some(slug.to_string()))
    } else {
        Err(t(
            "Use lower-case letters and digits, with single - or _ between them, e.g. vitamin-d-2024.",
        ))
    }
}

/// The body of a create, or the problems to show beside the fields.
pub fn create_body(
    schema: &Schema,
    slug: &str,
    editors: &[Editor],
    inputs: &BTreeMap<String, String>,
) -> Result<Record, Errors> {
    let mut body = Record::new();
    let mut errors = Errors::new();
    if schema.has_urn() {
        match slug_of(schema, slug) {
            Ok(Some(slug)) => {
                body.insert("urn".into(), Value::String(slug));
            }
            Ok(None) => {}
            Err(e) => {
                errors.insert("urn".into(), e);
            }
        }
    }
    for editor in editors {
        let name = editor.field.name;
        let raw = inputs
            .get(name)
            .map(String::as_str)
            .unwrap_or(&editor.initial);
        match parse(editor.kind, raw) {
            // A required field that may be empty (an article's content) goes as "".
            Ok(value)
                if is_empty(&value)
                    && matches!(editor.field.ty, larder_contract::Type::Str { min: 0, .. }) =>
            {
                if editor.field.required {
                    body.insert(name.into(), Value::String(String::new()));
                }
            }
            Ok(value) if is_empty(&value) => {
                if schema.is_required(name) {
                    errors.insert(name.into(), t("Required."));
                }
            }
            Ok(value) => {
                body.insert(name.into(), value);
            }
            Err(e) => {
                errors.insert(name.into(), e);
            }
        }
    }
    if errors.is_empty() {
        for (field, problem) in problems_of(schema.collection.create, &body) {
            errors.entry(field).or_insert(problem);
        }
    }
    if errors.is_empty() {
        let held = record_rules::with_defaults(schema, &body);
        errors = errors_of(&record_rules::problems(schema, &held));
    }
    if errors.is_empty() {
        Ok(body)
    } else {
        Err(errors)
    }
}

/// The record after an edit: `original` with the touched, editable editors applied.
pub fn edited_record(
    schema: &Schema,
    original: &Record,
    editors: &[Editor],
    inputs: &BTreeMap<String, String>,
) -> Result<Record, Errors> {
    let mut after = original.clone();
    let mut errors = Errors::new();
    for editor in editors.iter().filter(|e| e.editable) {
        let name = editor.field.name;
        let Some(raw) = inputs.get(name).filter(|raw| **raw != editor.initial) else {
            continue;
        };
        match parse(editor.kind, raw) {
            Ok(value) if is_empty(&value) && schema.is_required(name) => {
                errors.insert(name.into(), t("Required."));
            }
            // An emptied list is sent as `[]`, which production stores (it drops only `null`).
            Ok(value)
                if is_empty(&value)
                    && !value.is_array()
                    && !schema.collection.clearable.contains(&name) =>
            {
                errors.insert(
                    name.into(),
                    t("The service cannot empty this field once it has a value; give a new value or leave it as it was."),
                );
            }
            // Clearing a field the record never had is no change at all.
            Ok(value) if is_empty(&value) && !original.contains_key(name) => {}
            Ok(value) => {
                after.insert(name.into(), value);
            }
            Err(e) => {
                errors.insert(name.into(), e);
            }
        }
    }
    if errors.is_empty() {
        // Checked as sent: with the fields every update carries (an artifact's `file_type`).
        let changes = update_body(schema.collection, original, &after);
        errors = problems_of(schema.collection.update, &changes);
        // Nothing changed is nothing sent: a record that already breaks a rule is no error then.
        if errors.is_empty() && !changes.is_empty() {
            errors = errors_of(&record_rules::problems(schema, &after));
        }
    }
    if errors.is_empty() {
        Ok(after)
    } else {
        Err(errors)
    }
}

/// What the PATCH of an edit carries (the client adds an artifact's `file_type`).
pub fn changes(schema: &Schema, original: &Record, after: &Record) -> Record {
    changed_fields(schema.collection, original, after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::schema::schema_of;
    use larder_contract::collections::{ARTICLES, ARTIFACTS, GUIDELINES, GUIDES};
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap_or_default()
    }

    fn inputs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_new_guide_starts_as_a_draft_which_production_takes_without_a_verifier() {
        let guides = schema_of(&GUIDES);
        let editors = create_editors(guides, &Record::new());
        let status = editors.iter().find(|e| e.field.name == "status").unwrap();
        assert_eq!(status.initial, "draft");
        let body = create_body(
            guides,
            "a-guide",
            &editors,
            &inputs(&[
                ("title", "A"),
                ("description", "D"),
                ("license", "CC-BY-4.0"),
                ("url", "https://example.org/a"),
            ]),
        )
        .unwrap();
        assert_eq!(body["status"], json!("draft"));
        // A status chosen in a template (a copy) wins.
        let copied = record(json!({"status": "archived"}));
        let status = create_editors(guides, &copied)
            .into_iter()
            .find(|e| e.field.name == "status")
            .unwrap();
        assert_eq!(status.initial, "archived");
    }

    #[test]
    fn a_create_validates_slug_required_fields_and_types() {
        let articles = schema_of(&ARTICLES);
        let editors = create_editors(articles, &Record::new());
        // Production's later create takes `language` and `region` (production.md §10.5).
        assert!(editors
            .iter()
            .all(|e| !["urn", "id", "created_at", "status"].contains(&e.field.name)));
        assert!(editors.iter().any(|e| e.field.name == "language"));
        let errors = create_body(
            articles,
            "Bad Slug",
            &editors,
            &inputs(&[
                ("title", "T"),
                ("venue", "V"),
                ("authors", "A"),
                ("publication_year", "soon"),
            ]),
        )
        .unwrap_err();
        assert_eq!(
            errors.keys().map(String::as_str).collect::<Vec<_>>(),
            ["urn"],
            "the slug is checked first, the rest once it is right"
        );
        let errors = create_body(
            articles,
            "x",
            &editors,
            &inputs(&[("publication_year", "soon")]),
        )
        .unwrap_err();
        assert_eq!(
            errors.keys().map(String::as_str).collect::<Vec<_>>(),
            ["authors", "title", "venue"]
        );
        let errors = create_body(
            articles,
            "x",
            &editors,
            &inputs(&[
                ("title", "T"),
                ("venue", "V"),
                ("authors", "A"),
                ("publication_year", "soon"),
                ("url", "ftp://x"),
            ]),
        )
        .unwrap_err();
        assert_eq!(
            errors.keys().map(String::as_str).collect::<Vec<_>>(),
            ["publication_year", "url"],
            "the contract's own checks, as the service makes them"
        );

        let body = create_body(
            articles,
            "urn:article:vit-d",
            &editors,
            &inputs(&[
                ("title", " Vitamin D "),
                ("venue", "Bone Journal"),
                ("authors", "A. Author"),
                ("publication_year", "2024"),
                ("tags", "bones\nsun"),
                ("open_access", ""),
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(body),
            json!({"urn": "vit-d", "title": "Vitamin D", "venue": "Bone Journal", "authors": ["A. Author"],
                   "content": "", "publication_year": "2024", "tags": ["bones", "sun"]})
        );
        // Production requires a slug.
        assert!(create_body(articles, "", &editors, &inputs(&[("title", "T")])).is_err());
    }

    #[test]
    fn a_guideline_create_keeps_its_guide() {
        let guidelines = schema_of(&GUIDELINES);
        let template = record(json!({"guide_urn": "urn:guide:eat-well-2024"}));
        let editors = create_editors(guidelines, &template);
        let body = create_body(
            guidelines,
            "",
            &editors,
            &inputs(&[("rule_text", "Eat fish.")]),
        )
        .unwrap();
        assert_eq!(body["guide_urn"], "urn:guide:eat-well-2024");
        assert!(!body.contains_key("urn"), "guidelines have no slug");
    }

    #[test]
    fn an_edit_sends_only_touched_changed_mutable_fields_and_keeps_unknown_ones() {
        let guides = schema_of(&GUIDES);
        let original = record(json!({
            "urn": "urn:guide:a", "type": "guide", "title": "A", "tags": ["x"], "page_count": 3,
            "publication_date": "2024", "x_future_field": {"keep": true}, "revision": {"n": 1}
        }));
        let editors = edit_editors(guides, &original);
        let type_editor = editors.iter().find(|e| e.field.name == "type");
        assert!(type_editor.is_none(), "production's guides have no type");
        let date = editors
            .iter()
            .find(|e| e.field.name == "publication_date")
            .unwrap();
        assert_eq!(
            date.kind,
            FieldKind::Text,
            "a non-date string is edited as text"
        );

        let after = edited_record(
            guides,
            &original,
            &editors,
            &inputs(&[
                ("title", "B"),
                ("tags", "x"),
                ("page_count", "3"),
                ("notes", ""),
                ("publication_date", "2024"),
            ]),
        )
        .unwrap();
        assert_eq!(after["x_future_field"], json!({"keep": true}));
        assert_eq!(
            Value::Object(changes(guides, &original, &after)),
            json!({"title": "B"})
        );

        let errors = edited_record(
            guides,
            &original,
            &editors,
            &inputs(&[("title", ""), ("page_count", "x")]),
        )
        .unwrap_err();
        assert_eq!(errors.len(), 2);

        let errors =
            edited_record(guides, &original, &editors, &inputs(&[("page_count", "")])).unwrap_err();
        assert!(
            errors["page_count"].contains("cannot empty"),
            "production drops a null instead of clearing"
        );
        // An emptied list is `[]`, which production stores: sent, not refused.
        let after = edited_record(guides, &original, &editors, &inputs(&[("tags", "")])).unwrap();
        assert_eq!(
            Value::Object(changes(guides, &original, &after)),
            json!({"tags": []})
        );
    }

    #[test]
    fn an_edit_breaking_a_record_rule_is_said_before_sending_an_untouched_one_is_not() {
        let guidelines = schema_of(&GUIDELINES);
        let stored = |visibility: &str| {
            record(
                json!({"id": "1", "guide_urn": "urn:guide:a", "rule_text": "r",
                "status": "active", "review_status": "unreviewed", "visibility": visibility}),
            )
        };
        let internal = stored("internal");
        let editors = edit_editors(guidelines, &internal);
        let made_public = inputs(&[("visibility", "public")]);
        let errors = edited_record(guidelines, &internal, &editors, &made_public).unwrap_err();
        assert!(errors["visibility"].contains("verified"), "{errors:?}");
        // Already public and unverified, saved untouched: nothing to send, no error.
        let public = stored("public");
        let editors = edit_editors(guidelines, &public);
        assert!(edited_record(guidelines, &public, &editors, &inputs(&[])).is_ok());
    }

    #[test]
    fn an_artifact_edit_is_checked_with_the_file_type_every_update_carries() {
        let artifacts = schema_of(&ARTIFACTS);
        let stored = record(
            json!({"id": "a1", "parent_urn": "urn:guide:g", "title": "Old", "file_type": "txt"}),
        );
        let editors = edit_editors(artifacts, &stored);
        let after = edited_record(artifacts, &stored, &editors, &inputs(&[("title", "New")]))
            .expect("a title alone is a valid artifact edit");
        assert_eq!(
            Value::Object(changes(artifacts, &stored, &after)),
            json!({"title": "New"})
        );
    }

    #[test]
    fn immutables_are_not_editable() {
        let guidelines = schema_of(&GUIDELINES);
        let original = record(json!({"id": "1", "guide_urn": "urn:guide:a", "rule_text": "r"}));
        let editors = edit_editors(guidelines, &original);
        let guide = editors
            .iter()
            .find(|e| e.field.name == "guide_urn")
            .unwrap();
        assert!(!guide.editable);
        let after = edited_record(
            guidelines,
            &original,
            &editors,
            &inputs(&[("guide_urn", "urn:guide:b")]),
        )
        .unwrap();
        assert!(changes(guidelines, &original, &after).is_empty());
    }

    #[test]
    fn the_console_never_sends_a_key_production_refuses() {
        for collection in larder_contract::COLLECTIONS.iter() {
            let schema = schema_of(collection);
            // Every known field, and one the console does not know, differ between the two.
            let mut before = Record::new();
            let mut after = Record::new();
            for field in collection.fields() {
                before.insert(field.name.into(), json!("old"));
                after.insert(field.name.into(), json!("new"));
            }
            before.insert("x_unknown".into(), json!(1));
            after.insert("x_unknown".into(), json!(2));
            let sent = changes(schema, &before, &after);
            for key in sent.keys() {
                assert!(
                    collection.is_updatable(key),
                    "{}: {key} is sent in an update",
                    collection.path
                );
            }
            assert_eq!(sent.len(), collection.update.len(), "{}", collection.path);
            // A create form offers the create schema only.
            for editor in create_editors(schema, &Record::new()) {
                assert!(
                    collection.is_creatable(editor.field.name),
                    "{}: {}",
                    collection.path,
                    editor.field.name
                );
            }
            let editable: Vec<&str> = edit_editors(schema, &before)
                .into_iter()
                .filter(|e| e.editable)
                .map(|e| e.field.name)
                .collect();
            let allowed: Vec<&str> = collection.update.iter().map(|f| f.name).collect();
            let mut editable_sorted = editable.clone();
            editable_sorted.sort_unstable();
            let mut allowed_sorted = allowed.clone();
            allowed_sorted.sort_unstable();
            assert_eq!(
                editable_sorted, allowed_sorted,
                "{}: the edit form offers the allow-list",
                collection.path
            );
        }
    }
}
