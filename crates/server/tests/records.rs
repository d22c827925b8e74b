//! The data collections over real HTTP: create, read, PATCH, PUT, delete for all seven, against
//! production's create schemas and update allow-lists; validation; visibility.

mod common;

use common::records::{create_body, update_body, PUBLISHED_GUIDE, TEXTBOOK};
use common::{assert_error, TestServer};
use larder_contract::COLLECTIONS;
use serde_json::{json, Value};

#[tokio::test]
async fn every_collection_round_trips() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let fixtures = server.fixtures(&admin).await;
    for collection in COLLECTIONS.iter() {
        let path = collection.path;
        let created = server
            .call(
                "POST",
                path,
                Some(&admin),
                Some(create_body(collection, "round-trip", &fixtures)),
            )
            .await;
        assert_eq!(created.status, 201, "{path}: {}", created.body);
        let record = created.body["result"].clone();
        let id = record["id"].as_str().unwrap().to_string();
        assert_eq!(record["creator"], "admin", "{path}");
        assert!(record["created_at"].is_string());
        let identifier = match collection.urn_prefix() {
            Some(prefix) => {
                assert_eq!(record["urn"], format!("{prefix}round-trip"), "{path}");
                // A URN collection's record is read by slug or URN; its UUID is a 404 (production).
                let by_uuid = server
                    .call("GET", &format!("{path}/{id}"), Some(&admin), None)
                    .await;
                assert_error(&by_uuid, 404, "resource/not_found");
                "round-trip".to_string()
            }
            None => id.clone(),
        };
        if let Some(record_type) = collection.record_type {
            assert_eq!(record["type"], record_type, "{path}");
        }
        let got = server
            .call("GET", &format!("{path}/{identifier}"), Some(&admin), None)
            .await;
        assert_eq!(got.status, 200, "{path}");
        assert_eq!(got.body["result"]["id"], id.as_str());

        // A PATCH refuses every key outside the allow-list, even one it would ignore.
        for forged in ["id", "created_at", "creator", "urn", "x_unknown"] {
            let mut body = update_body(collection);
            body[forged] = json!("forged");
            let refused = server
                .call(
                    "PATCH",
                    &format!("{path}/{identifier}"),
                    Some(&admin),
                    Some(body),
                )
                .await;
            assert_error(&refused, 422, "request/unprocessable");
            assert_eq!(
                refused.body["error"]["errors"][0]["loc"],
                json!(["body", forged]),
                "{path}"
            );
            assert_eq!(
                refused.body["error"]["errors"][0]["type"],
                "extra_forbidden"
            );
        }
        let patched = server
            .call(
                "PATCH",
                &format!("{path}/{identifier}"),
                Some(&admin),
                Some(update_body(collection)),
            )
            .await;
        assert_eq!(patched.status, 200, "{path}: {}", patched.body);
        let patched = &patched.body["result"];
        let field = if collection.is_updatable("title") {
            "title"
        } else {
            "text"
        };
        assert_eq!(patched[field], "changed", "{path}");
        assert_eq!(patched["id"], id.as_str());
        assert_eq!(patched["creator"], "admin");
        assert_eq!(patched["created_at"], record["created_at"]);

        // PUT (only interface.md has it) replaces the updatable fields and keeps the rest.
        let mut put = create_body(collection, "put", &fixtures);
        if let Some(fields) = put.as_object_mut() {
            fields.retain(|k, _| collection.is_updatable(k));
        }
        put[field] = json!("Replaced");
        let replaced = server
            .call(
                "PUT",
                &format!("{path}/{identifier}"),
                Some(&admin),
                Some(put),
            )
            .await;
        assert_eq!(replaced.status, 200, "{path}: {}", replaced.body);
        let replaced = &replaced.body["result"];
        assert_eq!(replaced[field], "Replaced");
        assert_eq!(replaced["id"], id.as_str());
        assert_eq!(replaced["urn"], record["urn"]);

        let deleted = server
            .call(
                "DELETE",
                &format!("{path}/{identifier}"),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(deleted.status, 200, "{path}");
        let gone = server
            .call("GET", &format!("{path}/{identifier}"), Some(&admin), None)
            .await;
        assert_error(&gone, 404, "resource/not_found");
    }
    server.stop().await;
}

