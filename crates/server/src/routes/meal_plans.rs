//! A member's meal plans by day (production.md §10.3): `GET` one day's plan, `POST` a plan for
//! a day and other members of the household, `DELETE` (revoke) it for the member or everyone.
//!
//! Production's own routes, so both wires answer as production does: its shapes, its words,
//! 200 for every success, and the checks in its order: the body (422 "Validation failed"), the
//! path member (404, 403), the day (422 for a past one), the other members (404, 409), then the
//! plans already there that day (409 for a different one; an identical one is reused).

use axum::extract::State;
use chrono::{SecondsFormat, Utc};
use larder_contract::member_data::MAX_MEAL_PLANS_PER_MEMBER;
use larder_contract::ErrorKind;
use serde::Deserialize;
use serde_json::{json, Value};

use super::blocking;
use crate::auth::{Caller, Identity};
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::meal_plan::{self, Refused};
use crate::store::{NewPlan, Plan, Revoked, Stored};
use crate::SharedState;

/// Now, as production's `timestamptz` columns answer it (UTC, microseconds, `Z`).
pub fn stamp() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// The service's today: production uses its container's `date.today()`, taken as UTC.
pub fn today() -> chrono::NaiveDate {
    Utc::now().date_naive()
}

/// The member of the path, under production's gate (`verify_access`) and in its words on both
/// wires: 404 `Household member {id} not found`, 403 `You do not have access to this member`.
/// Answers the member's household id.
pub fn member_gate(state: &SharedState, identity: &Identity, id: &str) -> ApiResult<String> {
    let (owner, member) = state
        .store
        .households()
        .member(id)?
        .ok_or_else(|| ApiError::not_found(format!("Household member {id} not found")))?;
    if identity.owner_key() != owner && !identity.overrides_ownership() {
        return Err(ApiError::forbidden("You do not have access to this member"));
    }
    Ok(member["household_id"]
        .as_str()
        .unwrap_or_default()
        .to_string())
}

/// A body or query production's models refuse: its 422 `RequestValidationError`, "Validation
/// failed" (the reference wire lists where and why; production's systemic service does not).
pub fn refusal(place: &str, refused: Refused) -> ApiError {
    let loc: Vec<Value> = std::iter::once(json!(place))
        .chain(refused.at.split('.').map(|step| {
            step.parse::<u64>()
                .map_or_else(|_| json!(step), |index| json!(index))
        }))
        .collect();
    let mut problems = larder_contract::validate::Problems::new();
    problems.at_field(&refused.at, "value_error", refused.message.clone());
    ApiError::validation(&problems)
        .with_errors(json!([{ "type": "value_error", "loc": loc, "msg": refused.message }]))
        .systemic()
}

/// A plan as production answers it (`MealPlanResponse`), for the member of the path.
pub fn answer(plan: &Plan, member_id: &str) -> Value {
    let mut answer = plan.doc.clone();
    answer["id"] = json!(plan.id);
    answer["household_id"] = json!(plan.household_id);
    answer["date"] = json!(plan.date);
    answer["created_at"] = json!(plan.created_at);
    answer["applies_to_member_ids"] = json!(plan.members);
    answer["other_member_ids"] = json!(plan
        .members
        .iter()
        .filter(|m| *m != member_id)
        .collect::<Vec<_>>());
    answer
}

/// The query of `GET members/{id}/meal-plans`.
#[derive(Debug, Deserialize)]
pub struct DayQuery {
    /// `YYYY-MM-DD`; the service's today when absent.
    pub date: Option<String>,
}

/// `GET members/{id}/meal-plans?date=`: the member's plan that day (the newest of several), or
/// 404 `No meal plan found for member {id} on date {day}`.
pub async fn get(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
    QueryParams(query): QueryParams<DayQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let day = match query.date.as_deref() {
        None => today(),
        Some(text) => meal_plan::day(text).ok_or_else(|| {
            refusal(
                "query",
                Refused {
                    at: "date".into(),
                    message: "Input should be a valid date".into(),
                },
            )
        })?,
    };
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let day = day.format("%Y-%m-%d").to_string();
        let plan = state
            .store
            .plans()
            .on_day(&member_id, &day)?
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "No meal plan found for member {member_id} on date {day}"
                ))
            })?;
        Ok(Envelope(answer(&plan, &member_id)))
    })
    .await
}

