//! The versioned file of "Download my data" (format `larder-household-export`, version 1) and its
//! CSV tables, written member by member so a household of a thousand members never has to be
//! held whole.
//!
//! The JSON file:
//! ```text
//! {"format": "larder-household-export", "version": 1,
//!  "exported_at": "2026-11-26T22:39:25Z",            (UTC, when the export began)
//!  "service": {"data": "<data API base>", "system": "<systemic API base>"},
//!  "member_data": {"profile": "included", "meal_plans": "included",
//!                  "saved_items": "not offered by this service", ...},
//!  "meal_plan_dates": {"from": "2026-10-29", "to": "2026-12-05"},   (the days read)
//!  "household": {...},                               (GET households/{id} as answered)
//!  "members": [ {... GET members as answered, "profile": {...} or null,
//!                "meal_plans": [one per day with a plan, as answered], ...}, ... ],
//!  "member_count": 3}
//! ```
//! Version 1 still: the kinds of saved things (`adapted_recipes`, `saved_meal_plans`) and
//! `meal_plan_dates` were added beside what was there, and a reader of the first files reads
//! these the same (`meal_plans` was always a list of plans, now each the day's
//! `MealPlanResponse` with its `date`).
//!
//! The CSV tables (field names as headers, one zip): `household.csv`, `members.csv`,
//! `profiles.csv`, and one per offered kind of saved thing (`meal_plans.csv`, ...). Every table
//! ends in `other_fields`, a JSON object of the fields not among its columns, so nothing is lost.

use larder_contract::member_data::{
    ADAPTED_RECIPES, FAVORITES, MEAL_PLANS_FILE_KEY, SAVED_ITEMS, SAVED_MEAL_PLANS,
};
use serde_json::{json, Map, Value};

use super::csv::{push_line, push_record};
use super::json::ArrayWriter;

/// The `format` of the file.
pub const FORMAT: &str = "larder-household-export";
/// The `version` of the format; a change that could break a reader raises it.
pub const VERSION: u32 = 1;

/// What production keeps per member beside the profile (production.md §10.3): the key in the
/// file (and its CSV table's name) and the table's columns.
pub const MEMBER_EXTRAS: &[(&str, &[&str])] = &[
    (
        MEAL_PLANS_FILE_KEY,
        &[
            "member_id",
            "date",
            "id",
            "applies_to_member_ids",
            "reasoning",
        ],
    ),
    (
        SAVED_ITEMS.file_key,
        &["member_id", "item_type", "item_ref", "created_at"],
    ),
    (
        FAVORITES.file_key,
        &["member_id", "recipe_id", "created_at"],
    ),
    (
        ADAPTED_RECIPES.file_key,
        &[
            "member_id",
            "recipe_id",
            "title",
            "created_at",
            "updated_at",
        ],
    ),
    (
        SAVED_MEAL_PLANS.file_key,
        &["member_id", "id", "name", "source_applied_on", "created_at"],
    ),
];

/// The most days of meal plans one export reads (a request per member and day).
pub const MAX_PLAN_DAYS: i64 = 366;

/// The days from `from` to `to` (`YYYY-MM-DD`, both included), or what is wrong with them.
pub fn plan_days(from: &str, to: &str) -> Result<Vec<String>, PlanDaysProblem> {
    let (Some(first), Some(last)) = (
        larder_contract::time::day_number(from),
        larder_contract::time::day_number(to),
    ) else {
        return Err(PlanDaysProblem::NotDates);
    };
    if last < first {
        return Err(PlanDaysProblem::Backwards);
    }
    if last - first + 1 > MAX_PLAN_DAYS {
        return Err(PlanDaysProblem::TooMany);
    }
    Ok((first..=last).map(larder_contract::time::date_of).collect())
}

/// Why a range of days cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanDaysProblem {
    /// One of them is not a date.
    NotDates,
    /// The last is before the first.
    Backwards,
    /// More than [`MAX_PLAN_DAYS`].
    TooMany,
}

