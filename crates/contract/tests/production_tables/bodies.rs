//! What production refuses on create, its bulk bodies and its household schemas, against the
//! contract.

use super::*;

#[test]
fn what_production_refuses_on_create_is_not_in_a_create_schema() {
    let article = section("### 3.1 Article").join(" ");
    let start = article.find("Rejected on create (422):").unwrap() + 25;
    let end = start + article[start..].find(".").unwrap();
    let later = later_create_fields(&ARTICLES);
    for name in names_in(&article[start..end]) {
        // §10.5: production's later create takes region and language.
        let accepted_later = later.contains(&name);
        assert_eq!(
            ARTICLES.is_creatable(&name),
            accepted_later,
            "article {name}"
        );
    }
    let guide = section("### 3.2 Guide").join(" ");
    let start = guide.find("Rejected:").unwrap() + 9;
    let end = start + guide[start..].find(", timestamps").unwrap();
    for name in names_in(&guide[start..end])
        .into_iter()
        .chain(["created_at".into(), "updated_at".into()])
    {
        assert!(!GUIDES.is_creatable(&name), "guide {name}");
    }
    for collection in larder_contract::COLLECTIONS.iter() {
        for name in [
            "id",
            "identifier",
            "creator",
            "created_at",
            "updated_at",
            "version",
        ] {
            assert!(!collection.is_creatable(name), "{} {name}", collection.path);
            assert!(!collection.is_updatable(name), "{} {name}", collection.path);
        }
    }
}

#[test]
fn bulk_bodies() {
    // §5.1: an import item is the guideline create schema without guide_urn.
    let import = section("### 5.1 Guideline import").join(" ");
    assert!(import.contains("Same types as §3.3, without `guide_urn`"));
    let mut item = names(GUIDELINES.create);
    item.remove("guide_urn");
    assert_eq!(names(GUIDELINE_ITEM), item);
    // §10.5: the new fields are on the import item too.
    for name in later_create_fields(&GUIDELINES) {
        assert!(GUIDELINE_ITEM.iter().any(|f| f.name == name), "{name}");
    }
    assert_eq!(
        required(GUIDELINE_ITEM),
        names_in("rule_text").into_iter().collect()
    );

    // §5.2: the replace body and its items.
    let replace = section("### 5.2 Passage replace").join(" ");
    let body_start = replace.find("**object** `{").unwrap() + "**object** `{".len();
    let body = &replace[body_start..body_start + replace[body_start..].find("}`").unwrap()];
    let body_names: Names = body
        .split(", ")
        .map(|part| {
            part.split(':')
                .next()
                .unwrap()
                .trim()
                .trim_end_matches('?')
                .to_string()
        })
        .collect();
    assert_eq!(names(PASSAGE_REPLACE), body_names);
    assert_eq!(
        required(PASSAGE_REPLACE),
        names_in("artifact_id").into_iter().collect()
    );
    let item_start = replace.find("| Item | `{").unwrap() + "| Item | `{".len();
    let item = &replace[item_start..item_start + replace[item_start..].find("}`").unwrap()];
    let (mut all, mut needed) = (Names::new(), Names::new());
    for part in item.split(", ") {
        let name = part.split(':').next().unwrap().trim();
        all.insert(name.trim_end_matches('?').to_string());
        if !name.ends_with('?') {
            needed.insert(name.to_string());
        }
    }
    assert_eq!(names(PASSAGE_ITEM), all);
    assert_eq!(required(PASSAGE_ITEM), needed);

    // §5.3: enhance writes ai_tags, ai_category and ai_key_takeaways only.
    let enhance = section("### 5.3 Enhance").join(" ");
    assert!(enhance.contains("fields: {ai_tags?, ai_category?, ai_key_takeaways?}"));
    assert_eq!(
        names(ENHANCE_FIELDS),
        names_in("ai_tags, ai_category, ai_key_takeaways")
            .into_iter()
            .collect()
    );
}

#[test]
fn household_schemas() {
    let lines = section("### 4.2 Request schemas");
    let (_, rows) = table(&lines);
    let mut schema = String::new();
    let mut seen: Vec<(String, String, bool)> = Vec::new();
    for row in rows {
        if !row[0].is_empty() {
            schema = row[0].split_whitespace().next().unwrap().to_string();
        }
        seen.push((schema.clone(), row[1].clone(), row[3].contains('✓')));
    }
    let fields_of = |name: &str| -> (Names, Names) {
        let rows: Vec<&(String, String, bool)> = seen.iter().filter(|r| r.0 == name).collect();
        assert!(!rows.is_empty(), "{name}");
        (
            rows.iter().flat_map(|r| names_in(&r.1)).collect(),
            rows.iter()
                .filter(|r| r.2)
                .flat_map(|r| names_in(&r.1))
                .collect(),
        )
    };
    for (name, fields) in [
        ("HouseholdCreate", households::HOUSEHOLD_CREATE),
        ("HouseholdUpdate", households::HOUSEHOLD_UPDATE),
        ("MemberCreate", households::MEMBER_CREATE),
        ("MemberUpdate", households::MEMBER_UPDATE),
        ("ProfileCreate", households::PROFILE_CREATE),
    ] {
        let (all, needed) = fields_of(name);
        assert_eq!(names(fields), all, "{name}");
        assert_eq!(required(fields), needed, "{name}");
    }
    let (all, _) = fields_of("ProfileUpdate");
    assert_eq!(names(households::PROFILE_UPDATE), all);
}
