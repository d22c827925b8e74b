//! The keys production's web front end writes into a profile's free-form objects, read into
//! typed fields and written back without touching anything else.
//!
//! `nutritional_preferences`: `food_likes`, `food_dislikes` (lists of foods) and the daily
//! targets `calories`, `protein`, `carbs`, `fat` (numbers), as wisefood-ui's
//! `NutritionalPreferences` type (app/services/householdsApi.ts) declares them.
//! `properties`: `gender` (one of [`GENDERS`]), `goals` (a list) and `memories` (what its
//! assistant remembered, each `{text, source}`). These three were not found in the public code
//! the team could read; they are this console's choice of names for what issue 22 lists, and a
//! profile that spells them otherwise simply keeps them as unknown keys.
//!
//! A key is "known" only when its value has the expected type: a `gender` that is a number, say,
//! stays with the unknown keys, so the typed form never changes a value's type. Everything not
//! known goes back exactly as it came.

use std::collections::BTreeSet;

use serde_json::{Map, Number, Value};

/// Where a known key lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Object {
    Preferences,
    Properties,
}

/// The list keys: (object, key).
pub const LISTS: [(Object, &str); 3] = [
    (Object::Preferences, "food_likes"),
    (Object::Preferences, "food_dislikes"),
    (Object::Properties, "goals"),
];
/// The number keys, all in `nutritional_preferences`.
pub const NUMBERS: [&str; 4] = ["calories", "protein", "carbs", "fat"];
/// The values the `gender` select offers (a stored value outside them is kept and offered too).
pub const GENDERS: [&str; 3] = ["female", "male", "other"];

/// One remembered thing: its words, where it came from, and the stored object as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Memory {
    pub text: String,
    pub source: Option<String>,
    pub stored: Value,
}

/// The known keys' values, as a form edits them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Known {
    pub food_likes: Vec<String>,
    pub food_dislikes: Vec<String>,
    pub goals: Vec<String>,
    /// `calories`, `protein`, `carbs`, `fat`, in [`NUMBERS`] order.
    pub numbers: [Option<Number>; 4],
    pub gender: Option<String>,
    pub memories: Vec<Memory>,
}

impl Known {
    /// The list stored under `key` (one of [`LISTS`]).
    pub fn list_mut(&mut self, key: &str) -> &mut Vec<String> {
        match key {
            "food_likes" => &mut self.food_likes,
            "food_dislikes" => &mut self.food_dislikes,
            _ => &mut self.goals,
        }
    }

    /// The list stored under `key` (one of [`LISTS`]).
    pub fn list(&self, key: &str) -> &Vec<String> {
        match key {
            "food_likes" => &self.food_likes,
            "food_dislikes" => &self.food_dislikes,
            _ => &self.goals,
        }
    }
}

/// A profile's two objects split into known fields and the rest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub known: Known,
    pub other_preferences: Map<String, Value>,
    pub other_properties: Map<String, Value>,
    /// Which known keys were there, so an emptied list is written back as `[]`, not dropped.
    present: BTreeSet<(Object, String)>,
}

fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

fn memories(value: &Value) -> Option<Vec<Memory>> {
    value
        .as_array()?
        .iter()
        .map(|m| {
            let object = m.as_object()?;
            let text = object.get("text")?.as_str()?.to_string();
            let source = match object.get("source") {
                None | Some(Value::Null) => None,
                Some(s) => Some(s.as_str()?.to_string()),
            };
            Some(Memory {
                text,
                source,
                stored: m.clone(),
            })
        })
        .collect()
}

/// Splits `preferences` and `properties` into the known keys (of the expected type) and the rest.
pub fn split(preferences: &Map<String, Value>, properties: &Map<String, Value>) -> Split {
    let mut out = Split {
        other_preferences: preferences.clone(),
        other_properties: properties.clone(),
        ..Split::default()
    };
    for (object, key) in LISTS {
        let rest = match object {
            Object::Preferences => &mut out.other_preferences,
            Object::Properties => &mut out.other_properties,
        };
        if let Some(list) = rest.get(key).and_then(strings) {
            rest.remove(key);
            *out.known.list_mut(key) = list;
            out.present.insert((object, key.to_string()));
        }
    }
    for (i, key) in NUMBERS.iter().enumerate() {
        if let Some(Value::Number(n)) = out.other_preferences.get(*key) {
            out.known.numbers[i] = Some(n.clone());
            out.other_preferences.remove(*key);
        }
    }
    if let Some(Value::String(g)) = out.other_properties.get("gender") {
        out.known.gender = Some(g.clone());
        out.other_properties.remove("gender");
    }
    if let Some(list) = out.other_properties.get("memories").and_then(memories) {
        out.known.memories = list;
        out.other_properties.remove("memories");
        out.present.insert((Object::Properties, "memories".into()));
    }
    out
}

