//! A member's meal plans and library (production.md §10.3): one day's plan at a time, storing a
//! plan for more members, revoking it; saved items, favourites, adapted recipes and saved meal
//! plans, each listed and removed.
//!
//! Three answers are told apart, because production gives all three: a route the service does
//! not have at all (a bare 404 `{"detail": "Not Found"}` or a 405, [`ApiError::is_not_offered`]:
//! production's households service at the commit CI runs has the meal plans but none of the
//! library), a day without a plan (a 404 in the envelope, `No meal plan found for member ...`),
//! and a plan.

use larder_contract::member_data::{
    LibraryKind, ADAPTED_RECIPES, FAVORITES, MEAL_PLANS, SAVED_ITEMS, SAVED_MEAL_PLANS,
};
use larder_contract::ErrorKind;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::records::path_segment;
use crate::machinery::client::{decode, Client};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::{AdaptedRecipe, Favorite, MealPlan, Revocation, SavedItem, SavedMealPlan};

/// What the service answers about a member's day.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanOfDay<T> {
    /// The service has no meal-plan route.
    NotOffered,
    /// No plan that day.
    NoPlan,
    /// The plan.
    Plan(T),
}

impl<T> PlanOfDay<T> {
    /// The plan, when there is one.
    pub fn plan(self) -> Option<T> {
        match self {
            PlanOfDay::Plan(plan) => Some(plan),
            _ => None,
        }
    }
}

/// `Ok(None)` for a route the service does not have.
fn offered<T>(result: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(error) if error.is_not_offered() => Ok(None),
        Err(error) => Err(error),
    }
}

/// A day's answer: a bare 404 or a 405 is the route's absence; a 404 in the envelope is a day
/// without a plan.
pub fn plan_of_day(answer: Result<Value, ApiError>) -> Result<PlanOfDay<Value>, ApiError> {
    match answer {
        Ok(plan) => Ok(PlanOfDay::Plan(plan)),
        Err(error) if error.is_not_offered() => Ok(PlanOfDay::NotOffered),
        Err(error) if error.is_kind(ErrorKind::NotFound) => Ok(PlanOfDay::NoPlan),
        Err(error) => Err(error),
    }
}

/// The list in a library answer: under `kind.list_key` when the answer is an object (saved
/// items and saved meal plans come as `{member_id, count, <key>: [...]}`), else the answer.
pub fn library_list(kind: &LibraryKind, answer: Value) -> Result<Vec<Value>, ApiError> {
    let list = match (kind.list_key, answer) {
        (_, Value::Null) => return Ok(Vec::new()),
        (Some(key), Value::Object(mut object)) => object.remove(key).unwrap_or(Value::Null),
        (_, other) => other,
    };
    match list {
        Value::Array(items) => Ok(items),
        Value::Null => Ok(Vec::new()),
        other => Err(ApiError::Decode {
            path: format!("result.{}", kind.list_key.unwrap_or("")),
            message: format!("expected a list, found {other}"),
        }),
    }
}

fn member_path(member_id: &str, rest: &str) -> String {
    format!("members/{}/{rest}", path_segment(member_id))
}

