//! A member's library (production.md §10.3, later routes; none of them exists at the commit
//! production.md was read from, where they answer a bare 404): saved items, favourite recipes,
//! adapted recipes and saved meal plans, with production's shapes and words on both wires.
//! Each kind is capped per member (see `larder_contract::member_data`).

use axum::extract::State;
use larder_contract::member_data::{
    MAX_ADAPTED_PAYLOAD_BYTES, MAX_ADAPTED_RECIPES_PER_MEMBER, MAX_ADAPTED_TITLE_CHARS,
    MAX_ITEM_REF_CHARS, MAX_RECIPE_ID_CHARS, MAX_SAVED_ITEMS_PER_MEMBER,
    MAX_SAVED_MEAL_PLANS_PER_MEMBER, SAVED_ITEM_TYPES,
};
use larder_contract::ErrorKind;
use serde::Deserialize;
use serde_json::{json, Value};

use super::blocking;
use super::meal_plans::{member_gate, refusal, stamp};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::meal_plan::{self, Refused};
use crate::store::Kept;
use crate::SharedState;

/// The recipe rows of the saved items are the favourites.
const RECIPE: &str = "recipe";

fn too_long(at: &str, most: usize) -> ApiError {
    refusal(
        "path",
        Refused {
            at: at.into(),
            message: format!("String should have at most {most} characters"),
        },
    )
}

/// A path value of 1 to `most` characters, or 422.
fn bounded(value: &str, at: &str, most: usize) -> ApiResult<()> {
    let chars = value.chars().count();
    if chars == 0 || chars > most {
        return Err(too_long(at, most));
    }
    Ok(())
}

/// 422 `DataError` for a type production does not know.
fn item_type(text: &str) -> ApiResult<()> {
    if SAVED_ITEM_TYPES.contains(&text) {
        return Ok(());
    }
    let mut allowed = SAVED_ITEM_TYPES.to_vec();
    allowed.sort_unstable();
    Err(ApiError::new(
        ErrorKind::Data,
        format!(
            "Unsupported saved item type '{text}'. Allowed: {}.",
            allowed.join(", ")
        ),
    ))
}

fn full(what: &str, most: u64) -> ApiError {
    ApiError::conflict(format!(
        "A member keeps at most {most} {what} in this service."
    ))
}

/// The query of `GET members/{id}/saved-items`.
#[derive(Debug, Deserialize)]
pub struct TypeQuery {
    /// Only this type.
    pub item_type: Option<String>,
}

/// `GET members/{id}/saved-items?item_type=`: `{member_id, count, saved_items}`, newest first.
pub async fn saved_items(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
    QueryParams(query): QueryParams<TypeQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        if let Some(kind) = &query.item_type {
            item_type(kind)?;
        }
        let items = state
            .store
            .library()
            .saved_items(&member_id, query.item_type.as_deref())?;
        Ok(Envelope(json!({
            "member_id": member_id, "count": items.len(), "saved_items": items,
        })))
    })
    .await
}

async fn put_item(
    state: SharedState,
    caller: Caller,
    member_id: String,
    kind: String,
    reference: String,
) -> ApiResult<Value> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        item_type(&kind)?;
        match state.store.library().save_item(
            &member_id,
            &kind,
            &reference,
            &stamp(),
            MAX_SAVED_ITEMS_PER_MEMBER,
        )? {
            Kept::Kept(item) => Ok(item),
            Kept::Full => Err(full("saved items", MAX_SAVED_ITEMS_PER_MEMBER)),
        }
    })
    .await
}

async fn delete_item(
    state: SharedState,
    caller: Caller,
    member_id: String,
    kind: String,
    reference: String,
) -> ApiResult<bool> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        item_type(&kind)?;
        Ok(state
            .store
            .library()
            .remove_item(&member_id, &kind, &reference)?)
    })
    .await
}

/// `PUT members/{id}/saved-items/{item_type}/{item_ref}` (idempotent): the item.
pub async fn put_saved_item(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, kind, reference)): PathParams<(String, String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&reference, "item_ref", MAX_ITEM_REF_CHARS)?;
    put_item(state, caller, member_id, kind, reference)
        .await
        .map(Envelope)
}

/// `DELETE members/{id}/saved-items/{item_type}/{item_ref}`: `{deleted}`.
pub async fn delete_saved_item(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, kind, reference)): PathParams<(String, String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&reference, "item_ref", MAX_ITEM_REF_CHARS)?;
    let deleted = delete_item(state, caller, member_id, kind, reference).await?;
    Ok(Envelope(json!({ "deleted": deleted })))
}