/// The two objects to save: `other_*` (as edited in the JSON editor, unknown keys untouched)
/// with the known fields written over them. An empty list is written only when the key was
/// there before; an empty number or gender removes its key.
pub fn merge(
    split: &Split,
    known: &Known,
    other_preferences: &Map<String, Value>,
    other_properties: &Map<String, Value>,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut preferences = other_preferences.clone();
    let mut properties = other_properties.clone();
    for (object, key) in LISTS {
        let list = known.list(key);
        if list.is_empty() && !split.present.contains(&(object, key.to_string())) {
            continue;
        }
        let value = Value::Array(list.iter().cloned().map(Value::String).collect());
        match object {
            Object::Preferences => preferences.insert(key.into(), value),
            Object::Properties => properties.insert(key.into(), value),
        };
    }
    for (i, key) in NUMBERS.iter().enumerate() {
        if let Some(n) = &known.numbers[i] {
            preferences.insert((*key).into(), Value::Number(n.clone()));
        }
    }
    if let Some(g) = known.gender.as_ref().filter(|g| !g.is_empty()) {
        properties.insert("gender".into(), Value::String(g.clone()));
    }
    if !known.memories.is_empty()
        || split
            .present
            .contains(&(Object::Properties, "memories".into()))
    {
        let list = known.memories.iter().map(|m| m.stored.clone()).collect();
        properties.insert("memories".into(), Value::Array(list));
    }
    (preferences, properties)
}

/// A number field's text that is not a number.
#[derive(Debug, PartialEq, Eq)]
pub struct NotANumber;

/// A number field's text as the number to store: empty is none; text that still reads as
/// `original` keeps it exactly (`2000` stays an integer, `1.50` is not rewritten); whole numbers
/// are integers. `Err` when the text is not a number.
pub fn number_from_text(
    text: &str,
    original: Option<&Number>,
) -> Result<Option<Number>, NotANumber> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(n) = original.filter(|n| n.to_string() == text) {
        return Ok(Some(n.clone()));
    }
    if let Ok(i) = text.parse::<i64>() {
        return Ok(Some(Number::from(i)));
    }
    larder_contract::text::parse_f64(text)
        .and_then(Number::from_f64)
        .map(Some)
        .ok_or(NotANumber)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn an_untouched_split_merges_back_to_the_same_objects() {
        let prefs = map(
            json!({"food_likes": ["fish"], "calories": 2000, "protein": 1.5,
            "texture": {"soft": true}, "food_dislikes": []}),
        );
        let props = map(json!({"gender": "female", "goals": ["sleep better"],
            "memories": [{"text": "likes tea", "source": "chat", "at": 3}], "diabetes": "type 2"}));
        let s = split(&prefs, &props);
        assert_eq!(s.known.food_likes, ["fish"]);
        assert_eq!(s.known.gender.as_deref(), Some("female"));
        assert_eq!(s.known.memories[0].source.as_deref(), Some("chat"));
        assert_eq!(s.other_preferences, map(json!({"texture": {"soft": true}})));
        assert_eq!(s.other_properties, map(json!({"diabetes": "type 2"})));
        let (p, q) = merge(&s, &s.known, &s.other_preferences, &s.other_properties);
        assert_eq!(p, prefs);
        assert_eq!(q, props);
    }

    #[test]
    fn editing_a_known_key_leaves_unknown_keys_and_types_alone() {
        let prefs =
            map(json!({"food_likes": ["fish"], "calories": 2000, "x-source": [1, {"a": null}]}));
        let props = map(json!({"zodiac": "leo", "gender": 7}));
        let s = split(&prefs, &props);
        // A gender that is not a string is not "known": it stays as it was.
        assert_eq!(s.known.gender, None);
        let mut known = s.known.clone();
        known.food_likes.push("salads".into());
        known.gender = None;
        known.numbers[0] = number_from_text("2100", s.known.numbers[0].as_ref()).unwrap();
        known.goals.push("more fibre".into());
        let (p, q) = merge(&s, &known, &s.other_preferences, &s.other_properties);
        assert_eq!(
            p,
            map(
                json!({"food_likes": ["fish", "salads"], "calories": 2100, "x-source": [1, {"a": null}]})
            )
        );
        assert_eq!(
            q,
            map(json!({"zodiac": "leo", "gender": 7, "goals": ["more fibre"]}))
        );
    }

    #[test]
    fn emptied_lists_stay_lists_and_absent_ones_stay_absent() {
        let s = split(&map(json!({"food_dislikes": ["liver"]})), &Map::new());
        let mut known = s.known.clone();
        known.food_dislikes.clear();
        let (p, q) = merge(&s, &known, &s.other_preferences, &s.other_properties);
        assert_eq!(p, map(json!({"food_dislikes": []})));
        assert!(q.is_empty());
    }

    #[test]
    fn a_list_of_non_strings_is_not_known() {
        let prefs = map(json!({"food_likes": ["fish", 3]}));
        let s = split(&prefs, &Map::new());
        assert!(s.known.food_likes.is_empty());
        assert_eq!(s.other_preferences, prefs);
        let props = map(json!({"memories": [{"source": "chat"}]}));
        assert_eq!(split(&Map::new(), &props).other_properties, props);
    }

    #[test]
    fn numbers_keep_their_form() {
        let original = Number::from_f64(1.5).unwrap();
        assert_eq!(
            number_from_text(" 1.5 ", Some(&original)),
            Ok(Some(original.clone()))
        );
        assert_eq!(number_from_text("1800", None), Ok(Some(Number::from(1800))));
        assert_eq!(
            number_from_text("2.25", None),
            Ok(Number::from_f64(2.25).map(Some).unwrap())
        );
        assert_eq!(number_from_text("", Some(&original)), Ok(None));
        assert_eq!(number_from_text("lots", None), Err(NotANumber));
        assert_eq!(number_from_text("NaN", None), Err(NotANumber));
    }
}