#[tokio::test]
async fn lists_are_identifier_pages() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let all = server
        .call("GET", "articles?limit=1000", Some(&expert), None)
        .await;
    let all = all.body["result"].as_array().unwrap().clone();
    assert!(all.len() >= 20);
    let page = server
        .call("GET", "articles?limit=5&offset=3", Some(&expert), None)
        .await;
    assert_eq!(page.body["result"].as_array().unwrap()[..], all[3..8]);
    let guidelines = server
        .call("GET", "guidelines?limit=3", Some(&expert), None)
        .await;
    for id in guidelines.body["result"].as_array().unwrap() {
        assert!(uuid::Uuid::parse_str(id.as_str().unwrap()).is_ok(), "{id}");
    }
    for bad in [
        "articles?limit=0",
        "articles?limit=1001",
        "articles?offset=-1",
        "articles?limit=ten",
    ] {
        let answer = server.call("GET", bad, Some(&expert), None).await;
        assert_error(&answer, 422, "request/unprocessable");
    }
    let passages = server
        .call("GET", "textbook-passages", Some(&expert), None)
        .await;
    assert_error(&passages, 405, "request/not_allowed");
    let passages = server
        .call(
            "POST",
            "textbook-passages/search",
            Some(&expert),
            Some(json!({})),
        )
        .await;
    assert_error(&passages, 405, "request/not_allowed");
    server.stop().await;
}

#[tokio::test]
async fn what_production_refuses_is_refused_in_its_shape() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let wrong = server
        .call(
            "POST",
            "articles",
            Some(&admin),
            Some(json!({"urn": "t", "title": "T", "venue": "V", "content": "", "citation_count": "many",
                        "open_access": "perhaps", "status": "active", "keywords": [1], "annotation_confidence": 3})),
        )
        .await;
    assert_error(&wrong, 422, "request/unprocessable");
    assert_eq!(wrong.body["error"]["title"], "RequestValidationError");
    assert_eq!(wrong.body["error"]["detail"], "Validation failed");
    let problems: Vec<(String, String)> = wrong.body["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["loc"].to_string(),
                e["type"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (loc, kind) in [
        (r#"["body","citation_count"]"#, "int_parsing"),
        (r#"["body","open_access"]"#, "bool_parsing"),
        (r#"["body","status"]"#, "extra_forbidden"),
        (r#"["body","keywords",0]"#, "string_type"),
        (r#"["body","annotation_confidence"]"#, "less_than_equal"),
    ] {
        assert!(
            problems.contains(&(loc.to_string(), kind.to_string())),
            "{loc} {kind} in {problems:?}"
        );
    }
    let cases = [
        (
            "POST",
            "articles",
            json!({"urn": "no-venue", "title": "T", "content": ""}),
        ),
        (
            "POST",
            "articles",
            json!({"urn": "urn:article:full", "title": "T", "content": "", "venue": "V"}),
        ),
        (
            "POST",
            "articles",
            json!({"urn": 7, "title": "x", "content": "", "venue": "V"}),
        ),
        (
            "POST",
            "articles",
            json!({"identifier": "x", "title": "x", "content": "", "venue": "V"}),
        ),
        ("POST", "guides", json!({"urn": "no-title"})),
        ("POST", "guides", json!([1, 2])),
        (
            "POST",
            "guidelines",
            json!({"guide_urn": PUBLISHED_GUIDE, "rule_text": "x", "action_type": "juggle"}),
        ),
        (
            "POST",
            "textbooks",
            json!({"urn": "public-draft", "title": "Public draft", "visibility": "public", "status": "draft", "review_status": "verified"}),
        ),
        (
            "POST",
            "textbooks",
            json!({"urn": "bad-tree", "title": "Bad tree", "structure_tree": {"roots": [{"id": "a", "title": "A", "kind": "volume", "page_start": 1}]}}),
        ),
        (
            "POST",
            "textbook-passages",
            json!({"textbook_urn": TEXTBOOK, "text": "x", "page_no": 0}),
        ),
        (
            "POST",
            "fctables",
            json!({"urn": "t", "title": "T", "database_name": "D", "compiling_institution": "I", "completeness_percent": "high"}),
        ),
        (
            "POST",
            "fctables",
            json!({"urn": "t", "title": "T", "database_name": "D", "compiling_institution": "I", "content": "no"}),
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"publication_year": 1.5}),
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"status": "published"}),
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"language": "fr"}),
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"title": "x".repeat(2001)}),
        ),
    ];
    for (method, path, body) in cases {
        let answer = server
            .call(method, path, Some(&admin), Some(body.clone()))
            .await;
        assert_error(&answer, 422, "request/unprocessable");
        assert!(answer.body["error"]["errors"].is_array(), "{path} {body}");
    }
    // A null leaves a field as it is (production drops it): no 422, no change.
    let kept = server
        .call(
            "PATCH",
            "articles/vitamin-d-bone-health",
            Some(&admin),
            Some(json!({"title": null})),
        )
        .await;
    assert_eq!(kept.status, 200, "{}", kept.body);
    assert_eq!(
        kept.body["result"]["title"],
        "Vitamin D and bone health in older adults"
    );
    let orphan = server
        .call("POST", "artifacts", Some(&admin), Some(json!({"title": "Orphan", "parent_urn": "urn:guide:nope", "file_type": "pdf", "file_url": "https://example.org/x.pdf", "file_size": 1})))
        .await;
    assert_error(&orphan, 404, "resource/not_found");

    for body in ["{\"title\": ", "[}", "\u{0}"] {
        let response = server
            .http
            .post(format!("{}/articles", server.base))
            .bearer_auth(&admin)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 422, "{body:?}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["error"]["errors"][0]["type"], "json_invalid");
    }
    let oversize = server
        .http
        .post(format!("{}/articles", server.base))
        .bearer_auth(&admin)
        .header("content-type", "application/json")
        .body(format!("{{\"title\": \"{}\"}}", "x".repeat(3 << 20)))
        .send()
        .await
        .unwrap();
    assert_eq!(oversize.status().as_u16(), 413);
    let body: Value = oversize.json().await.unwrap();
    assert_eq!(body["success"], false);

    for (method, path) in [
        ("GET", "nowhere"),
        ("GET", "articles/a/b/c"),
        ("DELETE", "system/login"),
        ("PUT", "households/me"),
    ] {
        let answer = server.call(method, path, Some(&admin), None).await;
        assert!(
            matches!(answer.status, 404 | 405),
            "{method} {path}: {}",
            answer.status
        );
        assert_eq!(answer.body["success"], false);
    }
    server.stop().await;
}

