//! The bodies of the meal-plan and saved-meal-plan routes, checked as production's pydantic
//! models check them (production.md §10.3; S src/schemas.py `MealPlanStoreRequest`,
//! `SavedMealPlanCreateRequest`), and the plan document they become: what
//! `model_dump(exclude_none=True)` leaves of the plan (a meal's keys beside the four texts are
//! kept, those whose value is `null` dropped), with its source creation time in UTC.
//!
//! Hand-written rather than through the contract's schema tables: those trim strings and drop
//! or refuse unknown keys, where production keeps a meal's other keys exactly and counts a
//! string's characters untrimmed.

use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use larder_contract::member_data::{MAX_MEAL_PLAN_BYTES, MEALS, MEAL_TEXTS};
use serde_json::{json, Map, Value};

/// Why a body is refused: the field where, and what is wrong (a 422 "Validation failed").
#[derive(Debug, PartialEq)]
pub struct Refused {
    /// The dotted place, e.g. `meal_plan.lunch.title`.
    pub at: String,
    /// What is wrong there.
    pub message: String,
}

fn refused(at: impl Into<String>, message: impl Into<String>) -> Refused {
    Refused {
        at: at.into(),
        message: message.into(),
    }
}

/// A day as pydantic's `date` reads a string: `YYYY-MM-DD`, or a date and time at midnight.
pub fn day(text: &str) -> Option<NaiveDate> {
    if let Ok(day) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        // chrono takes `2026-1-2`; pydantic wants two digits.
        return (text.len() == 10).then_some(day);
    }
    let at =
        NaiveDateTime::parse_from_str(text.trim_end_matches('Z'), "%Y-%m-%dT%H:%M:%S%.f").ok()?;
    (at.time() == chrono::NaiveTime::MIN).then(|| at.date())
}

/// A moment as pydantic's `datetime` reads it (RFC 3339; without a zone it is taken as UTC, as
/// PostgreSQL's `timestamptz` column does; a date alone is its midnight; a number is Unix
/// seconds), written as production answers it: UTC, `Z`, microseconds when there are any.
pub fn moment(value: &Value) -> Option<String> {
    let at: DateTime<Utc> = match value {
        Value::Number(n) => DateTime::from_timestamp_micros((n.as_f64()? * 1e6) as i64)?,
        Value::String(text) => {
            if let Ok(at) = DateTime::parse_from_rfc3339(text) {
                at.with_timezone(&Utc)
            } else if let Ok(at) = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f") {
                at.and_utc()
            } else if let Some(day) = day(text).filter(|_| text.len() == 10) {
                day.and_time(chrono::NaiveTime::MIN).and_utc()
            } else {
                let seconds: f64 = text.parse().ok()?;
                DateTime::from_timestamp_micros((seconds * 1e6) as i64)?
            }
        }
        _ => return None,
    };
    Some(at.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

/// A string field that may be absent or `null`; anything else but a string is refused.
fn optional_text(fields: &Map<String, Value>, key: &str, at: &str) -> Result<Value, Refused> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(Value::Null),
        Some(Value::String(text)) => Ok(json!(text)),
        Some(_) => Err(refused(
            format!("{at}{key}"),
            "Input should be a valid string",
        )),
    }
}

/// A meal: the four texts non-empty, other keys kept (those `null` dropped).
fn meal(value: Option<&Value>, at: &str) -> Result<Value, Refused> {
    let Some(Value::Object(fields)) = value else {
        return Err(refused(at, "Input should be a valid dictionary"));
    };
    for key in MEAL_TEXTS {
        match fields.get(key) {
            Some(Value::String(text)) if !text.is_empty() => {}
            Some(Value::String(_)) => {
                return Err(refused(
                    format!("{at}.{key}"),
                    "String should have at least 1 character",
                ))
            }
            Some(_) => {
                return Err(refused(
                    format!("{at}.{key}"),
                    "Input should be a valid string",
                ))
            }
            None => return Err(refused(format!("{at}.{key}"), "Field required")),
        }
    }
    let kept: Map<String, Value> = fields
        .iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    Ok(Value::Object(kept))
}

/// A plan (`MealPlanItem`) as the document stored: `source_meal_plan_id`,
/// `source_created_at`, the three meals, `reasoning`.
pub fn plan_document(value: &Value, at: &str) -> Result<Value, Refused> {
    let Value::Object(fields) = value else {
        return Err(refused(at, "Input should be a valid dictionary"));
    };
    let prefix = format!("{at}.");
    let source = optional_text(fields, "id", &prefix)?;
    let created_at = match fields.get("created_at") {
        None | Some(Value::Null) => Value::Null,
        Some(value) => json!(moment(value).ok_or_else(|| refused(
            format!("{prefix}created_at"),
            "Input should be a valid datetime"
        ))?),
    };
    let mut doc = json!({
        "source_meal_plan_id": source,
        "source_created_at": created_at,
        "reasoning": optional_text(fields, "reasoning", &prefix)?,
    });
    for name in MEALS {
        doc[name] = meal(fields.get(name), &format!("{prefix}{name}"))?;
    }
    let size = doc.to_string().len();
    if size > MAX_MEAL_PLAN_BYTES {
        return Err(refused(
            at,
            format!("a meal plan holds at most {MAX_MEAL_PLAN_BYTES} bytes of JSON ({size} sent)"),
        ));
    }
    Ok(doc)
}

