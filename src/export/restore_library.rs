//! A member's library in a household file (saved items, favourites, adapted recipes and saved
//! meal plans, production.md §10.3) as a restore puts it back, and its comparison with what the
//! service answers afterwards. Pure: tested natively here; the requests are
//! `household::restore_run`'s.
//!
//! Every write is one a second try may repeat: saved items, favourites and adapted recipes are
//! PUTs (the service keeps one of each), and a saved meal plan is sent by value with the plan it
//! came from as its source, which the service updates rather than adds again. A saved meal plan
//! without a source is skipped when its member already has one of that name and meals. A saved
//! plan sent by value does not carry the day of the plan it came from (`source_applied_on`):
//! the service leaves it empty, so it is not compared.

use larder_api::types::{AdaptedRecipe, Favorite, SavedItem, SavedMealPlan};
use larder_contract::member_data::{ADAPTED_RECIPES, FAVORITES, SAVED_ITEMS, SAVED_MEAL_PLANS};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::difference::Difference;

/// A member's library as a file holds it (each entry with what the service needs to store it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Library {
    pub saved_items: Vec<SavedItem>,
    pub favorites: Vec<Favorite>,
    pub adapted_recipes: Vec<AdaptedRecipe>,
    pub saved_meal_plans: Vec<SavedMealPlan>,
}

