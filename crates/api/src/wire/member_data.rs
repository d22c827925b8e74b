//! A member's meal plans and library as production answers them (production.md §10.3):
//! `MealPlanResponse`, the revocation, saved items, favourites, adapted recipes and saved meal
//! plans. Every type keeps the keys it does not know in `extra`; missing or `null` texts and
//! lists read as empty.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::or_default;

/// One meal of a plan: the four texts production requires, and whatever else the planner put
/// there (kept as it came).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Meal {
    /// The recipe's id (RecipeWrangler's).
    #[serde(deserialize_with = "or_default")]
    pub recipe_id: String,
    /// The dish.
    #[serde(deserialize_with = "or_default")]
    pub title: String,
    /// The ingredients, one a line as the planner writes them.
    #[serde(deserialize_with = "or_default")]
    pub ingredients: String,
    /// How to make it.
    #[serde(deserialize_with = "or_default")]
    pub directions: String,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A member's plan for one day (`MealPlanResponse`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MealPlan {
    /// The stored plan's id (what a revoke names).
    #[serde(deserialize_with = "or_default")]
    pub id: String,
    /// Its household.
    #[serde(deserialize_with = "or_default")]
    pub household_id: String,
    /// The day, `YYYY-MM-DD`.
    #[serde(deserialize_with = "or_default")]
    pub date: String,
    /// The planner's own id of the plan.
    pub source_meal_plan_id: Option<String>,
    /// When the planner made it.
    pub source_created_at: Option<String>,
    /// Breakfast.
    #[serde(deserialize_with = "or_default")]
    pub breakfast: Meal,
    /// Lunch.
    #[serde(deserialize_with = "or_default")]
    pub lunch: Meal,
    /// Dinner.
    #[serde(deserialize_with = "or_default")]
    pub dinner: Meal,
    /// Why the planner chose it.
    pub reasoning: Option<String>,
    /// Every member it applies to.
    #[serde(deserialize_with = "or_default")]
    pub applies_to_member_ids: Vec<String>,
    /// The members it applies to besides the one asked about.
    #[serde(deserialize_with = "or_default")]
    pub other_member_ids: Vec<String>,
    /// When it was stored.
    pub created_at: Option<String>,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl MealPlan {
    /// The meals with their names, in the order of a day.
    pub fn meals(&self) -> [(&'static str, &Meal); 3] {
        [
            ("breakfast", &self.breakfast),
            ("lunch", &self.lunch),
            ("dinner", &self.dinner),
        ]
    }

    /// The body that stores this same plan for more members on its day (`POST
    /// members/{id}/meal-plans`): production reuses a plan whose source id, meals and reasoning
    /// are identical, so the members are added to it rather than given a copy; a member with a
    /// different plan that day makes it answer 409, a day gone by 422.
    pub fn store_for(&self, members: &[String]) -> Value {
        let mut plan = Map::new();
        if let Some(id) = &self.source_meal_plan_id {
            plan.insert("id".into(), Value::from(id.as_str()));
        }
        if let Some(at) = &self.source_created_at {
            plan.insert("created_at".into(), Value::from(at.as_str()));
        }
        for (name, meal) in self.meals() {
            plan.insert(
                name.into(),
                serde_json::to_value(meal).unwrap_or(Value::Null),
            );
        }
        if let Some(reasoning) = &self.reasoning {
            plan.insert("reasoning".into(), Value::from(reasoning.as_str()));
        }
        serde_json::json!({
            "date": self.date,
            "applies_to_member_ids": members,
            "meal_plan": plan,
        })
    }
}

/// What a revoke did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Revocation {
    /// The plan.
    #[serde(deserialize_with = "or_default")]
    pub meal_plan_id: String,
    /// The member it was revoked for.
    #[serde(deserialize_with = "or_default")]
    pub revoked_for_member_id: String,
    /// Whether it was revoked for everyone.
    #[serde(deserialize_with = "or_default")]
    pub revoked_for_all_members: bool,
    /// Whether the plan itself is gone.
    #[serde(deserialize_with = "or_default")]
    pub meal_plan_deleted: bool,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A saved item: `{item_type, item_ref, created_at}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedItem {
    /// `recipe`, `article`, `guide` or `textbook`.
    #[serde(deserialize_with = "or_default")]
    pub item_type: String,
    /// A recipe id, or `urn:<type>:<slug>`.
    #[serde(deserialize_with = "or_default")]
    pub item_ref: String,
    /// When it was saved.
    pub created_at: Option<String>,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A favourite recipe: `{recipe_id, created_at}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Favorite {
    /// The recipe's id.
    #[serde(deserialize_with = "or_default")]
    pub recipe_id: String,
    /// When it was saved.
    pub created_at: Option<String>,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A member's adaptation of a recipe: `{recipe_id, title, payload, created_at, updated_at}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AdaptedRecipe {
    /// The original recipe's id.
    #[serde(deserialize_with = "or_default")]
    pub recipe_id: String,
    /// The adapted dish's name.
    pub title: Option<String>,
    /// The adaptation (`action`, `ingredients`, `nutrition`, ...), as the planner wrote it.
    #[serde(deserialize_with = "or_default")]
    pub payload: Map<String, Value>,
    /// When it was first saved.
    pub created_at: Option<String>,
    /// When it last changed.
    pub updated_at: Option<String>,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A meal plan kept in the member's library under a name (a snapshot of its meals).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedMealPlan {
    /// The entry's id.
    #[serde(deserialize_with = "or_default")]
    pub id: String,
    /// The member.
    #[serde(deserialize_with = "or_default")]
    pub member_id: String,
    /// The name.
    #[serde(deserialize_with = "or_default")]
    pub name: String,
    /// The plan it was saved from.
    pub source_meal_plan_id: Option<String>,
    /// The day that plan was for.
    pub source_applied_on: Option<String>,
    /// Breakfast.
    #[serde(deserialize_with = "or_default")]
    pub breakfast: Meal,
    /// Lunch.
    #[serde(deserialize_with = "or_default")]
    pub lunch: Meal,
    /// Dinner.
    #[serde(deserialize_with = "or_default")]
    pub dinner: Meal,
    /// Why.
    pub reasoning: Option<String>,
    /// When it was saved.
    pub created_at: Option<String>,
    /// When it last changed.
    pub updated_at: Option<String>,
    /// Other keys, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