/// `POST members/{id}/meal-plans`, checked.
#[derive(Debug, PartialEq)]
pub struct StoreBody {
    /// The day, when sent.
    pub date: Option<NaiveDate>,
    /// The other members, as sent.
    pub applies_to: Vec<String>,
    /// The plan's document (see [`plan_document`]).
    pub plan: Value,
}

/// Reads `MealPlanStoreRequest`: `meal_plan`, else the first of `foodchat_response.result`
/// (every item of which must be a plan); unknown keys are ignored.
pub fn store_body(body: &Value) -> Result<StoreBody, Refused> {
    let Value::Object(fields) = body else {
        return Err(refused("body", "Input should be a valid dictionary"));
    };
    let date = match fields.get("date") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => {
            Some(day(text).ok_or_else(|| refused("date", "Input should be a valid date"))?)
        }
        Some(_) => return Err(refused("date", "Input should be a valid date")),
    };
    let applies_to = match fields.get("applies_to_member_ids") {
        None => Vec::new(),
        Some(Value::Array(ids)) => ids
            .iter()
            .map(|id| id.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| refused("applies_to_member_ids", "Input should be a valid string"))?,
        Some(_) => {
            return Err(refused(
                "applies_to_member_ids",
                "Input should be a valid list",
            ))
        }
    };
    let direct = match fields.get("meal_plan") {
        None | Some(Value::Null) => None,
        Some(plan) => Some(plan_document(plan, "meal_plan")?),
    };
    let from_chat = match fields.get("foodchat_response") {
        None | Some(Value::Null) => None,
        Some(Value::Object(chat)) => {
            if chat
                .get("help")
                .is_some_and(|h| !h.is_null() && !h.is_string())
            {
                return Err(refused(
                    "foodchat_response.help",
                    "Input should be a valid string",
                ));
            }
            let results: &[Value] = match chat.get("result") {
                None => &[],
                Some(Value::Array(results)) => results,
                Some(_) => {
                    return Err(refused(
                        "foodchat_response.result",
                        "Input should be a valid list",
                    ))
                }
            };
            let plans = results
                .iter()
                .enumerate()
                .map(|(n, plan)| plan_document(plan, &format!("foodchat_response.result.{n}")))
                .collect::<Result<Vec<_>, _>>()?;
            Some(plans.into_iter().next().ok_or_else(|| {
                refused(
                    "foodchat_response",
                    "foodchat_response.result must contain at least one meal plan",
                )
            })?)
        }
        Some(_) => {
            return Err(refused(
                "foodchat_response",
                "Input should be a valid dictionary",
            ))
        }
    };
    let plan = direct.or(from_chat).ok_or_else(|| {
        refused(
            "body",
            "Either meal_plan or foodchat_response must be provided",
        )
    })?;
    Ok(StoreBody {
        date,
        applies_to,
        plan,
    })
}

/// A saved plan's `name`: 1 to 255 characters as sent, then trimmed, not blank.
pub fn saved_plan_name(value: Option<&Value>) -> Result<String, Refused> {
    let Some(Value::String(name)) = value else {
        return Err(refused("name", "Field required"));
    };
    let chars = name.chars().count();
    if chars == 0 || chars > larder_contract::member_data::MAX_SAVED_PLAN_NAME_CHARS {
        return Err(refused("name", "String should have 1 to 255 characters"));
    }
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(refused("name", "name must not be blank"));
    }
    Ok(trimmed.to_string())
}

/// `POST members/{id}/saved-meal-plans`: the name, then one source: a stored plan's id, or
/// a plan by value (its document).
pub fn saved_plan_body(body: &Value) -> Result<(String, Option<String>, Option<Value>), Refused> {
    let Value::Object(fields) = body else {
        return Err(refused("body", "Input should be a valid dictionary"));
    };
    let name = saved_plan_name(fields.get("name"))?;
    let plan_id = optional_text(fields, "meal_plan_id", "")?;
    let plan = match fields.get("meal_plan") {
        None | Some(Value::Null) => None,
        Some(plan) => Some(plan_document(plan, "meal_plan")?),
    };
    if plan_id.is_null() && plan.is_none() {
        return Err(refused(
            "body",
            "Either meal_plan_id or meal_plan must be provided",
        ));
    }
    Ok((name, plan_id.as_str().map(str::to_string), plan))
}

