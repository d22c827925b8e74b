//! Every data operation over the scripted transport: method, URL, body, and how the answer reads.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{body, failing, line, ok, scripted};
use futures::executor::block_on;
use larder_api::collections::{ARTICLES, ARTIFACTS, GUIDELINES, GUIDES, TEXTBOOK_PASSAGES};
use larder_api::transport::HttpResponse;
use larder_api::types::{Guideline, PassageInput, ReplacePassages};
use larder_api::{ApiError, Article, Artifact, ErrorKind, Guide, Passage, Record, SearchQuery};
use serde_json::json;

fn record(value: serde_json::Value) -> Record {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn post_search_sends_the_query_and_reads_hits_facets_and_total() {
    let (fake, client) = scripted(vec![ok(json!({
        "results": [{"urn": "urn:guide:a", "title": "A", "_score": 1.5,
                     "_highlight": {"title": ["<em>A</em>"]}, "x_new": 1}],
        "facets": {"language": [{"value": "en", "count": 3}, {"value": null, "count": 1}]},
        "total": 42
    }))]);
    let query = SearchQuery::new("salt")
        .filter("status", "active")
        .facet("language")
        .highlight(["title"])
        .page(10, 20);
    let page = block_on(client.search_typed::<Guide>(&query)).unwrap();
    let request = &fake.requests()[0];
    assert_eq!(line(request), "POST http://data/api/v1/guides/search");
    assert_eq!(body(request), query.to_body());
    assert_eq!(page.total, 42);
    assert_eq!(page.results[0].title, "A");
    assert_eq!(page.results[0].score, Some(1.5));
    assert_eq!(page.results[0].record.extra["x_new"], json!(1));
    assert!(page.results[0].record.extra.get("_score").is_none());
    assert_eq!(page.facet("language")[0].count, 3);
    assert!(page.facet("missing").is_empty());
}

#[test]
fn a_guideline_search_asks_for_whole_records_where_production_cannot_narrow_them() {
    // Production validates each guideline hit against the full record: a narrow `fl` is a 500.
    let answer = || ok(json!({"results": [], "facets": {}, "total": 0}));
    let (fake, client) = scripted(vec![answer(), answer()]);
    let narrow = SearchQuery::new("")
        .only_fields(["id", "updated_at"])
        .page(5, 0);
    block_on(client.search_records(&GUIDELINES, &narrow)).unwrap();
    block_on(client.search_records(&GUIDES, &narrow)).unwrap();
    let requests = fake.requests();
    assert_eq!(
        body(&requests[0]),
        json!({"q": "", "limit": 5, "offset": 0})
    );
    assert_eq!(body(&requests[1]), narrow.to_body());
}

#[test]
fn the_older_get_search_and_a_bare_list_answer() {
    let (fake, client) = scripted(vec![ok(json!([{"urn": "urn:article:a", "title": "A"}]))]);
    let page = block_on(client.search_articles("vitamin d", 5)).unwrap();
    let request = &fake.requests()[0];
    assert_eq!(
        line(request),
        "GET http://data/api/v1/articles/search?q=vitamin%20d&limit=5"
    );
    assert_eq!(request.body, None);
    assert_eq!((page.total, page.results[0].title.as_str()), (1, "A"));
}

#[test]
fn collections_without_search_fail_before_any_request() {
    let (fake, client) = scripted(vec![]);
    for collection in [ARTIFACTS, TEXTBOOK_PASSAGES] {
        let error = block_on(client.search_records(&collection, &SearchQuery::new("x")));
        assert!(matches!(error, Err(ApiError::Caller(_))));
    }
    assert!(fake.requests().is_empty());
}

#[test]
fn search_is_a_post_and_is_not_retried() {
    let (fake, client) = scripted(vec![failing(503, "upstream/unavailable", "busy")]);
    let error = block_on(client.search_records(&ARTICLES, &SearchQuery::new("x"))).unwrap_err();
    assert!(error.is_kind(ErrorKind::ServiceUnavailable));
    assert_eq!(fake.requests().len(), 1);
}

#[test]
fn enhance_patches_agent_and_fields() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"urn": "urn:article:a", "run_id": "r1", "enhanced_fields": ["ai_tags"], "agent": "bot"}),
        ),
        // Production has no enhance route beyond articles: FastAPI's bare 404.
        Ok(HttpResponse::json(404, &json!({"detail": "Not Found"}))),
    ]);
    let fields = record(json!({"ai_tags": ["x"]}));
    let result =
        block_on(client.enhance(&ARTICLES, "urn:article:a", "bot", fields.clone())).unwrap();
    let request = &fake.requests()[0];
    assert_eq!(
        line(request),
        "PATCH http://data/api/v1/articles/urn:article:a/enhance"
    );
    assert_eq!(
        body(request),
        json!({"agent": "bot", "fields": {"ai_tags": ["x"]}})
    );
    assert_eq!(result.field_names(), ["ai_tags"]);
    assert_eq!(result.run_id.as_deref(), Some("r1"));
    let not_offered = block_on(client.enhance(&GUIDES, "g", "bot", fields.clone())).unwrap_err();
    assert!(not_offered.is_not_offered(), "{not_offered:?}");
    assert!(matches!(
        block_on(client.enhance(&GUIDELINES, "u", "bot", fields.clone())),
        Err(ApiError::Caller(_))
    ));
    assert!(matches!(
        block_on(client.enhance(&ARTICLES, "a", " ", fields)),
        Err(ApiError::Caller(_))
    ));
    assert_eq!(fake.requests().len(), 2);
}

