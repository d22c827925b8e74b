use serde_json::{json, Value};

use super::*;

const TODAY: &str = "2026-11-28";

fn meal(title: &str) -> Value {
    json!({"recipe_id": format!("r-{title}"), "title": title, "ingredients": "oats\nmilk", "directions": "Stir.", "portion": "large"})
}

fn stored_plan(id: &str, date: &str, members: &[&str]) -> Value {
    json!({"id": id, "household_id": "h1", "date": date, "source_meal_plan_id": format!("src-{id}"),
           "breakfast": meal("Porridge"), "lunch": meal("Soup"), "dinner": meal("Stew"),
           "reasoning": "Warm food", "applies_to_member_ids": members, "created_at": "2026-11-20T10:00:00Z"})
}

/// A file as "Download my data" writes it: Ada and Ben share a plan tomorrow, Ada had one
/// yesterday, Ben has a saved item.
fn file() -> Value {
    json!({
        "format": "larder-household-export", "version": 1, "exported_at": "2026-11-28T09:00:00Z",
        "household": {"id": "h1", "name": "The Lovelaces", "owner_id": "u1", "region": "EU", "member_count": 2,
                      "metadata": {"pets": "cat"}, "created_at": "2026-01-01T00:00:00Z"},
        "members": [
            {"id": "m1", "household_id": "h1", "name": "Ada", "age_group": "adult", "image_url": "avatar:3",
             "joined_at": "2026-01-01T00:00:00Z",
             "profile": {"id": "p1", "household_member_id": "m1", "dietary_groups": ["vegetarian"],
                         "allergies": ["peanuts"], "nutritional_preferences": {"salt": "low"},
                         "properties": {"gender": "female"}, "created_at": "2026-01-01T00:00:00Z"},
             "meal_plans": [stored_plan("mp0", "2026-11-27", &["m1"]), stored_plan("mp1", "2026-11-29", &["m1", "m2"])]},
            {"id": "m2", "household_id": "h1", "name": "Ben", "age_group": "child", "image_url": null,
             "profile": null, "meal_plans": [stored_plan("mp1", "2026-11-29", &["m1", "m2"])],
             "saved_items": [{"item_type": "recipe", "item_ref": "r1"}]}
        ],
        "member_count": 2
    })
}

