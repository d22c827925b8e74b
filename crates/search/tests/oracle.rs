//! An oracle for the search index: random records (lists, numbers, dates, absent fields,
//! free-form extras) go through random writes, visibility changes and deletes, then every
//! search (words, `fq` equals, `*` and ranges, facets, multi-key sorts, deep pages) is compared
//! with a full scan of the records written for clarity, not speed: the same page in the same
//! order with the same relevance, the same total and the same facet counts. Once everything is
//! deleted the index holds no word and no field.
//!
//! 256 cases here; `cargo xtask fuzz` runs a million (LARDER_FUZZ_CASES).

mod scan;

use larder_contract::collections::ReadRule;
use larder_search::{Filter, Found, Index, NaturalOrder, SearchQuery, SortKey, Viewer};
use proptest::prelude::*;
use scan::{collection_of, parent_of, stored, Records};
use serde_json::{json, Map, Value};

fn cases() -> u32 {
    std::env::var("LARDER_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const WORDS: &[&str] = &[
    "milk", "milks", "Iron", "vitamin", "vitamins", "café", "cafe", "d", "soup", "2019",
];
/// Beginnings of words, for word-prefix searches and `field:prefix*` filters.
const PREFIXES: &[&str] = &["mil", "vit", "Vitamin", "caf", "so", "20", "i", "xyz"];
const KEYWORDS: &[&str] = &["alpha", "beta", "gamma", "Beta"];
const FIELDS: &[&str] = &[
    "title",
    "status",
    "year",
    "rating",
    "published",
    "open",
    "keywords",
    "extras",
    "extras.k0",
    "extras.k1",
    "extras.k2",
    "absent",
];

// ---- what happens to the records ----

#[derive(Clone, Debug)]
enum Op {
    Put(u32, Value),
    Show(u32, &'static str, &'static str),
    Remove(u32),
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..5).prop_map(|w| w.join(" "))
}

fn extras() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        (0i64..4).prop_map(Value::from),
        prop::sample::select(KEYWORDS).prop_map(Value::from),
        prop::collection::vec((0i64..4).prop_map(Value::from), 0..3).prop_map(Value::Array),
    ];
    prop::collection::btree_map(prop::sample::select(&["k0", "k1", "k2"][..]), value, 0..3)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

fn document() -> impl Strategy<Value = Value> {
    (
        (text(), text(), prop::option::of(text())),
        prop::option::of(prop::collection::vec(prop::sample::select(KEYWORDS), 0..4)),
        (
            prop::option::of(1995i64..2000),
            prop::option::of((0i64..4).prop_map(|n| n as f64 + 0.5)),
            prop::option::of((1995u32..2000, 1u32..13)),
            prop::option::of(any::<bool>()),
        ),
        (
            prop::sample::select(&["active", "draft", "deleted"][..]),
            prop::sample::select(&["verified", "pending"][..]),
            prop::sample::select(&["public", "internal"][..]),
        ),
        prop::option::of(extras()),
        (
            prop::option::of(0i64..3),
            prop::option::of(0i64..3),
            0u32..6,
        ),
    )
        .prop_map(
            |((title, abstract_, notes), keywords, numbers, states, extras, order)| {
                let (year, rating, published, open) = numbers;
                let (status, review, visibility) = states;
                let (page_no, sequence_no, parent) = order;
                let mut doc = Map::new();
                doc.insert("title".into(), title.into());
                doc.insert("abstract".into(), abstract_.into());
                let optional = [
                    ("notes", notes.map(Value::from)),
                    ("keywords", keywords.map(|k| json!(k))),
                    ("year", year.map(Value::from)),
                    ("rating", rating.map(Value::from)),
                    (
                        "published",
                        published.map(|(y, m)| format!("{y}-{m:02}-01").into()),
                    ),
                    ("open", open.map(Value::from)),
                    ("extras", extras),
                    ("page_no", page_no.map(Value::from)),
                    ("sequence_no", sequence_no.map(Value::from)),
                ];
                for (key, value) in optional {
                    if let Some(value) = value {
                        doc.insert(key.into(), value);
                    }
                }
                doc.insert("status".into(), status.into());
                doc.insert("review_status".into(), review.into());
                doc.insert("visibility".into(), visibility.into());
                // Passages hang from a textbook that may or may not exist (ids 2, 6, 10, ...).
                doc.insert(
                    "textbook_urn".into(),
                    format!("urn:textbook:t{}", parent * 4 + 2).into(),
                );
                Value::Object(doc)
            },
        )
}

/// A few ids, often rewritten, or one of the many a bulk load may have written (their columns
/// turn dense, and sparse again as they go).
fn rid() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..24, 100u32..200]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (rid(), document()).prop_map(|(rid, doc)| Op::Put(rid, doc)),
        2 => (
            rid(),
            prop::sample::select(&["active", "draft", "deleted"][..]),
            prop::sample::select(&["public", "internal"][..]),
        )
            .prop_map(|(rid, status, visibility)| Op::Show(rid, status, visibility)),
        2 => rid().prop_map(Op::Remove),
    ]
}

// ---- what is asked ----

fn filter() -> impl Strategy<Value = Filter> {
    let field = prop::sample::select(FIELDS).prop_map(str::to_string);
    let value = prop_oneof![
        prop::sample::select(
            &[
                "active",
                "draft",
                "true",
                "false",
                "alpha",
                "Beta",
                "1997",
                "1.5",
                "2",
                "1",
                "milk",
                "1996-03-01",
            ][..]
        )
        .prop_map(str::to_string),
        text(),
    ];
    let bound = prop::option::of(
        prop::sample::select(&["1996", "1998", "0", "2.5", "b", "m", "1997-06"][..])
            .prop_map(str::to_string),
    );
    prop_oneof![
        (field.clone(), value).prop_map(|(field, value)| Filter::Equals { field, value }),
        field.clone().prop_map(|field| Filter::Exists { field }),
        (field.clone(), prop::sample::select(PREFIXES)).prop_map(|(field, prefix)| {
            Filter::Prefix {
                field,
                prefix: prefix.to_string(),
            }
        }),
        (field, bound.clone(), bound).prop_map(|(field, low, high)| Filter::Range {
            field,
            low,
            high
        }),
    ]
}

