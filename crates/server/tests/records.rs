//! The data collections over real HTTP: create, read, PATCH, PUT, delete for all seven;
//! validation; visibility.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

const GUIDE: &str = "urn:guide:eat-well-2024";
const TEXTBOOK: &str = "urn:textbook:foundations-of-nutrition-science";

/// A valid create body per collection, with a slug where the collection has URNs.
fn create_body(path: &str, slug: &str) -> Value {
    match path {
        "guidelines" => {
            json!({"guide_urn": GUIDE, "rule_text": format!("Rule {slug}"), "status": "active"})
        }
        "textbook-passages" => {
            json!({"textbook_urn": TEXTBOOK, "text": format!("Passage {slug}"), "page_no": 5})
        }
        "artifacts" => {
            json!({"parent_urn": GUIDE, "title": format!("File {slug}"), "file_type": "application/pdf", "file_url": "https://example.org/a.pdf", "file_size": 10})
        }
        "textbooks" => {
            json!({"urn": slug, "title": format!("Book {slug}"), "status": "active", "review_status": "verified", "visibility": "public"})
        }
        _ => json!({"urn": slug, "title": format!("Title {slug}"), "x_unknown": {"kept": [1, 2]}}),
    }
}

fn change_field(path: &str) -> &'static str {
    match path {
        "guidelines" => "rule_text",
        "textbook-passages" => "text",
        _ => "title",
    }
}