/// pydantic's reading of a `bool` query value (`true`, `off`, `1`, ...).
pub fn flag(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
        "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meal_json(title: &str) -> Value {
        json!({"recipe_id": "r1", "title": title, "ingredients": "oats", "directions": "stir"})
    }

    #[test]
    fn a_plan_keeps_a_meals_own_keys_and_drops_only_nulls() {
        let mut breakfast = meal_json("Oats");
        breakfast["kcal"] = json!(320);
        breakfast["note"] = Value::Null;
        breakfast["nested"] = json!({"kept": null});
        let body = json!({"meal_plan": {"id": "src", "created_at": "2026-01-02T05:04:05+02:00",
            "breakfast": breakfast, "lunch": meal_json("Soup"), "dinner": meal_json("Stew"), "other": 1}});
        let read = store_body(&body).unwrap();
        assert_eq!(read.plan["source_meal_plan_id"], "src");
        assert_eq!(read.plan["source_created_at"], "2026-01-02T03:04:05Z");
        assert_eq!(read.plan["breakfast"]["kcal"], 320);
        assert!(read.plan["breakfast"].get("note").is_none());
        assert_eq!(read.plan["breakfast"]["nested"], json!({"kept": null}));
        assert_eq!(read.plan["reasoning"], Value::Null);
        assert!(read.plan.get("other").is_none());
        assert_eq!(read.date, None);
    }

    #[test]
    fn the_chat_answer_serves_when_there_is_no_plan() {
        let plan =
            json!({"breakfast": meal_json("A"), "lunch": meal_json("B"), "dinner": meal_json("C")});
        let read =
            store_body(&json!({"foodchat_response": {"result": [plan]}, "date": "2026-12-01"}))
                .unwrap();
        assert_eq!(read.plan["lunch"]["title"], "B");
        assert_eq!(read.date, NaiveDate::from_ymd_opt(2026, 12, 1));
        for bad in [
            json!({}),
            json!({"foodchat_response": {"result": []}}),
            json!({"meal_plan": {"breakfast": meal_json(""), "lunch": meal_json("B"), "dinner": meal_json("C")}}),
            json!({"meal_plan": {"breakfast": meal_json("A"), "lunch": meal_json("B")}}),
            json!({"meal_plan": plan.clone(), "applies_to_member_ids": "m2"}),
            json!({"meal_plan": plan.clone(), "applies_to_member_ids": null}),
            json!({"meal_plan": plan.clone(), "date": "2026-1-2"}),
            json!({"meal_plan": plan.clone(), "date": "tomorrow"}),
            json!({"meal_plan": {"breakfast": {"recipe_id": 1, "title": "A", "ingredients": "x", "directions": "y"}, "lunch": meal_json("B"), "dinner": meal_json("C")}}),
            json!({"meal_plan": plan.clone(), "foodchat_response": {"result": [{"breakfast": {}}]}}),
        ] {
            assert!(store_body(&bad).is_err(), "{bad}");
        }
        // A plan past the byte limit is refused.
        let mut big = plan.clone();
        big["reasoning"] = json!("x".repeat(MAX_MEAL_PLAN_BYTES));
        assert!(store_body(&json!({"meal_plan": big})).is_err());
    }

    #[test]
    fn days_and_moments_read_as_pydantic_reads_them() {
        assert_eq!(day("2026-11-28"), NaiveDate::from_ymd_opt(2026, 11, 28));
        assert_eq!(
            day("2026-11-28T00:00:00"),
            NaiveDate::from_ymd_opt(2026, 11, 28)
        );
        assert_eq!(day("2026-11-28T01:00:00"), None);
        assert_eq!(day("20261128"), None);
        assert_eq!(
            moment(&json!("2026-01-02")).unwrap(),
            "2026-01-02T00:00:00Z"
        );
        assert_eq!(
            moment(&json!("2026-01-02T03:04:05.5")).unwrap(),
            "2026-01-02T03:04:05.500Z"
        );
        assert_eq!(moment(&json!(0)).unwrap(), "1970-01-01T00:00:00Z");
        assert_eq!(moment(&json!("soon")), None);
        assert_eq!(flag("Yes"), Some(true));
        assert_eq!(flag("off"), Some(false));
        assert_eq!(flag("maybe"), None);
    }

    #[test]
    fn a_saved_plan_needs_a_name_and_a_source() {
        let (name, id, plan) =
            saved_plan_body(&json!({"name": "  Sunday  ", "meal_plan_id": "p1"})).unwrap();
        assert_eq!(
            (name.as_str(), id.as_deref(), plan),
            ("Sunday", Some("p1"), None)
        );
        for bad in [
            json!({"name": "   ", "meal_plan_id": "p1"}),
            json!({"name": "x".repeat(256), "meal_plan_id": "p1"}),
            json!({"name": "Sunday"}),
            json!({"meal_plan_id": "p1"}),
        ] {
            assert!(saved_plan_body(&bad).is_err(), "{bad}");
        }
    }
}
