//! Meal plans by day, each assigned to one or more members of one household (production.md
//! §10.3, as production's `meal_plan` and `meal_plan_member` tables), and each member's library:
//! saved items (favourite recipes are their `recipe` rows), adapted recipes and saved meal plans.
//!
//! A plan's meals and reasoning are one JSON document; the members it applies to are rows of
//! their own. Deleting a household deletes its plans, deleting a member its assignments and its
//! library (ON DELETE CASCADE), and a plan left without members goes too (a trigger), so an
//! erasure or a member's removal leaves nothing of theirs behind.

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::Value;

use super::Store;

/// The tables (migration 6).
pub(super) const TABLES: &str = r#"
    CREATE TABLE meal_plans (
        id TEXT PRIMARY KEY,
        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
        applied_on TEXT NOT NULL,
        created_at TEXT NOT NULL,
        doc TEXT NOT NULL
    );
    CREATE INDEX meal_plans_by_day ON meal_plans (household_id, applied_on);
    CREATE TABLE meal_plan_members (
        meal_plan_id TEXT NOT NULL REFERENCES meal_plans(id) ON DELETE CASCADE,
        member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        PRIMARY KEY (meal_plan_id, member_id)
    );
    CREATE INDEX meal_plan_members_by_member ON meal_plan_members (member_id);
    CREATE TRIGGER meal_plans_without_members AFTER DELETE ON meal_plan_members
    WHEN NOT EXISTS (SELECT 1 FROM meal_plan_members WHERE meal_plan_id = old.meal_plan_id)
    BEGIN
        DELETE FROM meal_plans WHERE id = old.meal_plan_id;
    END;
    CREATE TABLE saved_items (
        member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        item_type TEXT NOT NULL,
        item_ref TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (member_id, item_type, item_ref)
    );
    CREATE TABLE adapted_recipes (
        member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        recipe_id TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (member_id, recipe_id)
    );
    CREATE TABLE saved_meal_plans (
        id TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        source_meal_plan_id TEXT,
        created_at TEXT NOT NULL,
        doc TEXT NOT NULL
    );
    CREATE INDEX saved_meal_plans_by_member ON saved_meal_plans (member_id);
"#;

/// A stored plan: its document (`source_meal_plan_id`, `source_created_at`, the meals,
/// `reasoning`) and the members it applies to, sorted.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The plan's id.
    pub id: String,
    /// Its household.
    pub household_id: String,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// When it was stored.
    pub created_at: String,
    /// The meals, reasoning and source.
    pub doc: Value,
    /// The members it applies to, sorted.
    pub members: Vec<String>,
}

/// A plan to store for some members on a day (the checks of production's
/// `store_for_members`, made in one transaction).
pub struct NewPlan<'a> {
    /// The member of the path.
    pub requested: &'a str,
    /// Every member it is for (the path's included), sorted and without repeats.
    pub members: &'a [String],
    /// The day.
    pub date: &'a str,
    /// The incoming meals, reasoning and source, compared with the plans already there.
    pub doc: &'a Value,
    /// A new plan's id and stamp, used when no identical plan is reused.
    pub id: &'a str,
    /// When it is stored.
    pub created_at: &'a str,
    /// Plans a member may hold; a member given one more past it is refused.
    pub cap: u64,
}

/// What storing a plan came to.
#[derive(Debug, PartialEq)]
pub enum Stored {
    /// The plan answered: new, or an identical one reused (with the members it lacked added).
    Plan(Plan),
    /// Members that do not exist, sorted.
    Missing(Vec<String>),
    /// The members are of more than one household.
    Households,
    /// Members who already have a different plan that day, sorted (nothing was written).
    Different(Vec<String>),
    /// A member who holds [`NewPlan::cap`] plans already.
    Full(String),
}

/// What revoking a plan for a member came to.
#[derive(Debug, PartialEq)]
pub enum Revoked {
    /// No such plan.
    NoPlan,
    /// The plan is of another household than the member's.
    OtherHousehold,
    /// The plan is not assigned to the member.
    NotAssigned,
    /// Revoked; whether the plan itself is gone.
    Done {
        /// The plan was deleted (for everyone, or its last member's assignment went).
        deleted: bool,
    },
}

/// Meal-plan operations.
pub struct Plans<'a> {
    pub(super) store: &'a Store,
}

fn parse(doc: String) -> Value {
    serde_json::from_str(&doc).unwrap_or(Value::Null)
}

fn plan_members(conn: &Connection, plan_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare_cached(
        "SELECT member_id FROM meal_plan_members WHERE meal_plan_id = ?1 ORDER BY member_id",
    )?;
    let members = statement.query_map([plan_id], |row| row.get(0))?;
    members.collect()
}

