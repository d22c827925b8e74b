//! `properties.dietary_goals` (production.md §10.1): items `{slug, label}`, the slug one of the
//! planner's twelve (`larder_contract::profile::GOALS`) and the label written in the reader's
//! language; readers take a bare string item as its slug. An item of another shape is shown as
//! stored and kept where it is.

use larder_contract::profile::{goal_label, humanised};
use serde_json::{json, Value};

/// An item's slug, lower-cased: its `slug`, or the item itself when it is a string.
pub fn slug_of(item: &Value) -> Option<String> {
    let slug = match item {
        Value::String(s) => s,
        Value::Object(o) => o.get("slug")?.as_str()?,
        _ => return None,
    };
    Some(larder_contract::text::lowercase(slug.trim()))
}

/// Whether `goals` holds `slug`.
pub fn has(goals: &[Value], slug: &str) -> bool {
    goals.iter().any(|g| slug_of(g).as_deref() == Some(slug))
}

/// Chooses (`on`) or drops goal `slug`: chosen, it is appended as `{slug, label}` unless there;
/// dropped, every item of that slug goes (an object or a bare string).
pub fn set(goals: &mut Vec<Value>, slug: &str, on: bool, label: &str) {
    if on {
        if !has(goals, slug) {
            goals.push(json!({"slug": slug, "label": label}));
        }
    } else {
        goals.retain(|g| slug_of(g).as_deref() != Some(slug));
    }
}

/// A goal that is not one of the twelve, as it is shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Other {
    /// A slug the planner's list lacks: its stored label, else the slug as words.
    Unknown { slug: String, label: String },
    /// Not a goal at all (a number, an object without a text `slug`): shown as stored.
    AsStored(Value),
}

/// The items that are not one of the twelve, each with its index.
pub fn others(goals: &[Value]) -> Vec<(usize, Other)> {
    goals
        .iter()
        .enumerate()
        .filter_map(|(i, item)| match slug_of(item) {
            Some(slug) if goal_label(&slug).is_some() => None,
            Some(slug) => {
                let stored = item.get("label").and_then(Value::as_str);
                let label = stored
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string)
                    .unwrap_or_else(|| humanised(&slug));
                Some((i, Other::Unknown { slug, label }))
            }
            None => Some((i, Other::AsStored(item.clone()))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_are_chosen_by_slug_whatever_their_shape() {
        let mut goals = vec![
            json!("Reduce_Fat"),
            json!({"slug": "gain_muscle", "label": "Izomépítés"}),
            json!({"slug": "sleep_better"}),
            json!(42),
        ];
        assert!(has(&goals, "reduce_fat"));
        assert!(has(&goals, "gain_muscle"));
        set(&mut goals, "reduce_fat", false, "");
        set(&mut goals, "gain_muscle", true, "Build muscle");
        set(&mut goals, "increase_fiber", true, "Több rost");
        assert_eq!(
            goals,
            vec![
                json!({"slug": "gain_muscle", "label": "Izomépítés"}),
                json!({"slug": "sleep_better"}),
                json!(42),
                json!({"slug": "increase_fiber", "label": "Több rost"}),
            ]
        );
        assert_eq!(
            others(&goals),
            vec![
                (
                    1,
                    Other::Unknown {
                        slug: "sleep_better".into(),
                        label: "Sleep better".into()
                    }
                ),
                (2, Other::AsStored(json!(42))),
            ]
        );
    }
}
