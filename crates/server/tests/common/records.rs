//! Bodies production would accept, built from the contract's schemas: every required field with a
//! valid value of its type, the parents a record needs, and the workflow fields that avoid a 409.

use larder_contract::collections::{
    ARTICLES, ARTIFACTS, GUIDELINES, GUIDES, RCOLLECTIONS, TEXTBOOKS, TEXTBOOK_PASSAGES,
};
use larder_contract::{Collection, Field, Type};
use serde_json::{json, Map, Value};

use super::TestServer;

/// A published guide (active and public): nothing may change it.
pub const PUBLISHED_GUIDE: &str = "urn:guide:eat-well-2024";
/// An active, verified, internal guide: curators may still change it.
pub const OPEN_GUIDE: &str = "urn:guide:healthy-plates-children";
/// The demo textbook (public, one artifact, 14 pages).
pub const TEXTBOOK: &str = "urn:textbook:foundations-of-nutrition-science";

/// Records of the demo data that new records hang from.
#[derive(Clone, Debug)]
pub struct Fixtures {
    /// A guide guidelines may be added to and changed under.
    pub guide: String,
    /// The demo textbook.
    pub textbook: String,
    /// Its one artifact.
    pub textbook_artifact: String,
}

impl TestServer {
    /// The demo records new records hang from.
    pub async fn fixtures(&self, token: &str) -> Fixtures {
        let textbook = self
            .call("GET", &format!("textbooks/{TEXTBOOK}"), Some(token), None)
            .await;
        let artifact = textbook.body["result"]["artifacts"][0]["id"]
            .as_str()
            .expect("the demo textbook has an artifact")
            .to_string();
        Fixtures {
            guide: OPEN_GUIDE.into(),
            textbook: TEXTBOOK.into(),
            textbook_artifact: artifact,
        }
    }
}

/// A valid value of `ty` for field `name`.
pub fn sample(name: &str, ty: &Type, tag: &str) -> Value {
    match ty {
        Type::Str { .. } => json!(format!("{name} {tag}")),
        Type::Slug => json!(slug(tag)),
        Type::Urn(_) => json!(format!("urn:thing:{}", slug(tag))),
        Type::Uuid => json!(uuid::Uuid::new_v4().to_string()),
        Type::Lang => json!("en"),
        Type::Country => json!("GB"),
        Type::Url => json!(format!("https://example.org/{}", slug(tag))),
        Type::Email => json!(format!("{}@example.org", slug(tag))),
        Type::Date => json!("2024-01-31"),
        Type::DateTime => json!("2024-01-31T10:00:00Z"),
        Type::Enum(values) | Type::EnumFolded(values) => json!(values[0]),
        Type::Int { min, .. } => json!(min.unwrap_or(1).max(1)),
        Type::Float { min, .. } => json!(min.unwrap_or(0.0)),
        Type::Bool => json!(true),
        Type::YearDate | Type::Year => json!(2024),
        Type::FileType => json!("txt"),
        Type::Object => json!({}),
        Type::Any => json!(null),
        Type::List { item, min, .. } => Value::Array(
            (0..(*min).max(1))
                .map(|i| sample(name, item, &format!("{tag}{i}")))
                .collect(),
        ),
        Type::Shape(fields) | Type::Loose(fields) => Value::Object(required_of(fields, tag)),
        Type::Tree => json!({"roots": [{"id": "n1", "title": "Part 1", "page_start": 1}]}),
    }
}

/// `tag` as a slug.
pub fn slug(tag: &str) -> String {
    let lowered: String = tag
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    lowered
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

fn required_of(fields: &[Field], tag: &str) -> Map<String, Value> {
    fields
        .iter()
        .filter(|f| f.required)
        .map(|f| (f.name.to_string(), sample(f.name, &f.ty, tag)))
        .collect()
}

/// A create body production accepts for `collection`, tagged `tag`.
pub fn create_body(collection: &Collection, tag: &str, fixtures: &Fixtures) -> Value {
    let mut body = required_of(collection.create, tag);
    if collection.path == ARTICLES.path {
        body.insert("authors".into(), json!(["A. Author"]));
    } else if collection.path == GUIDES.path {
        // The default, active and unreviewed, is refused (409); active and verified is visible to
        // every reader and, internal, still editable.
        body.insert("status".into(), json!("active"));
        body.insert("review_status".into(), json!("verified"));
    } else if collection.path == GUIDELINES.path {
        body.insert("guide_urn".into(), json!(fixtures.guide));
        body.insert("status".into(), json!("active"));
        body.insert("review_status".into(), json!("verified"));
    } else if collection.path == TEXTBOOK_PASSAGES.path {
        body.insert("textbook_urn".into(), json!(fixtures.textbook));
        body.insert("artifact_id".into(), json!(fixtures.textbook_artifact));
        body.insert("page_no".into(), json!(3));
        body.insert("char_start".into(), json!(0));
        body.insert("char_end".into(), json!(5));
    } else if collection.path == ARTIFACTS.path {
        body.insert("parent_urn".into(), json!(fixtures.guide));
    } else if collection.path == TEXTBOOKS.path || collection.path == RCOLLECTIONS.path {
        body.insert("status".into(), json!("active"));
        body.insert("review_status".into(), json!("verified"));
        body.insert("visibility".into(), json!("public"));
    }
    Value::Object(body)
}

/// An update body production accepts for `collection`: a new title (or text), and an artifact's
/// required `file_type`.
pub fn update_body(collection: &Collection) -> Value {
    let mut body = Map::new();
    for field in collection.update.iter().filter(|f| f.required) {
        body.insert(field.name.into(), sample(field.name, &field.ty, "changed"));
    }
    if collection.is_updatable("title") {
        body.insert("title".into(), json!("changed"));
    } else if collection.is_updatable("text") {
        body.insert("text".into(), json!("changed"));
    }
    Value::Object(body)
}
