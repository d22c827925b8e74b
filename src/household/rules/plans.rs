//! Pure logic behind a member's meal plans and library on their page (issue 38, items 4 and 6):
//! the week shown, the names of the other members a plan is for, who may still be added to a
//! plan, and a recipe's text as lines.

use std::collections::HashMap;

use larder_api::types::MealPlan;

/// Days of plans the member's page shows.
pub const WEEK: i64 = 7;

/// `today` and the days after it, [`WEEK`] in all (`YYYY-MM-DD`); empty when `today` is not a
/// date.
pub fn week_from(today: &str) -> Vec<String> {
    (0..WEEK)
        .filter_map(|offset| larder_contract::time::add_days(today, offset))
        .collect()
}

/// The names of `ids`, in their order; an id whose name is not known (yet) shows as itself.
pub fn names_of(ids: &[String], known: &HashMap<String, String>) -> Vec<String> {
    ids.iter()
        .map(|id| known.get(id).cloned().unwrap_or_else(|| id.clone()))
        .collect()
}

/// The ids among `ids` whose names are not in `known`, each once, in their order.
pub fn unknown<'a>(
    ids: impl IntoIterator<Item = &'a String>,
    known: &HashMap<String, String>,
) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    for id in ids {
        if !known.contains_key(id) && !missing.contains(id) {
            missing.push(id.clone());
        }
    }
    missing
}

/// The household's members (`(id, name)`) a plan does not apply to yet, in their order.
pub fn joinable(members: &[(String, String)], plan: &MealPlan) -> Vec<(String, String)> {
    members
        .iter()
        .filter(|(id, _)| !plan.applies_to_member_ids.contains(id))
        .cloned()
        .collect()
}

/// A recipe's text as its lines: trimmed, blank ones left out (the planner writes ingredients
/// one a line).
pub fn lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_week_runs_from_today_across_a_month_end() {
        assert_eq!(
            week_from("2026-11-28"),
            [
                "2026-11-28",
                "2026-11-29",
                "2026-11-30",
                "2026-12-01",
                "2026-12-02",
                "2026-12-03",
                "2026-12-04"
            ]
        );
        assert!(week_from("today").is_empty());
    }

    #[test]
    fn other_members_read_by_name_and_unknown_ones_by_id() {
        let known = HashMap::from([("m1".to_string(), "Liam".to_string())]);
        let ids = ["m1".to_string(), "m9".to_string(), "m9".to_string()];
        assert_eq!(names_of(&ids[..2], &known), ["Liam", "m9"]);
        assert_eq!(unknown(&ids, &known), ["m9"]);
    }

    #[test]
    fn only_members_not_on_the_plan_may_join_it() {
        let plan = MealPlan {
            applies_to_member_ids: vec!["a".into(), "c".into()],
            ..MealPlan::default()
        };
        let members = [
            ("a".to_string(), "Ann".to_string()),
            ("b".into(), "Ben".into()),
            ("c".into(), "Cid".into()),
        ];
        assert_eq!(
            joinable(&members, &plan),
            [("b".to_string(), "Ben".to_string())]
        );
    }

    #[test]
    fn ingredients_read_a_line_each() {
        assert_eq!(
            lines("80 g oats\r\n\n  250 ml milk  \n"),
            ["80 g oats", "250 ml milk"]
        );
    }
}