/// A saved recipe in the favourites' shape.
fn favorite(item: &Value) -> Value {
    json!({"recipe_id": item["item_ref"], "created_at": item["created_at"]})
}

/// `GET members/{id}/favorites`: `[{recipe_id, created_at}]`, newest first.
pub async fn favorites(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let items = state
            .store
            .library()
            .saved_items(&member_id, Some(RECIPE))?;
        Ok(Envelope(Value::Array(items.iter().map(favorite).collect())))
    })
    .await
}

/// `PUT members/{id}/favorites/{recipe_id}` (idempotent): `{recipe_id, created_at}`.
pub async fn put_favorite(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, recipe_id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&recipe_id, "recipe_id", MAX_RECIPE_ID_CHARS)?;
    let item = put_item(state, caller, member_id, RECIPE.into(), recipe_id).await?;
    Ok(Envelope(favorite(&item)))
}

/// `DELETE members/{id}/favorites/{recipe_id}`: `{deleted}`.
pub async fn delete_favorite(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, recipe_id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&recipe_id, "recipe_id", MAX_RECIPE_ID_CHARS)?;
    let deleted = delete_item(state, caller, member_id, RECIPE.into(), recipe_id).await?;
    Ok(Envelope(json!({ "deleted": deleted })))
}

/// `GET members/{id}/adapted-recipes`: the last changed first.
pub async fn adapted_recipes(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        Ok(Envelope(Value::Array(
            state.store.library().adapted_recipes(&member_id)?,
        )))
    })
    .await
}

/// `GET members/{id}/adapted-recipes/{recipe_id}`, or 404 `No adapted recipe saved for '{id}'`.
pub async fn adapted_recipe(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, recipe_id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&recipe_id, "recipe_id", MAX_RECIPE_ID_CHARS)?;
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        state
            .store
            .library()
            .adapted_recipe(&member_id, &recipe_id)?
            .map(Envelope)
            .ok_or_else(|| {
                ApiError::not_found(format!("No adapted recipe saved for '{recipe_id}'"))
            })
    })
    .await
}

/// `PUT members/{id}/adapted-recipes/{recipe_id}` `{title?, payload}`: saves or replaces both.
pub async fn put_adapted_recipe(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, recipe_id)): PathParams<(String, String)>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    bounded(&recipe_id, "recipe_id", MAX_RECIPE_ID_CHARS)?;
    let refuse = |at: &str, message: String| {
        refusal(
            "body",
            Refused {
                at: at.into(),
                message,
            },
        )
    };
    let title = match body.get("title") {
        None | Some(Value::Null) => Value::Null,
        Some(Value::String(title)) if title.chars().count() <= MAX_ADAPTED_TITLE_CHARS => {
            json!(title)
        }
        Some(_) => {
            return Err(refuse(
                "title",
                format!("String should have at most {MAX_ADAPTED_TITLE_CHARS} characters"),
            ))
        }
    };
    let payload = match body.get("payload") {
        Some(Value::Object(payload)) => Value::Object(payload.clone()),
        Some(_) => {
            return Err(refuse(
                "payload",
                "Input should be a valid dictionary".into(),
            ))
        }
        None => return Err(refuse("payload", "Field required".into())),
    };
    let size = payload.to_string().len();
    if size > MAX_ADAPTED_PAYLOAD_BYTES {
        return Err(refuse(
            "payload",
            format!(
                "a payload holds at most {MAX_ADAPTED_PAYLOAD_BYTES} bytes of JSON ({size} sent)"
            ),
        ));
    }
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let kept = state.store.library().put_adapted_recipe(
            &member_id,
            &recipe_id,
            &title,
            &payload,
            &stamp(),
            MAX_ADAPTED_RECIPES_PER_MEMBER,
        )?;
        match kept {
            Kept::Kept(recipe) => Ok(Envelope(recipe)),
            Kept::Full => Err(full("adapted recipes", MAX_ADAPTED_RECIPES_PER_MEMBER)),
        }
    })
    .await
}

/// `DELETE members/{id}/adapted-recipes/{recipe_id}`: `{deleted}`.
pub async fn delete_adapted_recipe(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, recipe_id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    bounded(&recipe_id, "recipe_id", MAX_RECIPE_ID_CHARS)?;
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let deleted = state
            .store
            .library()
            .remove_adapted_recipe(&member_id, &recipe_id)?;
        Ok(Envelope(json!({ "deleted": deleted })))
    })
    .await
}

