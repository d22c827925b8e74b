//! The index's memory follows what it holds: words, fields and values no record holds any more
//! are forgotten, and a field's column costs what its values cost, not the highest record id.

use larder_contract::collections::ARTICLES;
use larder_contract::limits::MAX_NESTED_VALUES;
use larder_search::{Filter, Index, NaturalOrder, SearchQuery, Viewer};
use serde_json::{json, Map, Value};

fn article(title: &str, body: String, extras: Value) -> Value {
    json!({"title": title, "abstract": body, "status": "active", "year": 2001, "extras": extras})
}

/// A few records that stay, as a server's index would hold beside the one an attacker rewrites.
fn settled() -> Index {
    let mut index = Index::default();
    for rid in 1..=3 {
        index.put(
            rid,
            &ARTICLES,
            None,
            &article("Lentils", "soup and stew".into(), json!({"shelf": rid})),
        );
    }
    index
}

fn words(version: usize, count: usize) -> String {
    (0..count)
        .map(|w| format!("w{version}x{w}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn extras(version: usize, count: usize) -> Value {
    let map: Map<String, Value> = (0..count)
        .map(|k| (format!("k{version}_{k}"), json!(format!("v{k}"))))
        .collect();
    Value::Object(map)
}

#[test]
fn rewrites_then_a_delete_leave_the_index_as_it_was() {
    let mut index = settled();
    let baseline = index.size();
    index.put(
        50,
        &ARTICLES,
        None,
        &article("Table", words(0, 2000), extras(0, 100)),
    );
    let one_version = index.size().bytes - baseline.bytes;
    for version in 1..=60 {
        index.put(
            50,
            &ARTICLES,
            None,
            &article("Table", words(version, 2000), extras(version, 100)),
        );
    }
    index.remove(50);
    let after = index.size();
    assert_eq!(after.records, baseline.records);
    assert_eq!(
        after.terms, baseline.terms,
        "words no record holds are forgotten"
    );
    assert_eq!(after.fields, baseline.fields, "so are fields");
    assert!(
        after.bytes <= baseline.bytes + one_version,
        "{} bytes after, {} before, one version {}",
        after.bytes,
        baseline.bytes,
        one_version
    );
    // What stays is still found, and a freed id taken by a new word holds only that word.
    assert_eq!(
        index.matching(&["lentils".into()], false),
        Some(vec![1, 2, 3])
    );
    assert_eq!(index.matching(&["w3x7".into()], false), Some(vec![]));
    index.put(
        9,
        &ARTICLES,
        None,
        &article("Quinoa", "grain".into(), json!({})),
    );
    assert_eq!(index.matching(&["quinoa".into()], false), Some(vec![9]));
    assert_eq!(
        index.matching(&["lentils".into()], false),
        Some(vec![1, 2, 3])
    );
}

#[test]
fn a_new_field_costs_what_its_values_cost_not_the_highest_record_id() {
    // Records are numbered by the database: after 200,000 of them, a new one's id is high.
    let mut index = settled();
    index.put(
        200_000,
        &ARTICLES,
        None,
        &article("Old", "x".into(), json!({})),
    );
    let baseline = index.size();
    index.put(
        200_001,
        &ARTICLES,
        None,
        &article("New", "y".into(), extras(0, 20)),
    );
    let grown = index.size().column_bytes - baseline.column_bytes;
    // Twenty new columns sized by the record id would be 20 × 800 KB.
    assert!(grown < 64 * 1024, "{grown} bytes for one record");
    index.remove(200_001);
    // Back to where it was, give or take the spare room of the columns the record shared.
    assert!(index.size().column_bytes <= baseline.column_bytes + 4096);
}

#[test]
fn free_form_values_one_record_indexes_are_capped() {
    let mut index = settled();
    let baseline = index.size();
    index.put(
        4,
        &ARTICLES,
        None,
        &article("Big", "x".into(), extras(0, 20_000)),
    );
    let size = index.size();
    assert!(
        size.fields <= baseline.fields + MAX_NESTED_VALUES,
        "{} fields",
        size.fields
    );
    assert!(
        size.bytes - baseline.bytes < 1 << 20,
        "{} bytes",
        size.bytes - baseline.bytes
    );
    // The record's own fields are still indexed, whatever its extras hold.
    let query = SearchQuery {
        collection: &ARTICLES,
        viewer: Viewer::Public,
        parent: None,
        terms: vec![],
        prefix: false,
        filters: vec![Filter::Equals {
            field: "title".into(),
            value: "Big".into(),
        }],
        sort: vec![],
        natural_order: NaturalOrder::Insertion,
        limit: 10,
        offset: 0,
        facets: vec![],
        facet_limit: 10,
    };
    assert_eq!(index.search(&query).total, 1);
}