fn columns_of(key: &str) -> &'static [&'static str] {
    MEMBER_EXTRAS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(&["member_id", "id"], |(_, columns)| columns)
}

/// What `member_data` says of a kind the service offers.
pub const INCLUDED: &str = "included";
/// What `member_data` says of a kind the service does not offer (404 or 405).
pub const NOT_OFFERED: &str = "not offered by this service";
/// What `member_data` says when there was no member to ask about.
pub const NO_MEMBERS: &str = "no members to ask about";

/// The last column of every table.
pub const OTHER_FIELDS: &str = "other_fields";

const HOUSEHOLD_COLUMNS: &[&str] = &[
    "id",
    "name",
    "owner_id",
    "region",
    "member_count",
    "created_at",
    "updated_at",
    "metadata",
];
const MEMBER_COLUMNS: &[&str] = &[
    "id",
    "household_id",
    "name",
    "age_group",
    "image_url",
    "joined_at",
];
const PROFILE_COLUMNS: &[&str] = &[
    "household_member_id",
    "id",
    "dietary_groups",
    "allergies",
    "nutritional_preferences",
    "properties",
    "created_at",
    "updated_at",
];
/// One table of the CSV zip: its file name and the next text to append to it.
pub type CsvPart = (String, String);

/// What one step of the writer adds: text for the JSON file and for each CSV table.
#[derive(Debug, Default)]
pub struct Output {
    /// Appended to the JSON file.
    pub json: String,
    /// Appended to the CSV tables, by file name.
    pub csv: Vec<CsvPart>,
}

/// Writes the file and the tables in three steps: [`Writer::start`], [`Writer::member`] for
/// each member in the order read, [`Writer::finish`].
pub struct Writer {
    members: ArrayWriter,
    /// The kinds of saved things the service offers, by file key.
    offered: Vec<&'static str>,
}

fn header(columns: &[&str]) -> String {
    let mut out = String::new();
    push_line(columns.iter().copied().chain([OTHER_FIELDS]), &mut out);
    out
}

fn csv_file(key: &str) -> String {
    format!("{key}.csv")
}

