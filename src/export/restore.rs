//! Restoring a household from its file ("Download my data", format `larder-household-export`,
//! [`super::household`]): the file checked whole before anything is created ([`plan`]), and the
//! comparison of the file with what the service answers afterwards ([`differences`]). Pure:
//! tested natively (`restore_tests.rs`); the console's side is `household::restore`.
//!
//! What production takes decides what is restored: the household (name, region, metadata), its
//! members with their profiles (each checked against production's own create schemas, so a
//! member it would refuse is named before anything is sent), and the meal plans for today or
//! later (production answers 422 for a day gone by; a plan shared by several members is stored
//! once for all of them), and each member's library where the service keeps one
//! ([`super::restore_library`]). Past plans and library entries lacking what names them are
//! counted and shown as not restored, with why.

use std::collections::BTreeMap;

use larder_api::types::MealPlan;
use larder_contract::households::{HOUSEHOLD_CREATE, MEMBER_IN_HOUSEHOLD, PROFILE_CREATE};
use larder_contract::limits::MAX_MEMBERS_PER_HOUSEHOLD;
use larder_contract::member_data::MEAL_PLANS_FILE_KEY;
use larder_contract::validate::{check_object, Extra, Problems};
use serde_json::{Map, Value};

pub use super::difference::Difference;
use super::household::{FORMAT, VERSION};
use super::restore_library::{library_of, Library};

/// The largest file read. A thousand members with production's largest pictures and a month
/// of plans came to 46.6 MB; a larger file is not one this console wrote.
pub const MAX_RESTORE_BYTES: usize = 47 << 20;

/// The profile's fields a restore sends (what `POST members` and `PATCH members/{id}/profile`
/// take); the others are the service's (ids and stamps).
pub const PROFILE_FIELDS: [&str; 4] = [
    "dietary_groups",
    "allergies",
    "nutritional_preferences",
    "properties",
];
/// A member's fields a restore sends.
const MEMBER_FIELDS: [&str; 3] = ["name", "age_group", "image_url"];
/// The household's fields a restore sends.
const HOUSEHOLD_FIELDS: [&str; 3] = ["name", "region", "metadata"];

/// Why a file cannot be restored; nothing is created.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// Over [`MAX_RESTORE_BYTES`].
    TooLarge { bytes: usize },
    /// Not JSON: where the reading stopped.
    NotJson { line: usize, column: usize },
    /// The JSON ends too early (a download cut short).
    Truncated { line: usize, column: usize },
    /// JSON, but not a household file.
    NotAHouseholdFile,
    /// Written by a newer console.
    NewerVersion { version: u64 },
    /// More members than a household may have.
    TooManyMembers { count: usize },
    /// The file says it holds more (or fewer) members than it does.
    MembersMissing { said: u64, found: usize },
    /// The household's fields would be refused.
    Household { problems: Vec<String> },
    /// A member's fields would be refused (`number` counts from 1).
    Member {
        number: usize,
        name: String,
        problems: Vec<String>,
    },
}

/// A member to create.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberPlan {
    /// Its id in the file (what the file's meal plans name).
    pub file_id: String,
    /// `name`, `age_group` and `image_url`, as production stores them.
    pub member: Map<String, Value>,
    /// The profile's [`PROFILE_FIELDS`], when the file has a profile.
    pub profile: Option<Map<String, Value>>,
    /// Saved items, favourites, adapted recipes and saved meal plans.
    pub library: Library,
}

