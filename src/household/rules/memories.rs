//! "What WiseFood remembers": `properties.memory_log` and `properties.standing_seeds`, and what
//! *Correct* and *Forget* do to a profile, exactly as production's front end does them
//! (production.md §10.1; wisefood-ui app/pages/my-profile.vue @81ef8c9 L1237-1645).
//!
//! A memory is never only a log line: FoodChat and FoodScholar wrote its value through to the
//! field its kind steers (a like into `food_likes`, a goal into `dietary_goals`, an allergy hint
//! into `allergies`). Correcting detaches the old value there and attaches the new one, and
//! stamps the entry `edited_at` / `edited_by: "member"`, keeping every other field; forgetting
//! detaches the value and removes every matching entry. Where production's front end would
//! overwrite a field of an unexpected type, this leaves it as stored.

use larder_api::types::Profile;
use larder_contract::allergens::{self, Fold};
use larder_contract::profile::{
    entry, MemoryKind, DIETARY_GOALS, FOOD_DISLIKES, FOOD_LIKES, MEMORY_LOG, STANDING_SEEDS,
};
use serde_json::{json, Map, Value};

/// One line of the list: an entry of the log, or a standing dish without a log line.
#[derive(Clone, Debug, PartialEq)]
pub enum Memory {
    /// An entry whose `kind` and `value` are text.
    Readable {
        /// The entry as stored (a seed without a log line: `{kind: "standing_seed", value}`).
        stored: Value,
        kind: String,
        value: String,
    },
    /// Anything else in the log: shown as stored, kept, never acted on.
    AsStored(Value),
}

fn text<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// The list production's front end shows: every log entry in order, then each standing seed
/// (by `name`) that no `standing_seed` entry names.
pub fn list(memory_log: &[Value], standing_seeds: &[Value]) -> Vec<Memory> {
    let mut out: Vec<Memory> = memory_log
        .iter()
        .map(|e| match (text(e, entry::KIND), text(e, entry::VALUE)) {
            (Some(kind), Some(value)) if e.is_object() => Memory::Readable {
                stored: e.clone(),
                kind: kind.into(),
                value: value.into(),
            },
            _ => Memory::AsStored(e.clone()),
        })
        .collect();
    for name in standing_seeds.iter().filter_map(|s| text(s, "name")) {
        let logged = memory_log.iter().any(|e| {
            text(e, entry::KIND) == Some("standing_seed") && text(e, entry::VALUE) == Some(name)
        });
        if !logged {
            out.push(Memory::Readable {
                stored: json!({"kind": "standing_seed", "value": name}),
                kind: "standing_seed".into(),
                value: name.into(),
            });
        }
    }
    out
}

/// Two entries are the same when `kind`, `value` and `recorded_at` are equal (absent equals
/// absent).
pub fn same(a: &Value, b: &Value) -> bool {
    [entry::KIND, entry::VALUE, entry::RECORDED_AT]
        .iter()
        .all(|k| a.get(k) == b.get(k))
}

/// The list under `key` of `object`, created when absent; `None` when it holds something else
/// (left as stored).
fn list_mut<'a>(object: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    match object
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        Value::Array(items) => Some(items),
        _ => None,
    }
}

/// The list under `key` when it is there (detaching never creates one).
fn present_list<'a>(object: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    object.get_mut(key).and_then(Value::as_array_mut)
}

/// The allergies forgetting an `allergy_hint` of `value` removes: the same text, or a name of
/// the same allergen (`peanuts` for `peanut`; `molluscs` for `shellfish`, which means two).
pub fn allergies_removed(allergies: &[Value], value: &str) -> Vec<Value> {
    let means: Option<Vec<&str>> = match allergens::fold(value) {
        Fold::Known(ids) => Some(ids),
        _ => None,
    };
    allergies
        .iter()
        .filter(|a| match a.as_str() {
            Some(stored) if stored == value => true,
            Some(stored) => match (allergens::fold(stored), &means) {
                (Fold::Known(ids), Some(means)) => ids.iter().all(|id| means.contains(id)),
                _ => false,
            },
            None => false,
        })
        .cloned()
        .collect()
}