#[tokio::test]
async fn problems_are_capped_and_bodies_bounded() {
    let server = TestServer::demo().await;
    let noah = server.login("noah", "noah-demo").await;
    // 100,000 empty members: one answer of a bounded size, naming the cap, not every member.
    let members = vec![json!({}); 100_000];
    let answer = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Big", "members": members})),
        )
        .await;
    assert_error(&answer, 422, "request/unprocessable");
    assert!(
        answer.body.to_string().len() < 4096,
        "{} bytes",
        answer.body.to_string().len()
    );
    assert_eq!(answer.body["error"]["errors"][0]["type"], "too_long");
    // Many problems: the first 50, and how many more there were.
    let extras: serde_json::Map<String, Value> =
        (0..500).map(|n| (format!("k{n}"), json!(n))).collect();
    let mut body = json!({"urn": "many", "title": "T", "venue": "V", "content": ""});
    body.as_object_mut().unwrap().extend(extras);
    let admin = server.login("admin", "admin-demo").await;
    let answer = server
        .call("POST", "articles", Some(&admin), Some(body))
        .await;
    assert_error(&answer, 422, "request/unprocessable");
    assert_eq!(answer.body["error"]["errors"].as_array().unwrap().len(), 50);
    assert_eq!(answer.body["error"]["omitted_errors"], 450);
    server.stop().await;
}

#[tokio::test]
async fn hidden_records_read_as_not_found_for_non_curators() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let owner = server.login("olivia", "olivia-demo").await;
    let book = server
        .call(
            "POST",
            "textbooks",
            Some(&expert),
            Some(json!({"urn": "internal-book", "title": "Internal book"})),
        )
        .await;
    assert_eq!(book.body["result"]["visibility"], "internal");
    assert_eq!(book.body["result"]["status"], "draft");
    assert_eq!(book.body["result"]["review_status"], "unreviewed");
    assert_eq!(book.body["result"]["applicability_status"], "unknown");
    let guide = server
        .call(
            "POST",
            "guides",
            Some(&expert),
            Some(json!({"urn": "draft-guide", "title": "Draft guide", "description": "D", "url": "https://example.org",
                        "license": "CC0", "content": "C", "status": "draft"})),
        )
        .await;
    assert_eq!(guide.status, 201, "{}", guide.body);
    let rule = server
        .call(
            "POST",
            "guidelines",
            Some(&expert),
            Some(json!({"guide_urn": "urn:guide:draft-guide", "rule_text": "Draft rule"})),
        )
        .await;
    assert_eq!(rule.status, 201, "{}", rule.body);
    let rule_id = rule.body["result"]["id"].as_str().unwrap().to_string();

    for path in [
        "textbooks/internal-book",
        "guides/draft-guide",
        &format!("guidelines/{rule_id}"),
    ] {
        assert_eq!(
            server.call("GET", path, Some(&expert), None).await.status,
            200,
            "{path}"
        );
        let hidden = server.call("GET", path, Some(&owner), None).await;
        assert_error(&hidden, 404, "resource/not_found");
    }
    let listed = server
        .call("GET", "textbooks?limit=1000", Some(&owner), None)
        .await;
    assert!(!listed.body["result"]
        .as_array()
        .unwrap()
        .contains(&json!("urn:textbook:internal-book")));
    let by_guide = server
        .call(
            "GET",
            "guidelines/by-guide/urn:guide:draft-guide?limit=1000",
            Some(&owner),
            None,
        )
        .await;
    assert_error(&by_guide, 404, "resource/not_found");
    let found = server
        .call(
            "POST",
            "guidelines/search",
            Some(&owner),
            Some(json!({"q": "draft"})),
        )
        .await;
    assert_eq!(found.body["result"]["total"], 0);
    // Articles and tables are readable by every signed-in caller (production.md §1.7).
    let article = server
        .call("GET", "articles/vitamin-d-bone-health", Some(&owner), None)
        .await;
    assert_eq!(article.status, 200);
    server.stop().await;
}

