//! One presentation schema per resource, over the contract's collection descriptors.
//!
//! A schema says which fields a record has, how each is edited, which are list columns, facets
//! and sort keys. The list, the detail view and the forms are all driven by it, so the seven
//! collections share one set of pages. Pure: builds natively and is unit-tested there.

mod fields;
pub mod form;
pub mod highlight;
pub mod replace;
pub mod value;
pub mod window;

use larder_api::Record;
use larder_contract::{Collection, IdentifierKind};
use serde_json::Value;

pub use fields::SCHEMAS;

/// How a field is shown and edited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// One line of text.
    Text,
    /// Several lines of text.
    LongText,
    /// A whole number.
    Integer,
    /// Any number.
    Decimal,
    /// true or false (or unset).
    YesNo,
    /// A list of free strings (chips).
    Strings,
    /// A list of strings from these values (chips with suggestions).
    StringsOf(&'static [&'static str]),
    /// One of these values (a select).
    Enum(&'static [&'static str]),
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// Any JSON (objects, lists of objects): a JSON editor.
    Json,
}

/// One known field of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The wire name.
    pub name: &'static str,
    /// Its editor.
    pub kind: FieldKind,
}

impl Field {
    /// The label people read.
    pub fn label(&self) -> String {
        label(self.name)
    }
}

/// A resource's presentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schema {
    /// The contract's descriptor (path, identifier, immutables, roles).
    pub collection: Collection,
    /// Known fields, in display order.
    pub fields: &'static [Field],
    /// List columns after the title.
    pub columns: &'static [&'static str],
    /// Fields a create must carry.
    pub required: &'static [&'static str],
    /// Fields the service computes on every read (e.g. a guide's `artifacts`): never sent.
    pub derived: &'static [&'static str],
    /// Facet fields of the search.
    pub facets: &'static [&'static str],
    /// Sort choices besides relevance: `(sort expression, label)`.
    pub sorts: &'static [(&'static str, &'static str)],
}

/// Fields the service sets on every record; never in a create form.
const SERVICE_SET: &[&str] = &["id", "urn", "creator", "created_at", "updated_at"];

/// Fields the service derives at create time (wire-notes: structure path and node of a passage,
/// the region of a guideline's guide), so a create form does not ask for them.
const DERIVED_ON_CREATE: &[&str] = &["structure_node_id", "structure_path", "guide_region"];

/// The schema of the collection at `path`.
pub fn schema(path: &str) -> Option<&'static Schema> {
    SCHEMAS.iter().find(|s| s.collection.path == path)
}