impl Writer {
    /// The start of the file and every table's header. `offered` says, for each of
    /// [`MEMBER_EXTRAS`], whether the service offers it (`None`: there was no member to ask);
    /// `plan_dates` the first and last day of meal plans read, when they are.
    pub fn start(
        exported_at: &str,
        service: Value,
        household: &Value,
        offered: &[(&'static str, Option<bool>)],
        plan_dates: Option<(&str, &str)>,
    ) -> (Writer, Output) {
        let mut household = household.clone();
        if let Some(fields) = household.as_object_mut() {
            // The members come in `members` below, each read page by page.
            fields.remove("members");
        }
        let mut member_data = Map::new();
        member_data.insert("profile".into(), INCLUDED.into());
        for (key, offer) in offered {
            let said = match offer {
                Some(true) => INCLUDED,
                Some(false) => NOT_OFFERED,
                None => NO_MEMBERS,
            };
            member_data.insert((*key).into(), said.into());
        }
        let mut head = json!({
            "format": FORMAT,
            "version": VERSION,
            "exported_at": exported_at,
            "service": service,
            "member_data": member_data,
            "household": household,
        });
        if let Some((from, to)) = plan_dates {
            head["meal_plan_dates"] = json!({"from": from, "to": to});
        }
        let head = head.to_string();
        // `{...}` without its closing brace, so `members` can follow.
        let mut json = head[..head.len() - 1].to_string();
        json.push_str(",\"members\":");
        let members = ArrayWriter::new();
        members.open(&mut json);
        let offered: Vec<&'static str> = offered
            .iter()
            .filter(|(_, offer)| *offer == Some(true))
            .map(|(key, _)| *key)
            .collect();
        let mut household_csv = header(HOUSEHOLD_COLUMNS);
        if let Some(fields) = household.as_object() {
            push_record(HOUSEHOLD_COLUMNS, true, fields, &mut household_csv);
        }
        let mut csv = vec![
            (csv_file("household"), household_csv),
            (csv_file("members"), header(MEMBER_COLUMNS)),
            (csv_file("profiles"), header(PROFILE_COLUMNS)),
        ];
        csv.extend(
            offered
                .iter()
                .map(|key| (csv_file(key), header(columns_of(key)))),
        );
        (Writer { members, offered }, Output { json, csv })
    }

    /// The names of the CSV tables, in the order of the zip.
    pub fn csv_files(&self) -> Vec<String> {
        let mut names = vec![
            csv_file("household"),
            csv_file("members"),
            csv_file("profiles"),
        ];
        names.extend(self.offered.iter().map(|key| csv_file(key)));
        names
    }

    /// One member as answered (its `profile` inside), with the saved things read for it.
    pub fn member(
        &mut self,
        member: &Value,
        extras: &[(&'static str, Vec<Value>)],
    ) -> Result<Output, String> {
        let Some(fields) = member.as_object() else {
            return Err("a member that is not a JSON object".into());
        };
        let mut out = Output::default();
        let mut whole = fields.clone();
        for (key, items) in extras {
            whole.insert((*key).into(), Value::Array(items.clone()));
        }
        self.members.push(&whole, &mut out.json)?;

        let mut member_line = String::new();
        let mut without_profile = fields.clone();
        let profile = without_profile.remove("profile");
        push_record(MEMBER_COLUMNS, true, &without_profile, &mut member_line);
        out.csv.push((csv_file("members"), member_line));
        if let Some(Value::Object(profile)) = profile {
            let mut profile_line = String::new();
            push_record(PROFILE_COLUMNS, true, &profile, &mut profile_line);
            out.csv.push((csv_file("profiles"), profile_line));
        }
        let member_id = fields.get("id").cloned().unwrap_or(Value::Null);
        for (key, items) in extras {
            let mut lines = String::new();
            for item in items {
                let mut row = match item {
                    Value::Object(fields) => fields.clone(),
                    other => Map::from_iter([("value".to_string(), other.clone())]),
                };
                row.insert("member_id".into(), member_id.clone());
                push_record(columns_of(key), true, &row, &mut lines);
            }
            out.csv.push((csv_file(key), lines));
        }
        Ok(out)
    }

    /// The end of the JSON file.
    pub fn finish(&self) -> String {
        let mut out = String::new();
        self.members.close(&mut out);
        out.push_str(&format!(",\"member_count\":{}}}", self.members.count()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gather(into: &mut Vec<(String, String)>, csv: Vec<CsvPart>) {
        for (name, text) in csv {
            match into.iter_mut().find(|(n, _)| *n == name) {
                Some((_, all)) => all.push_str(&text),
                None => into.push((name, text)),
            }
        }
    }

    #[test]
    fn the_file_is_versioned_json_with_every_member_and_profile() {
        let household =
            json!({"id": "h1", "name": "Kovács, \"Home\"", "members": [{"id": "x"}], "future": 1});
        let offered = [
            ("meal_plans", Some(true)),
            ("saved_items", Some(false)),
            ("favorites", Some(false)),
        ];
        let (mut writer, start) = Writer::start(
            "2026-11-26T22:39:25Z",
            json!({"data": "http://d", "system": "http://s"}),
            &household,
            &offered,
            Some(("2026-10-28", "2026-12-03")),
        );
        let mut json_text = start.json;
        let mut tables = Vec::new();
        gather(&mut tables, start.csv);
        let ann = json!({"id": "m1", "name": "Ann", "age_group": "adult", "profile": {"id": "p1", "household_member_id": "m1", "dietary_groups": ["vegan", "halal"], "properties": {"goal": "less salt"}}});
        let bob = json!({"id": "m2", "name": "Bob", "age_group": "child", "profile": null});
        let plans = vec![
            json!({"id": "mp1", "date": "2026-11-27", "applies_to_member_ids": ["m1"], "lunch": {"title": "Soup"}}),
        ];
        let step = writer.member(&ann, &[("meal_plans", plans)]).unwrap();
        json_text.push_str(&step.json);
        gather(&mut tables, step.csv);
        let step = writer.member(&bob, &[("meal_plans", vec![])]).unwrap();
        json_text.push_str(&step.json);
        gather(&mut tables, step.csv);
        json_text.push_str(&writer.finish());

        let file: Value = serde_json::from_str(&json_text).unwrap();
        assert_eq!(file["format"], FORMAT);
        assert_eq!(file["version"], 1);
        assert_eq!(file["exported_at"], "2026-11-26T22:39:25Z");
        assert_eq!(
            file["household"],
            json!({"id": "h1", "name": "Kovács, \"Home\"", "future": 1})
        );
        assert_eq!(file["member_data"]["meal_plans"], INCLUDED);
        assert_eq!(file["member_data"]["saved_items"], NOT_OFFERED);
        assert_eq!(file["member_count"], 2);
        assert_eq!(
            file["meal_plan_dates"],
            json!({"from": "2026-10-28", "to": "2026-12-03"})
        );
        assert_eq!(
            file["members"][0]["profile"]["properties"]["goal"],
            "less salt"
        );
        assert_eq!(file["members"][0]["meal_plans"][0]["id"], "mp1");
        assert_eq!(file["members"][1]["profile"], Value::Null);

        let names: Vec<&str> = tables.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "household.csv",
                "members.csv",
                "profiles.csv",
                "meal_plans.csv"
            ]
        );
        assert_eq!(writer.csv_files(), names);
        assert_eq!(
            tables[0].1,
            "id,name,owner_id,region,member_count,created_at,updated_at,metadata,other_fields\r\n\
             h1,\"Kovács, \"\"Home\"\"\",,,,,,,\"{\"\"future\"\":1}\"\r\n"
        );
        assert_eq!(
            tables[1].1,
            "id,household_id,name,age_group,image_url,joined_at,other_fields\r\n\
             m1,,Ann,adult,,,\r\nm2,,Bob,child,,,\r\n"
        );
        assert_eq!(
            tables[2].1.lines().nth(1).unwrap(),
            "m1,p1,vegan; halal,,,\"{\"\"goal\"\":\"\"less salt\"\"}\",,,"
        );
        assert_eq!(
            tables[3].1,
            "member_id,date,id,applies_to_member_ids,reasoning,other_fields\r\n\
             m1,2026-11-27,mp1,m1,,\"{\"\"lunch\"\":{\"\"title\"\":\"\"Soup\"\"}}\"\r\n"
        );
    }

    #[test]
    fn a_household_without_members_is_still_a_whole_file() {
        let offered = [("meal_plans", None)];
        let (writer, start) = Writer::start("t", json!({}), &json!({"id": "h"}), &offered, None);
        let text = format!("{}{}", start.json, writer.finish());
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["members"], json!([]));
        assert_eq!(file["member_data"]["meal_plans"], NO_MEMBERS);
        assert!(file.get("meal_plan_dates").is_none());
    }

    #[test]
    fn the_days_of_plans_are_a_bounded_range() {
        assert_eq!(
            plan_days("2026-12-30", "2027-01-02").unwrap(),
            ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]
        );
        assert_eq!(plan_days("2026-12-30", "2026-12-30").unwrap().len(), 1);
        assert_eq!(
            plan_days("2026-12-30", "2026-12-29"),
            Err(PlanDaysProblem::Backwards)
        );
        assert_eq!(
            plan_days("soon", "2026-12-29"),
            Err(PlanDaysProblem::NotDates)
        );
        assert_eq!(
            plan_days("2026-01-01", "2027-01-02"),
            Err(PlanDaysProblem::TooMany)
        );
        assert_eq!(plan_days("2026-01-01", "2026-12-31").unwrap().len(), 365);
    }

    #[test]
    fn a_member_that_is_not_an_object_is_an_error_not_a_panic() {
        let (mut writer, _) = Writer::start("t", json!({}), &json!({}), &[], None);
        assert!(writer.member(&json!("m1"), &[]).is_err());
    }
}