fn text(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

#[test]
fn a_whole_file_plans_the_household_members_profiles_and_todays_or_later_plans() {
    let plan = plan(&text(&file()), TODAY).unwrap();
    assert_eq!(
        Value::Object(plan.household.clone()),
        json!({"name": "The Lovelaces", "region": "EU", "metadata": {"pets": "cat"}})
    );
    assert_eq!(plan.members.len(), 2);
    assert_eq!(
        Value::Object(plan.members[0].member.clone()),
        json!({"name": "Ada", "age_group": "adult", "image_url": "avatar:3"})
    );
    assert_eq!(plan.members[0].profile.as_ref().unwrap().len(), 4);
    assert_eq!(plan.members[1].profile, None);
    // The shared plan is stored once, for both.
    assert_eq!(plan.meal_plans.len(), 1);
    assert_eq!(plan.meal_plans[0].members, vec![0, 1]);
    assert_eq!(plan.past_meal_plans, 1);
    assert_eq!(plan.lacking_meal, 0);
    // Ben's saved item is stored with him.
    assert_eq!(plan.library_entries(), 1);
    assert_eq!(plan.members[1].library.saved_items[0].item_ref, "r1");
    assert_eq!(plan.library_unnamed, 0);
}

#[test]
fn files_that_are_not_household_files_are_refused_naming_where() {
    assert_eq!(
        plan(
            "{\"format\": \"larder-household-export\",\n \"version\": 1,\n \"members\": [",
            TODAY
        ),
        Err(Refusal::Truncated {
            line: 3,
            column: 13
        })
    );
    assert!(matches!(
        plan("{\"format\": x}", TODAY),
        Err(Refusal::NotJson {
            line: 1,
            column: 12
        })
    ));
    assert_eq!(plan("[1, 2]", TODAY), Err(Refusal::NotAHouseholdFile));
    assert_eq!(
        plan(r#"{"format": "something-else", "version": 1}"#, TODAY),
        Err(Refusal::NotAHouseholdFile)
    );
    let mut newer = file();
    newer["version"] = json!(2);
    assert_eq!(
        plan(&text(&newer), TODAY),
        Err(Refusal::NewerVersion { version: 2 })
    );
    let mut short = file();
    short["members"].as_array_mut().unwrap().pop();
    assert_eq!(
        plan(&text(&short), TODAY),
        Err(Refusal::MembersMissing { said: 2, found: 1 })
    );
}

#[test]
fn a_file_over_the_limit_is_refused_by_its_size() {
    let big = " ".repeat(MAX_RESTORE_BYTES + 1);
    assert_eq!(
        plan(&big, TODAY),
        Err(Refusal::TooLarge {
            bytes: MAX_RESTORE_BYTES + 1
        })
    );
}

#[test]
fn a_member_production_would_refuse_is_named_with_its_fields() {
    let mut bad = file();
    bad["members"][1]["age_group"] = json!("toddler");
    bad["members"][1]["name"] = json!("Ben");
    bad["members"][0]["profile"]["dietary_groups"] = json!(["carnivore"]);
    match plan(&text(&bad), TODAY) {
        Err(Refusal::Member {
            number,
            name,
            problems,
        }) => {
            assert_eq!((number, name.as_str()), (1, "Ada"));
            assert!(
                problems[0].starts_with("profile.dietary_groups.0"),
                "{problems:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    bad["members"][0]["profile"]["dietary_groups"] = json!(["vegan"]);
    match plan(&text(&bad), TODAY) {
        Err(Refusal::Member {
            number,
            name,
            problems,
        }) => {
            assert_eq!((number, name.as_str()), (2, "Ben"));
            assert!(problems[0].starts_with("age_group"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
    let mut nameless = file();
    nameless["household"]["name"] = json!("");
    assert!(matches!(
        plan(&text(&nameless), TODAY),
        Err(Refusal::Household { .. })
    ));
}

#[test]
fn a_plan_lacking_a_meal_text_is_counted_not_sent() {
    let mut lacking = file();
    for member in 0..2 {
        lacking["members"][member]["meal_plans"][if member == 0 { 1 } else { 0 }]["dinner"]
            ["directions"] = json!("");
    }
    let plan = plan(&text(&lacking), TODAY).unwrap();
    assert!(plan.meal_plans.is_empty());
    assert_eq!(plan.lacking_meal, 1);
}

/// The service's answers for a restore of [`file`]: new ids and stamps, empty fields as null.
fn answered() -> (Value, Vec<Value>) {
    let household = json!({"id": "h9", "name": "The Lovelaces", "owner_id": "u9", "region": "EU",
                           "metadata": {"pets": "cat"}, "member_count": 2, "created_at": "2026-11-28T10:00:00Z"});
    let members = vec![
        json!({"id": "n2", "name": "Ben", "age_group": "child", "image_url": null, "profile": null}),
        json!({"id": "n1", "name": "Ada", "age_group": "adult", "image_url": "avatar:3",
               "profile": {"id": "q1", "dietary_groups": ["vegetarian"], "allergies": ["peanuts"],
                           "nutritional_preferences": {"salt": "low"}, "properties": {"gender": "female"}}}),
    ];
    (household, members)
}

#[test]
fn a_faithful_restore_has_no_differences_ids_and_stamps_excepted() {
    let plan = plan(&text(&file()), TODAY).unwrap();
    let (household, members) = answered();
    assert_eq!(differences(&plan, &household, &members), vec![]);
    assert_eq!(match_members(&plan, &members), vec![Some(1), Some(0)]);
}

#[test]
fn every_field_that_differs_is_listed() {
    let plan = plan(&text(&file()), TODAY).unwrap();
    let (mut household, mut members) = answered();
    household["region"] = Value::Null;
    members[1]["profile"]["allergies"] = json!([]);
    members.push(json!({"id": "n3", "name": "Cleo", "age_group": "adult"}));
    let found = differences(&plan, &household, &members);
    let fields: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d.whose.as_str(), d.field.as_str()))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("household", "region"),
            ("Ada", "profile.allergies"),
            ("Cleo", "member")
        ]
    );
    assert_eq!(found[1].in_file, r#"["peanuts"]"#);
    assert_eq!(found[1].answered, "—");
}

#[test]
fn a_member_matched_once_is_not_matched_again() {
    let mut twins = file();
    twins["members"][1]["name"] = json!("Ada");
    twins["members"][1]["age_group"] = json!("adult");
    let plan = plan(&text(&twins), TODAY).unwrap();
    let one = vec![json!({"id": "n1", "name": "Ada", "age_group": "adult"})];
    assert_eq!(match_members(&plan, &one), vec![Some(0), None]);
}

#[test]
fn a_plan_read_back_is_compared_by_meals_reasoning_and_members_names() {
    let plan = plan(&text(&file()), TODAY).unwrap();
    let stored = &plan.meal_plans[0];
    let names: BTreeMap<String, String> = [("n1", "Ada"), ("n2", "Ben")]
        .into_iter()
        .map(|(id, name)| (id.to_string(), name.to_string()))
        .collect();
    let mut read = stored.plan.clone();
    read.id = "new".into();
    read.applies_to_member_ids = vec!["n1".into(), "n2".into()];
    assert_eq!(
        plan_differences(&plan, stored, 0, Some(&read), &names),
        vec![]
    );
    read.lunch.title = "Salad".into();
    read.applies_to_member_ids = vec!["n1".into()];
    let found = plan_differences(&plan, stored, 0, Some(&read), &names);
    let fields: Vec<&str> = found.iter().map(|d| d.field.as_str()).collect();
    assert_eq!(fields, vec!["lunch", "applies_to_member_ids"]);
    assert_eq!(found[0].whose, "Ada · 2026-11-29");
    assert_eq!(
        plan_differences(&plan, stored, 1, None, &names)[0].field,
        "meal plan"
    );
}

#[test]
fn a_member_an_earlier_try_left_without_its_profile_is_not_whole() {
    let plan = plan(&text(&file()), TODAY).unwrap();
    let (_, mut members) = answered();
    assert!(member_is_whole(&plan.members[0], &members[1]));
    members[1]["profile"]["properties"] = json!({});
    assert!(!member_is_whole(&plan.members[0], &members[1]));
}
