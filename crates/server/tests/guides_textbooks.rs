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

#[tokio::test]
async fn passages_are_replaced_and_placed_in_the_structure() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let created = server
        .call(
            "POST",
            "textbooks",
            Some(&expert),
            Some(json!({"urn": "small-book", "title": "Small book", "page_count": 6})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let book = "urn:textbook:small-book";
    let replace = format!("textbook-passages/by-textbook/{book}/replace");
    let listed = format!("textbook-passages/by-textbook/{book}");
    let upload = server
        .upload(Some(&expert), book, "small.txt", b"pages".to_vec())
        .await;
    let artifact = upload.body["result"]["id"].as_str().unwrap().to_string();
    let second = server
        .upload(Some(&expert), book, "again.txt", b"x".to_vec())
        .await;
    assert_error(&second, 422, "request/unprocessable");
    let tree = json!({"roots": [
        {"id": "p1", "title": "Part One", "kind": "part", "page_start": 1, "page_end": 6, "children": [
            {"id": "c1", "title": "Chapter A", "kind": "chapter", "page_start": 1, "page_end": 3, "children": [
                {"id": "s1", "title": "Section A.1", "kind": "section", "page_start": 2, "page_end": 2, "children": []}
            ]},
            {"id": "c2", "title": "Chapter B", "kind": "chapter", "page_start": 4, "page_end": 6, "children": []}
        ]}
    ]});
    let replaced = server
        .call(
            "POST",
            &replace,
            Some(&expert),
            Some(json!({
                "artifact_id": artifact, "page_count": 6, "structure_tree": tree,
                "extractor_name": "test-extractor", "extractor_run_id": "run-1",
                "passages": [
                    {"page_no": 2, "text": "second page, first", "char_start": 0, "char_end": 18},
                    {"page_no": 2, "text": "second page, second", "char_start": 19, "char_end": 38},
                    {"page_no": 1, "text": "first page", "char_start": 0, "char_end": 10},
                    {"page_no": 5, "sequence_no": 7, "text": "fifth page", "char_start": 0, "char_end": 10},
                ]
            })),
        )
        .await;
    assert_eq!(replaced.status, 200, "{}", replaced.body);
    assert_eq!(
        replaced.body["result"],
        json!({"textbook_urn": book, "artifact_id": artifact, "replaced_count": 4, "page_count": 6, "structure_tree_updated": true})
    );
    let passages = server.call("GET", &listed, Some(&expert), None).await;
    let passages = passages.body["result"].as_array().unwrap().clone();
    let summary: Vec<(i64, i64, &str, Value)> = passages
        .iter()
        .map(|p| {
            (
                p["page_no"].as_i64().unwrap(),
                p["sequence_no"].as_i64().unwrap(),
                p["structure_node_id"].as_str().unwrap(),
                p["structure_path"].clone(),
            )
        })
        .collect();
    // A missing sequence number is the item's place in the list (production).
    assert_eq!(
        summary,
        [
            (1, 3, "c1", json!(["Part One", "Chapter A"])),
            (2, 1, "s1", json!(["Part One", "Chapter A", "Section A.1"])),
            (2, 2, "s1", json!(["Part One", "Chapter A", "Section A.1"])),
            (5, 7, "c2", json!(["Part One", "Chapter B"])),
        ]
    );
    assert!(passages
        .iter()
        .all(|p| p["extractor_name"] == "test-extractor" && p["artifact_id"] == artifact.as_str()));
    let textbook = server
        .call("GET", "textbooks/small-book", Some(&expert), None)
        .await;
    assert_eq!(textbook.body["result"]["structure_tree"], tree);

    let again = server
        .call(
            "POST",
            &replace,
            Some(&expert),
            Some(json!({"artifact_id": artifact, "passages": [{"page_no": 6, "text": "only", "char_start": 0, "char_end": 4}]})),
        )
        .await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["result"]["replaced_count"], 1);
    assert_eq!(again.body["result"]["structure_tree_updated"], false);
    let only = server.call("GET", &listed, Some(&expert), None).await;
    let only = only.body["result"][0].clone();
    let id = only["id"].as_str().unwrap();
    let refused = server
        .call(
            "PATCH",
            &format!("textbook-passages/{id}"),
            Some(&expert),
            Some(json!({"text": "edited", "structure_path": ["forged"]})),
        )
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    let patched = server
        .call(
            "PATCH",
            &format!("textbook-passages/{id}"),
            Some(&expert),
            Some(json!({"text": "edited", "page_no": 2})),
        )
        .await;
    assert_eq!(patched.body["result"]["text"], "edited");
    assert_eq!(
        patched.body["result"]["structure_path"],
        json!(["Part One", "Chapter A", "Section A.1"]),
        "the place follows the page"
    );

    let demo = server
        .call(
            "GET",
            "textbooks/foundations-of-nutrition-science",
            Some(&expert),
            None,
        )
        .await;
    let foreign = demo.body["result"]["artifacts"][0]["id"].clone();
    let passage = |extra: Value| {
        let mut p = json!({"page_no": 1, "text": "t", "char_start": 0, "char_end": 1});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        p
    };
    let bad = [
        json!({"artifact_id": foreign, "passages": []}),
        json!({"artifact_id": artifact, "passages": [passage(json!({"page_no": 7}))]}),
        json!({"artifact_id": artifact, "passages": [passage(json!({"page_no": 0}))]}),
        json!({"artifact_id": artifact, "passages": [{"page_no": 1, "text": "no offsets"}]}),
        json!({"artifact_id": artifact, "passages": [passage(json!({"structure_node_id": "c1"}))]}),
        json!({"artifact_id": artifact, "passages": [passage(json!({"char_start": 5, "char_end": 1}))]}),
        json!({"artifact_id": artifact, "structure_tree": {"roots": [{"id": "x", "title": "X", "kind": "part", "page_start": 3, "page_end": 1}]}}),
        json!({"artifact_id": artifact, "structure_tree": {"roots": [{"id": "x", "title": "X", "page_start": 1, "colour": "red"}]}}),
        json!({"artifact_id": artifact, "page_count": "six"}),
        json!({"passages": []}),
        json!([passage(json!({}))]),
        json!({"artifact_id": 5}),
    ];
    for body in bad {
        let answer = server
            .call("POST", &replace, Some(&expert), Some(body.clone()))
            .await;
        assert_error(&answer, 422, "request/unprocessable");
        assert!(answer.body["error"]["errors"].is_array(), "{body}");
    }
    let still = server.call("GET", &listed, Some(&expert), None).await;
    assert_eq!(
        still.body["result"].as_array().unwrap().len(),
        1,
        "refused replaces change nothing (production would have deleted them first)"
    );
    let owner = server.login("olivia", "olivia-demo").await;
    let forbidden = server
        .call(
            "POST",
            &replace,
            Some(&owner),
            Some(json!({"artifact_id": artifact})),
        )
        .await;
    assert_error(&forbidden, 403, "auth/forbidden");
    let hidden = server.call("GET", &listed, Some(&owner), None).await;
    assert_error(&hidden, 404, "resource/not_found");
    let public = server
        .call(
            "GET",
            "textbook-passages/by-textbook/urn:textbook:foundations-of-nutrition-science?limit=4&offset=2",
            Some(&owner),
            None,
        )
        .await;
    let pages: Vec<i64> = public.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["page_no"].as_i64().unwrap())
        .collect();
    assert_eq!(pages, [2, 2, 3, 3]);
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
