//! The versioned file of "Download my data" (format `larder-household-export`, version 1) and its
//! CSV tables, written member by member so a household of a thousand members never has to be
//! held whole.
//!
//! The JSON file:
//! ```text
//! {"format": "larder-household-export", "version": 1,
//!  "exported_at": "2026-11-26T22:39:25Z",            (UTC, when the export began)
//!  "service": {"data": "<data API base>", "system": "<systemic API base>"},
//!  "member_data": {"profile": "included", "meal_plans": "not offered", ...},
//!  "household": {...},                               (GET households/{id} as answered)
//!  "members": [ {... GET members as answered, "profile": {...} or null,
//!                "meal_plans": [...] where offered, ...}, ... ],
//!  "member_count": 3}
//! ```
//! The CSV tables (field names as headers, one zip): `household.csv`, `members.csv`,
//! `profiles.csv`, and one per offered kind of saved thing (`meal_plans.csv`, ...). Every table
//! ends in `other_fields`, a JSON object of the fields not among its columns, so nothing is lost.

use serde_json::{json, Map, Value};

use super::csv::{push_line, push_record};
use super::json::ArrayWriter;

/// The `format` of the file.
pub const FORMAT: &str = "larder-household-export";
/// The `version` of the format; a change that could break a reader raises it.
pub const VERSION: u32 = 1;

/// Saved things production keeps per member (production.md §8 row 8): the key in the file, the
/// route under `members/{id}/`.
pub const MEMBER_EXTRAS: &[(&str, &str)] = &[
    ("meal_plans", "meal-plans"),
    ("saved_items", "saved-items"),
    ("favorites", "favorites"),
];

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
const EXTRA_COLUMNS: &[&str] = &["member_id", "id"];

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
    /// [`MEMBER_EXTRAS`], whether the service offers it (`None`: there was no member to ask).
    pub fn start(
        exported_at: &str,
        service: Value,
        household: &Value,
        offered: &[(&'static str, Option<bool>)],
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
        let head = json!({
            "format": FORMAT,
            "version": VERSION,
            "exported_at": exported_at,
            "service": service,
            "member_data": member_data,
            "household": household,
        });
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
                .map(|key| (csv_file(key), header(EXTRA_COLUMNS))),
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
                push_record(EXTRA_COLUMNS, true, &row, &mut lines);
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
        );
        let mut json_text = start.json;
        let mut tables = Vec::new();
        gather(&mut tables, start.csv);
        let ann = json!({"id": "m1", "name": "Ann", "age_group": "adult", "profile": {"id": "p1", "household_member_id": "m1", "dietary_groups": ["vegan", "halal"], "properties": {"goal": "less salt"}}});
        let bob = json!({"id": "m2", "name": "Bob", "age_group": "child", "profile": null});
        let plans =
            vec![json!({"id": "mp1", "date": "2026-11-27", "applies_to_member_ids": ["m1"]})];
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
            "member_id,id,other_fields\r\nm1,mp1,\"{\"\"applies_to_member_ids\"\":[\"\"m1\"\"],\"\"date\"\":\"\"2026-11-27\"\"}\"\r\n"
        );
    }

    #[test]
    fn a_household_without_members_is_still_a_whole_file() {
        let offered = [("meal_plans", None)];
        let (writer, start) = Writer::start("t", json!({}), &json!({"id": "h"}), &offered);
        let text = format!("{}{}", start.json, writer.finish());
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["members"], json!([]));
        assert_eq!(file["member_data"]["meal_plans"], NO_MEMBERS);
    }

    #[test]
    fn a_member_that_is_not_an_object_is_an_error_not_a_panic() {
        let (mut writer, _) = Writer::start("t", json!({}), &json!({}), &[]);
        assert!(writer.member(&json!("m1"), &[]).is_err());
    }
}
