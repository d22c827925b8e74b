//! One presentation schema per resource, over the contract's collection descriptors.
//!
//! A schema says which fields a record has, how each is edited, which are list columns, facets
//! and sort keys. The list, the detail view and the forms are all driven by it, so the seven
//! collections share one set of pages. Pure: builds natively and is unit-tested there.

pub mod backfill;
pub mod bounded_json;
pub mod bulk;
pub mod changes;
pub mod conflict;
pub mod csv;
pub mod enrich;
pub mod form;
pub mod guideline_import;
pub mod highlight;
pub mod history;
pub mod import_size;
pub mod keys;
pub mod labels;
pub mod overview;
mod presentation;
pub mod problem_words;
pub mod provenance;
pub mod record_rules;
pub mod replace;
pub mod search;
pub mod value;
pub mod views;
pub mod window;

use larder_api::Record;
use larder_contract::{Collection, Field, Type};
use serde_json::Value;

pub use presentation::SCHEMAS;

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

impl FieldKind {
    /// The editor of a value of the contract's type.
    pub fn of(ty: &Type) -> FieldKind {
        match ty {
            Type::Str {
                multiline: true, ..
            } => FieldKind::LongText,
            Type::Str { .. }
            | Type::Slug
            | Type::Urn(_)
            | Type::Uuid
            | Type::Lang
            | Type::Country
            | Type::Url
            | Type::Email
            | Type::DateTime
            | Type::YearDate
            | Type::FileType => FieldKind::Text,
            Type::Date => FieldKind::Date,
            Type::Enum(values) | Type::EnumFolded(values) => FieldKind::Enum(values),
            Type::Int { .. } | Type::Year => FieldKind::Integer,
            Type::Float { .. } => FieldKind::Decimal,
            Type::Bool => FieldKind::YesNo,
            Type::List { item, .. } => match item {
                Type::Enum(values) | Type::EnumFolded(values) => FieldKind::StringsOf(values),
                Type::Str { .. } | Type::Slug | Type::Urn(_) | Type::Uuid | Type::Lang => {
                    FieldKind::Strings
                }
                _ => FieldKind::Json,
            },
            Type::Shape(_) | Type::Loose(_) | Type::Tree | Type::Object | Type::Any => {
                FieldKind::Json
            }
        }
    }
}

/// A collection with its presentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schema {
    /// The contract's description of the collection.
    pub collection: &'static Collection,
    /// List columns after the title.
    pub columns: &'static [&'static str],
    /// Facet fields of the search.
    pub facets: &'static [&'static str],
    /// Sort choices besides relevance: `(sort expression, label)`.
    pub sorts: &'static [(&'static str, &'static str)],
}

/// The schema of the collection at `path` (a URL's `:collection`).
pub fn schema(path: &str) -> Option<&'static Schema> {
    SCHEMAS.iter().find(|s| s.collection.path == path)
}

/// The schema of a collection of the contract.
pub fn schema_of(collection: &Collection) -> &'static Schema {
    SCHEMAS
        .iter()
        .find(|s| s.collection.path == collection.path)
        .expect("every collection of the contract has a presentation")
}

/// `publication_year` → "Publication year" (or the language's `field:publication_year`); a few
/// acronyms spelled out.
pub fn label(name: &str) -> String {
    let key = format!("field:{name}");
    let translated = crate::i18n::t(&key);
    if translated != key {
        return translated;
    }
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
    larder_contract::text::capitalized(&words)
}

impl Schema {
    /// Every known field, in display order (create schema first).
    pub fn fields(&self) -> Vec<&'static Field> {
        self.collection.fields()
    }

    /// The known field `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.collection.field(name)
    }

    /// The editor of field `name`.
    pub fn kind_of(&self, name: &str) -> Option<FieldKind> {
        self.field(name).map(|f| FieldKind::of(&f.ty))
    }

    /// Whether the collection's records are addressed by URN.
    pub fn has_urn(&self) -> bool {
        self.collection.has_urn()
    }

    /// Whether an edit may change `name`: the update allow-list.
    pub fn is_editable(&self, name: &str) -> bool {
        self.collection.is_updatable(name)
    }

    /// Whether a create form asks for `name` (the slug has its own input; fields a machine
    /// writes, `Collection::provenance`, are never offered to a person).
    pub fn is_creatable(&self, name: &str) -> bool {
        name != "urn"
            && self.collection.is_creatable(name)
            && !self.collection.provenance.contains(&name)
    }

    /// Whether a create must carry `name`: the create schema's required fields, and those the
    /// console asks for because production fails to read records without them.
    pub fn is_required(&self, name: &str) -> bool {
        self.collection
            .create
            .iter()
            .any(|f| f.name == name && f.required)
            || self.collection.advised.contains(&name)
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
        ["title", "rule_text", "text"]
            .iter()
            .find_map(|name| {
                record
                    .get(*name)
                    .and_then(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
            })
            .map(|s| shorten(s, 120))
    }

    /// Fields of the record the contract does not know, in the record's order: shown read-only
    /// and never sent by an edit.
    pub fn unknown_fields<'r>(&self, record: &'r Record) -> Vec<(&'r String, &'r Value)> {
        record
            .iter()
            .filter(|(name, _)| self.field(name).is_none())
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
    fn every_collection_is_presented_with_known_fields() {
        for collection in larder_contract::COLLECTIONS.iter() {
            let schema = schema_of(collection);
            for column in schema.columns.iter().chain(schema.facets) {
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
    fn forms_follow_the_contract() {
        let articles = schema_of(&larder_contract::collections::ARTICLES);
        assert!(articles.is_required("venue"));
        assert!(
            articles.is_required("authors"),
            "production can't read an article without one"
        );
        assert!(!articles.is_creatable("status"));
        assert!(!articles.is_editable("status"));
        assert!(articles.is_editable("type"));
        let guidelines = schema_of(&larder_contract::collections::GUIDELINES);
        assert!(!guidelines.is_editable("guide_urn"));
        assert!(guidelines.is_creatable("guide_urn"));
        assert!(!guidelines.is_creatable("guide_region"));
        assert!(
            guidelines
                .collection
                .provenance
                .iter()
                .all(|machine| !guidelines.is_creatable(machine)),
            "a machine's fields are not a person's to fill in"
        );
        let passages = schema_of(&larder_contract::collections::TEXTBOOK_PASSAGES);
        assert!(!passages.is_creatable("structure_path"));
        assert!(passages.is_required("char_start"));
        assert_eq!(
            FieldKind::of(&guidelines.field("food_groups").unwrap().ty),
            FieldKind::StringsOf(larder_contract::enums::FOOD_GROUPS)
        );
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
        let articles = schema_of(&larder_contract::collections::ARTICLES);
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
        let guidelines = schema_of(&larder_contract::collections::GUIDELINES);
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
