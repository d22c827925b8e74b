//! A profile's `allergies` as the meal planner can enforce them (production.md §10.2): the
//! planner matches canonical ids exactly, so a stored `dairy` excludes nothing. The form shows
//! each stored name as the allergen it means, saves known names as their ids, keeps an unknown
//! name as typed (the planner may not recognise it, which the form says), and keeps anything
//! that is not text as stored. Nothing is dropped silently. The audit reads the same rules.

use larder_contract::allergens::{self, Fold};
use serde_json::Value;

/// A stored allergy, as the form shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Stored {
    /// A name of one or more allergens; `canonical` when it is stored as the id itself.
    Known {
        name: String,
        ids: Vec<&'static str>,
        canonical: bool,
    },
    /// A name the vocabulary does not know: kept as typed.
    Unknown(String),
    /// Not text: kept as stored.
    NotText(Value),
}

/// What `value` is.
pub fn stored(value: &Value) -> Stored {
    match value {
        Value::String(name) => match allergens::fold(name) {
            Fold::Known(ids) => Stored::Known {
                name: name.clone(),
                ids,
                canonical: allergens::is_canonical(name),
            },
            Fold::Unknown(_) | Fold::Empty => Stored::Unknown(name.clone()),
        },
        other => Stored::NotText(other.clone()),
    }
}

/// The allergen ids the list holds, in chip order.
pub fn chosen(values: &[Value]) -> Vec<&'static str> {
    let held: Vec<&str> = values
        .iter()
        .filter_map(|v| match stored(v) {
            Stored::Known { ids, .. } => Some(ids),
            _ => None,
        })
        .flatten()
        .collect();
    allergens::ALL
        .iter()
        .map(|a| a.id)
        .filter(|id| held.contains(id))
        .collect()
}

/// Chooses (`on`) or drops allergen `id`. Dropped, every name meaning it goes; a name that
/// means others too (`shellfish`) is replaced by the others' ids, so dropping molluscs keeps
/// crustaceans.
pub fn set(values: &mut Vec<Value>, id: &'static str, on: bool) {
    if on {
        if !chosen(values).contains(&id) {
            values.push(Value::String(id.into()));
        }
        return;
    }
    let mut out = Vec::with_capacity(values.len());
    for value in values.drain(..) {
        match stored(&value) {
            Stored::Known { ids, .. } if ids.contains(&id) => out.extend(
                ids.into_iter()
                    .filter(|i| *i != id)
                    .map(|i| Value::String(i.into())),
            ),
            _ => out.push(value),
        }
    }
    *values = out;
}

/// Adds what was typed: a known name as its ids, an unknown one as typed (trimmed). What it
/// meant is returned for the form to say; nothing is added for empty text.
pub fn add(values: &mut Vec<Value>, typed: &str) -> Fold {
    let typed = typed.trim();
    let fold = allergens::fold(typed);
    match &fold {
        Fold::Empty => {}
        Fold::Known(ids) => {
            for id in ids {
                set(values, id, true);
            }
        }
        Fold::Unknown(_) => {
            if !values.iter().any(|v| v.as_str() == Some(typed)) {
                values.push(Value::String(typed.into()));
            }
        }
    }
    fold
}

/// The list to save: known names as their ids, unknown names as typed, anything else as
/// stored; in order, without repeats.
pub fn for_saving(values: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(values.len());
    let mut push = |v: Value| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    for value in values {
        match stored(value) {
            Stored::Known { ids, .. } => ids
                .into_iter()
                .for_each(|id| push(Value::String(id.into()))),
            _ => push(value.clone()),
        }
    }
    out
}

/// The stored names a save will write as ids: each with the ids it becomes (`dairy` → milk).
pub fn renamed(values: &[Value]) -> Vec<(String, Vec<&'static str>)> {
    values
        .iter()
        .filter_map(|v| match stored(v) {
            Stored::Known {
                name,
                ids,
                canonical: false,
            } => Some((name, ids)),
            _ => None,
        })
        .collect()
}

/// What the audit reports of a member's allergies: every value not stored as a canonical id.
/// Empty when the planner can enforce them all.
pub fn findings(values: &[Value]) -> Vec<Stored> {
    values
        .iter()
        .map(stored)
        .filter(|s| {
            !matches!(
                s,
                Stored::Known {
                    canonical: true,
                    ..
                }
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stored_names_show_as_allergens_and_save_as_ids() {
        let values = vec![
            json!("Dairy"),
            json!("milk"),
            json!("shellfish"),
            json!("Kiwi"),
            json!({"custom": "x"}),
        ];
        assert_eq!(
            chosen(&values),
            ["crustacean_shellfish", "milk", "molluscs"]
        );
        assert_eq!(
            for_saving(&values),
            vec![
                json!("milk"),
                json!("crustacean_shellfish"),
                json!("molluscs"),
                json!("Kiwi"),
                json!({"custom": "x"}),
            ]
        );
        assert_eq!(
            renamed(&values),
            vec![
                ("Dairy".to_string(), vec!["milk"]),
                (
                    "shellfish".to_string(),
                    vec!["crustacean_shellfish", "molluscs"]
                ),
            ]
        );
        let found = findings(&values);
        assert_eq!(found.len(), 4);
        assert_eq!(found[2], Stored::Unknown("Kiwi".into()));
        assert_eq!(found[3], Stored::NotText(json!({"custom": "x"})));
        assert!(findings(&[json!("milk"), json!("egg")]).is_empty());
    }

    #[test]
    fn dropping_one_allergen_of_a_wide_name_keeps_the_others() {
        let mut values = vec![json!("seafood"), json!("kiwi")];
        set(&mut values, "molluscs", false);
        assert_eq!(
            values,
            vec![json!("fish"), json!("crustacean_shellfish"), json!("kiwi")]
        );
        set(&mut values, "milk", true);
        set(&mut values, "fish", true);
        assert_eq!(values.len(), 4);
        set(&mut values, "fish", false);
        assert_eq!(
            values,
            vec![json!("crustacean_shellfish"), json!("kiwi"), json!("milk")]
        );
    }

    #[test]
    fn typed_names_fold_or_are_kept_as_typed() {
        let mut values = Vec::new();
        assert_eq!(add(&mut values, " peanuts "), Fold::Known(vec!["peanut"]));
        assert_eq!(add(&mut values, "Kiwi"), Fold::Unknown("kiwi".into()));
        assert_eq!(add(&mut values, "Kiwi"), Fold::Unknown("kiwi".into()));
        assert_eq!(add(&mut values, "  "), Fold::Empty);
        assert_eq!(values, vec![json!("peanut"), json!("Kiwi")]);
    }
}