#[test]
fn enhance_needs_values_and_an_agent_slug() {
    let (fake, client) = scripted(vec![]);
    assert!(matches!(
        block_on(client.enhance(&ARTICLES, "urn:article:a", "bot", record(json!({})))),
        Err(ApiError::Caller(_))
    ));
    assert!(matches!(
        block_on(client.enhance(
            &ARTICLES,
            "urn:article:a",
            "Not A Slug",
            record(json!({"ai_category": "x"}))
        )),
        Err(ApiError::Caller(_))
    ));
    assert!(fake.requests().is_empty(), "refusals send nothing");
}

#[test]
fn a_missing_record_is_not_a_missing_route() {
    let (_, client) = scripted(vec![failing(404, "resource/not_found", "no such article")]);
    let error = block_on(client.get_record(&ARTICLES, "urn:article:x")).unwrap_err();
    assert!(!error.is_not_offered());
}

#[test]
fn typed_get_create_put_delete() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"urn": "urn:article:a", "title": "A", "publication_year": "2019", "authors": null}),
        ),
        ok(json!({"urn": "urn:article:b", "title": "B", "status": "active"})),
        ok(json!({"urn": "urn:article:b", "title": "C"})),
        ok(json!({"message": "deleted"})),
    ]);
    let article: Article = block_on(client.get("urn:article:a")).unwrap();
    assert_eq!(
        article.publication_year.and_then(|y| y.as_number()),
        Some(2019)
    );
    assert!(article.authors.is_empty());
    let new = Article {
        urn: Some("b".into()),
        title: "B".into(),
        ..Article::default()
    };
    let created = block_on(client.create(&new)).unwrap();
    assert_eq!(created.status, "active");
    let put = block_on(client.put(
        "urn:article:b",
        &Article {
            title: "C".into(),
            ..created
        },
    ))
    .unwrap();
    assert_eq!(put.title, "C");
    let deleted = block_on(client.delete::<Article>("urn:article:b")).unwrap();
    assert_eq!(deleted.message.as_deref(), Some("deleted"));
    let requests = fake.requests();
    let lines: Vec<_> = requests.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "GET http://data/api/v1/articles/urn:article:a",
            "POST http://data/api/v1/articles",
            "PUT http://data/api/v1/articles/urn:article:b",
            "DELETE http://data/api/v1/articles/urn:article:b",
        ]
    );
    assert_eq!(body(&requests[1])["urn"], "b");
    assert!(
        body(&requests[2]).get("urn").is_none(),
        "PUT sends no immutable field"
    );
}

#[test]
fn typed_update_sends_only_changed_mutable_fields() {
    let before: Guide = serde_json::from_value(json!({
        "urn": "urn:guide:g", "type": "guide", "title": "Old", "tags": ["a"],
        "x_server_field": {"kept": true}, "notes": "n"
    }))
    .unwrap();
    let mut after = before.clone();
    after.title = "New".into();
    after.notes = None;
    after.record_type = "changed".into();
    let (fake, client) = scripted(vec![ok(json!({"urn": "urn:guide:g", "title": "New"}))]);
    let updated = block_on(client.update("urn:guide:g", &before, &after)).unwrap();
    assert_eq!(updated.title, "New");
    // Only the allow-list goes out, and a cleared `notes` is not sent: production drops a null
    // rather than clear the field, so the console says so instead of sending it.
    assert_eq!(body(&fake.requests()[0]), json!({"title": "New"}));
    assert_eq!(
        block_on(client.update("urn:guide:g", &before, &before.clone())).unwrap(),
        before
    );
    assert_eq!(fake.requests().len(), 1, "no request when nothing changed");
}