/// `publication_year` → "Publication year"; a few acronyms spelled out.
pub fn label(name: &str) -> String {
    match name {
        "urn" => return "URN".into(),
        "id" => return "ID".into(),
        "doi" => return "DOI".into(),
        "url" => return "URL".into(),
        "isbn10" => return "ISBN-10".into(),
        "isbn13" => return "ISBN-13".into(),
        _ => {}
    }
    let words = name.replace('_', " ");
    let words = words
        .replace("urn", "URN")
        .replace(" url", " URL")
        .replace(" id", " ID")
        .replace("ai ", "AI ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Schema {
    /// The known field `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether the collection's records are addressed by URN.
    pub fn has_urn(&self) -> bool {
        matches!(self.collection.identifier, IdentifierKind::Urn { .. })
    }

    /// Whether an edit may change `name`.
    pub fn is_editable(&self, name: &str) -> bool {
        self.collection.is_mutable(name) && !self.derived.contains(&name)
    }

    /// Whether a create form asks for `name`.
    pub fn is_creatable(&self, name: &str) -> bool {
        let service_typed = name == "type" && self.collection.record_type.is_some();
        !(SERVICE_SET.contains(&name)
            || DERIVED_ON_CREATE.contains(&name)
            || self.derived.contains(&name)
            || service_typed)
    }

    /// The record's URN, else its id.
    pub fn identifier_of(&self, record: &Record) -> Option<String> {
        let urn = record
            .get("urn")
            .and_then(Value::as_str)
            .filter(|_| self.has_urn());
        urn.or_else(|| record.get("id").and_then(Value::as_str))
            .map(str::to_string)
    }

    /// What a record is called in lists: its title, else the start of its rule or text.
    pub fn title_of(&self, record: &Record) -> Option<String> {
        ["title", "rule_text", "text", "file_name"]
            .iter()
            .find_map(|name| {
                record
                    .get(*name)
                    .and_then(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
            })
            .map(|s| shorten(s, 120))
    }

    /// Fields of the record this schema does not know, in the record's order: shown read-only
    /// and kept untouched by an edit.
    pub fn unknown_fields<'r>(&self, record: &'r Record) -> Vec<(&'r String, &'r Value)> {
        record
            .iter()
            .filter(|(name, _)| {
                self.field(name).is_none()
                    && !SERVICE_SET.contains(&name.as_str())
                    && name.as_str() != "type"
                    && !self.derived.contains(&name.as_str())
            })
            .collect()
    }
}

/// The search filter `field:value` for a facet value; strings with spaces, quotes or brackets
/// are quoted so the service reads them as one value.
pub fn filter(field: &str, value: &Value) -> String {
    let text = value::display(value);
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.@".contains(c));
    if plain {
        format!("{field}:{text}")
    } else {
        format!(
            "{field}:\"{}\"",
            text.replace('\\', "\\\\").replace('"', "\\\"")
        )
    }
}

/// At most `max` characters, with an ellipsis when cut.
pub fn shorten(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_collection_has_a_schema_whose_fields_are_unique() {
        for collection in larder_contract::COLLECTIONS {
            let schema = schema(collection.path).expect(collection.path);
            let mut names: Vec<_> = schema.fields.iter().map(|f| f.name).collect();
            names.sort_unstable();
            let before = names.len();
            names.dedup();
            assert_eq!(before, names.len(), "{}", collection.path);
            for column in schema.columns.iter().chain(schema.required) {
                assert!(
                    schema.field(column).is_some(),
                    "{}: {column}",
                    collection.path
                );
            }
        }
        assert!(schema("households").is_none());
    }

    #[test]
    fn immutables_come_from_the_descriptor() {
        let guides = schema("guides").unwrap();
        assert!(!guides.is_editable("type"));
        assert!(!guides.is_editable("guidelines"));
        assert!(guides.is_editable("title"));
        assert!(schema("articles").unwrap().is_editable("type"));
        let guidelines = schema("guidelines").unwrap();
        assert!(!guidelines.is_editable("guide_urn"));
        assert!(guidelines.is_creatable("guide_urn"));
        assert!(!guidelines.is_creatable("guide_region"));
        assert!(!schema("textbooks").unwrap().is_creatable("type"));
        assert!(!schema("textbook-passages")
            .unwrap()
            .is_creatable("structure_path"));
    }

    #[test]
    fn labels_read_as_words() {
        assert_eq!(label("publication_year"), "Publication year");
        assert_eq!(label("guide_urn"), "Guide URN");
        assert_eq!(label("file_url"), "File URL");
        assert_eq!(label("artifact_id"), "Artifact ID");
        assert_eq!(label("ai_tags"), "AI tags");
        assert_eq!(label("isbn13"), "ISBN-13");
    }

    #[test]
    fn titles_identifiers_and_unknown_fields() {
        let articles = schema("articles").unwrap();
        let record = json!({"urn": "urn:article:a", "id": "1", "title": "  A  ", "x_new": [1], "status": "active"});
        let record = record.as_object().unwrap();
        assert_eq!(
            articles.identifier_of(record).as_deref(),
            Some("urn:article:a")
        );
        assert_eq!(articles.title_of(record).as_deref(), Some("A"));
        let unknown: Vec<_> = articles
            .unknown_fields(record)
            .into_iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(unknown, ["x_new"]);
        let guideline = json!({"id": "u-1", "rule_text": "Eat more vegetables", "urn": "ignored"});
        let guidelines = schema("guidelines").unwrap();
        assert_eq!(
            guidelines
                .identifier_of(guideline.as_object().unwrap())
                .as_deref(),
            Some("u-1")
        );
        assert_eq!(
            guidelines
                .title_of(guideline.as_object().unwrap())
                .as_deref(),
            Some("Eat more vegetables")
        );
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(filter("language", &json!("en")), "language:en");
        assert_eq!(
            filter("publication_year", &json!(2024)),
            "publication_year:2024"
        );
        assert_eq!(
            filter("region", &json!("West \"A\" [x]")),
            r#"region:"West \"A\" [x]""#
        );
    }
}