#[tokio::test]
async fn every_collection_round_trips() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    for collection in larder_contract::COLLECTIONS {
        let path = collection.path;
        let created = server
            .call(
                "POST",
                path,
                Some(&admin),
                Some(create_body(path, "round-trip")),
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

        // PATCH changes the field, ignores immutables, keeps the rest.
        let field = change_field(path);
        let mut patch =
            json!({ field: "Changed", "id": "forged", "created_at": "1999", "creator": "mallory" });
        if path == "artifacts" {
            patch["file_type"] = json!("text/plain");
        }
        let patched = server
            .call("PATCH", &format!("{path}/{id}"), Some(&admin), Some(patch))
            .await;
        assert_eq!(patched.status, 200, "{path}: {}", patched.body);
        let patched = &patched.body["result"];
        assert_eq!(patched[field], "Changed");
        assert_eq!(patched["id"], id.as_str());
        assert_eq!(patched["creator"], "admin");
        assert_eq!(patched["created_at"], record["created_at"]);
        if path == "articles" || path == "guides" || path == "fctables" {
            assert_eq!(patched["x_unknown"], json!({"kept": [1, 2]}), "{path}");
        }

        // PUT replaces the mutable fields and keeps the immutable ones.
        let mut put = json!({ field: "Replaced", "id": "forged" });
        match path {
            "artifacts" => put["file_type"] = json!("text/plain"),
            "guidelines" | "textbook-passages" => {}
            _ => put["title"] = json!("Replaced"),
        }
        let replaced = server
            .call("PUT", &format!("{path}/{id}"), Some(&admin), Some(put))
            .await;
        assert_eq!(replaced.status, 200, "{path}: {}", replaced.body);
        let replaced = &replaced.body["result"];
        assert_eq!(replaced[field], "Replaced");
        assert_eq!(replaced["id"], id.as_str());
        assert_eq!(replaced["urn"], record["urn"]);
        assert!(
            replaced.get("x_unknown").is_none(),
            "{path}: PUT drops what it is not sent"
        );

        let deleted = server
            .call("DELETE", &format!("{path}/{id}"), Some(&admin), None)
            .await;
        assert_eq!(deleted.status, 200, "{path}");
        let gone = server
            .call("GET", &format!("{path}/{id}"), Some(&admin), None)
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
async fn bad_input_is_answered_in_the_envelope() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let wrong_types = server
        .call(
            "POST",
            "articles",
            Some(&admin),
            Some(json!({"title": "T", "citation_count": "many", "open_access": "yes", "status": "gone", "keywords": [1]})),
        )
        .await;
    assert_error(&wrong_types, 422, "request/unprocessable");
    let fields: Vec<&str> = wrong_types.body["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["loc"][1].as_str().unwrap())
        .collect();
    for field in ["citation_count", "open_access", "status", "keywords"] {
        assert!(fields.contains(&field), "{field} in {fields:?}");
    }
    let cases = [
        ("POST", "guides", json!({"urn": "no-title"}), 422),
        ("POST", "guides", json!([1, 2]), 422),
        (
            "POST",
            "guidelines",
            json!({"guide_urn": "urn:guide:nope", "rule_text": "x"}),
            422,
        ),
        (
            "POST",
            "guidelines",
            json!({"guide_urn": GUIDE, "rule_text": "x", "action_type": "juggle"}),
            422,
        ),
        (
            "POST",
            "textbooks",
            json!({"title": "Public draft", "visibility": "public", "status": "draft", "review_status": "verified"}),
            422,
        ),
        (
            "POST",
            "textbooks",
            json!({"title": "Bad tree", "structure_tree": {"roots": [{"id": "a", "title": "A", "kind": "volume"}]}}),
            422,
        ),
        (
            "POST",
            "artifacts",
            json!({"title": "Orphan", "parent_urn": "urn:guide:nope", "file_type": "x"}),
            422,
        ),
        (
            "POST",
            "textbook-passages",
            json!({"textbook_urn": TEXTBOOK, "text": "x", "page_no": 0}),
            422,
        ),
        (
            "POST",
            "fctables",
            json!({"title": "T", "completeness_percent": "high"}),
            422,
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"publication_year": 1.5}),
            422,
        ),
        (
            "PATCH",
            "articles/vitamin-d-bone-health",
            json!({"title": null}),
            422,
        ),
        (
            "POST",
            "articles",
            json!({"urn": "urn:article:UPPER", "title": "x"}),
            422,
        ),
        ("POST", "articles", json!({"urn": 7, "title": "x"}), 422),
    ];
    for (method, path, body, status) in cases {
        let answer = server
            .call(method, path, Some(&admin), Some(body.clone()))
            .await;
        assert_error(&answer, status, "request/unprocessable");
        assert!(answer.body["error"]["errors"].is_array(), "{path} {body}");
    }
    let artifact = server
        .call(
            "GET",
            "artifacts?parent_urn=urn:guide:eat-well-2024",
            Some(&admin),
            None,
        )
        .await;
    let artifact_id = artifact.body["result"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let no_type = server
        .call(
            "PATCH",
            &format!("artifacts/{artifact_id}"),
            Some(&admin),
            Some(json!({"title": "x"})),
        )
        .await;
    assert_error(&no_type, 422, "request/unprocessable");

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
        assert_eq!(response.status().as_u16(), 400, "{body:?}");
    }
    let no_json_type = server
        .http
        .post(format!("{}/articles", server.base))
        .bearer_auth(&admin)
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(no_json_type.status().as_u16(), 400);
    let oversize = server
        .http
        .post(format!("{}/articles", server.base))
        .bearer_auth(&admin)
        .header("content-type", "application/json")
        .body(format!("{{\"title\": \"{}\"}}", "x".repeat(17 << 20)))
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
async fn hidden_records_read_as_not_found_for_non_curators() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let owner = server.login("olivia", "olivia-demo").await;
    let draft = server
        .call(
            "POST",
            "articles",
            Some(&expert),
            Some(json!({"urn": "secret-draft", "title": "Secret draft", "status": "draft"})),
        )
        .await;
    assert_eq!(draft.status, 201);
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
    let rule = server
        .call(
            "POST",
            "guidelines",
            Some(&expert),
            Some(json!({"guide_urn": GUIDE, "rule_text": "Draft rule"})),
        )
        .await;
    let rule_id = rule.body["result"]["id"].as_str().unwrap().to_string();

    for path in [
        "articles/secret-draft",
        "textbooks/internal-book",
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
        .call("GET", "articles?limit=1000", Some(&owner), None)
        .await;
    assert!(!listed.body["result"]
        .as_array()
        .unwrap()
        .contains(&json!("urn:article:secret-draft")));
    let listed = server
        .call("GET", "articles?limit=1000", Some(&expert), None)
        .await;
    assert!(listed.body["result"]
        .as_array()
        .unwrap()
        .contains(&json!("urn:article:secret-draft")));
    let by_guide = server
        .call(
            "GET",
            "guidelines/by-guide/eat-well-2024?limit=1000",
            Some(&owner),
            None,
        )
        .await;
    assert!(!by_guide.body.to_string().contains("Draft rule"));
    let guide = server
        .call("GET", "guides/eat-well-2024", Some(&owner), None)
        .await;
    assert!(!guide.body["result"]["guidelines"]
        .as_array()
        .unwrap()
        .contains(&json!(rule_id)));
    let found = server
        .call(
            "POST",
            "articles/search",
            Some(&owner),
            Some(json!({"q": "secret"})),
        )
        .await;
    assert_eq!(found.body["result"]["total"], 0);
    server.stop().await;
}