impl Library {
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.saved_items.len()
            + self.favorites.len()
            + self.adapted_recipes.len()
            + self.saved_meal_plans.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The entries of `key` that read as `T` and that `usable` keeps; the count of the others.
fn entries<T: DeserializeOwned>(
    fields: &Map<String, Value>,
    key: &str,
    usable: impl Fn(&T) -> bool,
) -> (Vec<T>, usize) {
    let Some(Value::Array(items)) = fields.get(key) else {
        return (Vec::new(), 0);
    };
    let mut kept = Vec::new();
    for item in items {
        match serde_json::from_value::<T>(item.clone()) {
            Ok(entry) if usable(&entry) => kept.push(entry),
            _ => {}
        }
    }
    let skipped = items.len() - kept.len();
    (kept, skipped)
}

/// A member's library from its entry in the file, and how many entries cannot be stored (one
/// lacking what names it: a saved item's type or reference, a recipe's id, a plan's name).
pub fn library_of(member: &Map<String, Value>) -> (Library, usize) {
    let (saved_items, a) = entries(member, SAVED_ITEMS.file_key, |i: &SavedItem| {
        !i.item_type.is_empty() && !i.item_ref.is_empty()
    });
    let (favorites, b) = entries(member, FAVORITES.file_key, |f: &Favorite| {
        !f.recipe_id.is_empty()
    });
    let (adapted_recipes, c) = entries(member, ADAPTED_RECIPES.file_key, |r: &AdaptedRecipe| {
        !r.recipe_id.is_empty()
    });
    let (saved_meal_plans, d) = entries(member, SAVED_MEAL_PLANS.file_key, |p: &SavedMealPlan| {
        !p.name.trim().is_empty()
    });
    let library = Library {
        saved_items,
        favorites,
        adapted_recipes,
        saved_meal_plans,
    };
    (library, a + b + c + d)
}

/// Whether `existing` (the member's saved plans as answered) holds `plan` already: the same
/// name and meals, so a second try does not save it twice.
pub fn plan_is_saved(plan: &SavedMealPlan, existing: &[SavedMealPlan]) -> bool {
    existing.iter().any(|e| same_saved_plan(plan, e))
}

fn same_saved_plan(a: &SavedMealPlan, b: &SavedMealPlan) -> bool {
    a.name.trim() == b.name.trim() && meals(a) == meals(b)
}

/// A saved plan's three meals as the service stores them: a meal's keys holding `null` are
/// dropped on the way in, so they are not compared.
fn meals(plan: &SavedMealPlan) -> Value {
    let meal = |m: &larder_api::types::Meal| match serde_json::to_value(m) {
        Ok(Value::Object(fields)) => {
            Value::Object(fields.into_iter().filter(|(_, v)| !v.is_null()).collect())
        }
        _ => Value::Null,
    };
    Value::Array(vec![
        meal(&plan.breakfast),
        meal(&plan.lunch),
        meal(&plan.dinner),
    ])
}

fn missing(whose: &str, field: &str, in_file: String) -> Difference {
    Difference {
        whose: whose.to_string(),
        field: field.to_string(),
        in_file,
        answered: "—".into(),
    }
}

fn extra(whose: &str, field: &str, answered: String) -> Difference {
    Difference {
        whose: whose.to_string(),
        field: field.to_string(),
        in_file: "—".into(),
        answered,
    }
}

/// Entries of the file the service lacks, and the service's the file lacks, by `key`.
fn by_key<T>(
    whose: &str,
    field: &str,
    file: &[T],
    read: &[T],
    key: impl Fn(&T) -> String,
    out: &mut Vec<Difference>,
) {
    let read_keys: Vec<String> = read.iter().map(&key).collect();
    let file_keys: Vec<String> = file.iter().map(&key).collect();
    for k in file_keys.iter().filter(|k| !read_keys.contains(k)) {
        out.push(missing(whose, field, k.clone()));
    }
    for k in read_keys.iter().filter(|k| !file_keys.contains(k)) {
        out.push(extra(whose, field, k.clone()));
    }
}

/// Every way the member's library as answered (`read`; a kind the service does not keep is
/// `None` and not compared) differs from the file's: entries missing or extra; an adapted
/// recipe's title and payload; a saved plan's meals and reasoning (matched by name).
pub fn library_differences(whose: &str, file: &Library, read: &ReadLibrary) -> Vec<Difference> {
    let mut out = Vec::new();
    if let Some(items) = &read.saved_items {
        let key = |i: &SavedItem| format!("{}/{}", i.item_type, i.item_ref);
        by_key(
            whose,
            SAVED_ITEMS.file_key,
            &file.saved_items,
            items,
            key,
            &mut out,
        );
    }
    if let Some(favorites) = &read.favorites {
        let key = |f: &Favorite| f.recipe_id.clone();
        by_key(
            whose,
            FAVORITES.file_key,
            &file.favorites,
            favorites,
            key,
            &mut out,
        );
    }
    if let Some(recipes) = &read.adapted_recipes {
        let key = |r: &AdaptedRecipe| r.recipe_id.clone();
        by_key(
            whose,
            ADAPTED_RECIPES.file_key,
            &file.adapted_recipes,
            recipes,
            key,
            &mut out,
        );
        for wanted in &file.adapted_recipes {
            let Some(got) = recipes.iter().find(|r| r.recipe_id == wanted.recipe_id) else {
                continue;
            };
            let field = format!("{}.{}", ADAPTED_RECIPES.file_key, wanted.recipe_id);
            if wanted.title.as_deref().unwrap_or("") != got.title.as_deref().unwrap_or("") {
                out.push(Difference {
                    whose: whose.to_string(),
                    field: format!("{field}.title"),
                    in_file: wanted.title.clone().unwrap_or_default(),
                    answered: got.title.clone().unwrap_or_default(),
                });
            }
            if wanted.payload != got.payload {
                out.push(Difference {
                    whose: whose.to_string(),
                    field: format!("{field}.payload"),
                    in_file: Value::Object(wanted.payload.clone()).to_string(),
                    answered: Value::Object(got.payload.clone()).to_string(),
                });
            }
        }
    }
    if let Some(plans) = &read.saved_meal_plans {
        let field = SAVED_MEAL_PLANS.file_key;
        let mut claimed = vec![false; plans.len()];
        for wanted in &file.saved_meal_plans {
            let found =
                (0..plans.len()).find(|&at| !claimed[at] && same_saved_plan(wanted, &plans[at]));
            let named = found.or_else(|| {
                (0..plans.len())
                    .find(|&at| !claimed[at] && plans[at].name.trim() == wanted.name.trim())
            });
            let Some(at) = named else {
                out.push(missing(whose, field, wanted.name.clone()));
                continue;
            };
            claimed[at] = true;
            let got = &plans[at];
            let reasoning = |p: &SavedMealPlan| p.reasoning.clone().unwrap_or_default();
            for (what, a, b) in [
                ("meals", meals(wanted).to_string(), meals(got).to_string()),
                ("reasoning", reasoning(wanted), reasoning(got)),
            ] {
                if a != b {
                    out.push(Difference {
                        whose: whose.to_string(),
                        field: format!("{field}.{}.{what}", wanted.name),
                        in_file: a,
                        answered: b,
                    });
                }
            }
        }
        for (at, got) in plans.iter().enumerate() {
            if !claimed[at] {
                out.push(extra(whose, field, got.name.clone()));
            }
        }
    }
    out
}

/// A member's library as the service answers it; `None` for a kind it does not keep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadLibrary {
    pub saved_items: Option<Vec<SavedItem>>,
    pub favorites: Option<Vec<Favorite>>,
    pub adapted_recipes: Option<Vec<AdaptedRecipe>>,
    pub saved_meal_plans: Option<Vec<SavedMealPlan>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn member() -> Map<String, Value> {
        json!({
            "name": "Ann",
            "saved_items": [
                {"item_type": "article", "item_ref": "urn:article:salt", "created_at": "2026-01-01T00:00:00Z"},
                {"item_type": "", "item_ref": "lost"},
            ],
            "favorites": [{"recipe_id": "r-1"}, {"created_at": "x"}],
            "adapted_recipes": [{"recipe_id": "r-2", "title": "Less salt", "payload": {"action": "reduce", "reduction_pct": 30}}],
            "saved_meal_plans": [
                {"id": "s1", "name": "Good Monday", "source_meal_plan_id": "p-9",
                 "breakfast": {"recipe_id": "b", "title": "Oats", "ingredients": "oats", "directions": "stir"},
                 "lunch": {}, "dinner": {}, "reasoning": "Fibre."},
                {"name": "  "},
            ],
        })
        .as_object()
        .unwrap()
        .clone()
    }