#[test]
fn an_artifact_patch_always_carries_file_type() {
    let before = Artifact {
        id: Some("u1".into()),
        parent_urn: "urn:guide:g".into(),
        title: "Old".into(),
        file_type: Some("application/pdf".into()),
        ..Artifact::default()
    };
    let after = Artifact {
        title: "New".into(),
        ..before.clone()
    };
    let (fake, client) = scripted(vec![ok(json!({"id": "u1", "title": "New"})), ok(json!({}))]);
    block_on(client.update("u1", &before, &after)).unwrap();
    assert_eq!(
        body(&fake.requests()[0]),
        json!({"title": "New", "file_type": "application/pdf"})
    );
    let (old, new) = (
        record(json!({"title": "a", "file_type": "pdf"})),
        record(json!({"title": "b", "file_type": "pdf"})),
    );
    block_on(client.update_record(&ARTIFACTS, "u1", &old, &new)).unwrap();
    assert_eq!(
        body(&fake.requests()[1]),
        json!({"title": "b", "file_type": "pdf"})
    );
}

#[test]
fn an_update_answered_with_null_that_stored_nothing_is_not_called_saved() {
    // Production's artifact PATCH checks the body, answers `null` and stores nothing.
    let (old, new) = (
        record(json!({"id": "u1", "title": "a", "file_type": "pdf"})),
        record(json!({"id": "u1", "title": "b", "file_type": "pdf"})),
    );
    let (_, client) = scripted(vec![ok(json!(null)), ok(old.clone().into())]);
    let refused = block_on(client.update_record(&ARTIFACTS, "u1", &old, &new));
    assert!(
        matches!(&refused, Err(ApiError::Caller(m)) if m.contains("without storing the change (title)")),
        "{refused:?}"
    );
    // Only the file type changed, and not stored: said too (it is not merely carried).
    let retyped = record(json!({"id": "u1", "title": "a", "file_type": "txt"}));
    let (_, client) = scripted(vec![ok(json!(null)), ok(old.clone().into())]);
    let refused = block_on(client.update_record(&ARTIFACTS, "u1", &old, &retyped));
    assert!(
        matches!(&refused, Err(ApiError::Caller(m)) if m.contains("(file_type)")),
        "{refused:?}"
    );
    // Stored (a service that answers null but keeps the change): the record read back.
    let (_, client) = scripted(vec![ok(json!(null)), ok(new.clone().into())]);
    let stored = block_on(client.update_record(&ARTIFACTS, "u1", &old, &new)).unwrap();
    assert_eq!(stored["title"], json!("b"));
}

#[test]
fn guidelines_of_a_guide() {
    let (fake, client) = scripted(vec![
        ok(json!([{"id": "g1", "guide_urn": "urn:guide:g", "rule_text": "Eat", "sequence_no": 1}])),
        ok(json!({"id": "g2", "guide_urn": "urn:guide:g", "rule_text": "Drink"})),
        ok(json!({"results": [], "total": 0})),
        ok(json!({"guide_urn": "urn:guide:g", "imported_count": 2, "ids": ["a", "b"]})),
    ]);
    let listed = block_on(client.guidelines_of("urn:guide:g", 50, 0)).unwrap();
    assert_eq!(listed[0].rule_text, "Eat");
    let new = Guideline {
        guide_urn: "urn:guide:g".into(),
        rule_text: "Drink".into(),
        ..Guideline::default()
    };
    block_on(client.create_guideline(&new)).unwrap();
    block_on(client.search_guidelines_of("urn:guide:g", &SearchQuery::new("water"))).unwrap();
    let import =
        block_on(client.import_guidelines("urn:guide:g", &[new.clone(), new.clone()])).unwrap();
    assert_eq!((import.imported_count, import.ids.len()), (2, 2));
    let requests = fake.requests();
    let lines: Vec<_> = requests.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "GET http://data/api/v1/guidelines/by-guide/urn:guide:g?limit=50&offset=0",
            "POST http://data/api/v1/guidelines",
            "POST http://data/api/v1/guidelines/by-guide/urn:guide:g/search",
            "POST http://data/api/v1/guidelines/by-guide/urn:guide:g/import",
        ]
    );
    assert_eq!(
        body(&requests[1]),
        json!({"guide_urn": "urn:guide:g", "rule_text": "Drink", "food_groups": [], "target_populations": [], "source_refs": []})
    );
    assert_eq!(
        body(&requests[3])["guidelines"].as_array().map(Vec::len),
        Some(2)
    );

    let orphan = Guideline::default();
    assert!(matches!(
        block_on(client.create_guideline(&orphan)),
        Err(ApiError::Caller(_))
    ));
    let too_many = vec![new; 1001];
    assert!(matches!(
        block_on(client.import_guidelines("urn:guide:g", &too_many)),
        Err(ApiError::Caller(_))
    ));
    assert_eq!(fake.requests().len(), 4);
}

