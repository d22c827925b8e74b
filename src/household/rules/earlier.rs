//! Larder's earlier names for three profile keys, and their move to production's (production.md
//! §10.1 replaced the guesses): `properties.gender` → `nutritional_preferences.gender`,
//! `properties.goals` → `properties.dietary_goals`, `properties.memories` →
//! `properties.memory_log`. Production's front end and meal planner read only the new names.
//!
//! Nothing is lost: a gender already set under the new name stays, and the old one is then left
//! where it is; a goal that is one of the planner's twelve (by slug or English label) becomes
//! `{slug, label}`, any other stays a bare string (readers take it as its slug); a memory
//! `{text, …}` becomes a log-only entry `{kind: "note", value: text, …}` with its other fields.
//! Values of other types move as they are, or, when the new key holds something that is not a
//! list, stay under the old key.

use larder_api::types::Profile;
use larder_contract::profile::{
    earlier, goal_label as english_goal, DIETARY_GOALS, GENDER, GOALS, MEMORY_LOG,
};
use serde_json::{json, Map, Value};

/// What moving would do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// `properties.gender` moves (or goes, being the same as the new key's).
    pub gender: bool,
    /// How many goals and memories move, when their old key does.
    pub goals: Option<usize>,
    pub memories: Option<usize>,
    /// Old keys that stay, because the new key already holds something else.
    pub staying: Vec<&'static str>,
}

impl Offer {
    fn moves_anything(&self) -> bool {
        self.gender || self.goals.is_some() || self.memories.is_some()
    }
}

/// Whether the new list key can take items: absent, or a list.
fn takes_items(properties: &Map<String, Value>, key: &str) -> bool {
    properties.get(key).is_none_or(Value::is_array)
}

/// What a move would do, when the profile has one of the old keys in its old form and moving
/// it changes something.
pub fn offer(profile: &Profile) -> Option<Offer> {
    let properties = &profile.properties;
    let mut offer = Offer::default();
    if let Some(Value::String(old)) = properties.get(earlier::GENDER) {
        match profile.nutritional_preferences.get(GENDER) {
            None => offer.gender = true,
            Some(Value::String(new)) if new == old => offer.gender = true,
            Some(_) => offer.staying.push(earlier::GENDER),
        }
    }
    for (old, new, count) in [
        (earlier::GOALS, DIETARY_GOALS, &mut offer.goals),
        (earlier::MEMORIES, MEMORY_LOG, &mut offer.memories),
    ] {
        if let Some(Value::Array(items)) = properties.get(old) {
            if takes_items(properties, new) {
                *count = Some(items.len());
            } else {
                offer.staying.push(old);
            }
        }
    }
    offer.moves_anything().then_some(offer)
}

/// A goal in the old form (free words) as the new list holds it.
fn goal(item: &Value, label: &dyn Fn(&str) -> String) -> Value {
    let Some(words) = item.as_str() else {
        return item.clone();
    };
    let folded = larder_contract::text::lowercase(words.trim());
    let as_slug = folded.replace([' ', '-'], "_");
    let slug = GOALS
        .iter()
        .find(|(slug, english)| {
            *slug == as_slug || larder_contract::text::lowercase(english) == folded
        })
        .map(|(slug, _)| *slug);
    match slug {
        Some(slug) => json!({"slug": slug, "label": label(slug)}),
        None => item.clone(),
    }
}

/// A memory in the old form (`{text, source, …}`) as a log entry.
fn memory(item: &Value) -> Value {
    let Some(object) = item.as_object() else {
        return item.clone();
    };
    let Some(text) = object.get("text").and_then(Value::as_str) else {
        return item.clone();
    };
    let mut entry = Map::new();
    entry.insert("kind".into(), json!(earlier::MEMORY_KIND));
    entry.insert("value".into(), json!(text));
    for (key, value) in object.iter().filter(|(k, _)| k.as_str() != "text") {
        entry.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Value::Object(entry)
}

/// Moves what [`offer`] says moves. `label` gives a goal's label in the reader's language.
pub fn apply(profile: &mut Profile, label: &dyn Fn(&str) -> String) {
    let Some(offer) = offer(profile) else {
        return;
    };
    let properties = &mut profile.properties;
    if offer.gender {
        if let Some(old) = properties.remove(earlier::GENDER) {
            profile
                .nutritional_preferences
                .entry(GENDER.to_string())
                .or_insert(old);
        }
    }
    if offer.goals.is_some() {
        if let Some(Value::Array(old)) = properties.remove(earlier::GOALS) {
            let list = properties
                .entry(DIETARY_GOALS.to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(goals) = list {
                for item in old.iter().map(|g| goal(g, label)) {
                    let slug = super::goals::slug_of(&item);
                    let known = slug.as_deref().is_some_and(|s| english_goal(s).is_some());
                    if !(known && super::goals::has(goals, slug.as_deref().unwrap_or_default())) {
                        goals.push(item);
                    }
                }
            }
        }
    }
    if offer.memories.is_some() {
        if let Some(Value::Array(old)) = properties.remove(earlier::MEMORIES) {
            let list = properties
                .entry(MEMORY_LOG.to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(log) = list {
                log.extend(old.iter().map(memory));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(preferences: Value, properties: Value) -> Profile {
        serde_json::from_value(json!({
            "nutritional_preferences": preferences, "properties": properties,
        }))
        .unwrap()
    }

    fn label(slug: &str) -> String {
        format!("{slug} label")
    }

    #[test]
    fn the_old_keys_move_to_productions_names_and_nothing_else_changes() {
        let mut p = profile(
            json!({"calories": 2000}),
            json!({"gender": "female", "goals": ["sleep better", "More protein", "reduce fat", 3],
                "memories": [{"text": "likes green tea", "source": "chat", "at": 3}, "loose"],
                "dietary_goals": [{"slug": "increase_protein", "label": "Több fehérje"}],
                "zodiac": "leo"}),
        );
        assert_eq!(
            offer(&p),
            Some(Offer {
                gender: true,
                goals: Some(4),
                memories: Some(2),
                staying: vec![]
            })
        );
        apply(&mut p, &label);
        assert_eq!(
            Value::Object(p.nutritional_preferences.clone()),
            json!({"calories": 2000, "gender": "female"})
        );
        assert_eq!(
            Value::Object(p.properties.clone()),
            json!({
                "dietary_goals": [
                    {"slug": "increase_protein", "label": "Több fehérje"},
                    "sleep better",
                    {"slug": "reduce_fat", "label": "reduce_fat label"},
                    3
                ],
                "memory_log": [{"kind": "note", "value": "likes green tea", "source": "chat", "at": 3}, "loose"],
                "zodiac": "leo"
            })
        );
        assert_eq!(offer(&p), None);
    }

    #[test]
    fn a_value_the_new_key_already_differs_from_stays_where_it_is() {
        let p = profile(
            json!({"gender": "male"}),
            json!({"gender": "female", "memories": [], "memory_log": "not a list"}),
        );
        assert_eq!(offer(&p), None);
        let mut p = profile(
            json!({"gender": "male"}),
            json!({"gender": "female", "goals": ["x"]}),
        );
        let made = offer(&p).unwrap();
        assert_eq!(made.staying, vec!["gender"]);
        apply(&mut p, &label);
        assert_eq!(p.properties["gender"], "female");
        assert_eq!(p.nutritional_preferences["gender"], "male");
        assert_eq!(p.properties["dietary_goals"], json!(["x"]));
        // Old keys of another type are not Larder's: never offered.
        assert_eq!(
            offer(&profile(json!({}), json!({"gender": 7, "goals": "x"}))),
            None
        );
    }
}
