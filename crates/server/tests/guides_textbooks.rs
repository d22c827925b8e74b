//! Guidelines of a guide and passages of a textbook: ordering, numbering, imports, and the
//! bulk replacement with its structure placement.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn guidelines_by_guide_are_ordered_and_numbered() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let listed = server
        .call(
            "GET",
            "guidelines/by-guide/eat-well-2024?limit=5&offset=2",
            Some(&expert),
            None,
        )
        .await;
    let page = listed.body["result"].as_array().unwrap();
    assert_eq!(page.len(), 5);
    let numbers: Vec<i64> = page
        .iter()
        .map(|g| g["sequence_no"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, [3, 4, 5, 6, 7]);
    assert!(page
        .iter()
        .all(|g| g["guide_urn"] == "urn:guide:eat-well-2024" && g["guide_region"] == "GB"));

    let created = server
        .call("POST", "guidelines", Some(&expert), Some(json!({"guide_urn": "eat-well-2024", "rule_text": "Eat slowly.", "guide_region": "XX"})))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let rule = &created.body["result"];
    assert_eq!(rule["guide_urn"], "urn:guide:eat-well-2024");
    assert_eq!(rule["sequence_no"], 13);
    assert_eq!(rule["guide_region"], "GB");
    assert_eq!(rule["status"], "draft");
    assert_eq!(rule["review_status"], "unreviewed");
    let id = rule["id"].as_str().unwrap();
    let moved = server
        .call(
            "PATCH",
            &format!("guidelines/{id}"),
            Some(&expert),
            Some(json!({"guide_urn": "urn:guide:healthy-plates-children", "sequence_no": 0})),
        )
        .await;
    assert_eq!(moved.body["result"]["guide_urn"], "urn:guide:eat-well-2024");
    let first = server
        .call(
            "GET",
            "guidelines/by-guide/urn:guide:eat-well-2024?limit=1",
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(first.body["result"][0]["id"], id);

    let imported = server
        .call(
            "POST",
            "guidelines/by-guide/healthy-plates-children/import",
            Some(&expert),
            Some(json!({"guidelines": [{"rule_text": "One"}, {"rule_text": "Two", "sequence_no": 40}, {"rule_text": "Three"}]})),
        )
        .await;
    assert_eq!(imported.status, 200, "{}", imported.body);
    assert_eq!(imported.body["result"]["imported_count"], 3);
    let all = server
        .call(
            "GET",
            "guidelines/by-guide/healthy-plates-children?limit=100",
            Some(&expert),
            None,
        )
        .await;
    let tail: Vec<(String, i64)> = all.body["result"].as_array().unwrap()[11..]
        .iter()
        .map(|g| {
            (
                g["rule_text"].as_str().unwrap().to_string(),
                g["sequence_no"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected = [("One", 12), ("Two", 40), ("Three", 41)].map(|(t, n)| (t.to_string(), n));
    assert_eq!(tail, expected);

    let too_many: Vec<Value> = (0..1001)
        .map(|n| json!({"rule_text": format!("r{n}")}))
        .collect();
    let refused = server
        .call(
            "POST",
            "guidelines/by-guide/healthy-plates-children/import",
            Some(&expert),
            Some(json!({"guidelines": too_many})),
        )
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    let one_bad = server
        .call(
            "POST",
            "guidelines/by-guide/healthy-plates-children/import",
            Some(&expert),
            Some(json!([{"rule_text": "ok"}, {"rule_text": 5}])),
        )
        .await;
    assert_error(&one_bad, 422, "request/unprocessable");
    let count = server
        .call(
            "GET",
            "guidelines/by-guide/healthy-plates-children?limit=100",
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(
        count.body["result"].as_array().unwrap().len(),
        14,
        "a refused import stores nothing"
    );
    let missing = server
        .call("GET", "guidelines/by-guide/nope", Some(&expert), None)
        .await;
    assert_error(&missing, 404, "resource/not_found");
    let bad_page = server
        .call(
            "GET",
            "guidelines/by-guide/eat-well-2024?limit=5000",
            Some(&expert),
            None,
        )
        .await;
    assert_error(&bad_page, 422, "request/unprocessable");
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
    assert_eq!(created.status, 201);
    let upload = server
        .upload(
            Some(&expert),
            "urn:textbook:small-book",
            "small.txt",
            b"pages".to_vec(),
        )
        .await;
    let artifact = upload.body["result"]["id"].as_str().unwrap().to_string();
    let tree = json!({"roots": [
        {"id": "p1", "title": "Part One", "kind": "part", "page_start": 1, "page_end": 6, "children": [
            {"id": "c1", "title": "Chapter A", "kind": "chapter", "page_start": 1, "page_end": 3, "children": [
                {"id": "s1", "title": "Section A.1", "kind": "section", "page_start": 2, "page_end": 2}
            ]},
            {"id": "c2", "title": "Chapter B", "kind": "chapter", "page_start": 4, "page_end": 6}
        ]}
    ]});
    let replaced = server
        .call(
            "POST",
            "textbook-passages/by-textbook/small-book/replace",
            Some(&expert),
            Some(json!({
                "artifact_id": artifact, "page_count": 6, "structure_tree": tree,
                "extractor_name": "test-extractor", "extractor_run_id": "run-1",
                "passages": [
                    {"page_no": 2, "text": "second page, first", "char_start": 0, "char_end": 18},
                    {"page_no": 2, "text": "second page, second", "char_start": 19, "char_end": 38},
                    {"page_no": 1, "text": "first page", "char_start": 0, "char_end": 10},
                    {"page_no": 5, "sequence_no": 7, "text": "fifth page"},
                ]
            })),
        )
        .await;
    assert_eq!(replaced.status, 200, "{}", replaced.body);
    assert_eq!(
        replaced.body["result"],
        json!({"textbook_urn": "urn:textbook:small-book", "artifact_id": artifact, "replaced_count": 4, "page_count": 6, "structure_tree_updated": true})
    );
    let listed = server
        .call(
            "GET",
            "textbook-passages/by-textbook/small-book",
            Some(&expert),
            None,
        )
        .await;
    let passages = listed.body["result"].as_array().unwrap();
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
    assert_eq!(
        summary,
        [
            (1, 1, "c1", json!(["Part One", "Chapter A"])),
            (2, 1, "s1", json!(["Part One", "Chapter A", "Section A.1"])),
            (2, 2, "s1", json!(["Part One", "Chapter A", "Section A.1"])),
            (5, 7, "c2", json!(["Part One", "Chapter B"])),
        ]
    );
    assert!(passages
        .iter()
        .all(|p| p["extractor_name"] == "test-extractor" && p["artifact_id"] == artifact.as_str()));
    let book = server
        .call("GET", "textbooks/small-book", Some(&expert), None)
        .await;
    assert_eq!(book.body["result"]["structure_tree"], tree);

    // A second replace swaps the passages of that artifact; a list body is accepted.
    let again = server
        .call(
            "POST",
            "textbook-passages/by-textbook/small-book/replace",
            Some(&expert),
            Some(json!([{"page_no": 6, "text": "only"}])),
        )
        .await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["result"]["replaced_count"], 1);
    assert_eq!(again.body["result"]["structure_tree_updated"], false);
    let listed = server
        .call(
            "GET",
            "textbook-passages/by-textbook/small-book",
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(listed.body["result"].as_array().unwrap().len(), 1);
    let only = &listed.body["result"][0];
    let patched = server
        .call("PATCH", &format!("textbook-passages/{}", only["id"].as_str().unwrap()), Some(&expert), Some(json!({"text": "edited", "structure_path": ["forged"], "textbook_urn": "urn:textbook:other"})))
        .await;
    assert_eq!(patched.body["result"]["text"], "edited");
    assert_eq!(
        patched.body["result"]["structure_path"],
        json!(["Part One", "Chapter B"])
    );
    assert_eq!(
        patched.body["result"]["textbook_urn"],
        "urn:textbook:small-book"
    );

    let demo_artifact = server
        .call(
            "GET",
            "textbooks/foundations-of-nutrition-science",
            Some(&expert),
            None,
        )
        .await;
    let foreign = demo_artifact.body["result"]["artifacts"][0]["id"].clone();
    let bad = [
        json!({"artifact_id": foreign, "passages": []}),
        json!({"artifact_id": artifact, "passages": [{"page_no": 7, "text": "beyond"}]}),
        json!({"artifact_id": artifact, "passages": [{"page_no": 0, "text": "zero"}]}),
        json!({"artifact_id": artifact, "passages": [{"page_no": 1}]}),
        json!({"artifact_id": artifact, "passages": [{"text": "no page"}]}),
        json!({"artifact_id": artifact, "structure_tree": {"roots": [{"id": "x", "title": "X", "kind": "part", "page_start": 3, "page_end": 1}]}}),
        json!({"artifact_id": artifact, "page_count": "six"}),
        json!({"artifact_id": 5}),
    ];
    for body in bad {
        let answer = server
            .call(
                "POST",
                "textbook-passages/by-textbook/small-book/replace",
                Some(&expert),
                Some(body.clone()),
            )
            .await;
        assert_error(&answer, 422, "request/unprocessable");
        assert!(answer.body["error"]["errors"].is_array(), "{body}");
    }
    let still = server
        .call(
            "GET",
            "textbook-passages/by-textbook/small-book",
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(
        still.body["result"].as_array().unwrap().len(),
        1,
        "refused replaces change nothing"
    );
    let owner = server.login("olivia", "olivia-demo").await;
    let forbidden = server
        .call(
            "POST",
            "textbook-passages/by-textbook/small-book/replace",
            Some(&owner),
            Some(json!([])),
        )
        .await;
    assert_error(&forbidden, 403, "auth/forbidden");
    let hidden = server
        .call(
            "GET",
            "textbook-passages/by-textbook/small-book",
            Some(&owner),
            None,
        )
        .await;
    assert_error(&hidden, 404, "resource/not_found");
    let public = server
        .call(
            "GET",
            "textbook-passages/by-textbook/foundations-of-nutrition-science?limit=4&offset=2",
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
