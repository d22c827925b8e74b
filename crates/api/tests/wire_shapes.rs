//! Raw JSON samples in the shapes of wire-notes (and interface.md's older names), read by the
//! typed wire types and written back.
#![cfg(not(target_arch = "wasm32"))]

use larder_api::client::interpret;
use larder_api::transport::HttpResponse;
use larder_api::types::{
    EnhanceResult, FcTable, GuidelineImport, Household, Member, Profile, ReplaceResult, Year,
};
use larder_api::{
    ApiError, Article, ErrorKind, Guide, Guideline, Passage, SearchResults, Textbook,
};
use serde_json::{json, Value};

fn read<T: serde::de::DeserializeOwned>(sample: &str) -> T {
    serde_json::from_str(sample).unwrap_or_else(|e| panic!("{e}: {sample}"))
}

const ARTICLE: &str = r#"{
  "urn": "urn:article:vitamin-d-bone-health", "id": "0b6f", "title": "Vitamin D and bone health",
  "content": "A review.", "status": "active", "type": "article", "abstract": "Short.",
  "doi": "10.1/x", "citation_count": 12, "annotation_confidence": 0.87,
  "publication_year": 2019, "open_access": true, "authors": ["A. Researcher"],
  "keywords": ["vitamin", "bone"], "tags": [], "topics": [], "ai_tags": [], "ai_key_takeaways": [],
  "hard_exclusion_flags": [], "key_takeaways": [], "extras": {"source": "pubmed"},
  "geographic_context": {"countries": ["DE"]}, "created_at": "2026-01-01T00:00:00Z",
  "x_future_field": {"nested": [1, 2, {"a": null}]}, "x_flag": false
}"#;

#[test]
fn an_article_is_written_back_exactly_as_read() {
    let article: Article = read(ARTICLE);
    assert_eq!(article.abstract_text.as_deref(), Some("Short."));
    assert_eq!(article.record_type, "article");
    assert_eq!(article.publication_year, Some(Year::Number(2019)));
    assert_eq!(
        article.extra["x_future_field"]["nested"][2],
        json!({"a": null})
    );
    let original: Value = read(ARTICLE);
    assert_eq!(serde_json::to_value(&article).unwrap(), original);
}

#[test]
fn an_article_with_nulls_missing_lists_and_a_string_year() {
    let article: Article = read(
        r#"{"urn": "urn:article:a", "title": null, "publication_year": "2019-2020",
            "authors": null, "keywords": null, "extras": null, "geographic_context": null,
            "doi": null, "open_access": null}"#,
    );
    assert_eq!(article.title, "");
    assert!(article.authors.is_empty() && article.extras.is_empty());
    assert_eq!(
        article.publication_year,
        Some(Year::Text("2019-2020".into()))
    );
    assert_eq!(article.publication_year.unwrap().as_number(), None);
    assert_eq!(article.geographic_context, None);
    let wrong: Result<Article, _> = serde_json::from_str(r#"{"authors": "A. Researcher"}"#);
    assert!(wrong.is_err(), "a wrong type is an error, not a guess");
}

#[test]
fn a_guide_under_both_names_of_its_lists() {
    let wire: Guide = read(
        r#"{"urn": "urn:guide:g", "title": "G", "type": "guide", "page_count": 40,
            "artifacts": [{"id": "u1", "parent_urn": "urn:guide:g", "title": "PDF", "x": 1}],
            "guidelines": ["g1", "g2"], "identifiers": [{"scheme": "isbn", "value": "1"}],
            "revision": {"n": 2}, "review_status": "verified", "visibility": "public"}"#,
    );
    assert_eq!(wire.artifacts[0].extra["x"], 1);
    assert_eq!(wire.guidelines, ["g1", "g2"]);
    let interface: Guide = read(
        r#"{"urn": "urn:guide:g", "artifact_records": [{"id": "u1"}], "guideline_ids": ["g1"]}"#,
    );
    assert_eq!(interface.artifacts[0].id.as_deref(), Some("u1"));
    assert_eq!(interface.guidelines, ["g1"]);
    let written = serde_json::to_value(&interface).unwrap();
    assert!(written.get("artifacts").is_some() && written.get("artifact_records").is_none());
    assert_eq!(written["guidelines"], json!(["g1"]));
}

