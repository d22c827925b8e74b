//! JSON read into a `serde_json::Value` with a budget of values, for the import dialogs: a file
//! within its size can still be millions of tiny values (8 MiB of `[0,0,…]` took 414 MiB as one
//! `Value`), so reading stops, with an error naming the line, at the first value past the budget.
//! Nesting is bounded by serde_json's own limit of 128 levels.
//!
//! Hand-written, as a serde seed of some fifty lines: serde_json bounds nesting but not the
//! number of values. Crates that read JSON within such budgets exist (jsonx-lib, reliakit-json)
//! but build values of their own type with a second JSON parser, where the contract checks
//! serde_json's `Value` and serde_json is in the build already; building the `Value` through
//! serde keeps every rule of serde_json (numbers, escapes, duplicate keys: the last wins).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::i18n::tf;

/// Why a text was not read.
#[derive(Debug)]
pub enum JsonError {
    /// Not JSON: serde_json's message, which names the line and column.
    Syntax(serde_json::Error),
    /// More than `max` values; the first one past the budget is on `line`.
    TooManyValues { max: usize, line: usize },
}

impl JsonError {
    /// The problem in the console's language.
    pub fn message(&self) -> String {
        match self {
            JsonError::Syntax(e) => tf("Not valid JSON: {error}", &[("error", &e.to_string())]),
            JsonError::TooManyValues { max, line } => tf(
                "More than {max} values; the file is too large to check (JSON line {line}).",
                &[
                    ("max", &crate::i18n::format::number(*max as f64)),
                    ("line", &line.to_string()),
                ],
            ),
        }
    }
}

/// The JSON document `text`, if it has at most `max_values` values (every number, string,
/// boolean, null, list and object counts one).
pub fn parse(text: &str, max_values: usize) -> Result<Value, JsonError> {
    let budget = Budget {
        left: Cell::new(max_values),
        spent: Cell::new(false),
    };
    let mut reader = serde_json::Deserializer::from_str(text);
    let read = Seed(&budget)
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value));
    read.map_err(|e| match budget.spent.get() {
        true => JsonError::TooManyValues {
            max: max_values,
            line: e.line(),
        },
        false => JsonError::Syntax(e),
    })
}

struct Budget {
    left: Cell<usize>,
    spent: Cell<bool>,
}

impl Budget {
    fn spend<E: de::Error>(&self) -> Result<(), E> {
        match self.left.get() {
            0 => {
                self.spent.set(true);
                Err(E::custom("too many values"))
            }
            n => {
                self.left.set(n - 1);
                Ok(())
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Seed<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, reader: D) -> Result<Value, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::from(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.spend()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        self.0.spend()?;
        let mut list = Vec::new();
        while let Some(item) = items.next_element_seed(self)? {
            list.push(item);
        }
        Ok(Value::Array(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        self.0.spend()?;
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let value = entries.next_value_seed(self)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_past_the_budget_are_refused_with_their_line() {
        assert_eq!(parse("[1, 2]", 3).unwrap(), serde_json::json!([1, 2]));
        match parse("[1,\n2,\n3]", 3) {
            Err(JsonError::TooManyValues { max: 3, line: 3 }) => {}
            other => panic!("{other:?}"),
        }
        assert!(parse(r#"{"a": {"b": null}}"#, 3).is_ok());
        assert!(parse(r#"{"a": {"b": null}}"#, 2).is_err());
        assert!(matches!(parse("[1,", 10), Err(JsonError::Syntax(_))));
        assert!(matches!(parse("[1] x", 10), Err(JsonError::Syntax(_))));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(parse(&deep, 1000), Err(JsonError::Syntax(_))));
    }

    #[test]
    fn sixteen_mib_of_zeros_stop_at_the_budget() {
        let zeros = format!("[{}0]", "0,".repeat(8 << 20));
        match parse(&zeros, 1000) {
            Err(JsonError::TooManyValues { max: 1000, line: 1 }) => {}
            other => panic!("{other:?}"),
        }
    }

    /// Checks against serde_json itself over random documents (native only: proptest's
    /// randomness has no wasm32 backend).
    #[cfg(not(target_arch = "wasm32"))]
    mod oracle {
        use super::*;
        use proptest::prelude::*;

        fn json() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                any::<i64>().prop_map(Value::from),
                any::<u64>().prop_map(Value::from),
                (-1e12f64..1e12).prop_map(Value::from),
                "\\PC{0,8}".prop_map(Value::String),
            ];
            leaf.prop_recursive(4, 40, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    prop::collection::btree_map("[a-c]{0,2}", inner, 0..6)
                        .prop_map(|m| Value::Object(m.into_iter().collect())),
                ]
            })
        }

        fn count(value: &Value) -> usize {
            1 + match value {
                Value::Array(items) => items.iter().map(count).sum(),
                Value::Object(map) => map.values().map(count).sum(),
                _ => 0,
            }
        }

        proptest! {
            #[test]
            fn reads_as_serde_json_does_within_the_budget(value in json(), pretty in any::<bool>()) {
                let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
                let values = count(&value);
                prop_assert_eq!(parse(&text, values).unwrap(), serde_json::from_str::<Value>(&text).unwrap());
                let over = matches!(parse(&text, values - 1), Err(JsonError::TooManyValues { .. }));
                prop_assert!(over);
            }

            #[test]
            fn refuses_what_serde_json_refuses(text in "[\\[\\]{}:,\"0-9a-z \n.-]{0,24}") {
                prop_assert_eq!(parse(&text, usize::MAX).ok(), serde_json::from_str::<Value>(&text).ok());
            }
        }
    }
}
