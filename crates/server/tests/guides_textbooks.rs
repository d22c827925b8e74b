//! Guidelines of a guide and passages of a textbook as production has them: ordering and
//! numbering, the guide workflow's 409s, imports, and the bulk replacement with its structure
//! placement.

mod common;

use common::records::{OPEN_GUIDE, PUBLISHED_GUIDE};
use common::{assert_error, TestServer};
use serde_json::{json, Value};

fn numbers(answer: &common::Answer) -> Vec<i64> {
    answer.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["sequence_no"].as_i64().unwrap())
        .collect()
}

/// The demo server and a curator's token.
async fn curator() -> (TestServer, String) {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    (server, expert)
}

/// Creates an active, verified guideline under the open guide; answers the creation.
async fn create_rule(server: &TestServer, expert: &str) -> common::Answer {
    server
        .call("POST", "guidelines", Some(expert), Some(json!({"guide_urn": OPEN_GUIDE, "rule_text": "Limit juice to one small glass a day.", "status": "active", "review_status": "verified"})))
        .await
}

/// The id of a new guideline under the open guide.
async fn new_rule(server: &TestServer, expert: &str) -> String {
    let created = create_rule(server, expert).await;
    assert_eq!(created.status, 201, "{}", created.body);
    created.body["result"]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn guidelines_by_guide_are_ordered_and_paged() {
    let (server, expert) = curator().await;
    let listed = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{PUBLISHED_GUIDE}?limit=5&offset=2"),
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(numbers(&listed), [3, 4, 5, 6, 7]);
    assert!(listed.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["guide_urn"] == PUBLISHED_GUIDE && g["guide_region"] == "GB"));
    server.stop().await;
}

#[tokio::test]
async fn guidelines_by_guide_take_the_full_urn_only() {
    let (server, expert) = curator().await;
    let by_slug = server
        .call(
            "GET",
            "guidelines/by-guide/eat-well-2024",
            Some(&expert),
            None,
        )
        .await;
    assert_error(&by_slug, 404, "resource/not_found");
    server.stop().await;
}

#[tokio::test]
async fn guidelines_by_guide_refuse_an_oversized_page() {
    let (server, expert) = curator().await;
    let bad_page = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{PUBLISHED_GUIDE}?limit=5000"),
            Some(&expert),
            None,
        )
        .await;
    assert_error(&bad_page, 422, "request/unprocessable");
    server.stop().await;
}