#[test]
fn a_guideline_with_loose_fields() {
    let guideline: Guideline = read(
        r#"{"id": "9f2", "guide_urn": "urn:guide:g", "rule_text": "Eat vegetables daily.",
            "status": "draft", "action_type": "eat", "frequency": "daily",
            "food_groups": ["vegetables"], "target_populations": ["adults"],
            "quantity": {"amount": 3, "unit": "portions"}, "source_refs": [{"page": 4}],
            "page_no": 4, "sequence_no": 1, "guide_region": "DE"}"#,
    );
    assert_eq!(guideline.frequency.as_deref(), Some("daily"));
    assert_eq!(guideline.quantity.unwrap()["unit"], "portions");
    assert_eq!(guideline.food_groups, ["vegetables"]);
}

#[test]
fn a_textbook_and_its_structure_tree() {
    let sample = r#"{"urn": "urn:textbook:t", "title": "Nutrition", "type": "textbook",
        "page_count": 120, "publication_year": "2021", "editors": ["E"],
        "structure_tree": {"roots": [
            {"id": "p1", "title": "Part I", "kind": "part", "page_start": 1, "page_end": 60,
             "children": [
                {"id": "c1", "title": "Chapter 1", "kind": "chapter", "page_start": 1, "page_end": 30,
                 "artifact_id": "a1", "children": [], "x_node": true},
                {"id": "c2", "title": "Chapter 2", "kind": "chapter", "page_start": 31}]},
            {"id": "ap", "title": "Appendix", "kind": "appendix", "page_start": 61}]}}"#;
    let textbook: Textbook = read(sample);
    let tree = textbook.structure_tree.as_ref().unwrap();
    let ids: Vec<_> = tree.nodes().iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["p1", "c1", "c2", "ap"]);
    let chapter = tree.find("c2").unwrap();
    assert_eq!(
        (chapter.title.as_str(), chapter.last_page()),
        ("Chapter 2", Some(31))
    );
    assert_eq!(tree.find("c1").unwrap().extra["x_node"], true);
    assert!(tree.find("nope").is_none());
    let older: Textbook =
        read(r#"{"urn": "urn:textbook:t", "structure_tree_payload": {"roots": []}}"#);
    assert_eq!(older.structure_tree.map(|t| t.roots.len()), Some(0));
    let empty: Textbook = read(r#"{"structure_tree": {"roots": null}}"#);
    assert!(empty.structure_tree.unwrap().roots.is_empty());
}

#[test]
fn a_passage_and_an_fctable() {
    let passage: Passage = read(
        r#"{"id": "p", "textbook_urn": "urn:textbook:t", "artifact_id": "a1", "text": "Iron...",
            "structure_path": ["Part I", "Chapter 1"], "structure_node_id": "c1",
            "page_no": 7, "sequence_no": 2, "char_start": 0, "char_end": 7}"#,
    );
    assert_eq!(passage.structure_path, ["Part I", "Chapter 1"]);
    let table: FcTable = read(
        r#"{"urn": "urn:fctable:f", "title": "BLS", "type": "food_composition_table",
            "compiling_institution": "MRI", "database_name": "BLS 4.0",
            "completeness_percent": 97.5, "number_of_entries": 7140,
            "nutrient_coverage": ["energy", "protein"], "artifacts": null}"#,
    );
    assert_eq!(table.completeness_percent, Some(97.5));
    assert!(table.artifacts.is_empty());
}

