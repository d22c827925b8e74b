//! What production refuses, refused in its shape: create schemas, update allow-lists key by
//! key, capped problem lists and bounded bodies.

mod common;

use common::records::{create_body, update_body, PUBLISHED_GUIDE, TEXTBOOK};
use common::{assert_error, TestServer};
use larder_contract::COLLECTIONS;
use serde_json::{json, Value};

/// The demo server and an admin's token.
async fn admin() -> (TestServer, String) {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    (server, admin)
}

/// A raw POST to `articles` as `token`, through the in-process router.
async fn post_raw(server: &TestServer, token: &str, body: Vec<u8>) -> (u16, Value) {
    let headers = [
        ("authorization", format!("Bearer {token}")),
        ("content-type", "application/json".to_string()),
    ];
    let (status, _, bytes) = server.oneshot("POST", "articles", &headers, body).await;
    (
        status,
        serde_json::from_slice(&bytes).expect("a JSON answer"),
    )
}

#[tokio::test]
async fn each_wrong_field_is_named_in_the_validation_envelope() {
    let (server, admin) = admin().await;
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
    server.stop().await;
}

#[tokio::test]
async fn bodies_outside_productions_schemas_are_unprocessable() {
    let (server, admin) = admin().await;
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
    server.stop().await;
}

#[tokio::test]
async fn a_null_in_an_update_leaves_the_field_as_it_is() {
    let (server, admin) = admin().await;
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
    server.stop().await;
}

#[tokio::test]
async fn an_artifact_of_a_missing_parent_is_not_found() {
    let (server, admin) = admin().await;
    let orphan = server
        .call("POST", "artifacts", Some(&admin), Some(json!({"title": "Orphan", "parent_urn": "urn:guide:nope", "file_type": "pdf", "file_url": "https://example.org/x.pdf", "file_size": 1})))
        .await;
    assert_error(&orphan, 404, "resource/not_found");
    server.stop().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_json_invalid() {
    let (server, admin) = admin().await;
    for body in ["{\"title\": ", "[}", "\u{0}"] {
        let (status, answer) = post_raw(&server, &admin, body.as_bytes().to_vec()).await;
        assert_eq!(status, 422, "{body:?}");
        assert_eq!(answer["error"]["errors"][0]["type"], "json_invalid");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_oversized_body_is_too_large() {
    let (server, admin) = admin().await;
    let body = format!("{{\"title\": \"{}\"}}", "x".repeat(3 << 20));
    let (status, answer) = post_raw(&server, &admin, body.into_bytes()).await;
    assert_eq!(status, 413);
    assert_eq!(answer["success"], false);
    server.stop().await;
}

#[tokio::test]
async fn unknown_routes_and_methods_are_refused_in_the_envelope() {
    let (server, admin) = admin().await;
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

#[tokio::test]
async fn a_record_cannot_be_grown_past_its_byte_limit_field_by_field() {
    use larder_contract::limits::MAX_RECORD_BYTES;
    let (server, admin) = admin().await;
    let path = "articles/iodine-salt";
    let blob = "w".repeat(1_900_000);
    // Each body keeps under the 2 MiB body limit; together they would pass the record's limit.
    let steps = [
        json!({"content": blob}),
        json!({"authors": vec!["a".repeat(1_900); 1000]}),
        json!({"extras": {"blob": blob}}),
    ];
    let mut refused = None;
    for (step, body) in steps.iter().enumerate() {
        let answer = server
            .call("PATCH", path, Some(&admin), Some(body.clone()))
            .await;
        if answer.status != 200 {
            refused = Some((step, answer));
            break;
        }
    }
    let (step, answer) = refused.expect("the record is refused before it passes its limit");
    assert_eq!(step, 2);
    assert_error(&answer, 413, "request/too_large");
    let record = server.call("GET", path, Some(&admin), None).await;
    assert_eq!(record.status, 200);
    let stored = record.body["result"].to_string().len();
    assert!(stored <= MAX_RECORD_BYTES, "{stored}");
    assert!(record.body["result"]
        .get("extras")
        .is_none_or(|e| e.get("blob").is_none()));
    server.stop().await;
}

/// Any JSON body is parsed within a memory budget, not only the bulk routes': 2 MiB of tiny
/// objects would be about 190 MiB of maps, and is refused (413) while it is parsed.
#[tokio::test]
async fn two_mib_of_tiny_objects_are_refused_while_parsed() {
    let (server, admin) = admin().await;
    let mut body = String::from("[");
    while body.len() < (2 << 20) - 64 {
        body.push_str("{\"\":0},");
    }
    body.push_str("{}]");
    let (status, answer) = post_raw(&server, &admin, body.into_bytes()).await;
    assert_eq!(status, 413, "{answer}");
    assert_eq!(answer["error"]["code"], "request/too_large");
    // An ordinary body still passes, and a type mismatch still names its field.
    let search = server
        .call(
            "POST",
            "articles/search",
            Some(&admin),
            Some(json!({"q": "sodium", "limit": "ten"})),
        )
        .await;
    assert_eq!(search.status, 422, "{}", search.body);
    assert!(search.body.to_string().contains("limit"), "{}", search.body);
    server.stop().await;
}

/// The parser's depth leaves room for the deepest real body: a structure tree of the contract's
/// 32 levels is accepted, a 33rd level is the contract's 422, and only far past it a 413.
#[tokio::test]
async fn a_deep_structure_tree_meets_the_contract_before_the_parser() {
    let (server, admin) = admin().await;
    let tree = |levels: usize| {
        let mut node = json!({"id": format!("n{levels}"), "title": "Leaf", "page_start": 1});
        for level in (1..levels).rev() {
            node = json!({"id": format!("n{level}"), "title": "Part", "page_start": 1, "children": [node]});
        }
        json!({ "roots": [node] })
    };
    let path = "textbooks/urn:textbook:foundations-of-nutrition-science";
    let patch = |levels| {
        server.call(
            "PATCH",
            path,
            Some(&admin),
            Some(json!({ "structure_tree": tree(levels) })),
        )
    };
    let ok = patch(32).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let deeper = patch(33).await;
    assert_eq!(deeper.status, 422, "{}", deeper.body);
    let far = patch(60).await;
    assert_eq!(far.status, 413, "{}", far.body);
    server.stop().await;
}
