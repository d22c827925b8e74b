//! The index's own behaviour: tokens, matching, relevance, columns.

use larder_contract::collections::{ARTICLES, GUIDES};
use larder_search::{tokens, Index, Scalar, MAX_PREFIX_TERMS};
use rust_stemmers::{Algorithm, Stemmer};
use serde_json::{json, Value};

#[test]
fn tokens_fold_accents_case_and_stems() {
    let stemmer = Stemmer::create(Algorithm::English);
    let words: Vec<String> = tokens(&stemmer, "Café SUPPLEMENTS, vitamins-D").collect();
    assert_eq!(words, ["cafe", "supplement", "vitamin", "d"]);
}

#[test]
fn put_match_score_remove() {
    let mut index = Index::default();
    index.put(
        1,
        &ARTICLES,
        None,
        &json!({"title": "Vitamin D", "abstract": "bones", "status": "active", "year": 2001}),
    );
    index.put(
        2,
        &ARTICLES,
        None,
        &json!({"title": "Iron", "abstract": "vitamin C and iron", "status": "active"}),
    );
    index.put(
        3,
        &GUIDES,
        None,
        &json!({"title": "Vitamins", "status": "draft"}),
    );
    let q = vec!["vitamin".to_string()];
    assert_eq!(index.matching(&q, false), Some(vec![1, 2, 3]));
    let scores = index.scores(&[1, 2], &q, false);
    assert!(
        scores[0] > scores[1],
        "a title match weighs more: {scores:?}"
    );
    assert!(!index.doc(3).unwrap().own_visible);
    assert_eq!(index.values_of(1, "year"), [&Scalar::Int(2001)]);
    index.put(
        1,
        &ARTICLES,
        None,
        &json!({"title": "Zinc", "status": "active"}),
    );
    assert_eq!(index.matching(&q, false), Some(vec![2, 3]));
    assert_eq!(index.values_of(1, "year"), Vec::<&Scalar>::new());
    index.remove(2);
    assert_eq!(index.matching(&q, false), Some(vec![3]));
    assert_eq!(index.len(), 2);
    assert_eq!(index.matching(&["absent".into()], false), Some(vec![]));
    assert_eq!(index.matching(&[], false), None);
}

#[test]
fn columns_keep_lists_in_order_and_reuse_values_no_record_holds() {
    let text = |s: &str| Scalar::Str(s.into());
    let mut index = Index::default();
    let article = |keywords: Value| json!({"title": "T", "status": "active", "keywords": keywords});
    index.put(1, &ARTICLES, None, &article(json!(["x", "y", "x"])));
    index.put(2, &ARTICLES, None, &article(json!(["y"])));
    assert_eq!(
        index.values_of(1, "keywords"),
        [&text("x"), &text("y"), &text("x")]
    );
    let keywords = index.column("keywords").unwrap();
    assert!(keywords.has_lists());
    assert_eq!(keywords.ids_len(), 2, "one id per distinct value");

    index.put(1, &ARTICLES, None, &article(json!(["z"])));
    assert_eq!(index.values_of(1, "keywords"), [&text("z")]);
    assert_eq!(index.values_of(2, "keywords"), [&text("y")]);
    assert_eq!(
        index.column("keywords").unwrap().ids_len(),
        2,
        "z took the id x left"
    );
    index.remove(2);
    assert_eq!(index.values_of(2, "keywords"), Vec::<&Scalar>::new());
    assert_eq!(index.all_of(&ARTICLES), [1]);
}

#[test]
fn a_word_prefix_finds_the_words_it_begins_and_stands_for_a_bounded_number() {
    let mut index = Index::default();
    let article = |title: &str| json!({"title": title, "status": "active"});
    index.put(1, &ARTICLES, None, &article("The Mediterranean diet"));
    index.put(2, &ARTICLES, None, &article("Médicaments and diets"));
    index.put(3, &ARTICLES, None, &article("Medical care"));
    let q = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    // Whole-word search: a partial word is no word's stem.
    assert_eq!(index.matching(&q(&["medit"]), false), Some(vec![]));
    assert_eq!(index.matching(&q(&["medit"]), true), Some(vec![1]));
    // Accents and case fold; every word must be found, each as a beginning or a stem.
    assert_eq!(index.matching(&q(&["MEDI"]), true), Some(vec![1, 2, 3]));
    assert_eq!(index.matching(&q(&["medit", "di"]), true), Some(vec![1]));
    assert_eq!(index.matching(&q(&["diets"]), true), Some(vec![1, 2]));
    let scores = index.scores(&[1, 3], &q(&["mediterr"]), true);
    assert!(scores[0] > 0.0 && scores[1] == 0.0, "{scores:?}");
    // A one-letter word stands for at most MAX_PREFIX_TERMS terms, the most frequent first.
    let mut many = Index::default();
    for n in 0..(MAX_PREFIX_TERMS as i64 + 50) {
        many.put(n + 1, &ARTICLES, None, &article(&format!("q{n}")));
    }
    many.put(9_999, &ARTICLES, None, &article("q0 q0"));
    let found = many.matching(&q(&["q"]), true).unwrap();
    assert_eq!(found.len(), MAX_PREFIX_TERMS + 1, "q0 is in two records");
    assert!(found.contains(&1) && found.contains(&9_999));
}

#[test]
fn fields_of_a_collection_are_what_its_records_hold_now() {
    let mut index = Index::default();
    index.put(
        1,
        &ARTICLES,
        None,
        &json!({"title": "A", "status": "active", "extras": {"a": "x"}, "abstract": "long ".repeat(200)}),
    );
    index.put(2, &GUIDES, None, &json!({"title": "G", "region": "GR"}));
    let (fields, records) = index.fields_of(&ARTICLES);
    assert_eq!(records, 1);
    // Text past the column limit is searched, not kept as a value; a nested value counts for
    // its top-level field.
    assert_eq!(
        fields.into_iter().collect::<Vec<_>>(),
        ["extras", "status", "title"]
    );
    index.remove(1);
    assert_eq!(index.fields_of(&ARTICLES), (Default::default(), 0));
    assert_eq!(index.fields_of(&GUIDES).1, 1);
}