fn sort_key() -> impl Strategy<Value = SortKey> {
    prop_oneof![
        Just(SortKey::Score),
        (prop::sample::select(FIELDS), any::<bool>()).prop_map(|(field, descending)| {
            SortKey::Field {
                field: field.to_string(),
                descending,
            }
        }),
    ]
}

#[derive(Clone, Debug)]
struct Ask {
    collection: usize,
    public: bool,
    parent: Option<u32>,
    words: Vec<String>,
    prefix: bool,
    filters: Vec<Filter>,
    sort: Vec<SortKey>,
    natural: NaturalOrder,
    limit: u32,
    offset: u32,
    facets: Vec<String>,
    facet_limit: u32,
}

fn ask() -> impl Strategy<Value = Ask> {
    (
        (0usize..4, any::<bool>(), prop::option::of(0u32..6)),
        (
            prop::collection::vec(
                prop_oneof![
                    prop::sample::select(WORDS).prop_map(str::to_string),
                    prop::sample::select(PREFIXES).prop_map(str::to_string),
                    Just("!".to_string()),
                    Just("absent".to_string())
                ],
                0..3,
            ),
            any::<bool>(),
        ),
        prop::collection::vec(filter(), 0..3),
        prop::collection::vec(sort_key(), 0..3),
        prop::sample::select(
            &[
                NaturalOrder::Insertion,
                NaturalOrder::Sequence,
                NaturalOrder::Page,
            ][..],
        ),
        (1u32..8, 0u32..12),
        prop::collection::vec(prop::sample::select(FIELDS).prop_map(str::to_string), 0..3),
        1u32..5,
    )
        .prop_map(
            |(
                (collection, public, parent),
                (words, prefix),
                filters,
                sort,
                natural,
                (limit, offset),
                facets,
                facet_limit,
            )| Ask {
                collection,
                public,
                parent,
                words,
                prefix,
                filters,
                sort,
                natural,
                limit,
                offset,
                facets,
                facet_limit,
            },
        )
}

impl Ask {
    fn query(&self) -> SearchQuery {
        let collection = collection_of(self.collection as u32);
        SearchQuery {
            collection,
            viewer: if self.public {
                Viewer::Public
            } else {
                Viewer::Curator
            },
            parent: self
                .parent
                .filter(|_| collection.read_rule == ReadRule::AsParent)
                .map(|p| format!("urn:textbook:t{}", p * 4 + 2)),
            terms: self.words.clone(),
            prefix: self.prefix,
            filters: self.filters.clone(),
            sort: self.sort.clone(),
            natural_order: self.natural,
            limit: self.limit,
            offset: self.offset,
            facets: self.facets.clone(),
            facet_limit: self.facet_limit,
        }
    }
}

fn apply(index: &mut Index, records: &mut Records, op: Op) {
    let put = |index: &mut Index, records: &mut Records, rid: u32, doc: Value| {
        let doc = stored(rid, doc);
        index.put(
            i64::from(rid),
            collection_of(rid),
            parent_of(rid, &doc),
            &doc,
        );
        records.0.insert(rid, doc);
    };
    match op {
        Op::Put(rid, doc) => put(index, records, rid, doc),
        Op::Show(rid, status, visibility) => {
            if let Some(mut doc) = records.0.get(&rid).cloned() {
                doc["status"] = status.into();
                doc["visibility"] = visibility.into();
                put(index, records, rid, doc);
            }
        }
        Op::Remove(rid) => {
            index.remove(i64::from(rid));
            records.0.remove(&rid);
        }
    }
}

fn same(found: &Found, expected: &Found) -> Result<(), TestCaseError> {
    prop_assert_eq!(found.total, expected.total, "total");
    let rids = |f: &Found| f.page.iter().map(|(rid, _)| *rid).collect::<Vec<_>>();
    prop_assert_eq!(rids(found), rids(expected), "page");
    for ((_, a), (_, b)) in found.page.iter().zip(&expected.page) {
        prop_assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "score {} vs {}",
            a,
            b
        );
    }
    prop_assert_eq!(&found.facets, &expected.facets, "facets");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_search_agrees_with_a_full_scan(
        bulk in prop_oneof![3 => Just(vec![]), 1 => prop::collection::vec(document(), 64..100)],
        ops in prop::collection::vec(op(), 1..40),
        asks in prop::collection::vec(ask(), 1..8),
    ) {
        let mut index = Index::default();
        let mut records = Records::default();
        for (rid, doc) in (100..).zip(bulk) {
            apply(&mut index, &mut records, Op::Put(rid, doc));
        }
        for op in ops {
            apply(&mut index, &mut records, op);
        }
        prop_assert_eq!(index.len(), records.0.len() as u64);
        for ask in &asks {
            let query = ask.query();
            let found = index.search(&query);
            let expected = records.scan(&query);
            same(&found, &expected).map_err(|e| TestCaseError::fail(format!("{e}\n{query:?}")))?;
        }
        let rids: Vec<u32> = records.0.keys().copied().collect();
        for rid in rids {
            apply(&mut index, &mut records, Op::Remove(rid));
        }
        let size = index.size();
        prop_assert_eq!((size.records, size.terms, size.fields), (0, 0, 0));
    }
}
