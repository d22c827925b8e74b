//! The contract's schemas against production.md itself: for every collection, the create
//! schema's fields, its required set and the update allow-list equal production.md's tables
//! (§3), and the bodies of the bulk operations (§5) match theirs. The spec is read from
//! `crates/contract/spec/production.md`, so a change on either side fails here.

use std::collections::BTreeSet;

use larder_contract::collections::{
    ARTICLES, ARTIFACTS, ENHANCE_FIELDS, FCTABLES, GUIDELINES, GUIDELINE_ITEM, GUIDES,
    ORGANIZATIONS, PASSAGE_ITEM, PASSAGE_REPLACE, RCOLLECTIONS, TEXTBOOKS, TEXTBOOK_PASSAGES,
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
    let (mut all, needed) = create_schema(heading, column);
    // Fields production's later write schemas take (§10.5).
    all.extend(later_create_fields(collection));
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
        expected.extend(later_update_fields(collection));
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

/// The text of §10.5 (or any section) as one line.
fn section_text(heading: &str) -> String {
    section(heading).join(" ")
}

/// The backticked names in `text` between `start` and the first `end` after it.
fn backticked_between(text: &str, start: &str, end: &str) -> Vec<String> {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    let to = from
        + text[from..]
            .find(end)
            .unwrap_or_else(|| panic!("no {end:?}"));
    text[from..to]
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(names_in)
        .collect()
}

/// §10.5's table of new guideline fields: each row's names and its values cell.
fn guideline_field_rows() -> Vec<(Vec<String>, String)> {
    let lines = section("### 10.5 Guidelines");
    let (header, rows) = table(&lines);
    assert_eq!(header, ["Field", "Type / values"]);
    rows.into_iter()
        .map(|row| {
            let names = row[0].split('`').skip(1).step_by(2).flat_map(names_in);
            (names.collect(), row[1].clone())
        })
        .collect()
}

/// What §10.5 adds to a create schema.
fn later_create_fields(collection: &Collection) -> Vec<String> {
    if collection.path == ARTICLES.path {
        // "create accepts `region` (…), `language` (…), `reader_visibility` (…) and
        // `indexing_tier` (…)": the names each followed by its rule in brackets.
        let text = section_text("### 10.5 Guidelines");
        let from = text.find("**Articles (D+):** create accepts").unwrap();
        let part = &text[from..from + text[from..].find("; PATCH").unwrap()];
        return part
            .split('`')
            .collect::<Vec<_>>()
            .windows(2)
            .enumerate()
            .filter(|(at, pair)| at % 2 == 1 && pair[1].starts_with(" ("))
            .map(|(_, pair)| pair[0].to_string())
            .collect();
    }
    if collection.path == GUIDELINES.path {
        let text = section_text("### 10.5 Guidelines");
        let mut names: Vec<String> = guideline_field_rows()
            .into_iter()
            .flat_map(|(names, _)| names)
            .collect();
        // "Create and bulk import accept `extractor_*`, `extraction_model` and
        // `ai_generated_fields`".
        let accepted = backticked_between(
            &text,
            "Create and bulk import accept",
            "; PATCH accepts none",
        );
        for name in accepted {
            match name.strip_suffix('*') {
                Some(prefix) => names.extend(
                    ["name", "run_id"]
                        .iter()
                        .map(|suffix| format!("{prefix}{suffix}")),
                ),
                None => names.push(name),
            }
        }
        return names;
    }
    Vec::new()
}

/// What §8 row 4 and §10.5 add to an update allow-list.
fn later_update_fields(collection: &Collection) -> Vec<String> {
    if collection.path == ARTICLES.path {
        let text = section_text("### 10.5 Guidelines");
        assert!(text.contains("PATCH accepts the same four"));
        return later_create_fields(collection);
    }
    if collection.path == GUIDELINES.path {
        // "PATCH accepts none of the provenance fields".
        return guideline_field_rows()
            .into_iter()
            .flat_map(|(names, _)| names)
            .collect();
    }
    Vec::new()
}

#[test]
fn guideline_facets_and_their_values() {
    for (names, values) in guideline_field_rows() {
        let expected: Option<Vec<String>> = if values.starts_with("list of `") {
            // `list of `a, b, c`` or `lists of S2k`.
            Some(names_in(values.split('`').nth(1).unwrap()))
        } else if values.starts_with('`') && values.ends_with("or null") {
            Some(names_in(values.split('`').nth(1).unwrap()))
        } else {
            None
        };
        for name in names {
            let field = GUIDELINES.field(&name).unwrap_or_else(|| panic!("{name}"));
            assert!(GUIDELINES.is_creatable(&name) && GUIDELINES.is_updatable(&name));
            assert!(GUIDELINE_ITEM.iter().any(|f| f.name == name), "{name}");
            match &expected {
                Some(values) => {
                    let ours: Vec<String> = field
                        .ty
                        .choices()
                        .unwrap_or_else(|| panic!("{name} has no values"))
                        .iter()
                        .map(|v| v.to_string())
                        .collect();
                    assert_eq!(&ours, values, "{name}");
                }
                None => assert!(field.ty.choices().is_none(), "{name} is open"),
            }
        }
    }
    // The provenance is read-only: no update takes it.
    let text = section_text("### 10.5 Guidelines");
    let provenance = backticked_between(&text, "**Provenance (read-only):**", ". `embedding`");
    assert!(provenance.len() >= 7, "{provenance:?}");
    for name in provenance {
        assert!(GUIDELINES.is_provenance(&name), "{name}");
        assert!(!GUIDELINES.is_updatable(&name), "{name}");
        assert!(GUIDELINES.field(&name).is_some(), "{name}");
    }
}

#[test]
fn guideline_enrichment_and_editorial_policy() {
    use larder_contract::collections::guidelines::{
        BACKFILL_QUERY, EDITORIAL_FIELDS, EDITORIAL_POLICY_BODY, EDITORIAL_SAMPLE_FIELDS,
        MAX_EDITORIAL_DOCS, MAX_ENRICH_BATCH,
    };
    use larder_contract::collections::ENRICHABLE_NAMES;
    let text = section_text("### 10.5 Guidelines");
    let enrichable = &text[text.find("Enrichable fields:").unwrap() + 18..];
    let enrichable = &enrichable[..enrichable.find(" — never").unwrap()];
    let listed: Names = names_in(enrichable).into_iter().collect();
    assert_eq!(
        ENRICHABLE_NAMES
            .iter()
            .map(|n| n.to_string())
            .collect::<Names>(),
        listed
    );
    assert!(text.contains("`{agent, items: 1-200 ×"));
    assert_eq!(MAX_ENRICH_BATCH, 200);
    // The editorial policy: its selection, its changes, its cap and its sample.
    let policy = &text[text.find("| POST `guidelines/editorial-policy`").unwrap()..];
    let policy = &policy[..policy
        .find(
            "
",
        )
        .unwrap_or(policy.len())];
    let body: Names = policy
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.contains('/'))
        .flat_map(|t| names_in(t.split(':').next().unwrap()))
        .filter(|n| EDITORIAL_POLICY_BODY.iter().any(|f| f.name == n) || n.contains('?'))
        .collect();
    assert_eq!(
        names(EDITORIAL_POLICY_BODY),
        body,
        "the body's keys as §10.5 lists them"
    );
    assert!(
        policy.contains("change ≥1 of `status, review_status, visibility, applicability_status`")
    );
    assert_eq!(
        EDITORIAL_FIELDS,
        [
            "status",
            "review_status",
            "visibility",
            "applicability_status"
        ]
    );
    assert!(policy.contains("≤10000") && MAX_EDITORIAL_DOCS == 10_000);
    assert!(policy.contains(
        "`sample` ≤25 × `{id, guide_urn, title, status, review_status, visibility, applicability_status}`"
    ));
    assert_eq!(
        EDITORIAL_SAMPLE_FIELDS.join(", "),
        "id, guide_urn, title, status, review_status, visibility, applicability_status"
    );
    let backfill = &text[text.find("POST `guidelines/embeddings/backfill?").unwrap() + 37..];
    let backfill = &backfill[..backfill.find('`').unwrap()];
    let query: Names = backfill
        .split('&')
        .map(|p| p.split('=').next().unwrap().to_string())
        .collect();
    assert_eq!(names(BACKFILL_QUERY), query);
}

