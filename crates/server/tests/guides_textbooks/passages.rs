//! A textbook's passages replaced, and placed in its structure tree.

use super::*;

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
