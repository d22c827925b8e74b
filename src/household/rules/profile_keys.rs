//! The keys production's front end writes into a profile's free-form objects (production.md
//! §10.1; names in `larder_contract::profile`), read into typed fields and written back without
//! touching anything else.
//!
//! `nutritional_preferences`: `gender` (a string, one of `profile::GENDERS` or kept as stored),
//! `food_likes` and `food_dislikes` (lists of foods) and the targets `calories`, `protein`,
//! `carbs`, `fat` (numbers). `properties`: `dietary_goals` (`{slug, label}` items, a bare string
//! read as its slug), `memory_log` (what FoodChat and FoodScholar learned) and `standing_seeds`
//! (`{name}` items). Larder once guessed `properties.gender`, `goals` and `memories`; those are
//! unknown keys now, which `owners::earlier` offers to move.
//!
//! A key is "known" only when its value has the expected type: a `gender` that is a number, or
//! a `memory_log` that is not a list, stays with the unknown keys, so the typed form never
//! changes a value's type. The three `properties` lists are known whatever their items are: an
//! item of an unexpected type is shown as stored and kept in its place. Everything not known
//! goes back exactly as it came.

use std::collections::BTreeSet;

use larder_contract::profile::{
    DIETARY_GOALS, FOOD_DISLIKES, FOOD_LIKES, GENDER, MEMORY_LOG, STANDING_SEEDS, TARGETS,
};
use serde_json::{Map, Number, Value};

/// Where a known key lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Object {
    Preferences,
    Properties,
}

/// The lists of words, in `nutritional_preferences`.
pub const WORD_LISTS: [&str; 2] = [FOOD_LIKES, FOOD_DISLIKES];
/// The lists kept item by item as stored, in `properties`.
pub const ITEM_LISTS: [&str; 3] = [DIETARY_GOALS, MEMORY_LOG, STANDING_SEEDS];
/// The number keys, all in `nutritional_preferences`.
pub const NUMBERS: [&str; 4] = TARGETS;

/// The known keys' values, as a form edits them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Known {
    pub food_likes: Vec<String>,
    pub food_dislikes: Vec<String>,
    /// `calories`, `protein`, `carbs`, `fat`, in [`NUMBERS`] order.
    pub numbers: [Option<Number>; 4],
    pub gender: Option<String>,
    /// `dietary_goals`, `memory_log`, `standing_seeds`, in [`ITEM_LISTS`] order.
    pub items: [Vec<Value>; 3],
}

impl Known {
    /// The word list stored under `key` (one of [`WORD_LISTS`]).
    pub fn words_mut(&mut self, key: &str) -> &mut Vec<String> {
        if key == FOOD_LIKES {
            &mut self.food_likes
        } else {
            &mut self.food_dislikes
        }
    }

    fn words(&self, key: &str) -> &Vec<String> {
        if key == FOOD_LIKES {
            &self.food_likes
        } else {
            &self.food_dislikes
        }
    }

    /// `dietary_goals` as stored.
    pub fn goals(&self) -> &[Value] {
        &self.items[0]
    }

    /// `memory_log` as stored.
    pub fn memory_log(&self) -> &[Value] {
        &self.items[1]
    }

    /// `standing_seeds` as stored.
    pub fn standing_seeds(&self) -> &[Value] {
        &self.items[2]
    }
}

/// A profile's two objects split into known fields and the rest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub known: Known,
    pub other_preferences: Map<String, Value>,
    pub other_properties: Map<String, Value>,
    /// Which known lists were there, so an emptied list is written back as `[]`, not dropped.
    present: BTreeSet<(Object, String)>,
}

fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Splits `preferences` and `properties` into the known keys (of the expected type) and the rest.
pub fn split(preferences: &Map<String, Value>, properties: &Map<String, Value>) -> Split {
    let mut out = Split {
        other_preferences: preferences.clone(),
        other_properties: properties.clone(),
        ..Split::default()
    };
    for key in WORD_LISTS {
        if let Some(list) = out.other_preferences.get(key).and_then(strings) {
            out.other_preferences.remove(key);
            *out.known.words_mut(key) = list;
            out.present.insert((Object::Preferences, key.to_string()));
        }
    }
    for (i, key) in ITEM_LISTS.iter().enumerate() {
        if let Some(Value::Array(items)) = out.other_properties.get(*key) {
            out.known.items[i] = items.clone();
            out.other_properties.remove(*key);
            out.present.insert((Object::Properties, key.to_string()));
        }
    }
    for (i, key) in NUMBERS.iter().enumerate() {
        if let Some(Value::Number(n)) = out.other_preferences.get(*key) {
            out.known.numbers[i] = Some(n.clone());
            out.other_preferences.remove(*key);
        }
    }
    // An empty gender stays among the other keys: as "not specified" a save would delete it.
    if let Some(Value::String(g)) = out
        .other_preferences
        .get(GENDER)
        .filter(|g| g.as_str() != Some(""))
    {
        out.known.gender = Some(g.clone());
        out.other_preferences.remove(GENDER);
    }
    out
}

