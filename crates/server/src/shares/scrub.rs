//! The snapshot a share serves: a plan scrubbed to the food (production's `scrub_meal_plan`).
//! An allow-list, not a block-list: the day and, per meal, a dish's [`DISH_FIELDS`]; never a
//! name, an id of the household or its members, `reasoning`, `match_reasons` or constraints.

use larder_contract::shares::{DISH_FIELDS, MEAL_SLOTS};
use serde_json::{json, Map, Value};

/// One dish reduced to what describes it; `None` when nothing is left.
fn clean_dish(dish: &Value) -> Option<Value> {
    let dish = dish.as_object()?;
    let kept: Map<String, Value> = DISH_FIELDS
        .iter()
        .filter_map(|field| {
            let value = dish.get(*field)?;
            (!value.is_null()).then(|| ((*field).to_string(), value.clone()))
        })
        .collect();
    (!kept.is_empty()).then_some(Value::Object(kept))
}

/// A meal slot: one dish, or several (main, side, dessert).
fn clean_slot(value: &Value) -> Option<Value> {
    match value {
        Value::Array(items) => {
            let dishes: Vec<Value> = items.iter().filter_map(clean_dish).collect();
            (!dishes.is_empty()).then_some(Value::Array(dishes))
        }
        other => clean_dish(other),
    }
}

/// The shareable half of a meal plan or a saved meal plan: `{meals: {slot: dish | [dish]},
/// date?}`.
pub fn scrub_meal_plan(plan: &Value) -> Value {
    let mut meals = Map::new();
    for slot in MEAL_SLOTS {
        if let Some(cleaned) = plan.get(slot).and_then(clean_slot) {
            meals.insert(slot.to_string(), cleaned);
        }
    }
    let mut out = json!({ "meals": meals });
    for key in ["date", "source_applied_on"] {
        match plan.get(key) {
            Some(Value::String(day)) if !day.is_empty() => {
                out["date"] = json!(day);
                break;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_food_and_the_day_travel() {
        let plan = json!({
            "id": "plan-1", "household_id": "h-1", "date": "2026-11-26",
            "reasoning": "Because Ann is pregnant",
            "applies_to_member_ids": ["m-1"],
            "breakfast": {"recipe_id": "r1", "title": "Oats", "ingredients": "oats", "directions": "cook",
                          "match_reasons": ["Ann's goal"], "member_name": "Ann", "nutrition": {"kcal": 300}},
            "lunch": [{"title": "Soup", "constraints_applied": ["no nuts for Ann"]}, {"note": "x"}, 3],
            "dinner": {"match_reasons": ["only this"]},
        });
        assert_eq!(
            scrub_meal_plan(&plan),
            json!({
                "date": "2026-11-26",
                "meals": {
                    "breakfast": {"recipe_id": "r1", "title": "Oats", "ingredients": "oats",
                                  "directions": "cook", "nutrition": {"kcal": 300}},
                    "lunch": [{"title": "Soup"}],
                }
            })
        );
        assert_eq!(
            scrub_meal_plan(&json!({"source_applied_on": "2026-01-02", "dinner": null})),
            json!({"meals": {}, "date": "2026-01-02"})
        );
        assert_eq!(scrub_meal_plan(&json!("not a plan")), json!({"meals": {}}));
    }
}