impl MemberPlan {
    /// The name.
    pub fn name(&self) -> &str {
        self.member
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The age group, as production stores it.
    pub fn age_group(&self) -> &str {
        self.member
            .get("age_group")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

/// A meal plan to store once for every member it applies to.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanToStore {
    /// The plan as the file holds it.
    pub plan: MealPlan,
    /// The members it applies to, as indexes of [`Plan::members`], in the file's order.
    pub members: Vec<usize>,
}

/// What a file restores, and what it cannot.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The body of `POST households` (without members).
    pub household: Map<String, Value>,
    /// The members, in the file's order.
    pub members: Vec<MemberPlan>,
    /// The meal plans for today or later.
    pub meal_plans: Vec<PlanToStore>,
    /// Plans of days gone by (production refuses them).
    pub past_meal_plans: usize,
    /// Plans with a meal lacking one of its four texts (production refuses them).
    pub lacking_meal: usize,
    /// Library entries lacking what names them (a saved item's reference, a recipe's id, a
    /// saved plan's name), which the service cannot store.
    pub library_unnamed: usize,
}

impl Plan {
    /// The library entries to store, every member's.
    pub fn library_entries(&self) -> usize {
        self.members.iter().map(|m| m.library.len()).sum()
    }
}

/// `value`'s `keys` that are present and not null.
fn pick(value: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    keys.iter()
        .filter_map(|key| match value.get(*key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(((*key).to_string(), v.clone())),
        })
        .collect()
}

fn problem_lines(problems: &Problems, prefix: &str) -> Vec<String> {
    problems
        .shown()
        .iter()
        .map(|p| format!("{prefix}{}: {}", p.dotted(), p.msg))
        .collect()
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Reads and checks the file; `today` (`YYYY-MM-DD`, the person's) separates plans that can
/// be stored from past ones.
pub fn plan(text: &str, today: &str) -> Result<Plan, Refusal> {
    if text.len() > MAX_RESTORE_BYTES {
        return Err(Refusal::TooLarge { bytes: text.len() });
    }
    let file: Value = serde_json::from_str(text).map_err(|e| {
        let (line, column) = (e.line(), e.column());
        if e.is_eof() {
            Refusal::Truncated { line, column }
        } else {
            Refusal::NotJson { line, column }
        }
    })?;
    if file.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(Refusal::NotAHouseholdFile);
    }
    let version = file
        .get("version")
        .and_then(Value::as_u64)
        .ok_or(Refusal::NotAHouseholdFile)?;
    if version > u64::from(VERSION) {
        return Err(Refusal::NewerVersion { version });
    }
    let (Some(Value::Object(household)), Some(Value::Array(members))) =
        (file.get("household"), file.get("members"))
    else {
        return Err(Refusal::NotAHouseholdFile);
    };
    if members.len() > MAX_MEMBERS_PER_HOUSEHOLD {
        return Err(Refusal::TooManyMembers {
            count: members.len(),
        });
    }
    if let Some(said) = file.get("member_count").and_then(Value::as_u64) {
        if said != members.len() as u64 {
            return Err(Refusal::MembersMissing {
                said,
                found: members.len(),
            });
        }
    }
    let mut problems = Problems::new();
    let household = check_object(
        HOUSEHOLD_CREATE,
        Extra::Ignore,
        &pick(household, &HOUSEHOLD_FIELDS),
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(Refusal::Household {
            problems: problem_lines(&problems, ""),
        });
    }
    let mut plan = Plan {
        household,
        members: Vec::with_capacity(members.len()),
        meal_plans: Vec::new(),
        past_meal_plans: 0,
        lacking_meal: 0,
        library_unnamed: 0,
    };
    // Stored plans by their id in the file: a plan shared by members is one plan.
    let mut by_stored_id: BTreeMap<String, usize> = BTreeMap::new();
    for (index, member) in members.iter().enumerate() {
        let refuse = |problems: Vec<String>| Refusal::Member {
            number: index + 1,
            name: str_of(member, "name").to_string(),
            problems,
        };
        let Value::Object(fields) = member else {
            return Err(refuse(vec!["not an object".into()]));
        };
        let mut problems = Problems::new();
        let checked = check_object(
            MEMBER_IN_HOUSEHOLD,
            Extra::Ignore,
            &pick(fields, &MEMBER_FIELDS),
            &mut problems,
        );
        let mut lines = problem_lines(&problems, "");
        let profile = match fields.get("profile") {
            Some(Value::Object(profile)) => {
                let mut problems = Problems::new();
                let checked = check_object(
                    PROFILE_CREATE,
                    Extra::Ignore,
                    &pick(profile, &PROFILE_FIELDS),
                    &mut problems,
                );
                lines.extend(problem_lines(&problems, "profile."));
                Some(checked)
            }
            None | Some(Value::Null) => None,
            Some(_) => {
                lines.push("profile: not an object".into());
                None
            }
        };
        let meal_plans = match fields.get(MEAL_PLANS_FILE_KEY) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(plans)) => plans.clone(),
            Some(_) => {
                lines.push(format!("{MEAL_PLANS_FILE_KEY}: not a list"));
                Vec::new()
            }
        };
        for (number, value) in meal_plans.into_iter().enumerate() {
            match serde_json::from_value::<MealPlan>(value) {
                Ok(meal_plan) if larder_contract::time::day_number(&meal_plan.date).is_some() => {
                    let key = if meal_plan.id.is_empty() {
                        format!("{index}/{}", meal_plan.date)
                    } else {
                        meal_plan.id.clone()
                    };
                    match by_stored_id.get(&key) {
                        Some(&at) => {
                            // The same plan listed twice for a member counts once.
                            let members = &mut plan.meal_plans[at].members;
                            if !members.contains(&index) {
                                members.push(index);
                            }
                        }
                        None => {
                            by_stored_id.insert(key, plan.meal_plans.len());
                            plan.meal_plans.push(PlanToStore {
                                plan: meal_plan,
                                members: vec![index],
                            });
                        }
                    }
                }
                Ok(_) => lines.push(format!("{MEAL_PLANS_FILE_KEY}.{number}.date: not a date")),
                Err(error) => lines.push(format!("{MEAL_PLANS_FILE_KEY}.{number}: {error}")),
            }
        }
        if !lines.is_empty() {
            return Err(refuse(lines));
        }
        let (library, unnamed) = library_of(fields);
        plan.library_unnamed += unnamed;
        plan.members.push(MemberPlan {
            file_id: str_of(member, "id").to_string(),
            member: checked,
            profile,
            library,
        });
    }
    let (past, storable): (Vec<_>, Vec<_>) = std::mem::take(&mut plan.meal_plans)
        .into_iter()
        .partition(|p| p.plan.date.as_str() < today);
    plan.past_meal_plans = past.len();
    let (complete, lacking): (Vec<_>, Vec<_>) = storable.into_iter().partition(|p| {
        p.plan
            .meals()
            .iter()
            .all(|(_, meal)| meal_is_complete(meal))
    });
    plan.lacking_meal = lacking.len();
    plan.meal_plans = complete;
    Ok(plan)
}