/// The two objects to save: `other_*` (as edited in the JSON editor, unknown keys untouched)
/// with the known fields written over them. An empty list is written only when the key was
/// there before; an empty number or gender removes its key (production's front end deletes
/// `gender` when it is cleared).
pub fn merge(
    split: &Split,
    known: &Known,
    other_preferences: &Map<String, Value>,
    other_properties: &Map<String, Value>,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut preferences = other_preferences.clone();
    let mut properties = other_properties.clone();
    let kept = |object: Object, key: &str, empty: bool| {
        !empty || split.present.contains(&(object, key.to_string()))
    };
    for key in WORD_LISTS {
        let list = known.words(key);
        if kept(Object::Preferences, key, list.is_empty()) {
            let value = Value::Array(list.iter().cloned().map(Value::String).collect());
            preferences.insert(key.into(), value);
        }
    }
    for (i, key) in ITEM_LISTS.iter().enumerate() {
        let list = &known.items[i];
        if kept(Object::Properties, key, list.is_empty()) {
            properties.insert((*key).into(), Value::Array(list.clone()));
        }
    }
    for (i, key) in NUMBERS.iter().enumerate() {
        if let Some(n) = &known.numbers[i] {
            preferences.insert((*key).into(), Value::Number(n.clone()));
        }
    }
    if let Some(g) = known.gender.as_ref().filter(|g| !g.is_empty()) {
        preferences.insert(GENDER.into(), Value::String(g.clone()));
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
            "gender": "prefer_not_to_say", "texture": {"soft": true}, "food_dislikes": []}),
        );
        let props = map(json!({
            "dietary_goals": [{"slug": "reduce_fat", "label": "Less saturated fat"}, "gain_muscle", 7],
            "memory_log": [{"kind": "like", "value": "fish", "recorded_at": "2026-01-02T03:04:05Z"}, "odd"],
            "standing_seeds": [{"name": "Lentil soup"}],
            "gender": "female", "diabetes": "type 2"}));
        let s = split(&prefs, &props);
        assert_eq!(s.known.food_likes, ["fish"]);
        assert_eq!(s.known.gender.as_deref(), Some("prefer_not_to_say"));
        assert_eq!(s.known.goals().len(), 3);
        assert_eq!(s.known.memory_log()[1], json!("odd"));
        assert_eq!(s.other_preferences, map(json!({"texture": {"soft": true}})));
        // Larder's earlier `properties.gender` is an unknown key now.
        assert_eq!(
            s.other_properties,
            map(json!({"gender": "female", "diabetes": "type 2"}))
        );
        let (p, q) = merge(&s, &s.known, &s.other_preferences, &s.other_properties);
        assert_eq!(p, prefs);
        assert_eq!(q, props);
    }

    #[test]
    fn editing_a_known_key_leaves_unknown_keys_and_types_alone() {
        let prefs = map(
            json!({"food_likes": ["fish"], "calories": 2000, "gender": 7,
            "x-source": [1, {"a": null}]}),
        );
        let props = map(json!({"zodiac": "leo", "memory_log": {"not": "a list"}}));
        let s = split(&prefs, &props);
        // A gender that is not a string, a log that is not a list: not "known", kept as they are.
        assert_eq!(s.known.gender, None);
        assert!(s.known.memory_log().is_empty());
        let mut known = s.known.clone();
        known.food_likes.push("salads".into());
        known.numbers[0] = number_from_text("2100", s.known.numbers[0].as_ref()).unwrap();
        known.items[0].push(json!({"slug": "increase_fiber", "label": "More fiber"}));
        let (p, q) = merge(&s, &known, &s.other_preferences, &s.other_properties);
        assert_eq!(
            p,
            map(
                json!({"food_likes": ["fish", "salads"], "calories": 2100, "gender": 7, "x-source": [1, {"a": null}]})
            )
        );
        assert_eq!(
            q,
            map(json!({"zodiac": "leo", "memory_log": {"not": "a list"},
                "dietary_goals": [{"slug": "increase_fiber", "label": "More fiber"}]}))
        );
    }

    #[test]
    fn an_empty_gender_is_kept_as_stored() {
        let s = split(&map(json!({"gender": ""})), &Map::new());
        assert_eq!(s.known.gender, None);
        let (preferences, _) = merge(&s, &s.known, &s.other_preferences, &s.other_properties);
        assert_eq!(Value::Object(preferences), json!({"gender": ""}));
    }

    #[test]
    fn emptied_lists_stay_lists_absent_ones_stay_absent_and_a_cleared_gender_goes() {
        let s = split(
            &map(json!({"food_dislikes": ["liver"], "gender": "male"})),
            &map(json!({"standing_seeds": [{"name": "Soup"}]})),
        );
        let mut known = s.known.clone();
        known.food_dislikes.clear();
        known.items[2].clear();
        known.gender = None;
        let (p, q) = merge(&s, &known, &s.other_preferences, &s.other_properties);
        assert_eq!(p, map(json!({"food_dislikes": []})));
        assert_eq!(q, map(json!({"standing_seeds": []})));
    }

    #[test]
    fn a_list_of_non_strings_is_not_a_word_list() {
        let prefs = map(json!({"food_likes": ["fish", 3]}));
        let s = split(&prefs, &Map::new());
        assert!(s.known.food_likes.is_empty());
        assert_eq!(s.other_preferences, prefs);
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
