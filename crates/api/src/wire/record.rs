//! A record as the service sends it, untyped: what the schema-driven screens work on.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A record as the service sent it: every field kept, known or not.
pub type Record = Map<String, Value>;

/// One entry of a listing: production answers identifier strings; some services answer objects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Listed {
    /// A URN or a UUID.
    Identifier(String),
    /// A record (or part of one) carrying `urn` or `id`.
    Record(Record),
}

impl Listed {
    /// The URN or id, whichever form the entry has.
    pub fn identifier(&self) -> Option<&str> {
        match self {
            Listed::Identifier(identifier) => Some(identifier),
            Listed::Record(record) => record
                .get("urn")
                .or_else(|| record.get("id"))
                .and_then(Value::as_str),
        }
    }
}