/// 404 of a saved meal plan the member does not have.
fn no_saved_plan(id: &str, member_id: &str) -> ApiError {
    ApiError::not_found(format!(
        "Saved meal plan {id} not found for member {member_id}"
    ))
}

/// `GET members/{id}/saved-meal-plans`: `{member_id, count, saved_meal_plans}`, newest first.
pub async fn saved_plans(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let plans = state.store.library().saved_plans(&member_id)?;
        Ok(Envelope(json!({
            "member_id": member_id, "count": plans.len(), "saved_meal_plans": plans,
        })))
    })
    .await
}

/// `POST members/{id}/saved-meal-plans` `{name, meal_plan_id? | meal_plan?}`: a snapshot of a
/// stored plan the member has (`meal_plan_id` wins), or of a plan sent; saving the same source
/// again updates that entry.
pub async fn save_plan(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let (name, plan_id, plan) =
        meal_plan::saved_plan_body(&body).map_err(|refused| refusal("body", refused))?;
    let identity = caller.require()?.clone();
    blocking(move || {
        let household = member_gate(&state, &identity, &member_id)?;
        let mut snapshot = json!({"name": name, "source_applied_on": null});
        match plan_id.filter(|id| !id.is_empty()) {
            Some(id) => {
                let stored = state
                    .store
                    .plans()
                    .get(&id)?
                    .ok_or_else(|| ApiError::not_found(format!("Meal plan {id} not found")))?;
                if stored.household_id != household {
                    return Err(ApiError::not_found(format!(
                        "Meal plan {id} not found for member {member_id}"
                    )));
                }
                if !stored.members.contains(&member_id) {
                    return Err(ApiError::not_found(format!(
                        "Meal plan {id} not assigned to member {member_id}"
                    )));
                }
                for key in ["breakfast", "lunch", "dinner", "reasoning"] {
                    snapshot[key] = stored.doc.get(key).cloned().unwrap_or(Value::Null);
                }
                snapshot["source_meal_plan_id"] = json!(stored.id);
                snapshot["source_applied_on"] = json!(stored.date);
            }
            None => {
                let plan = plan.unwrap_or_else(|| json!({}));
                for key in ["breakfast", "lunch", "dinner"] {
                    snapshot[key] = plan.get(key).cloned().unwrap_or_else(|| json!({}));
                }
                snapshot["reasoning"] = plan.get("reasoning").cloned().unwrap_or(Value::Null);
                snapshot["source_meal_plan_id"] = plan
                    .get("source_meal_plan_id")
                    .cloned()
                    .unwrap_or(Value::Null);
            }
        }
        let id = uuid::Uuid::new_v4().to_string();
        match state.store.library().save_plan(
            &member_id,
            &snapshot,
            &id,
            &stamp(),
            MAX_SAVED_MEAL_PLANS_PER_MEMBER,
        )? {
            Kept::Kept(saved) => Ok(Envelope(saved)),
            Kept::Full => Err(full("saved meal plans", MAX_SAVED_MEAL_PLANS_PER_MEMBER)),
        }
    })
    .await
}

/// `GET members/{id}/saved-meal-plans/{sid}`.
pub async fn saved_plan(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        state
            .store
            .library()
            .saved_plan(&member_id, &id)?
            .map(Envelope)
            .ok_or_else(|| no_saved_plan(&id, &member_id))
    })
    .await
}

/// `PATCH members/{id}/saved-meal-plans/{sid}` `{name}`: renames it (the meals are a snapshot).
pub async fn rename_plan(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, id)): PathParams<(String, String)>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let name =
        meal_plan::saved_plan_name(body.get("name")).map_err(|refused| refusal("body", refused))?;
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        state
            .store
            .library()
            .rename_plan(&member_id, &id, &name, &stamp())?
            .map(Envelope)
            .ok_or_else(|| no_saved_plan(&id, &member_id))
    })
    .await
}

/// `DELETE members/{id}/saved-meal-plans/{sid}`: `{saved_meal_plan_id, member_id, deleted: true}`.
pub async fn delete_plan(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, id)): PathParams<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        if !state.store.library().delete_plan(&member_id, &id)? {
            return Err(no_saved_plan(&id, &member_id));
        }
        Ok(Envelope(
            json!({"saved_meal_plan_id": id, "member_id": member_id, "deleted": true}),
        ))
    })
    .await
}
