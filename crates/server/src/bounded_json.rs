//! JSON bodies parsed within a memory budget: [`BoundedJson`] builds the `serde_json::Value` of
//! a body while counting what each value will cost in memory, and refuses the body (413) as soon
//! as the count passes the budget or the nesting passes its depth, before building the rest.
//! Every JSON body goes through it (`JsonBody` in `error.rs` with 24 MiB; the guideline import
//! and the passage replacement with their own budgets).
//!
//! Why: a body's size in bytes says little about its size in memory. Eight MiB of `{"":0},`
//! becomes 1.2 million maps of several hundred bytes each (984 MiB for one guideline import
//! before this). serde_json offers only its recursion limit, so the count is a `DeserializeSeed`
//! over serde_json's own parser; the values built are serde_json's.

use std::cell::Cell;
use std::fmt;

use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// What one value costs, in bytes, before its text: a `Value` itself.
const VALUE: usize = std::mem::size_of::<Value>();
/// What a map's first entry costs beyond its key and value: the B-tree's first node (about 11
/// slots of key and value). An empty map costs a `Value` only.
const MAP: usize = 512;
/// What a map entry costs beyond its key's text and its value: the key's `String`.
const ENTRY: usize = std::mem::size_of::<String>();

/// The most a parsed body may cost, and how deep it may nest.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Bytes of memory the built values may take, by the estimate above.
    pub bytes: usize,
    /// Arrays and objects inside one another.
    pub depth: usize,
}

/// How deep a JSON body nests at most: a structure tree of the contract's 32 levels is 66 deep
/// in JSON (the body, the tree, then a list and a node per level), so a tree a little deeper
/// still gets the contract's 422.
pub const MAX_DEPTH: usize = 80;

/// Parses `bytes` as one JSON value within `budget`.
pub fn parse(bytes: &[u8], budget: Budget) -> Result<Value, ParseError> {
    let left = Cell::new(budget.bytes);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let seed = Seed {
        left: &left,
        depth: budget.depth,
    };
    let value = seed.deserialize(&mut deserializer);
    let over = left.get() == 0;
    match value {
        Ok(value) => {
            deserializer.end().map_err(ParseError::Syntax)?;
            Ok(value)
        }
        Err(_) if over => Err(ParseError::OverBudget),
        Err(error) if error.to_string().starts_with(TOO_DEEP) => Err(ParseError::TooDeep),
        Err(error) => Err(ParseError::Syntax(error)),
    }
}

const TOO_DEEP: &str = "nested deeper than";

/// Why a body was not parsed.
#[derive(Debug)]
pub enum ParseError {
    /// Not JSON.
    Syntax(serde_json::Error),
    /// Its values would pass the memory budget.
    OverBudget,
    /// It nests deeper than the budget allows.
    TooDeep,
    /// Its `Content-Type` is not JSON.
    NotJson,
    /// Its bytes pass the route's body limit.
    TooLarge,
    /// Its bytes could not be read (axum's words).
    Unreadable(String),
}

/// A JSON body whose values may take `MIB` MiB of memory at most (by the estimate above) and
/// nest [`MAX_DEPTH`] deep; the route's byte limit on the body still applies first.
pub struct BoundedJson<const MIB: usize>(pub Value);

impl<S: Send + Sync, const MIB: usize> FromRequest<S> for BoundedJson<MIB> {
    // The answer it becomes is `error.rs`'s (`From<ParseError> for ApiError`): this module
    // knows nothing of the service's envelopes.
    type Rejection = ParseError;

    async fn from_request(request: Request, state: &S) -> Result<BoundedJson<MIB>, ParseError> {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<mime_type::Essence>().ok())
            .is_some_and(|essence| essence.is_json());
        if !json {
            return Err(ParseError::NotJson);
        }
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    ParseError::TooLarge
                } else {
                    ParseError::Unreadable(rejection.body_text())
                }
            })?;
        let budget = Budget {
            bytes: MIB << 20,
            depth: MAX_DEPTH,
        };
        Ok(BoundedJson(parse(&bytes, budget)?))
    }
}