/// The plan `id`, with its members.
fn plan_with(conn: &Connection, id: &str) -> rusqlite::Result<Option<Plan>> {
    let found = conn
        .query_row(
            "SELECT household_id, applied_on, created_at, doc FROM meal_plans WHERE id = ?1",
            [id],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            },
        )
        .optional()?;
    let Some((household_id, date, created_at, doc)) = found else {
        return Ok(None);
    };
    Ok(Some(Plan {
        id: id.to_string(),
        household_id,
        date,
        created_at,
        doc: parse(doc),
        members: plan_members(conn, id)?,
    }))
}

/// Whether `stored` has the same source id, meals and reasoning as `incoming` (production's
/// `_matches_incoming_plan`; a missing key is `null`).
fn same_plan(stored: &Value, incoming: &Value) -> bool {
    [
        "source_meal_plan_id",
        "breakfast",
        "lunch",
        "dinner",
        "reasoning",
    ]
    .iter()
    .all(|key| stored.get(key).unwrap_or(&Value::Null) == incoming.get(key).unwrap_or(&Value::Null))
}

fn assignments(tx: &Transaction<'_>, member_id: &str) -> rusqlite::Result<u64> {
    tx.query_row(
        "SELECT count(*) FROM meal_plan_members WHERE member_id = ?1",
        [member_id],
        |row| row.get(0),
    )
}