/// Drops a memory's value from the field its kind steers.
fn detach(profile: &mut Profile, kind: &str, value: &str) {
    let lower = larder_contract::text::lowercase(value);
    match MemoryKind::of(kind) {
        MemoryKind::Like | MemoryKind::Cuisine | MemoryKind::Dislike => {
            let key = if MemoryKind::of(kind) == MemoryKind::Dislike {
                FOOD_DISLIKES
            } else {
                FOOD_LIKES
            };
            if let Some(foods) = present_list(&mut profile.nutritional_preferences, key) {
                foods.retain(|f| f.as_str() != Some(value));
            }
        }
        MemoryKind::AllergyHint => {
            let removed = allergies_removed(&profile.allergies, value);
            profile.allergies.retain(|a| !removed.contains(a));
        }
        MemoryKind::StandingSeed => {
            if let Some(seeds) = present_list(&mut profile.properties, STANDING_SEEDS) {
                seeds.retain(|s| text(s, "name") != Some(value));
            }
        }
        MemoryKind::Goal => {
            if let Some(goals) = present_list(&mut profile.properties, DIETARY_GOALS) {
                goals.retain(|g| super::goals::slug_of(g).as_deref() != Some(lower.as_str()));
            }
        }
        MemoryKind::DietaryPattern => profile
            .dietary_groups
            .retain(|g| larder_contract::text::lowercase(g) != lower),
        MemoryKind::LogOnly => {}
    }
}

/// Applies a memory's value to the field its kind steers, without duplicates. `goal_label`
/// gives a goal's label in the reader's language.
fn attach(profile: &mut Profile, kind: &str, value: &str, goal_label: &dyn Fn(&str) -> String) {
    if value.is_empty() {
        return;
    }
    let add = |list: Option<&mut Vec<Value>>, item: Value, same: &dyn Fn(&Value) -> bool| {
        if let Some(list) = list {
            if !list.iter().any(same) {
                list.push(item);
            }
        }
    };
    match MemoryKind::of(kind) {
        MemoryKind::Like | MemoryKind::Cuisine | MemoryKind::Dislike => {
            let key = if MemoryKind::of(kind) == MemoryKind::Dislike {
                FOOD_DISLIKES
            } else {
                FOOD_LIKES
            };
            let foods = list_mut(&mut profile.nutritional_preferences, key);
            add(foods, json!(value), &|f| f.as_str() == Some(value));
        }
        MemoryKind::StandingSeed => {
            let seeds = list_mut(&mut profile.properties, STANDING_SEEDS);
            add(seeds, json!({"name": value}), &|s| {
                text(s, "name") == Some(value)
            });
        }
        MemoryKind::Goal => {
            let slug = larder_contract::text::lowercase(value);
            let goals = list_mut(&mut profile.properties, DIETARY_GOALS);
            let item = json!({"slug": slug, "label": goal_label(&slug)});
            add(goals, item, &|g| {
                super::goals::slug_of(g).as_deref() == Some(slug.as_str())
            });
        }
        // Neither is corrected, so neither is attached.
        MemoryKind::AllergyHint | MemoryKind::DietaryPattern | MemoryKind::LogOnly => {}
    }
}

/// Forgets `memory` (an entry as [`list`] gives it): its value leaves its field and every
/// matching entry leaves the log.
pub fn forget(profile: &mut Profile, memory: &Value) {
    let (Some(kind), Some(value)) = (text(memory, entry::KIND), text(memory, entry::VALUE)) else {
        return;
    };
    let (kind, value) = (kind.to_string(), value.to_string());
    detach(profile, &kind, &value);
    if let Some(log) = present_list(&mut profile.properties, MEMORY_LOG) {
        log.retain(|e| !same(e, memory));
    }
}