/// `{deleted: bool}`; an answer without it counts as deleted (the request succeeded).
fn deleted(answer: Value) -> bool {
    answer
        .get("deleted")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

impl<T: Transport> Client<T> {
    /// `GET members/{id}/meal-plans?date=YYYY-MM-DD` as answered (unknown keys kept).
    pub async fn meal_plan_value(
        &self,
        member_id: &str,
        date: &str,
    ) -> Result<PlanOfDay<Value>, ApiError> {
        let request = Request::new(Api::System, Method::Get, member_path(member_id, MEAL_PLANS))
            .query("date", date);
        plan_of_day(self.execute(request).await)
    }

    /// The member's plan on `date` (`YYYY-MM-DD`).
    pub async fn meal_plan(
        &self,
        member_id: &str,
        date: &str,
    ) -> Result<PlanOfDay<MealPlan>, ApiError> {
        Ok(match self.meal_plan_value(member_id, date).await? {
            PlanOfDay::Plan(plan) => PlanOfDay::Plan(decode(plan)?),
            PlanOfDay::NoPlan => PlanOfDay::NoPlan,
            PlanOfDay::NotOffered => PlanOfDay::NotOffered,
        })
    }

    /// `POST members/{id}/meal-plans` with `plan`'s own meals for `members` too, on its day (see
    /// [`MealPlan::store_for`]); the plan as it now stands.
    pub async fn share_meal_plan(
        &self,
        member_id: &str,
        plan: &MealPlan,
        members: &[String],
    ) -> Result<MealPlan, ApiError> {
        let request = Request::new(
            Api::System,
            Method::Post(plan.store_for(members)),
            member_path(member_id, MEAL_PLANS),
        );
        self.call(request).await
    }

    /// `DELETE members/{id}/meal-plans/{plan}?revoke_for_all_members=`: the plan goes for this
    /// member (and with its last member), or for everyone.
    pub async fn revoke_meal_plan(
        &self,
        member_id: &str,
        plan_id: &str,
        for_everyone: bool,
    ) -> Result<Revocation, ApiError> {
        let path = member_path(
            member_id,
            &format!("{MEAL_PLANS}/{}", path_segment(plan_id)),
        );
        let request = Request::new(Api::System, Method::Delete, path)
            .query("revoke_for_all_members", for_everyone);
        self.call(request).await
    }

    /// `GET members/{id}/{kind}` as answered: the list, or `None` when the service does not
    /// offer that kind.
    pub async fn library_values(
        &self,
        member_id: &str,
        kind: &LibraryKind,
    ) -> Result<Option<Vec<Value>>, ApiError> {
        let request = Request::new(Api::System, Method::Get, member_path(member_id, kind.path));
        match offered(self.execute(request).await)? {
            Some(answer) => library_list(kind, answer).map(Some),
            None => Ok(None),
        }
    }

    async fn library<R: DeserializeOwned>(
        &self,
        member_id: &str,
        kind: &LibraryKind,
    ) -> Result<Option<Vec<R>>, ApiError> {
        match self.library_values(member_id, kind).await? {
            Some(items) => decode(Value::Array(items)).map(Some),
            None => Ok(None),
        }
    }

    async fn remove(&self, member_id: &str, rest: String) -> Result<bool, ApiError> {
        let request = Request::new(Api::System, Method::Delete, member_path(member_id, &rest));
        self.execute(request).await.map(deleted)
    }

    /// The member's saved items, newest first (`None`: not offered).
    pub async fn saved_items(&self, member_id: &str) -> Result<Option<Vec<SavedItem>>, ApiError> {
        self.library(member_id, &SAVED_ITEMS).await
    }

    /// `DELETE members/{id}/saved-items/{type}/{ref}`: whether there was one.
    pub async fn remove_saved_item(
        &self,
        member_id: &str,
        item: &SavedItem,
    ) -> Result<bool, ApiError> {
        let rest = format!(
            "{}/{}/{}",
            SAVED_ITEMS.path,
            path_segment(&item.item_type),
            path_segment(&item.item_ref)
        );
        self.remove(member_id, rest).await
    }

    /// The member's favourite recipes, newest first (`None`: not offered).
    pub async fn favorites(&self, member_id: &str) -> Result<Option<Vec<Favorite>>, ApiError> {
        self.library(member_id, &FAVORITES).await
    }

    /// `DELETE members/{id}/favorites/{recipe_id}`: whether there was one.
    pub async fn remove_favorite(
        &self,
        member_id: &str,
        recipe_id: &str,
    ) -> Result<bool, ApiError> {
        let rest = format!("{}/{}", FAVORITES.path, path_segment(recipe_id));
        self.remove(member_id, rest).await
    }

    /// The member's adapted recipes, the last changed first (`None`: not offered).
    pub async fn adapted_recipes(
        &self,
        member_id: &str,
    ) -> Result<Option<Vec<AdaptedRecipe>>, ApiError> {
        self.library(member_id, &ADAPTED_RECIPES).await
    }

    /// `DELETE members/{id}/adapted-recipes/{recipe_id}`: whether there was one.
    pub async fn remove_adapted_recipe(
        &self,
        member_id: &str,
        recipe_id: &str,
    ) -> Result<bool, ApiError> {
        let rest = format!("{}/{}", ADAPTED_RECIPES.path, path_segment(recipe_id));
        self.remove(member_id, rest).await
    }

    /// The member's saved meal plans, newest first (`None`: not offered).
    pub async fn saved_meal_plans(
        &self,
        member_id: &str,
    ) -> Result<Option<Vec<SavedMealPlan>>, ApiError> {
        self.library(member_id, &SAVED_MEAL_PLANS).await
    }

    /// `DELETE members/{id}/saved-meal-plans/{id}` (404 when it is gone already).
    pub async fn delete_saved_meal_plan(
        &self,
        member_id: &str,
        id: &str,
    ) -> Result<bool, ApiError> {
        let rest = format!("{}/{}", SAVED_MEAL_PLANS.path, path_segment(id));
        self.remove(member_id, rest).await
    }

    /// A library write: `Ok(None)` when the service does not offer the kind at all.
    async fn put_library(
        &self,
        member_id: &str,
        rest: String,
        method: Method,
    ) -> Result<Option<Value>, ApiError> {
        let request = Request::new(Api::System, method, member_path(member_id, &rest));
        offered(self.execute(request).await)
    }

    /// `PUT members/{id}/saved-items/{type}/{ref}` (idempotent: saving it again changes
    /// nothing); `None` when the service keeps no saved items.
    pub async fn save_item(
        &self,
        member_id: &str,
        item_type: &str,
        item_ref: &str,
    ) -> Result<Option<Value>, ApiError> {
        let rest = format!(
            "{}/{}/{}",
            SAVED_ITEMS.path,
            path_segment(item_type),
            path_segment(item_ref)
        );
        let body = Method::Put(Value::Object(Default::default()));
        self.put_library(member_id, rest, body).await
    }

    /// `PUT members/{id}/favorites/{recipe_id}` (idempotent); `None` when not offered.
    pub async fn add_favorite(
        &self,
        member_id: &str,
        recipe_id: &str,
    ) -> Result<Option<Value>, ApiError> {
        let rest = format!("{}/{}", FAVORITES.path, path_segment(recipe_id));
        let body = Method::Put(Value::Object(Default::default()));
        self.put_library(member_id, rest, body).await
    }

    /// `PUT members/{id}/adapted-recipes/{recipe_id}` `{title?, payload}`: saves or replaces
    /// both (idempotent); `None` when not offered.
    pub async fn put_adapted_recipe(
        &self,
        member_id: &str,
        recipe: &AdaptedRecipe,
    ) -> Result<Option<Value>, ApiError> {
        let rest = format!(
            "{}/{}",
            ADAPTED_RECIPES.path,
            path_segment(&recipe.recipe_id)
        );
        let mut body = serde_json::Map::new();
        if let Some(title) = &recipe.title {
            body.insert("title".into(), Value::from(title.as_str()));
        }
        body.insert("payload".into(), Value::Object(recipe.payload.clone()));
        self.put_library(member_id, rest, Method::Put(Value::Object(body)))
            .await
    }

    /// `POST members/{id}/saved-meal-plans` `{name, meal_plan}`: a copy of `saved`'s meals
    /// (with the plan it came from as the source, so saving the same again updates that
    /// entry where the service keys entries by their source); `None` when not offered.
    pub async fn save_meal_plan_copy(
        &self,
        member_id: &str,
        saved: &SavedMealPlan,
    ) -> Result<Option<Value>, ApiError> {
        let mut plan = serde_json::Map::new();
        if let Some(source) = saved.source_meal_plan_id.as_ref().filter(|s| !s.is_empty()) {
            plan.insert("id".into(), Value::from(source.as_str()));
        }
        for (name, meal) in [
            ("breakfast", &saved.breakfast),
            ("lunch", &saved.lunch),
            ("dinner", &saved.dinner),
        ] {
            plan.insert(
                name.into(),
                serde_json::to_value(meal).unwrap_or(Value::Null),
            );
        }
        if let Some(reasoning) = saved.reasoning.as_ref().filter(|r| !r.is_empty()) {
            plan.insert("reasoning".into(), Value::from(reasoning.as_str()));
        }
        let body = serde_json::json!({"name": saved.name, "meal_plan": plan});
        let rest = SAVED_MEAL_PLANS.path.to_string();
        self.put_library(member_id, rest, Method::Post(body)).await
    }
}