fn store_in(tx: &Transaction<'_>, new: &NewPlan<'_>) -> rusqlite::Result<Stored> {
    let mut households = std::collections::BTreeSet::new();
    let mut missing = Vec::new();
    for member in new.members {
        let household: Option<String> = tx
            .query_row(
                "SELECT household_id FROM members WHERE id = ?1",
                [member],
                |row| row.get(0),
            )
            .optional()?;
        match household {
            Some(household) => {
                households.insert(household);
            }
            None => missing.push(member.clone()),
        }
    }
    if !missing.is_empty() {
        return Ok(Stored::Missing(missing));
    }
    if households.len() != 1 {
        return Ok(Stored::Households);
    }
    let household = households.into_iter().next().unwrap_or_default();
    // Every assignment of that household on that day, newest plan first, kept for the
    // members the plan is for.
    let mut statement = tx.prepare_cached(
        "SELECT a.member_id, p.id, p.doc FROM meal_plan_members a JOIN meal_plans p ON p.id = a.meal_plan_id
         WHERE p.household_id = ?1 AND p.applied_on = ?2 ORDER BY p.created_at DESC, p.id DESC",
    )?;
    let rows = statement
        .query_map(params![household, new.date], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    drop(statement);
    let mut matching: Vec<(String, String)> = Vec::new();
    let mut different = std::collections::BTreeSet::new();
    let mut assigned = std::collections::BTreeSet::new();
    for (member, plan, doc) in rows {
        if !new.members.contains(&member) {
            continue;
        }
        assigned.insert(member.clone());
        if same_plan(&parse(doc), new.doc) {
            matching.push((member, plan));
        } else {
            different.insert(member);
        }
    }
    if !different.is_empty() {
        return Ok(Stored::Different(different.into_iter().collect()));
    }
    let reused = matching
        .iter()
        .find(|(member, _)| member == new.requested)
        .or(matching.first())
        .map(|(_, plan)| plan.clone());
    let joining: Vec<&String> = match reused {
        Some(_) => new
            .members
            .iter()
            .filter(|m| !assigned.contains(*m))
            .collect(),
        None => new.members.iter().collect(),
    };
    for member in &joining {
        if assignments(tx, member)? >= new.cap {
            return Ok(Stored::Full((*member).clone()));
        }
    }
    let id = match reused {
        Some(id) => id,
        None => {
            tx.execute(
                "INSERT INTO meal_plans (id, household_id, applied_on, created_at, doc) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![new.id, household, new.date, new.created_at, new.doc.to_string()],
            )?;
            new.id.to_string()
        }
    };
    for member in joining {
        tx.execute(
            "INSERT INTO meal_plan_members (meal_plan_id, member_id) VALUES (?1, ?2)",
            params![id, member],
        )?;
    }
    plan_with(tx, &id).map(|plan| plan.map_or(Stored::Households, Stored::Plan))
}

impl Plans<'_> {
    /// Stores a plan for some members on a day, or says why not (nothing written then).
    pub fn store(&self, new: &NewPlan<'_>) -> rusqlite::Result<Stored> {
        self.store.transaction(|tx| store_in(tx, new))
    }

    /// The member's plan on `date`: the newest when there are several.
    pub fn on_day(&self, member_id: &str, date: &str) -> rusqlite::Result<Option<Plan>> {
        self.store.read(|conn| {
            let id: Option<String> = conn
                .query_row(
                    "SELECT p.id FROM meal_plans p JOIN meal_plan_members a ON a.meal_plan_id = p.id
                     WHERE a.member_id = ?1 AND p.applied_on = ?2 ORDER BY p.created_at DESC, p.rowid DESC LIMIT 1",
                    params![member_id, date],
                    |row| row.get(0),
                )
                .optional()?;
            match id {
                Some(id) => plan_with(conn, &id),
                None => Ok(None),
            }
        })
    }

    /// The plan `id`.
    pub fn get(&self, id: &str) -> rusqlite::Result<Option<Plan>> {
        self.store.read(|conn| plan_with(conn, id))
    }

    /// Revokes plan `id` for `member_id` (of `household_id`), or for everyone.
    pub fn revoke(
        &self,
        id: &str,
        member_id: &str,
        household_id: &str,
        for_everyone: bool,
    ) -> rusqlite::Result<Revoked> {
        self.store.transaction(|tx| {
            let Some(plan) = plan_with(tx, id)? else {
                return Ok(Revoked::NoPlan);
            };
            if plan.household_id != household_id {
                return Ok(Revoked::OtherHousehold);
            }
            if !plan.members.iter().any(|m| m == member_id) {
                return Ok(Revoked::NotAssigned);
            }
            if for_everyone {
                tx.execute("DELETE FROM meal_plans WHERE id = ?1", [id])?;
                return Ok(Revoked::Done { deleted: true });
            }
            tx.execute(
                "DELETE FROM meal_plan_members WHERE meal_plan_id = ?1 AND member_id = ?2",
                params![id, member_id],
            )?;
            // The trigger deletes a plan whose last member went.
            let left: Option<i64> = tx
                .query_row("SELECT 1 FROM meal_plans WHERE id = ?1", [id], |row| {
                    row.get(0)
                })
                .optional()?;
            Ok(Revoked::Done {
                deleted: left.is_none(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn store_with_household() -> Store {
        let store = Store::open(":memory:").unwrap();
        // A household is created only for an account in force (store::households::Creation).
        store
            .with(|conn| {
                conn.execute(
                    "INSERT INTO accounts (kind, name, secret_hash, roles) VALUES ('user', 'a', 'h', '')",
                    [],
                )
            })
            .unwrap();
        let household = json!({"id": "h1", "name": "Home", "owner_id": "user:a", "metadata": {}});
        let members: Vec<Value> = ["m1", "m2"]
            .iter()
            .map(|id| json!({"id": id, "household_id": "h1", "name": id, "age_group": "adult"}))
            .collect();
        store
            .households()
            .create("user:a", &household, &members)
            .unwrap();
        store
    }

    fn new<'a>(
        members: &'a [String],
        date: &'a str,
        doc: &'a Value,
        id: &'a str,
        cap: u64,
    ) -> NewPlan<'a> {
        NewPlan {
            requested: &members[0],
            members,
            date,
            doc,
            id,
            created_at: "2026-12-01T00:00:00.000000Z",
            cap,
        }
    }

    #[test]
    fn a_member_holds_at_most_the_cap_and_a_reused_plan_is_not_another() {
        let store = store_with_household();
        let doc = json!({"breakfast": {"title": "Oats"}});
        let one = ["m1".to_string()];
        let plans = store.plans();
        assert!(matches!(
            plans
                .store(&new(&one, "2026-12-01", &doc, "p1", 1))
                .unwrap(),
            Stored::Plan(_)
        ));
        // The identical plan again that day: reused, nothing added.
        let again = plans
            .store(&new(&one, "2026-12-01", &doc, "p2", 1))
            .unwrap();
        assert!(
            matches!(again, Stored::Plan(ref p) if p.id == "p1"),
            "{again:?}"
        );
        assert_eq!(
            plans
                .store(&new(&one, "2026-12-02", &doc, "p3", 1))
                .unwrap(),
            Stored::Full("m1".into())
        );
        assert_eq!(plans.get("p3").unwrap(), None, "nothing written");
    }

    #[test]
    fn a_plan_goes_with_its_last_member() {
        let store = store_with_household();
        let doc = json!({});
        let both = ["m1".to_string(), "m2".to_string()];
        store
            .plans()
            .store(&new(&both, "2026-12-01", &doc, "p1", 10))
            .unwrap();
        store.households().delete_member("m1").unwrap();
        assert_eq!(store.plans().get("p1").unwrap().unwrap().members, ["m2"]);
        store.households().delete_member("m2").unwrap();
        assert_eq!(store.plans().get("p1").unwrap(), None);
    }
}