#[tokio::test]
async fn a_guideline_create_refuses_a_slug_and_an_unknown_region() {
    let (server, expert) = curator().await;
    let refused = server
        .call("POST", "guidelines", Some(&expert), Some(json!({"guide_urn": "healthy-plates-children", "rule_text": "Eat slowly.", "guide_region": "XX"})))
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    let locs: Vec<Value> = refused.body["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["loc"].clone())
        .collect();
    assert!(locs.contains(&json!(["body", "guide_urn"])), "{locs:?}");
    assert!(locs.contains(&json!(["body", "guide_region"])), "{locs:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_draft_guideline_under_an_active_guide_is_a_conflict() {
    let (server, expert) = curator().await;
    let draft_under_active = server
        .call(
            "POST",
            "guidelines",
            Some(&expert),
            Some(json!({"guide_urn": OPEN_GUIDE, "rule_text": "Eat slowly."})),
        )
        .await;
    assert_error(&draft_under_active, 409, "resource/conflict");
    server.stop().await;
}

#[tokio::test]
async fn a_created_guideline_gets_productions_defaults() {
    // The full guide URN, production's defaults (title from the rule, action from its verb, the
    // next sequence number).
    let (server, expert) = curator().await;
    let created = create_rule(&server, &expert).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let rule = &created.body["result"];
    assert_eq!(rule["sequence_no"], 12);
    assert_eq!(rule["guide_region"], "IE");
    assert_eq!(rule["title"], "Limit juice to one small glass a day.");
    assert_eq!(rule["action_type"], "limit");
    server.stop().await;
}

#[tokio::test]
async fn a_taken_sequence_number_is_a_conflict_on_create() {
    let (server, expert) = curator().await;
    new_rule(&server, &expert).await;
    let taken = server
        .call("POST", "guidelines", Some(&expert), Some(json!({"guide_urn": OPEN_GUIDE, "rule_text": "Again.", "sequence_no": 12, "status": "active", "review_status": "verified"})))
        .await;
    assert_error(&taken, 409, "resource/conflict");
    server.stop().await;
}

#[tokio::test]
async fn a_guideline_update_takes_the_allow_list_only() {
    let (server, expert) = curator().await;
    let id = new_rule(&server, &expert).await;
    let moved = server
        .call(
            "PATCH",
            &format!("guidelines/{id}"),
            Some(&expert),
            Some(json!({"guide_urn": PUBLISHED_GUIDE, "sequence_no": 0})),
        )
        .await;
    assert_error(&moved, 422, "request/unprocessable");
    assert_eq!(moved.body["error"]["errors"].as_array().unwrap().len(), 2);
    server.stop().await;
}

#[tokio::test]
async fn a_guideline_renumbers_only_to_a_free_number() {
    let (server, expert) = curator().await;
    let id = new_rule(&server, &expert).await;
    let clash = server
        .call(
            "PATCH",
            &format!("guidelines/{id}"),
            Some(&expert),
            Some(json!({"sequence_no": 1})),
        )
        .await;
    assert_error(&clash, 409, "resource/conflict");
    let renumbered = server
        .call(
            "PATCH",
            &format!("guidelines/{id}"),
            Some(&expert),
            Some(json!({"sequence_no": 50})),
        )
        .await;
    assert_eq!(renumbered.status, 200, "{}", renumbered.body);
    server.stop().await;
}

#[tokio::test]
async fn a_guideline_reads_by_uuid_only() {
    let (server, expert) = curator().await;
    let by_uuid_only = server
        .call("GET", "guidelines/not-a-uuid", Some(&expert), None)
        .await;
    assert_error(&by_uuid_only, 422, "request/unprocessable");
    server.stop().await;
}

#[tokio::test]
async fn a_published_guide_and_its_guidelines_cannot_change() {
    let (server, expert) = curator().await;
    let published = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{PUBLISHED_GUIDE}?limit=1"),
            Some(&expert),
            None,
        )
        .await;
    let frozen = published.body["result"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (method, path, body) in [
        (
            "PATCH",
            format!("guides/{PUBLISHED_GUIDE}"),
            Some(json!({"title": "New"})),
        ),
        (
            "PATCH",
            format!("guides/{PUBLISHED_GUIDE}"),
            Some(json!({"visibility": "internal"})),
        ),
        (
            "PATCH",
            format!("guidelines/{frozen}"),
            Some(json!({"rule_text": "Changed."})),
        ),
        ("DELETE", format!("guidelines/{frozen}"), None),
    ] {
        let answer = server.call(method, &path, Some(&expert), body).await;
        assert_error(&answer, 409, "resource/conflict");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_guide_workflow_answers_409_as_production() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let base = json!({"urn": "workflow", "title": "Workflow", "description": "D", "url": "https://example.org",
                      "license": "CC0", "content": "C"});
    let defaults = server
        .call("POST", "guides", Some(&expert), Some(base.clone()))
        .await;
    assert_error(&defaults, 409, "resource/conflict");
    let mut draft = base.clone();
    draft["status"] = json!("draft");
    let created = server
        .call("POST", "guides", Some(&expert), Some(draft))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let unverified = server
        .call(
            "PATCH",
            "guides/workflow",
            Some(&expert),
            Some(json!({"status": "active"})),
        )
        .await;
    assert_error(&unverified, 409, "resource/conflict");
    let imported = server
        .call(
            "POST",
            "guidelines/by-guide/urn:guide:workflow/import",
            Some(&expert),
            Some(json!({"guidelines": [{"rule_text": "One"}, {"rule_text": "Two", "sequence_no": 40}, {"rule_text": "Three"}]})),
        )
        .await;
    assert_eq!(imported.status, 200, "{}", imported.body);
    assert_eq!(
        imported.body["result"],
        json!({"guide_urn": "urn:guide:workflow", "imported_count": 3})
    );
    let listed = server
        .call(
            "GET",
            "guidelines/by-guide/urn:guide:workflow",
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(numbers(&listed), [1, 2, 40]);
    // Draft guidelines keep the guide from going active.
    let blocked = server
        .call(
            "PATCH",
            "guides/workflow",
            Some(&expert),
            Some(json!({"status": "active", "review_status": "verified"})),
        )
        .await;
    assert_error(&blocked, 409, "resource/conflict");
    // The editorial rule: public needs verified (production answers 500; this service 422).
    let public = server
        .call(
            "PATCH",
            "guides/workflow",
            Some(&expert),
            Some(json!({"visibility": "public"})),
        )
        .await;
    assert_error(&public, 422, "request/unprocessable");
    let missing = server
        .call(
            "POST",
            "guides",
            Some(&expert),
            Some(json!({"urn": "bare", "title": "Bare", "status": "draft"})),
        )
        .await;
    assert_error(&missing, 422, "request/unprocessable");
    let missing_fields: Vec<&str> = missing.body["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["loc"][1].as_str().unwrap())
        .collect();
    assert_eq!(missing_fields, ["description", "url", "license", "content"]);
    server.stop().await;
}

#[tokio::test]
async fn imports_take_production_items_only() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let path = format!("guidelines/by-guide/{OPEN_GUIDE}/import");
    let ready =
        |text: &str| json!({"rule_text": text, "status": "active", "review_status": "verified"});
    let bad = [
        json!([ready("a bare list")]),
        json!({"guidelines": [ready("ok"), {"rule_text": 5, "status": "active", "review_status": "verified"}]}),
        json!({"guidelines": [{"rule_text": "x", "guide_urn": OPEN_GUIDE, "status": "active", "review_status": "verified"}]}),
        json!({"guidelines": [ready("a"), {"rule_text": "b", "sequence_no": 3, "status": "active", "review_status": "verified"}, {"rule_text": "c", "sequence_no": 3, "status": "active", "review_status": "verified"}]}),
        json!({"guidelines": []}),
        json!({"guidelines": (0..1001).map(|n| ready(&format!("r{n}"))).collect::<Vec<_>>()}),
        json!({"guidelines": [ready("ok")], "extra": true}),
    ];
    for body in bad {
        let answer = server
            .call("POST", &path, Some(&expert), Some(body.clone()))
            .await;
        assert_error(&answer, 422, "request/unprocessable");
    }
    let drafts = server
        .call(
            "POST",
            &path,
            Some(&expert),
            Some(json!({"guidelines": [{"rule_text": "draft"}]})),
        )
        .await;
    assert_error(&drafts, 409, "resource/conflict");
    let count = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{OPEN_GUIDE}"),
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(
        count.body["result"].as_array().unwrap().len(),
        11,
        "a refused import stores nothing"
    );
    server.stop().await;
}

/// One rule on both paths: a number the guide holds is a 409 for an import as for a create.
#[tokio::test]
async fn an_import_refuses_a_sequence_number_the_guide_holds() {
    let (server, expert) = curator().await;
    let path = format!("guidelines/by-guide/{OPEN_GUIDE}/import");
    let listed = format!("guidelines/by-guide/{OPEN_GUIDE}");
    let before = numbers(&server.call("GET", &listed, Some(&expert), None).await);
    let held = before[0];
    let item = |text: &str, sequence: Option<i64>| {
        let mut item = json!({"rule_text": text, "status": "active", "review_status": "verified"});
        if let Some(sequence) = sequence {
            item["sequence_no"] = json!(sequence);
        }
        item
    };
    let single = server
        .call("POST", "guidelines", Some(&expert), Some(json!({"guide_urn": OPEN_GUIDE,
            "rule_text": "One.", "sequence_no": held, "status": "active", "review_status": "verified"})))
        .await;
    assert_error(&single, 409, "resource/conflict");
    let clash = server
        .call(
            "POST",
            &path,
            Some(&expert),
            Some(json!({"guidelines": [item("fresh", Some(900)), item("clash", Some(held))]})),
        )
        .await;
    assert_error(&clash, 409, "resource/conflict");
    assert!(
        clash.body["error"]["detail"]
            .as_str()
            .unwrap()
            .contains(&held.to_string()),
        "{}",
        clash.body
    );
    let after = numbers(&server.call("GET", &listed, Some(&expert), None).await);
    assert_eq!(after, before, "a refused import stores nothing");
    let fine = server
        .call(
            "POST",
            &path,
            Some(&expert),
            Some(json!({"guidelines": [item("fresh", Some(900)), item("next", None)]})),
        )
        .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
    let last = numbers(&server.call("GET", &listed, Some(&expert), None).await);
    assert!(
        last.contains(&900) && last.len() == before.len() + 2,
        "{last:?}"
    );
    server.stop().await;
}

/// Eight MiB of tiny objects would be a million maps in memory: refused while parsing (413),
/// before they are built; a real import of the same size still passes.
#[tokio::test]
async fn an_import_of_many_tiny_values_is_refused_before_it_is_built() {
    let (server, expert) = curator().await;
    let path = format!("guidelines/by-guide/{OPEN_GUIDE}/import");
    let mut body = String::from("{\"guidelines\":[");
    while body.len() < (8 << 20) - 64 {
        body.push_str("{\"\":0},");
    }
    body.push_str("{}]}");
    let headers = [
        ("authorization", format!("Bearer {expert}")),
        ("content-type", "application/json".to_string()),
    ];
    let (status, _, answer) = server
        .oneshot("POST", &path, &headers, body.into_bytes())
        .await;
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(status, 413, "{answer}");
    assert_eq!(answer["error"]["code"], "request/too_large");
    // 1,000 guidelines of about 7 KB of text each: near the body limit, and accepted.
    let text = "Eat a variety of vegetables every day. ".repeat(190);
    let items: Vec<Value> = (0..1000)
        .map(|n| json!({"rule_text": format!("{n} {text}"), "status": "active", "review_status": "verified"}))
        .collect();
    let real = serde_json::to_vec(&json!({ "guidelines": items })).unwrap();
    assert!(real.len() > 7 << 20, "{}", real.len());
    let (status, _, answer) = server.oneshot("POST", &path, &headers, real).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    server.stop().await;
}

#[path = "guides_textbooks/passages.rs"]
mod passages;