/// `POST members/{id}/meal-plans`: `{date?, applies_to_member_ids?, meal_plan | foodchat_response}`.
pub async fn store(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(member_id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let body = meal_plan::store_body(&body).map_err(|refused| refusal("body", refused))?;
    blocking(move || {
        member_gate(&state, &identity, &member_id)?;
        let day = body.date.unwrap_or_else(today);
        if day < today() {
            return Err(ApiError::new(
                ErrorKind::Data,
                format!(
                    "Meal plans can only be applied for today or a future date. Received date: {}",
                    day.format("%Y-%m-%d")
                ),
            ));
        }
        let mut members: Vec<String> = std::iter::once(member_id.clone())
            .chain(body.applies_to)
            .collect();
        members.sort();
        members.dedup();
        let (id, created_at) = (uuid::Uuid::new_v4().to_string(), stamp());
        let date = day.format("%Y-%m-%d").to_string();
        let stored = state.store.plans().store(&NewPlan {
            requested: &member_id,
            members: &members,
            date: &date,
            doc: &body.plan,
            id: &id,
            created_at: &created_at,
            cap: MAX_MEAL_PLANS_PER_MEMBER,
        })?;
        match stored {
            Stored::Plan(plan) => Ok(Envelope(answer(&plan, &member_id))),
            Stored::Missing(ids) => Err(ApiError::not_found(format!(
                "Members not found: {}",
                ids.join(", ")
            ))),
            Stored::Households => Err(ApiError::conflict(
                "All assigned members must belong to the same household",
            )),
            Stored::Different(ids) => Err(ApiError::conflict(format!(
                "Different meal plan already exists for date {date} and members: {}",
                ids.join(", ")
            ))),
            Stored::Full(id) => Err(ApiError::conflict(format!(
                "Member {id} holds {MAX_MEAL_PLANS_PER_MEMBER} meal plans, the most this service keeps."
            ))),
        }
    })
    .await
}

/// The query of `DELETE members/{id}/meal-plans/{plan}`.
#[derive(Debug, Deserialize)]
pub struct RevokeQuery {
    /// pydantic's bool (`true`, `false`, `1`, `0`, `yes`, `no`, `on`, `off`); false by default.
    pub revoke_for_all_members: Option<String>,
}

/// `DELETE members/{id}/meal-plans/{plan}?revoke_for_all_members=`: the member's assignment
/// goes (and the plan with its last one), or the plan for everyone.
pub async fn revoke(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams((member_id, plan_id)): PathParams<(String, String)>,
    QueryParams(query): QueryParams<RevokeQuery>,
) -> ApiResult<Envelope<Value>> {
    let identity = caller.require()?.clone();
    let for_everyone = match query.revoke_for_all_members.as_deref() {
        None => false,
        Some(text) => meal_plan::flag(text).ok_or_else(|| {
            refusal(
                "query",
                Refused {
                    at: "revoke_for_all_members".into(),
                    message: "Input should be a valid boolean".into(),
                },
            )
        })?,
    };
    blocking(move || {
        let household = member_gate(&state, &identity, &member_id)?;
        let revoked = state
            .store
            .plans()
            .revoke(&plan_id, &member_id, &household, for_everyone)?;
        let deleted = match revoked {
            Revoked::NoPlan => {
                return Err(ApiError::not_found(format!(
                    "Meal plan {plan_id} not found"
                )))
            }
            Revoked::OtherHousehold => {
                return Err(ApiError::not_found(format!(
                    "Meal plan {plan_id} not found for member {member_id}"
                )))
            }
            Revoked::NotAssigned => {
                return Err(ApiError::not_found(format!(
                    "Meal plan {plan_id} not assigned to member {member_id}"
                )))
            }
            Revoked::Done { deleted } => deleted,
        };
        Ok(Envelope(json!({
            "meal_plan_id": plan_id,
            "revoked_for_member_id": member_id,
            "revoked_for_all_members": for_everyone,
            "meal_plan_deleted": deleted,
        })))
    })
    .await
}