#[test]
fn article_write_fields_and_their_values() {
    use larder_contract::collections::policy::{INDEXING_TIER, READER_VISIBILITY};
    let text = section_text("### 10.5 Guidelines");
    let tiers = &text[text.find("`indexing_tier` (`").unwrap() + 18..];
    let tiers: Vec<String> = names_in(&tiers[..tiers.find("`)").unwrap()]);
    assert_eq!(tiers, INDEXING_TIER);
    assert!(text.contains("`reader_visibility` (`public` default \\| `expert_only` \\| `hidden`)"));
    assert_eq!(READER_VISIBILITY, ["public", "expert_only", "hidden"]);
    // Region and language are free text there, not the `Lang` pattern.
    for name in ["region", "language"] {
        let field = ARTICLES.create.iter().find(|f| f.name == name).unwrap();
        assert!(
            matches!(field.ty, larder_contract::Type::Str { .. }),
            "{name}"
        );
    }
}

#[test]
fn organizations_and_recipe_collections() {
    // §2.8: the read keys, any signed-in caller writes, no delete.
    let text = section_text("### 2.8 organizations");
    let row = "| GET | `organizations/{urn}` | any | `{";
    let read = &text[text.find(row).unwrap() + row.len()..];
    let read: Names = names_in(&read[..read.find("}`").unwrap()])
        .into_iter()
        .collect();
    let answered: Names = ORGANIZATIONS
        .fields()
        .iter()
        .map(|f| f.name.to_string())
        .filter(|n| !ORGANIZATIONS.write_only.contains(&n.as_str()))
        .collect();
    assert_eq!(answered, read);
    assert!(text.contains("| POST | `organizations` | **any**"));
    assert!(text.contains("| PATCH | `organizations/{urn}` | **any**"));
    assert!(text.contains("| DELETE | – | – | **no route**: bare 405"));
    assert!(ORGANIZATIONS.roles.create.allows(&[]) && ORGANIZATIONS.roles.update.allows(&[]));
    assert!(!ORGANIZATIONS.routes.delete.by_reference());
    // §2.9: required on create, the source types, the default status, the textbook's rules.
    let text = section_text("### 2.9 rcollections");
    assert!(text.contains("Create requires `urn`, `title` and `source_type`"));
    assert_eq!(
        required(RCOLLECTIONS.create),
        names_in("urn, title, source_type").into_iter().collect()
    );
    let types = &text[text.find("(`dataset|").unwrap() + 2..];
    let types: Vec<&str> = types[..types.find('`').unwrap()].split('|').collect();
    assert_eq!(
        RCOLLECTIONS
            .field("source_type")
            .unwrap()
            .ty
            .choices()
            .unwrap(),
        types
    );
    assert!(text.contains("`status` defaults to `draft`"));
    assert!(RCOLLECTIONS.defaults.contains(&("status", "draft")));
    assert_eq!(RCOLLECTIONS.read_rule, TEXTBOOKS.read_rule);
    assert_eq!(RCOLLECTIONS.roles, TEXTBOOKS.roles);
}

#[test]
fn autocomplete_items() {
    let lines = section("### 10.7 `*/autocomplete`");
    let (header, rows) = table(&lines);
    assert_eq!(header[..2], ["Collection", "Item"]);
    assert_eq!(rows.len(), 7);
    for row in rows {
        let collection = Collection::by_path(&row[0]).unwrap_or_else(|| panic!("{}", row[0]));
        let auto = collection.routes.autocomplete;
        let item = &row[1];
        if item.contains("**no route**") {
            assert!(!auto.offered.by_production(), "{}", row[0]);
            assert!(!auto.usable_in_production());
            continue;
        }
        let start = item.find('{').unwrap() + 1;
        let keys: Vec<String> = item[start..item.find('}').unwrap()]
            .split(", ")
            .map(|k| k.split(':').next().unwrap().trim().to_string())
            .collect();
        assert_eq!(auto.item, keys, "{}", row[0]);
        assert!(auto.offered.by_production(), "{}", row[0]);
        assert_eq!(
            auto.usable_in_production(),
            !item.contains("any hit → 500"),
            "{}",
            row[0]
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

#[path = "production_tables/bodies.rs"]
mod bodies;
