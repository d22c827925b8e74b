//! Where a share reads the plan it snapshots: [`plan_to_share`], the one function to point at the
//! meal-plan store.
//!
//! It reads the meal-plan tables as the meal-plan routes keep them (branch `owners-plans`:
//! `meal_plans (id, household_id, applied_on, created_at, doc)` and `saved_meal_plans (id,
//! member_id, source_meal_plan_id, created_at, doc)`, each `doc` holding the meals). Until those
//! routes are merged the tables do not exist here, and every plan reads as "No such meal plan";
//! tests create the two tables as that store does and insert plans directly. Once merged, this
//! function may call that store's own reads instead; nothing else in `shares` changes.

use larder_contract::shares::{MEAL_PLAN, SAVED_MEAL_PLAN};
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::store::Store;

/// A plan as a share needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanToShare {
    /// The household it belongs to (whose owner, or an administrator, may share it).
    pub household_id: String,
    /// What the snapshot is scrubbed from: the day (`date` or `source_applied_on`) and the meals.
    pub plan: Value,
    /// The title a share without one gets.
    pub default_title: String,
}

/// The plan `id` of `kind` (`meal_plan` or `saved_meal_plan`), or `None` when there is none.
pub fn plan_to_share(store: &Store, kind: &str, id: &str) -> rusqlite::Result<Option<PlanToShare>> {
    store.read(|conn| {
        let found = match kind {
            MEAL_PLAN => meal_plan(conn, id),
            SAVED_MEAL_PLAN => saved_meal_plan(conn, id),
            _ => Ok(None),
        };
        match found {
            Err(rusqlite::Error::SqliteFailure(_, Some(message)))
                if message.starts_with("no such table") =>
            {
                Ok(None)
            }
            other => other,
        }
    })
}

fn parse(doc: &str) -> Value {
    serde_json::from_str(doc).unwrap_or(Value::Null)
}

fn meal_plan(conn: &Connection, id: &str) -> rusqlite::Result<Option<PlanToShare>> {
    let found = conn
        .query_row(
            "SELECT household_id, applied_on, doc FROM meal_plans WHERE id = ?1",
            [id],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            },
        )
        .optional()?;
    Ok(found.map(|(household_id, date, doc)| {
        let mut plan = parse(&doc);
        if plan.is_object() {
            plan["date"] = json!(date);
        }
        PlanToShare {
            household_id,
            default_title: format!("Meal plan for {date}"),
            plan,
        }
    }))
}

fn saved_meal_plan(conn: &Connection, id: &str) -> rusqlite::Result<Option<PlanToShare>> {
    let found = conn
        .query_row(
            "SELECT m.household_id, s.doc FROM saved_meal_plans s JOIN members m ON m.id = s.member_id
             WHERE s.id = ?1",
            [id],
            |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
        )
        .optional()?;
    Ok(found.map(|(household_id, doc)| {
        let saved = parse(&doc);
        let default_title = saved["name"].as_str().unwrap_or_default().to_string();
        let plan = json!({
            "source_applied_on": saved["source_applied_on"],
            "breakfast": saved["breakfast"],
            "lunch": saved["lunch"],
            "dinner": saved["dinner"],
        });
        PlanToShare {
            household_id,
            plan,
            default_title,
        }
    }))
}
