//! What the service sends and takes: the records of every collection and household, typed and
//! tolerant, the untyped [`Record`] the schema-driven screens work on, and the answers several
//! operations share (search results, messages, import and replace results). Uses only
//! [`crate::machinery`]'s error and decoding.
//!
//! Every type keeps the fields it does not know in `extra` and writes them back untouched, so a
//! read-modify-write through these types never drops what a newer service added. Missing or
//! `null` lists read as empty, missing or `null` objects as `{}`, and `publication_year` may be a
//! number or a string. Each record type's fields are the contract's, by name, type and
//! optionality (`tests/contract_fields.rs`, `tests/contract_types.rs`).

use std::fmt;

use larder_contract::Collection;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::machinery::error::ApiError;

mod article;
mod artifact;
mod fctable;
mod guide;
mod household;
mod member_data;
mod organization;
mod passage;
mod record;
mod results;
mod textbook;

pub use article::Article;
pub use artifact::{Artifact, NewArtifact};
pub use fctable::FcTable;
pub use guide::{Guide, Guideline};
pub use household::{
    edited_optional_text, edited_text, Household, HouseholdChanges, Member, MemberChanges,
    NewHousehold, NewMember, Profile, ProfileChanges, ProfileInput,
};
pub use member_data::{
    AdaptedRecipe, Favorite, Meal, MealPlan, Revocation, SavedItem, SavedMealPlan,
};
pub use organization::{Organization, RCollection};
pub use passage::{Passage, PassageInput, ReplacePassages, ReplaceResult};
pub use record::{Listed, Record};
pub use results::{EnhanceResult, FacetCount, GuidelineImport, Hit, Message, SearchResults};
pub use textbook::{Node, StructureTree, Textbook};

/// A typed record of one data collection.
pub trait Resource: Serialize + DeserializeOwned {
    /// The collection the record lives in.
    const COLLECTION: Collection;

    /// The identifier to address the record by: its URN when it has one, else its id.
    fn identifier(&self) -> Option<&str>;

    /// The record as a JSON object, unknown fields included.
    fn to_record(&self) -> Result<Record, ApiError> {
        match serde_json::to_value(self) {
            Ok(Value::Object(record)) => Ok(record),
            Ok(other) => Err(ApiError::Caller(format!(
                "a {} serialises to {other}, not to an object",
                Self::COLLECTION.singular
            ))),
            Err(error) => Err(ApiError::Caller(error.to_string())),
        }
    }
}

/// `null` reads as the default (an empty list, an empty object, an empty string).
pub(crate) fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}

/// A publication year: a number in most records, a string in some (`"2019"`, `"2019-2020"`).
#[derive(Clone, Debug, PartialEq)]
pub enum Year {
    /// A whole number.
    Number(i64),
    /// Anything else the service sent, kept as text.
    Text(String),
}

impl Year {
    /// The year as a number, when it reads as one.
    pub fn as_number(&self) -> Option<i64> {
        match self {
            Year::Number(year) => Some(*year),
            Year::Text(text) => text.trim().parse().ok(),
        }
    }
}

impl fmt::Display for Year {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Year::Number(year) => write!(f, "{year}"),
            Year::Text(text) => f.write_str(text),
        }
    }
}

impl From<i64> for Year {
    fn from(year: i64) -> Year {
        Year::Number(year)
    }
}

impl Serialize for Year {
    // Written back in the form it was read, so an unchanged year never shows up as a change.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Year::Number(year) => serializer.serialize_i64(*year),
            Year::Text(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for Year {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Year, D::Error> {
        struct YearVisitor;
        impl Visitor<'_> for YearVisitor {
            type Value = Year;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a year as a number or a string")
            }
            fn visit_i64<E: de::Error>(self, year: i64) -> Result<Year, E> {
                Ok(Year::Number(year))
            }
            fn visit_u64<E: de::Error>(self, year: u64) -> Result<Year, E> {
                Ok(i64::try_from(year)
                    .map(Year::Number)
                    .unwrap_or_else(|_| Year::Text(year.to_string())))
            }
            // A whole number written with a fraction (`2019.0`) is a year; `2019.5` is none.
            fn visit_f64<E: de::Error>(self, year: f64) -> Result<Year, E> {
                if year.fract() != 0.0 {
                    return Err(E::invalid_value(de::Unexpected::Float(year), &self));
                }
                if year.abs() < 1e15 {
                    Ok(Year::Number(year as i64))
                } else {
                    Ok(Year::Text(year.to_string()))
                }
            }
            fn visit_str<E: de::Error>(self, year: &str) -> Result<Year, E> {
                Ok(Year::Text(year.to_string()))
            }
        }
        deserializer.deserialize_any(YearVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn years_in_both_forms_round_trip() {
        for (wire, number) in [
            (json!(2019), Some(2019)),
            (json!("2019"), Some(2019)),
            (json!("2019-2020"), None),
            (json!(2019.0), Some(2019)),
            (json!(u64::MAX), None),
        ] {
            let year: Year = serde_json::from_value(wire.clone()).unwrap();
            assert_eq!(year.as_number(), number, "{wire}");
            if wire.is_string() || wire.is_i64() {
                assert_eq!(serde_json::to_value(&year).unwrap(), wire);
            }
        }
        assert!(serde_json::from_value::<Year>(json!(true)).is_err());
        assert!(serde_json::from_value::<Year>(json!(2019.5)).is_err());
        assert!(serde_json::from_value::<Year>(json!({})).is_err());
    }
}