fn meal_is_complete(meal: &larder_api::types::Meal) -> bool {
    [
        &meal.recipe_id,
        &meal.title,
        &meal.ingredients,
        &meal.directions,
    ]
    .iter()
    .all(|text| !text.trim().is_empty())
}

/// Absent, `null`, `""`, `[]` and `{}` are all "nothing": the service may answer any of them
/// for a field the file left empty.
fn normal(value: Option<&Value>) -> Value {
    match value {
        None | Some(Value::Null) => Value::Null,
        Some(Value::String(s)) if s.is_empty() => Value::Null,
        Some(Value::Array(a)) if a.is_empty() => Value::Null,
        Some(Value::Object(o)) if o.is_empty() => Value::Null,
        Some(other) => other.clone(),
    }
}

fn shown(value: &Value) -> String {
    match value {
        Value::Null => "—".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn compare(
    whose: &str,
    prefix: &str,
    keys: &[&str],
    file: &Map<String, Value>,
    read: Option<&Map<String, Value>>,
    out: &mut Vec<Difference>,
) {
    for key in keys {
        let (in_file, answered) = (
            normal(file.get(*key)),
            normal(read.and_then(|r| r.get(*key))),
        );
        if in_file != answered {
            out.push(Difference {
                whose: whose.to_string(),
                field: format!("{prefix}{key}"),
                in_file: shown(&in_file),
                answered: shown(&answered),
            });
        }
    }
}

/// For each of the plan's members, the index in `read` (members as the service answers them)
/// of the member it became: the first unclaimed one with its name and age group. A restore
/// that stopped part-way continues with these, so nobody is created twice.
pub fn match_members(plan: &Plan, read: &[Value]) -> Vec<Option<usize>> {
    let mut claimed = vec![false; read.len()];
    plan.members
        .iter()
        .map(|member| {
            let found = read.iter().enumerate().position(|(at, candidate)| {
                !claimed[at]
                    && str_of(candidate, "name") == member.name()
                    && str_of(candidate, "age_group").eq_ignore_ascii_case(member.age_group())
            });
            if let Some(at) = found {
                claimed[at] = true;
            }
            found
        })
        .collect()
}

fn member_differences(member: &MemberPlan, read: &Map<String, Value>) -> Vec<Difference> {
    let mut out = Vec::new();
    compare(
        member.name(),
        "",
        &MEMBER_FIELDS,
        &member.member,
        Some(read),
        &mut out,
    );
    let empty = Map::new();
    compare(
        member.name(),
        "profile.",
        &PROFILE_FIELDS,
        member.profile.as_ref().unwrap_or(&empty),
        read.get("profile").and_then(Value::as_object),
        &mut out,
    );
    out
}

/// Whether `read` (a member as answered, profile inside) holds the member's fields and
/// profile as the file has them: a try that stopped part-way finished this one.
pub fn member_is_whole(member: &MemberPlan, read: &Value) -> bool {
    read.as_object()
        .is_some_and(|read| member_differences(member, read).is_empty())
}

/// Every field of the file that the service does not answer alike: the household (as answered
/// by `households/{id}`) and each member with its profile (as `members` lists them, profile
/// inside); ids and stamps are the service's and not compared. A member of the file with no
/// counterpart, or a member the file does not have, is a difference too.
pub fn differences(plan: &Plan, household: &Value, members: &[Value]) -> Vec<Difference> {
    let mut out = Vec::new();
    compare(
        "household",
        "",
        &HOUSEHOLD_FIELDS,
        &plan.household,
        household.as_object(),
        &mut out,
    );
    let matched = match_members(plan, members);
    for (member, found) in plan.members.iter().zip(&matched) {
        let Some(read) = found.and_then(|at| members[at].as_object()) else {
            out.push(Difference {
                whose: member.name().to_string(),
                field: "member".into(),
                in_file: member.name().to_string(),
                answered: "—".into(),
            });
            continue;
        };
        out.extend(member_differences(member, read));
    }
    for (at, extra) in members.iter().enumerate() {
        if !matched.contains(&Some(at)) {
            out.push(Difference {
                whose: str_of(extra, "name").to_string(),
                field: "member".into(),
                in_file: "—".into(),
                answered: str_of(extra, "name").to_string(),
            });
        }
    }
    out
}

/// How a stored plan reads back for one of its members (`read`: that member's plan of the day
/// as answered, `None` when there is none), compared with the file's: the meals, the reasoning
/// and who else it applies to (by the members' names, since ids are new).
pub fn plan_differences(
    plan: &Plan,
    stored: &PlanToStore,
    member: usize,
    read: Option<&MealPlan>,
    names_of_ids: &BTreeMap<String, String>,
) -> Vec<Difference> {
    let whose = format!("{} · {}", plan.members[member].name(), stored.plan.date);
    let Some(read) = read else {
        return vec![Difference {
            whose,
            field: "meal plan".into(),
            in_file: stored.plan.date.clone(),
            answered: "—".into(),
        }];
    };
    let mut out = Vec::new();
    for ((name, in_file), (_, answered)) in stored.plan.meals().iter().zip(read.meals().iter()) {
        let (in_file, answered) = (
            serde_json::to_value(in_file).unwrap_or(Value::Null),
            serde_json::to_value(answered).unwrap_or(Value::Null),
        );
        if in_file != answered {
            out.push(Difference {
                whose: whose.clone(),
                field: (*name).into(),
                in_file: shown(&in_file),
                answered: shown(&answered),
            });
        }
    }
    let reasoning = |p: &MealPlan| {
        normal(
            p.reasoning
                .as_ref()
                .map(|r| Value::from(r.as_str()))
                .as_ref(),
        )
    };
    if reasoning(&stored.plan) != reasoning(read) {
        out.push(Difference {
            whose: whose.clone(),
            field: "reasoning".into(),
            in_file: shown(&reasoning(&stored.plan)),
            answered: shown(&reasoning(read)),
        });
    }
    let mut wanted: Vec<&str> = stored
        .members
        .iter()
        .map(|&m| plan.members[m].name())
        .collect();
    let mut got: Vec<&str> = read
        .applies_to_member_ids
        .iter()
        .map(|id| names_of_ids.get(id).map_or(id.as_str(), String::as_str))
        .collect();
    wanted.sort_unstable();
    got.sort_unstable();
    if wanted != got {
        out.push(Difference {
            whose,
            field: "applies_to_member_ids".into(),
            in_file: wanted.join(", "),
            answered: got.join(", "),
        });
    }
    out
}

#[cfg(test)]
#[path = "restore_tests.rs"]
mod tests;