#[test]
fn passages_of_a_textbook() {
    let passage = json!({"id": "p1", "artifact_id": "a1", "text": "T", "page_no": 3, "structure_path": ["Ch 1"]});
    let (fake, client) = scripted(vec![
        ok(json!([passage.clone()])),
        ok(json!({"results": [passage.clone()], "total": 1, "facets": {}})),
        ok(
            json!({"textbook_urn": "urn:textbook:t", "artifact_id": "a1", "replaced_count": 1,
                  "page_count": 10, "structure_tree_updated": true}),
        ),
        ok(json!([passage])),
    ]);
    let listed: Vec<Passage> = block_on(client.passages_of("urn:textbook:t", 100, 0)).unwrap();
    assert_eq!(listed[0].structure_path, ["Ch 1"]);
    let page = block_on(client.passages_on_page("urn:textbook:t", 3, 200)).unwrap();
    assert_eq!(page[0].page_no, Some(3));
    let replacement = ReplacePassages {
        artifact_id: "0b6f0c2e-1111-4222-8333-444455556666".into(),
        page_count: Some(10),
        passages: Some(vec![PassageInput {
            page_no: 3,
            sequence_no: None,
            text: "T".into(),
            char_start: 0,
            char_end: 1,
        }]),
        ..ReplacePassages::default()
    };
    let summary = block_on(client.replace_passages("urn:textbook:t", &replacement)).unwrap();
    assert_eq!(
        (summary.replaced_count, summary.structure_tree_updated),
        (1, true)
    );
    let as_list = block_on(client.replace_passages("urn:textbook:t", &replacement)).unwrap();
    assert_eq!((as_list.replaced_count, as_list.passages.len()), (1, 1));
    let requests = fake.requests();
    assert_eq!(
        line(&requests[0]),
        "GET http://data/api/v1/textbook-passages/by-textbook/urn:textbook:t?limit=100&offset=0"
    );
    assert_eq!(
        line(&requests[1]),
        "POST http://data/api/v1/textbook-passages/by-textbook/urn:textbook:t/search"
    );
    assert_eq!(
        body(&requests[1]),
        json!({"q": "", "fq": ["page_no:3"], "sort": "sequence_no asc", "limit": 200, "offset": 0})
    );
    assert_eq!(
        line(&requests[2]),
        "POST http://data/api/v1/textbook-passages/by-textbook/urn:textbook:t/replace"
    );
    assert_eq!(
        body(&requests[2]),
        json!({"artifact_id": "0b6f0c2e-1111-4222-8333-444455556666", "page_count": 10,
               "passages": [{"page_no": 3, "text": "T", "char_start": 0, "char_end": 1}]})
    );
    let refused = ReplacePassages {
        artifact_id: "not-a-uuid".into(),
        ..replacement
    };
    assert!(matches!(
        block_on(client.replace_passages("urn:textbook:t", &refused)),
        Err(ApiError::Caller(message)) if message.starts_with("artifact_id")
    ));
    assert_eq!(
        fake.requests().len(),
        4,
        "what production would refuse is never sent"
    );
}

#[test]
fn a_search_answer_naming_the_failing_path() {
    let (_, client) = scripted(vec![ok(
        json!({"results": [{"title": "ok"}, {"title": 7}]}),
    )]);
    match block_on(client.search_typed::<Guide>(&SearchQuery::new(""))) {
        Err(ApiError::Decode { path, .. }) => {
            assert!(path.starts_with("result.results[1]"), "{path}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_tracked_replacement_reports_its_body_going_out_and_is_never_retried() {
    use larder_api::transport::Progress;
    use std::sync::{Arc, Mutex};
    let (fake, client) = scripted(vec![
        failing(503, "upstream/unavailable", "busy"),
        ok(json!({"artifact_id": "a1", "replaced_count": 2, "structure_tree_updated": false})),
    ]);
    let passage = PassageInput {
        page_no: 1,
        sequence_no: None,
        text: "t".into(),
        char_start: 0,
        char_end: 1,
    };
    let replacement = ReplacePassages {
        artifact_id: "0b6f0c2e-1111-4222-8333-444455556666".into(),
        passages: Some(vec![passage.clone(), passage]),
        ..ReplacePassages::default()
    };
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = seen.clone();
    let progress = Arc::new(move |p: Progress| sink.lock().unwrap().push(p));
    let busy =
        block_on(client.replace_passages_tracked("urn:textbook:t", &replacement, progress.clone()))
            .unwrap_err();
    assert!(
        busy.is_kind(ErrorKind::ServiceUnavailable),
        "a POST is not retried"
    );
    let summary =
        block_on(client.replace_passages_tracked("urn:textbook:t", &replacement, progress))
            .unwrap();
    assert_eq!(summary.replaced_count, 2);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let sent = requests[1].body.as_ref().unwrap().len() as u64;
    let last = seen.lock().unwrap().last().cloned().unwrap();
    assert_eq!((last.loaded, last.total), (sent, Some(sent)));
}