/// Corrects `memory` to `kind` and `value` (trimmed) at `now` (ISO 8601): the entry keeps every
/// other field and gains `edited_at` and `edited_by: "member"`; the old value is detached and
/// the new one attached; every matching entry is replaced in place, and a standing dish without
/// a log line gets the edited entry appended.
pub fn correct(
    profile: &mut Profile,
    memory: &Value,
    kind: &str,
    value: &str,
    now: &str,
    goal_label: &dyn Fn(&str) -> String,
) {
    let (Some(old_kind), Some(old_value)) = (text(memory, entry::KIND), text(memory, entry::VALUE))
    else {
        return;
    };
    let value = value.trim();
    let mut edited = memory.clone();
    if let Some(object) = edited.as_object_mut() {
        object.insert(entry::KIND.into(), json!(kind));
        object.insert(entry::VALUE.into(), json!(value));
        object.insert(entry::EDITED_AT.into(), json!(now));
        object.insert(entry::EDITED_BY.into(), json!(entry::BY_MEMBER));
    }
    let (old_kind, old_value) = (old_kind.to_string(), old_value.to_string());
    detach(profile, &old_kind, &old_value);
    attach(profile, kind, value, goal_label);
    let Some(log) = list_mut(&mut profile.properties, MEMORY_LOG) else {
        return;
    };
    for e in log.iter_mut().filter(|e| same(e, memory)) {
        *e = edited.clone();
    }
    if !log.iter().any(|e| same(e, &edited)) {
        log.push(edited);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "2026-12-01T10:00:00.000Z";

    fn label(slug: &str) -> String {
        format!("label of {slug}")
    }

    fn profile() -> Profile {
        serde_json::from_value(json!({
            "dietary_groups": ["Vegetarian", "halal"],
            "allergies": ["peanuts", "kiwi", 5],
            "nutritional_preferences": {"food_likes": ["tofu", "chicken"], "food_dislikes": ["liver"], "x": 1},
            "properties": {
                "dietary_goals": [{"slug": "reduce_fat", "label": "Less saturated fat"}, "gain_muscle"],
                "standing_seeds": [{"name": "Lentil soup"}, {"name": "Fish pie"}],
                "memory_log": [
                    {"kind": "like", "value": "chicken", "source": "foodchat", "session_id": "s1",
                     "recorded_at": "2026-11-01T12:00:00Z", "evidence": "I love chicken"},
                    {"kind": "goal", "value": "reduce_fat", "source": "foodscholar",
                     "recorded_at": "2026-11-02T12:00:00Z", "source_text": "How do I eat less fat?"},
                    {"kind": "allergy_hint", "value": "peanut", "recorded_at": "2026-11-03T12:00:00Z"},
                    {"kind": "standing_seed", "value": "Lentil soup", "recorded_at": "2026-11-04T12:00:00Z"},
                    {"kind": "dietary_pattern", "value": "vegetarian", "recorded_at": "2026-11-05T12:00:00Z"},
                    {"kind": "like", "value": "chicken", "source": "foodchat", "session_id": "s1",
                     "recorded_at": "2026-11-01T12:00:00Z", "evidence": "again"},
                    "a stray line",
                    {"kind": "constraint", "value": 7}
                ],
                "other": true
            }
        }))
        .unwrap()
    }

    fn log(p: &Profile) -> &Vec<Value> {
        p.properties[MEMORY_LOG].as_array().unwrap()
    }

    #[test]
    fn the_list_has_every_entry_and_the_seeds_without_a_line() {
        let p = profile();
        let items = list(log(&p), p.properties[STANDING_SEEDS].as_array().unwrap());
        assert_eq!(items.len(), 9);
        assert_eq!(items[6], Memory::AsStored(json!("a stray line")));
        assert!(matches!(&items[7], Memory::AsStored(v) if v["value"] == 7));
        assert!(
            matches!(&items[8], Memory::Readable { kind, value, .. } if kind == "standing_seed" && value == "Fish pie")
        );
    }

    #[test]
    fn correcting_a_like_into_a_dislike_moves_the_food_and_stamps_every_matching_line() {
        let mut p = profile();
        let memory = log(&p)[0].clone();
        correct(&mut p, &memory, "dislike", "  chicken thighs ", NOW, &label);
        assert_eq!(p.nutritional_preferences["food_likes"], json!(["tofu"]));
        assert_eq!(
            p.nutritional_preferences["food_dislikes"],
            json!(["liver", "chicken thighs"])
        );
        let edited = json!({"kind": "dislike", "value": "chicken thighs", "source": "foodchat",
            "session_id": "s1", "recorded_at": "2026-11-01T12:00:00Z", "evidence": "I love chicken",
            "edited_at": NOW, "edited_by": "member"});
        assert_eq!(log(&p)[0], edited);
        // The same entry twice (same kind, value and time): both replaced by the edited one,
        // in place, as production's front end does.
        assert_eq!(log(&p)[5], edited);
        assert_eq!(log(&p).len(), 8);
        // Nothing else moved.
        assert_eq!(p.nutritional_preferences["x"], 1);
        assert_eq!(p.properties["other"], true);
    }

    #[test]
    fn correcting_a_goal_detaches_the_slug_and_attaches_the_new_one_with_a_label() {
        let mut p = profile();
        let memory = log(&p)[1].clone();
        correct(&mut p, &memory, "goal", "Increase_Fiber", NOW, &label);
        assert_eq!(
            p.properties[DIETARY_GOALS],
            json!(["gain_muscle", {"slug": "increase_fiber", "label": "label of increase_fiber"}])
        );
        assert_eq!(log(&p)[1]["value"], "Increase_Fiber");
        assert_eq!(log(&p)[1]["source_text"], "How do I eat less fat?");
    }

    #[test]
    fn correcting_a_seed_without_a_line_appends_one() {
        let mut p = profile();
        let seeds = p.properties[STANDING_SEEDS].as_array().unwrap().clone();
        let Memory::Readable { stored, .. } = list(log(&p), &seeds)[8].clone() else {
            panic!()
        };
        correct(
            &mut p,
            &stored,
            "standing_seed",
            "Fish pie with peas",
            NOW,
            &label,
        );
        assert_eq!(
            p.properties[STANDING_SEEDS],
            json!([{"name": "Lentil soup"}, {"name": "Fish pie with peas"}])
        );
        assert_eq!(
            log(&p).last().unwrap(),
            &json!({"kind": "standing_seed", "value": "Fish pie with peas", "edited_at": NOW, "edited_by": "member"})
        );
    }

    #[test]
    fn forgetting_an_allergy_hint_removes_the_allergy_it_names() {
        let mut p = profile();
        let memory = log(&p)[2].clone();
        assert_eq!(
            allergies_removed(&p.allergies, "peanut"),
            vec![json!("peanuts")]
        );
        forget(&mut p, &memory);
        assert_eq!(p.allergies, vec![json!("kiwi"), json!(5)]);
        assert_eq!(log(&p).len(), 7);
        assert!(!log(&p).iter().any(|e| e["kind"] == "allergy_hint"));
        // A bare `shellfish` hint means two allergens: both go, nothing else.
        assert_eq!(
            allergies_removed(
                &[
                    json!("crustacean_shellfish"),
                    json!("molluscs"),
                    json!("fish")
                ],
                "shellfish"
            ),
            vec![json!("crustacean_shellfish"), json!("molluscs")]
        );
    }

    #[test]
    fn forgetting_removes_the_value_from_its_field_and_every_matching_line() {
        let mut p = profile();
        let like = log(&p)[0].clone();
        forget(&mut p, &like);
        assert_eq!(p.nutritional_preferences["food_likes"], json!(["tofu"]));
        assert_eq!(log(&p).len(), 6);
        let goal = log(&p)[0].clone();
        forget(&mut p, &goal);
        assert_eq!(p.properties[DIETARY_GOALS], json!(["gain_muscle"]));
        let pattern = log(&p)
            .iter()
            .find(|e| e["kind"] == "dietary_pattern")
            .unwrap()
            .clone();
        forget(&mut p, &pattern);
        assert_eq!(p.dietary_groups, vec!["halal".to_string()]);
        let seed = log(&p)
            .iter()
            .find(|e| e["kind"] == "standing_seed")
            .unwrap()
            .clone();
        forget(&mut p, &seed);
        assert_eq!(p.properties[STANDING_SEEDS], json!([{"name": "Fish pie"}]));
        // What is not an entry is kept.
        assert_eq!(log(&p)[1], json!("a stray line"));
    }

    #[test]
    fn a_field_of_another_type_is_left_as_stored() {
        let mut p = profile();
        p.nutritional_preferences
            .insert("food_dislikes".into(), json!("all greens"));
        let memory = log(&p)[0].clone();
        correct(&mut p, &memory, "dislike", "chicken", NOW, &label);
        assert_eq!(p.nutritional_preferences["food_dislikes"], "all greens");
        assert_eq!(log(&p)[0]["kind"], "dislike");
    }
}
