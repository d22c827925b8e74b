//! The contract's schemas against production.md itself: for every collection, the create
//! schema's fields, its required set and the update allow-list equal production.md's tables
//! (§3), and the bodies of the bulk operations (§5) match theirs. The spec is read from
//! `crates/contract/spec/production.md`, so a change on either side fails here.

use std::collections::BTreeSet;

use larder_contract::collections::{
    ARTICLES, ARTIFACTS, ENHANCE_FIELDS, FCTABLES, GUIDELINES, GUIDELINE_ITEM, GUIDES,
    PASSAGE_ITEM, PASSAGE_REPLACE, TEXTBOOKS, TEXTBOOK_PASSAGES,
};
use larder_contract::households;
use larder_contract::types::Field;
use larder_contract::Collection;

const SPEC: &str = include_str!("../spec/production.md");

type Names = BTreeSet<String>;

/// The lines of the section whose heading starts with `heading`, up to the next heading.
fn section(heading: &str) -> Vec<&'static str> {
    let mut lines = SPEC.lines().skip_while(|l| !l.starts_with(heading));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no section {heading}"));
    assert!(first.starts_with(heading));
    lines.take_while(|l| !l.starts_with("### ")).collect()
}

/// Field names in a table cell: backticks dropped, split on `,` and `/`, and the spec's
/// shorthand `applicability_start_date / end_date` spelled out.
fn names_in(cell: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in cell.replace('`', "").split([',', '/']) {
        let name = part.trim().trim_end_matches('?').to_string();
        if name.is_empty() {
            continue;
        }
        let name = match (name.as_str(), out.last()) {
            ("end_date", Some(previous)) if previous.ends_with("start_date") => {
                previous.replace("start_date", "end_date")
            }
            _ => name,
        };
        out.push(name);
    }
    out
}

/// The first table of a section: its rows as cells.
fn table(lines: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let rows: Vec<Vec<String>> = lines
        .iter()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().trim_matches('|').trim().to_string())
                .collect()
        })
        .collect();
    let header = rows[0].clone();
    (header, rows[2..].to_vec())
}

/// `(every field, required fields)` of a section's schema table, read from the column named
/// `create_column`.
fn create_schema(heading: &str, create_column: &str) -> (Names, Names) {
    let lines = section(heading);
    let (header, rows) = table(&lines);
    let column = header
        .iter()
        .position(|h| h == create_column)
        .unwrap_or_else(|| panic!("{heading}: no column {create_column} in {header:?}"));
    let (mut all, mut required) = (Names::new(), Names::new());
    for row in rows {
        for name in names_in(&row[0]) {
            if row[column].contains("**required**") {
                required.insert(name.clone());
            }
            all.insert(name);
        }
    }
    (all, required)
}

/// The names after `**PATCH allow-list:**`, up to the sentence's end (it may wrap).
fn allow_list(heading: &str) -> Names {
    let text = section(heading).join(" ");
    let start = text.find("**PATCH allow-list:**").expect("an allow-list") + 21;
    let rest = &text[start..];
    let end = rest.find(". ").unwrap_or(rest.len());
    names_in(&rest[..end]).into_iter().collect()
}

fn names(fields: &[Field]) -> Names {
    fields.iter().map(|f| f.name.to_string()).collect()
}

fn required(fields: &[Field]) -> Names {
    fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name.to_string())
        .collect()
}

fn assert_schema(collection: &Collection, heading: &str, column: &str) {
    let (all, needed) = create_schema(heading, column);
    // The reading itself is checked: every schema has a few required fields and more optional ones.
    assert!(
        all.len() >= 5 && !needed.is_empty(),
        "{heading}: read {all:?}"
    );
    assert_eq!(
        names(collection.create),
        all,
        "{}: create fields",
        collection.path
    );
    assert_eq!(
        required(collection.create),
        needed,
        "{}: required on create",
        collection.path
    );
}

#[test]
fn articles_guides_guidelines_textbooks() {
    for (collection, heading) in [
        (&ARTICLES, "### 3.1 Article"),
        (&GUIDES, "### 3.2 Guide"),
        (&GUIDELINES, "### 3.3 Guideline"),
        (&TEXTBOOKS, "### 3.4 Textbook"),
    ] {
        assert_schema(collection, heading, "Create");
        let mut expected = allow_list(heading);
        if collection.path == ARTICLES.path {
            // production.md §8 row 4 (newer than this copy of the file, which ends at §7): "the
            // update allow-list takes `reader_visibility` and `indexing_tier`".
            expected.extend(["reader_visibility".to_string(), "indexing_tier".to_string()]);
        }
        assert_eq!(
            names(collection.update),
            expected,
            "{}: update allow-list",
            collection.path
        );
        assert!(
            required(collection.update).is_empty(),
            "{}: nothing is required in an update",
            collection.path
        );
    }
}

#[test]
fn passages() {
    let lines = section("### 3.5 Textbook passage");
    let (header, rows) = table(&lines);
    assert_eq!(header[..3], ["Field", "Create", "Update"]);
    let (mut all, mut needed, mut updatable) = (Names::new(), Names::new(), Names::new());
    for row in rows {
        for name in names_in(&row[0]) {
            all.insert(name.clone());
            if row[1].contains("**required**") {
                needed.insert(name.clone());
            }
            if row[2].contains('✓') {
                updatable.insert(name);
            }
        }
    }
    assert_eq!(names(TEXTBOOK_PASSAGES.create), all);
    assert_eq!(required(TEXTBOOK_PASSAGES.create), needed);
    assert_eq!(names(TEXTBOOK_PASSAGES.update), updatable);
}

#[test]
fn fctables() {
    assert_schema(&FCTABLES, "### 3.6 FCTable", "Create");
    let text = section("### 3.6 FCTable").join(" ");
    assert!(text.contains("PATCH allow-list = every create field except `urn`"));
    let mut expected = names(FCTABLES.create);
    expected.remove("urn");
    assert_eq!(names(FCTABLES.update), expected);
    // "No `status`, `content`, ...: all 422."
    let start = text.find("No `status`").unwrap() + 3;
    let refused = &text[start..start + text[start..].find(": all 422").unwrap()];
    for name in names_in(refused) {
        assert!(
            !FCTABLES.is_creatable(&name),
            "{name} is refused in production"
        );
    }
}

#[test]
fn artifacts() {
    assert_schema(&ARTIFACTS, "### 3.7 Artifact", "Create (JSON)");
    let text = section("### 3.7 Artifact").join(" ");
    assert!(text.contains(
        "PATCH schema (validated, then discarded): `file_type` **required**, `title?`, `description?`, nothing else."
    ));
    assert_eq!(
        names(ARTIFACTS.update),
        names_in("file_type, title, description")
            .into_iter()
            .collect()
    );
    assert_eq!(
        required(ARTIFACTS.update),
        names_in("file_type").into_iter().collect()
    );
}

#[test]
fn what_production_refuses_on_create_is_not_in_a_create_schema() {
    let article = section("### 3.1 Article").join(" ");
    let start = article.find("Rejected on create (422):").unwrap() + 25;
    let end = start + article[start..].find(".").unwrap();
    for name in names_in(&article[start..end]) {
        assert!(!ARTICLES.is_creatable(&name), "article {name}");
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
    for collection in [
        &ARTICLES,
        &GUIDES,
        &GUIDELINES,
        &TEXTBOOKS,
        &TEXTBOOK_PASSAGES,
        &FCTABLES,
        &ARTIFACTS,
    ] {
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
