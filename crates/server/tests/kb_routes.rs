//! Issue 39 on both wires: autocomplete, organizations and recipe collections, article write
//! fields, and the correlation headers (production.md §2.8, §2.9, §10.5, §10.7).

mod common;

use common::TestServer;
use serde_json::json;

const GUIDE: &str = "urn:guide:mediterranean-diet-guide";

async fn on(wire: &str) -> TestServer {
    TestServer::start(&["--demo", "--wire", wire]).await
}

#[tokio::test]
async fn autocomplete_differs_by_wire_as_production_does() {
    let reference = on("reference").await;
    let token = reference.login("curator", "curator-demo").await;
    let found = reference
        .call("GET", "guides/autocomplete?q=medit", Some(&token), None)
        .await;
    assert_eq!(found.status, 200, "{}", found.body);
    let items = found.body["result"].as_array().unwrap();
    assert!(items.iter().any(|i| i["urn"] == GUIDE), "{items:?}");
    let keys: Vec<&String> = items[0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    let guideline = reference
        .call("GET", "guidelines/autocomplete?q=olive", Some(&token), None)
        .await;
    assert_eq!(guideline.status, 200, "{}", guideline.body);
    let bad = reference
        .call("GET", "guides/autocomplete?q=a&limit=0", Some(&token), None)
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    reference.stop().await;

    let production = on("production").await;
    let token = production.login("curator", "curator-demo").await;
    let partial = production
        .call("GET", "guides/autocomplete?q=medit", Some(&token), None)
        .await;
    assert_eq!(
        partial.body["result"],
        json!([]),
        "whole words only: {}",
        partial.body
    );
    let whole = production
        .call(
            "GET",
            "guides/autocomplete?q=mediterranean",
            Some(&token),
            None,
        )
        .await;
    assert!(
        !whole.body["result"].as_array().unwrap().is_empty(),
        "{}",
        whole.body
    );
    let broken = production
        .call("GET", "guidelines/autocomplete?q=olive", Some(&token), None)
        .await;
    assert_eq!(broken.status, 500, "{}", broken.body);
    let none = production
        .call("GET", "organizations/autocomplete?q=x", Some(&token), None)
        .await;
    assert_eq!(none.status, 404, "{}", none.body);
    production.stop().await;
}

#[tokio::test]
async fn organizations_and_recipe_collections_and_article_write_fields() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let admin = server.login("admin", "admin-demo").await;
        let user = server.login("olivia", "olivia-demo").await;
        // Production's FastAPI answers a create with 200, the reference wire with 201.
        let created = if wire == "production" { 200 } else { 201 };
        let org = server
            .call(
                "POST",
                "organizations",
                Some(&user),
                Some(
                    json!({"urn": "test-org", "title": "Test Org", "description": "A test.",
                    "url": "https://example.org", "contact_email": "a@example.org"}),
                ),
            )
            .await;
        assert_eq!(
            org.status, created,
            "{wire}: any caller creates: {}",
            org.body
        );
        let gone = server
            .call(
                "DELETE",
                "organizations/urn:organization:test-org",
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(gone.status, 405, "{wire}");
        let rc = server
            .call(
                "POST",
                "rcollections",
                Some(&admin),
                Some(json!({"urn": "tests", "title": "Tests", "source_type": "podcast"})),
            )
            .await;
        assert_eq!(rc.status, 422, "{wire}: {}", rc.body);

        let article = server
            .call(
                "POST",
                "articles",
                Some(&admin),
                Some(json!({"urn": "written", "title": "Written", "venue": "Tests", "content": "Body.",
                    "region": "Attica", "language": "Greek", "reader_visibility": "expert_only",
                    "indexing_tier": "core"})),
            )
            .await;
        assert_eq!(article.status, created, "{wire}: {}", article.body);
        assert_eq!(article.body["result"]["reader_visibility"], "expert_only");
        let patched = server
            .call(
                "PATCH",
                "articles/urn:article:written",
                Some(&admin),
                Some(json!({"indexing_tier": "archive_only", "region": "GR"})),
            )
            .await;
        assert_eq!(patched.status, 200, "{wire}: {}", patched.body);
        assert_eq!(patched.body["result"]["indexing_tier"], "archive_only");
        let bad = server
            .call(
                "PATCH",
                "articles/urn:article:written",
                Some(&admin),
                Some(json!({"indexing_tier": "top"})),
            )
            .await;
        assert_eq!(bad.status, 422, "{wire}: {}", bad.body);
        server.stop().await;
    }
}

#[tokio::test]
async fn a_request_id_is_adopted_when_valid_and_minted_otherwise() {
    let server = on("reference").await;
    let (status, headers, _) = server
        .oneshot(
            "GET",
            "system/ping",
            &[("x-request-id", "support-42".into())],
            Vec::new(),
        )
        .await;
    assert!(status < 500);
    assert_eq!(headers["x-request-id"], "support-42");
    let (_, headers, _) = server
        .oneshot(
            "GET",
            "system/ping",
            &[("x-request-id", "no spaces!".into())],
            Vec::new(),
        )
        .await;
    let minted = headers["x-request-id"].to_str().unwrap();
    assert_eq!(minted.len(), 32, "{minted}");
    assert!(minted.bytes().all(|b| b.is_ascii_hexdigit()));
    server.stop().await;
}