/// `application/json` and `application/<anything>+json`, as axum's `Json` accepts.
mod mime_type {
    pub struct Essence(String);

    impl std::str::FromStr for Essence {
        type Err = ();
        fn from_str(value: &str) -> Result<Essence, ()> {
            let essence = value.split(';').next().unwrap_or_default().trim();
            Ok(Essence(essence.to_ascii_lowercase()))
        }
    }

    impl Essence {
        pub fn is_json(&self) -> bool {
            self.0 == "application/json"
                || (self.0.starts_with("application/") && self.0.ends_with("+json"))
        }
    }
}

/// Builds one value, charging its cost to `left` first.
#[derive(Clone, Copy)]
struct Seed<'a> {
    left: &'a Cell<usize>,
    depth: usize,
}

impl Seed<'_> {
    fn charge<E: serde::de::Error>(&self, cost: usize) -> Result<(), E> {
        match self.left.get().checked_sub(cost) {
            Some(left) if left > 0 => {
                self.left.set(left);
                Ok(())
            }
            _ => {
                self.left.set(0);
                Err(E::custom("over the memory budget"))
            }
        }
    }

    fn inner<E: serde::de::Error>(&self) -> Result<Seed<'_>, E> {
        if self.depth == 0 {
            return Err(E::custom(format!("{TOO_DEEP} the budget allows")));
        }
        Ok(Seed {
            left: self.left,
            depth: self.depth - 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Value, E> {
        self.charge(VALUE)?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Value, E> {
        self.charge(VALUE)?;
        Ok(Value::from(value))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Value, E> {
        self.charge(VALUE)?;
        Ok(Value::from(value))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Value, E> {
        self.charge(VALUE)?;
        Ok(serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Value, E> {
        self.charge(VALUE + value.len())?;
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Value, E> {
        self.charge(VALUE + value.len())?;
        Ok(Value::String(value))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.charge(VALUE)?;
        Ok(Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.charge(VALUE)?;
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.charge(VALUE)?;
        let inner = self.inner()?;
        let mut entries = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // An empty map allocates nothing; its first entry allocates the tree's first node.
            let node = if entries.is_empty() { MAP } else { 0 };
            self.charge(node + ENTRY + key.len())?;
            let value = map.next_value_seed(inner)?;
            entries.insert(key, value);
        }
        Ok(Value::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SMALL: Budget = Budget {
        bytes: 64 << 10,
        depth: 8,
    };

    #[test]
    fn values_within_the_budget_parse_as_serde_json_does() {
        let text = r#"{"a": [1, -2, 3.5, "x", null, true, {"b": []}], "c": "\u00e9"}"#;
        let parsed = parse(text.as_bytes(), SMALL).unwrap();
        assert_eq!(parsed, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(parsed["c"], json!("é"));
    }

    #[test]
    fn many_small_objects_are_refused_before_they_are_built() {
        let text = format!("[{}{{}}]", "{\"\":0},".repeat(200));
        assert!(text.len() < 2_000);
        assert!(matches!(
            parse(text.as_bytes(), SMALL),
            Err(ParseError::OverBudget)
        ));
        let long = format!("\"{}\"", "x".repeat(70_000));
        assert!(matches!(
            parse(long.as_bytes(), SMALL),
            Err(ParseError::OverBudget)
        ));
    }

    #[test]
    fn nesting_past_the_depth_is_refused() {
        let deep = format!("{}{}", "[".repeat(9), "]".repeat(9));
        assert!(matches!(
            parse(deep.as_bytes(), SMALL),
            Err(ParseError::TooDeep)
        ));
        let fine = format!("{}{}", "[".repeat(8), "]".repeat(8));
        assert!(parse(fine.as_bytes(), SMALL).is_ok());
    }

    #[test]
    fn malformed_and_trailing_text_are_syntax_errors() {
        for bad in ["{", "[1,]", "{} {}", "nul"] {
            assert!(
                matches!(parse(bad.as_bytes(), SMALL), Err(ParseError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