#[tokio::test]
async fn every_key_outside_an_allow_list_is_refused_key_by_key() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let fixtures = server.fixtures(&admin).await;
    let mut cells = 0;
    for collection in COLLECTIONS.iter() {
        let path = collection.path;
        let created = server
            .call(
                "POST",
                path,
                Some(&admin),
                Some(create_body(
                    collection,
                    &format!("keys-{}", path.replace('-', "")),
                    &fixtures,
                )),
            )
            .await;
        assert_eq!(created.status, 201, "{path}: {}", created.body);
        let record = &created.body["result"];
        let identifier = record["urn"]
            .as_str()
            .filter(|_| collection.has_urn())
            .or(record["id"].as_str())
            .unwrap()
            .to_string();
        // Every known field no update takes, one at a time: each is a 422 naming that key.
        for field in collection
            .fields()
            .into_iter()
            .filter(|f| !collection.is_updatable(f.name))
        {
            let mut body = update_body(collection);
            body[field.name] = record.get(field.name).cloned().unwrap_or(json!("x"));
            let answer = server
                .call(
                    "PATCH",
                    &format!("{path}/{identifier}"),
                    Some(&admin),
                    Some(body),
                )
                .await;
            assert_error(&answer, 422, "request/unprocessable");
            let problem = &answer.body["error"]["errors"][0];
            assert_eq!(
                (&problem["type"], &problem["loc"], &problem["msg"]),
                (
                    &json!("extra_forbidden"),
                    &json!(["body", field.name]),
                    &json!("Extra inputs are not permitted")
                ),
                "{path}.{}",
                field.name
            );
            cells += 1;
        }
        // And every field of the create schema a create refuses when it is not in it.
        for field in collection
            .fields()
            .into_iter()
            .filter(|f| !collection.is_creatable(f.name))
        {
            let mut body = create_body(collection, "never", &fixtures);
            body[field.name] = json!("x");
            let answer = server.call("POST", path, Some(&admin), Some(body)).await;
            assert_error(&answer, 422, "request/unprocessable");
            let locs: Vec<Value> = answer.body["error"]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["loc"].clone())
                .collect();
            assert!(
                locs.contains(&json!(["body", field.name])),
                "{path}.{}: {locs:?}",
                field.name
            );
            cells += 1;
        }
    }
    assert!(cells > 60, "{cells}");
    server.stop().await;
}

/// GET answers from a cache of presented records; every write must show in the next read.
#[tokio::test]
async fn a_read_after_a_write_shows_it() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let noah = server.login("noah", "noah-demo").await;
    let article = "articles/vitamin-d-bone-health";
    for token in [&admin, &noah] {
        let read = server.call("GET", article, Some(token), None).await;
        assert_eq!(read.status, 200, "{}", read.body);
    }
    let patched = server
        .call(
            "PATCH",
            article,
            Some(&admin),
            Some(json!({"title": "Changed"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    for token in [&admin, &noah] {
        let read = server.call("GET", article, Some(token), None).await;
        assert_eq!(read.body["result"]["title"], "Changed");
    }

    let deleted = server.call("DELETE", article, Some(&admin), None).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    for token in [&admin, &noah] {
        let read = server.call("GET", article, Some(token), None).await;
        assert_error(&read, 404, "resource/not_found");
    }

    // A write to another record (an artifact) shows in its parent's embedded list.
    let guide = "guides/eat-well-2024";
    let before = server.call("GET", guide, Some(&admin), None).await;
    let count = before.body["result"]["artifacts"].as_array().unwrap().len();
    let created = server
        .call(
            "POST",
            "artifacts",
            Some(&admin),
            Some(json!({"parent_urn": "urn:guide:eat-well-2024", "title": "Link", "file_url": "https://example.org/x.pdf", "file_type": "application/pdf", "file_size": 5})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let after = server.call("GET", guide, Some(&admin), None).await;
    assert_eq!(
        after.body["result"]["artifacts"].as_array().unwrap().len(),
        count + 1
    );
    server.stop().await;
}