    #[test]
    fn a_members_library_is_read_and_entries_lacking_their_name_are_counted() {
        let (library, skipped) = library_of(&member());
        assert_eq!(library.len(), 4);
        assert_eq!(skipped, 3);
        assert_eq!(library.saved_items[0].item_ref, "urn:article:salt");
        assert_eq!(library.adapted_recipes[0].payload["reduction_pct"], 30);
        assert_eq!(
            library.saved_meal_plans[0].source_meal_plan_id.as_deref(),
            Some("p-9")
        );
        let (none, skipped) = library_of(&Map::new());
        assert!(none.is_empty() && skipped == 0);
    }

    fn read_back(library: &Library) -> ReadLibrary {
        ReadLibrary {
            saved_items: Some(library.saved_items.clone()),
            favorites: Some(library.favorites.clone()),
            adapted_recipes: Some(library.adapted_recipes.clone()),
            saved_meal_plans: Some(library.saved_meal_plans.clone()),
        }
    }

    #[test]
    fn the_same_library_read_back_has_no_differences_whatever_the_stamps() {
        let (library, _) = library_of(&member());
        let mut read = read_back(&library);
        for plan in read.saved_meal_plans.iter_mut().flatten() {
            plan.id = "new".into();
            plan.created_at = Some("2026-11-28T00:00:00Z".into());
            plan.source_applied_on = None;
        }
        assert_eq!(library_differences("Ann", &library, &read), vec![]);
        // A kind the service does not keep is not compared.
        let nothing = ReadLibrary::default();
        assert_eq!(library_differences("Ann", &library, &nothing), vec![]);
    }

    #[test]
    fn missing_extra_and_changed_entries_are_each_a_difference() {
        let (library, _) = library_of(&member());
        let mut read = read_back(&library);
        read.saved_items = Some(vec![]);
        read.favorites.as_mut().unwrap().push(Favorite {
            recipe_id: "r-extra".into(),
            ..Favorite::default()
        });
        read.adapted_recipes.as_mut().unwrap()[0]
            .payload
            .insert("reduction_pct".into(), json!(10));
        read.saved_meal_plans.as_mut().unwrap()[0].reasoning = None;
        let found = library_differences("Ann", &library, &read);
        let fields: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|d| (d.field.as_str(), d.in_file.as_str(), d.answered.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("saved_items", "article/urn:article:salt", "—"),
                ("favorites", "—", "r-extra"),
                (
                    "adapted_recipes.r-2.payload",
                    r#"{"action":"reduce","reduction_pct":30}"#,
                    r#"{"action":"reduce","reduction_pct":10}"#
                ),
                ("saved_meal_plans.Good Monday.reasoning", "Fibre.", ""),
            ]
        );
    }

    #[test]
    fn a_saved_plan_already_there_is_not_saved_again() {
        let (library, _) = library_of(&member());
        let plan = &library.saved_meal_plans[0];
        let mut there = plan.clone();
        there.id = "other".into();
        assert!(plan_is_saved(plan, &[there.clone()]));
        there.breakfast.title = "Eggs".into();
        assert!(!plan_is_saved(plan, &[there]));
        assert!(!plan_is_saved(plan, &[]));
        // A meal's null key is dropped by the service: the plan read back is still this one.
        let mut with_null = plan.clone();
        with_null
            .breakfast
            .extra
            .insert("image_url".into(), Value::Null);
        assert!(plan_is_saved(&with_null, std::slice::from_ref(plan)));
    }
}
