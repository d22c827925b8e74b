//! The data collections over the API, one behaviour a test: create, read, PATCH, PUT, delete for
//! all seven, against production's create schemas and update allow-lists; validation; visibility.

mod common;

use common::records::{create_body, update_body, Fixtures};
use common::{assert_error, TestServer};
use larder_contract::{Collection, COLLECTIONS};
use serde_json::{json, Value};

/// One record created in a collection: the collection, the created record, and the identifier
/// it is read by (its slug for a URN collection, else its UUID).
struct Created {
    collection: &'static Collection,
    record: Value,
    identifier: String,
}

impl Created {
    fn path(&self) -> String {
        format!("{}/{}", self.collection.path, self.identifier)
    }
    fn id(&self) -> &str {
        self.record["id"].as_str().unwrap()
    }
}

/// The demo server, an admin's token, the fixtures, and a `round-trip` record in every collection.
async fn one_of_each() -> (TestServer, String, Fixtures, Vec<Created>) {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let fixtures = server.fixtures(&admin).await;
    let mut created = Vec::new();
    for collection in COLLECTIONS.iter() {
        let path = collection.path;
        let answer = server
            .call(
                "POST",
                path,
                Some(&admin),
                Some(create_body(collection, "round-trip", &fixtures)),
            )
            .await;
        assert_eq!(answer.status, 201, "{path}: {}", answer.body);
        let record = answer.body["result"].clone();
        let identifier = match collection.urn_prefix() {
            Some(_) => "round-trip".to_string(),
            None => record["id"].as_str().unwrap().to_string(),
        };
        created.push(Created {
            collection,
            record,
            identifier,
        });
    }
    (server, admin, fixtures, created)
}

/// The field an update changes: `title`, or `text` where there is no title.
fn changed_field(collection: &Collection) -> &'static str {
    if collection.is_updatable("title") {
        "title"
    } else {
        "text"
    }
}

#[tokio::test]
async fn a_created_record_names_its_creator_urn_and_type() {
    let (server, _, _, created) = one_of_each().await;
    for one in &created {
        let (path, record) = (one.collection.path, &one.record);
        // Organizations record no creator (production.md §2.8).
        let creator = one.collection.field("creator").map(|_| json!("admin"));
        assert_eq!(record["creator"], creator.unwrap_or(Value::Null), "{path}");
        assert!(record["created_at"].is_string());
        if let Some(prefix) = one.collection.urn_prefix() {
            assert_eq!(record["urn"], format!("{prefix}round-trip"), "{path}");
        }
        if let Some(record_type) = one.collection.record_type {
            assert_eq!(record["type"], record_type, "{path}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_record_reads_by_its_identifier_and_a_urn_records_uuid_is_not_found() {
    let (server, admin, _, created) = one_of_each().await;
    for one in &created {
        let path = one.collection.path;
        if one.collection.urn_prefix().is_some() {
            // A URN collection's record is read by slug or URN; its UUID is a 404 (production).
            let by_uuid = server
                .call("GET", &format!("{path}/{}", one.id()), Some(&admin), None)
                .await;
            assert_error(&by_uuid, 404, "resource/not_found");
        }
        let got = server.call("GET", &one.path(), Some(&admin), None).await;
        assert_eq!(got.status, 200, "{path}");
        assert_eq!(got.body["result"]["id"], one.id());
    }
    server.stop().await;
}

#[tokio::test]
async fn a_patch_refuses_every_key_outside_the_allow_list() {
    // Even one it would ignore.
    let (server, admin, _, created) = one_of_each().await;
    for one in &created {
        let path = one.collection.path;
        for forged in ["id", "created_at", "creator", "urn", "x_unknown"] {
            let mut body = update_body(one.collection);
            body[forged] = json!("forged");
            let refused = server
                .call("PATCH", &one.path(), Some(&admin), Some(body))
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
    }
    server.stop().await;
}

#[tokio::test]
async fn a_patch_changes_the_allowed_fields_and_keeps_id_creator_and_creation() {
    let (server, admin, _, created) = one_of_each().await;
    for one in &created {
        let path = one.collection.path;
        let patched = server
            .call(
                "PATCH",
                &one.path(),
                Some(&admin),
                Some(update_body(one.collection)),
            )
            .await;
        assert_eq!(patched.status, 200, "{path}: {}", patched.body);
        let patched = &patched.body["result"];
        assert_eq!(patched[changed_field(one.collection)], "changed", "{path}");
        assert_eq!(patched["id"], one.id());
        assert_eq!(patched["creator"], one.record["creator"]);
        assert_eq!(patched["created_at"], one.record["created_at"]);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_put_replaces_the_updatable_fields_and_keeps_the_rest() {
    // PUT (only interface.md has it).
    let (server, admin, fixtures, created) = one_of_each().await;
    for one in &created {
        let path = one.collection.path;
        let field = changed_field(one.collection);
        let mut put = create_body(one.collection, "put", &fixtures);
        if let Some(fields) = put.as_object_mut() {
            fields.retain(|k, _| one.collection.is_updatable(k));
        }
        put[field] = json!("Replaced");
        let replaced = server
            .call("PUT", &one.path(), Some(&admin), Some(put))
            .await;
        assert_eq!(replaced.status, 200, "{path}: {}", replaced.body);
        let replaced = &replaced.body["result"];
        assert_eq!(replaced[field], "Replaced");
        assert_eq!(replaced["id"], one.id());
        assert_eq!(replaced["urn"], one.record["urn"]);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_deleted_record_reads_as_not_found() {
    let (server, admin, _, created) = one_of_each().await;
    for one in &created {
        let path = one.collection.path;
        let deleted = server.call("DELETE", &one.path(), Some(&admin), None).await;
        if !one.collection.routes.delete.by_reference() {
            // Organizations: no route deletes one (production.md §2.8).
            assert_error(&deleted, 405, "request/not_allowed");
            continue;
        }
        assert_eq!(deleted.status, 200, "{path}");
        let gone = server.call("GET", &one.path(), Some(&admin), None).await;
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