#[test]
fn household_member_and_profile_in_wire_notes_shapes() {
    let household: Household = read(
        r#"{"id": "h1", "name": "Home", "owner_id": "olivia", "region": null, "member_count": 2,
            "created_at": "t", "updated_at": "t", "metadata": {"pets": 1},
            "members": [{"id": "m1", "household_id": "h1", "name": "Ann", "age_group": "adult",
                         "image_url": null, "joined_at": "t"}]}"#,
    );
    assert_eq!(household.members[0].profile, None);
    let member: Member = read(
        r#"{"id": "m1", "household_id": "h1", "name": "Ann", "age_group": "adult",
            "profile": {"id": "p1", "household_member_id": "m1"}}"#,
    );
    let profile = member.profile.unwrap();
    assert!(profile.dietary_groups.is_empty() && profile.allergies.is_empty());
    assert!(profile.nutritional_preferences.is_empty() && profile.properties.is_empty());
    let full: Profile = read(
        r#"{"id": "p1", "household_member_id": "m1", "nutritional_preferences": {"salt": "low"},
            "dietary_groups": ["vegan"], "allergies": ["peanut"], "properties": {},
            "created_at": "t", "updated_at": "t"}"#,
    );
    assert_eq!(full.allergies, [json!("peanut")]);
}

#[test]
fn answers_that_are_not_records() {
    let page = SearchResults::<Article>::from_result(read(
        r#"{"results": [{"urn": "urn:article:a", "title": "A", "_score": 2.0,
                         "_highlight": {"title": ["<em>A</em>"]}}],
            "facets": {"language": [{"value": "en", "count": 1}], "publication_year": [{"value": 2019, "count": 1}]},
            "total": 1}"#,
    ))
    .unwrap();
    assert_eq!(page.facet("publication_year")[0].value, json!(2019));
    assert_eq!(page.records().next().unwrap().title, "A");
    let no_total = SearchResults::<Article>::from_result(read(r#"{"results": [{}, {}]}"#)).unwrap();
    assert_eq!(no_total.total, 2);
    let enhanced: EnhanceResult = read(
        r#"{"urn": "urn:article:a", "run_id": "r", "agent": "enhancer",
            "enhanced_fields": {"ai_tags": ["x"], "ai_category": "c"}}"#,
    );
    assert_eq!(enhanced.field_names(), ["ai_category", "ai_tags"]);
    let replaced = ReplaceResult::from_result(read(
        r#"{"textbook_urn": "urn:textbook:t", "artifact_id": "a1", "replaced_count": 12,
            "page_count": 120, "structure_tree_updated": false}"#,
    ))
    .unwrap();
    assert_eq!(replaced.replaced_count, 12);
    let imported = GuidelineImport::from_result(read(
        r#"{"guide_urn": "urn:guide:g", "imported_count": 2, "ids": ["a", "b"]}"#,
    ))
    .unwrap();
    assert_eq!(imported.ids, ["a", "b"]);
    let as_ids = GuidelineImport::from_result(json!(["a"])).unwrap();
    assert_eq!((as_ids.imported_count, as_ids.ids.len()), (1, 1));
    let as_records = GuidelineImport::from_result(json!([{"id": "a", "rule_text": "r"}])).unwrap();
    assert_eq!(as_records.ids, ["a"]);
}

#[test]
fn the_error_envelope_as_wire_notes_shows_it() {
    let sample = r#"{"success": false, "help": "http://h/api/v1/articles/search",
        "error": {"title": "InvalidPagination", "detail": "offset + limit must not exceed 10000",
                  "code": "request/invalid", "errors": [{"loc": ["body", "offset"], "msg": "too large"}],
                  "max_window": 10000}}"#;
    let error = interpret(HttpResponse::text(400, sample)).unwrap_err();
    let ApiError::Api(failure) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(failure.kind, Some(ErrorKind::Invalid));
    assert_eq!(failure.title, "InvalidPagination");
    assert_eq!(failure.code, "request/invalid");
    assert_eq!(
        failure.help.as_deref(),
        Some("http://h/api/v1/articles/search")
    );
    assert_eq!(failure.extra["max_window"], 10000);
    assert_eq!(
        failure.field_errors(),
        [("offset".to_string(), "too large".to_string())]
    );
    assert_eq!(failure.body, sample);
    assert!(!error.is_retryable());
    let ok = interpret(HttpResponse::text(
        200,
        r#"{"help": "h", "success": true, "result": "pong"}"#,
    ));
    assert_eq!(ok.unwrap(), json!("pong"));
}
