//! Search over real HTTP: full text, filters, facets, sorting, highlight, pagination limits,
//! and SQL metacharacters that stay data.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

async fn search(server: &TestServer, token: &str, path: &str, body: Value) -> Value {
    let answer = server
        .call("POST", path, Some(token), Some(body.clone()))
        .await;
    assert_eq!(answer.status, 200, "{path} {body}: {}", answer.body);
    answer.body["result"].clone()
}

async fn search_error(server: &TestServer, token: &str, body: Value) -> common::Answer {
    server
        .call("POST", "articles/search", Some(token), Some(body))
        .await
}

fn urns(result: &Value) -> Vec<String> {
    result["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["urn"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn full_text_filters_and_facets() {
    let server = TestServer::demo().await;
    let token = server.login("curator", "curator-demo").await;

    let everything = search(&server, &token, "articles/search", json!({})).await;
    // Twenty-two topics and the record from a newer service.
    assert_eq!(everything["total"], 23);
    assert_eq!(everything["results"].as_array().unwrap().len(), 10);
    assert!(everything["facets"].as_object().unwrap().is_empty());

    let vitamin = search(&server, &token, "articles/search", json!({"q": "vitamin"})).await;
    assert_eq!(vitamin["total"], 2);
    assert!(vitamin["results"][0]["_score"].as_f64().unwrap() > 0.0);
    // Stemming: "supplements" finds "supplementation" and "supplements".
    let stemmed = search(
        &server,
        &token,
        "articles/search",
        json!({"q": "supplements"}),
    )
    .await;
    assert!(stemmed["total"].as_u64().unwrap() >= 2, "{stemmed}");

    let open = search(
        &server,
        &token,
        "articles/search",
        json!({"fq": ["open_access:true"], "fields": ["open_access", "publication_year"], "limit": 100}),
    )
    .await;
    assert_eq!(open["total"], 11);
    assert!(open["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["open_access"] == true));
    assert_eq!(
        open["facets"]["open_access"],
        json!([{"value": true, "count": 11}])
    );
    let years = open["facets"]["publication_year"].as_array().unwrap();
    assert_eq!(
        years
            .iter()
            .map(|y| y["count"].as_u64().unwrap())
            .sum::<u64>(),
        11
    );

    let quoted = search(
        &server,
        &token,
        "articles/search",
        json!({"fq": "title:\"Folate in pregnancy\""}),
    )
    .await;
    assert_eq!(urns(&quoted), ["urn:article:folate-pregnancy"]);
    let list_element = search(
        &server,
        &token,
        "fctables/search",
        json!({"fq": ["data_formats:pdf"]}),
    )
    .await;
    assert_eq!(urns(&list_element), ["urn:fctable:west-african-fct-2019"]);
    let range = search(
        &server,
        &token,
        "articles/search",
        json!({"fq": ["publication_year:[2023 TO *]"], "fields": "publication_year", "limit": 100}),
    )
    .await;
    assert!(range["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["publication_year"].as_str().unwrap()[..4] >= *"2023"));
    assert_eq!(
        range["total"], 4,
        "production's YYYY-MM-DD years compare by year"
    );
    let exists = search(
        &server,
        &token,
        "guides/search",
        json!({"fq": ["short_title:*"]}),
    )
    .await;
    assert_eq!(urns(&exists), ["urn:guide:eat-well-2024"]);

    let limited = search(
        &server,
        &token,
        "articles/search",
        json!({"fields": ["publication_year"], "facet_limit": 3}),
    )
    .await;
    let facet = limited["facets"]["publication_year"].as_array().unwrap();
    assert_eq!(facet.len(), 3);
    assert!(facet[0]["count"].as_u64() >= facet[2]["count"].as_u64());

    let guidelines = search(
        &server,
        &token,
        "guidelines/search",
        json!({"q": "salt", "fields": ["action_type"]}),
    )
    .await;
    assert!(guidelines["total"].as_u64().unwrap() >= 2);
    let fctables = search(&server, &token, "fctables/search", json!({"q": "nordic"})).await;
    assert_eq!(fctables["total"], 1);
    let textbooks = search(
        &server,
        &token,
        "textbooks/search",
        json!({"q": "nutrition"}),
    )
    .await;
    assert_eq!(textbooks["total"], 1);

    let old = server
        .call(
            "GET",
            "articles/search?q=coffee&limit=5",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        old.status, 200,
        "interface.md's older form, kept by the reference wire"
    );
    assert_eq!(urns(&old.body["result"]), ["urn:article:coffee-liver"]);
    let too_many = search_error(&server, &token, json!({"fq": vec!["status:active"; 51]})).await;
    assert_error(&too_many, 400, "request/invalid");
    let sorts: Vec<&str> = vec!["title asc"; 11];
    let too_many = search_error(&server, &token, json!({"sort": sorts.join(", ")})).await;
    assert_error(&too_many, 400, "request/invalid");
    let thousand = search_error(&server, &token, json!({"fq": vec!["status:active"; 1001]})).await;
    assert_error(&thousand, 400, "request/invalid");
    server.stop().await;
}

#[tokio::test]
async fn sorting_paging_highlight_and_projection() {
    let server = TestServer::demo().await;
    let token = server.login("curator", "curator-demo").await;
    let by_year = search(
        &server,
        &token,
        "articles/search",
        json!({"sort": "publication_year desc, title asc", "limit": 100}),
    )
    .await;
    let years: Vec<String> = by_year["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["publication_year"].as_str().unwrap().to_string())
        .collect();
    assert!(years.windows(2).all(|w| w[0] >= w[1]), "{years:?}");
    let by_title = search(
        &server,
        &token,
        "articles/search",
        json!({"sort": "title asc", "limit": 100}),
    )
    .await;
    let titles: Vec<String> = by_title["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = titles.clone();
    sorted.sort();
    assert_eq!(titles, sorted);

    let first = search(
        &server,
        &token,
        "articles/search",
        json!({"sort": "title asc", "limit": 5, "offset": 0}),
    )
    .await;
    let second = search(
        &server,
        &token,
        "articles/search",
        json!({"sort": "title asc", "limit": 5, "offset": 5}),
    )
    .await;
    assert_eq!(urns(&first)[..], urns(&by_title)[..5]);
    assert_eq!(urns(&second)[..], urns(&by_title)[5..10]);

    let marked = search(
        &server,
        &token,
        "articles/search",
        json!({"q": "coffee", "highlight": true, "highlight_fields": ["title", "abstract"], "highlight_pre_tag": "[[", "highlight_post_tag": "]]", "fl": ["title"]}),
    )
    .await;
    let hit = &marked["results"][0];
    assert_eq!(
        hit["_highlight"]["title"],
        json!(["[[Coffee]] consumption and liver disease"])
    );
    assert!(hit["_highlight"]["abstract"][0]
        .as_str()
        .unwrap()
        .contains("[[coffee]]"));
    assert_eq!(hit["urn"], "urn:article:coffee-liver");
    assert!(
        hit.get("abstract").is_none(),
        "fl keeps only the fields asked for"
    );

    for (body, title) in [
        (json!({"limit": 0}), "InvalidPagination"),
        (json!({"limit": 1001}), "InvalidPagination"),
        (json!({"offset": -1}), "InvalidPagination"),
        (json!({"offset": 9995, "limit": 10}), "InvalidPagination"),
        (
            json!({"facet_limit": 0, "fields": ["status"]}),
            "InvalidError",
        ),
        (json!({"sort": "title sideways"}), "InvalidError"),
        (json!({"sort": "content_hash asc"}), "InvalidError"),
        (json!({"fq": ["no colon"]}), "InvalidError"),
        (json!({"fields": ["bad field!"]}), "InvalidError"),
    ] {
        let answer = server
            .call("POST", "articles/search", Some(&token), Some(body.clone()))
            .await;
        assert_error(&answer, 400, "request/invalid");
        assert_eq!(answer.body["error"]["title"], title, "{body}");
    }
    let edge = search(
        &server,
        &token,
        "articles/search",
        json!({"offset": 9990, "limit": 10}),
    )
    .await;
    assert_eq!(edge["results"], json!([]));
    assert_eq!(edge["total"], 23);
    let wrong_type = server
        .call(
            "POST",
            "articles/search",
            Some(&token),
            Some(json!({"q": 5})),
        )
        .await;
    assert_error(&wrong_type, 422, "request/unprocessable");
    server.stop().await;
}

#[tokio::test]
async fn metacharacters_are_only_data() {
    let server = TestServer::demo().await;
    let token = server.login("curator", "curator-demo").await;
    let nasty = [
        "'; DROP TABLE records; --",
        "\" OR 1=1 --",
        "title:* AND NOT x",
        "NEAR(a b) ^ * ( ) \" '",
        "%_\\",
        "\u{0}\u{7f}",
    ];
    for q in nasty {
        let result = search(&server, &token, "articles/search", json!({"q": q})).await;
        assert!(result["total"].is_u64(), "{q}");
        let result = search(
            &server,
            &token,
            "articles/search",
            json!({"fq": [format!("title:{q}"), format!("status:\"{}\"", q.replace('"', "\\\""))]}),
        )
        .await;
        assert_eq!(result["total"], 0, "{q}");
    }
    for sort in [
        "title; DROP TABLE records",
        "(SELECT 1) asc",
        "title asc --",
    ] {
        let answer = server
            .call(
                "POST",
                "articles/search",
                Some(&token),
                Some(json!({"sort": sort})),
            )
            .await;
        assert_eq!(answer.status, 400, "{sort}");
    }
    let still = search(&server, &token, "articles/search", json!({})).await;
    assert_eq!(still["total"], 23);
    server.stop().await;
}

#[tokio::test]
async fn guide_and_textbook_searches() {
    let server = TestServer::demo().await;
    let token = server.login("olivia", "olivia-demo").await;
    let salt = search(
        &server,
        &token,
        "guidelines/by-guide/urn:guide:eat-well-2024/search",
        json!({"q": "salt"}),
    )
    .await;
    assert_eq!(salt["total"], 1);
    assert_eq!(salt["results"][0]["guide_urn"], "urn:guide:eat-well-2024");
    let ordered = search(
        &server,
        &token,
        "guidelines/by-guide/urn:guide:healthy-plates-children/search",
        json!({"limit": 100}),
    )
    .await;
    let sequence: Vec<i64> = ordered["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sequence_no"].as_i64().unwrap())
        .collect();
    assert_eq!(sequence, (1..=11).collect::<Vec<_>>());

    let page = search(
        &server,
        &token,
        "textbook-passages/by-textbook/urn:textbook:foundations-of-nutrition-science/search",
        json!({"fq": ["page_no:8"]}),
    )
    .await;
    assert_eq!(page["total"], 2);
    assert!(page["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["page_no"] == 8));
    assert_eq!(page["results"][0]["sequence_no"], 1);
    let text = search(
        &server,
        &token,
        "textbook-passages/by-textbook/urn:textbook:foundations-of-nutrition-science/search",
        json!({"q": "mediterranean olive"}),
    )
    .await;
    assert_eq!(text["total"], 1);
    assert_eq!(text["results"][0]["structure_node_id"], "s3-1");
    let missing = server
        .call(
            "POST",
            "guidelines/by-guide/urn:guide:nope/search",
            Some(&token),
            Some(json!({})),
        )
        .await;
    assert_error(&missing, 404, "resource/not_found");
    server.stop().await;
}

#[tokio::test]
async fn generated_articles_are_stored_once_and_searchable() {
    let server = TestServer::start(&["--generate-articles", "1500"]).await;
    let admin_count = server
        .state
        .store
        .records()
        .count(&larder_contract::collections::ARTICLES)
        .unwrap();
    assert_eq!(admin_count, 1500);
    larder_server::demo::generate_articles(&server.state.store, 1500).unwrap();
    assert_eq!(
        server
            .state
            .store
            .records()
            .count(&larder_contract::collections::ARTICLES)
            .unwrap(),
        1500,
        "a second run adds nothing"
    );
    server.stop().await;
    let server = TestServer::start(&["--demo", "--generate-articles", "30"]).await;
    let token = server.login("curator", "curator-demo").await;
    let found = search(
        &server,
        &token,
        "articles/search",
        json!({"q": "synthetic", "limit": 1000}),
    )
    .await;
    assert_eq!(found["total"], 30);
    let exact = search(
        &server,
        &token,
        "articles/search",
        json!({"fq": ["urn:\"urn:article:synthetic-29\""]}),
    )
    .await;
    assert_eq!(exact["total"], 1);
    server.stop().await;
}

#[tokio::test]
async fn highlight_tags_fields_and_output_are_bounded() {
    let server = TestServer::demo().await;
    let token = server.login("olivia", "olivia-demo").await;
    for body in [
        json!({"q": "coffee", "highlight": true, "highlight_pre_tag": "<".repeat(16 * 1024)}),
        json!({"q": "coffee", "highlight": true, "highlight_post_tag": ">".repeat(65)}),
        json!({"q": "coffee", "highlight": true, "highlight_fields": vec!["title"; 21]}),
        json!({"q": "coffee", "highlight": true, "highlight_fields": ["x".repeat(101)]}),
    ] {
        let refused = search_error(&server, &token, body).await;
        assert_error(&refused, 400, "request/invalid");
        let loc = &refused.body["error"]["errors"][0]["loc"];
        assert!(
            loc[1].as_str().unwrap().starts_with("highlight_"),
            "{}",
            refused.body
        );
    }

    // Every word of four fields matches: with the longest tags allowed, one hit's highlights
    // would pass 50 KB; they stop at the per-hit budget instead.
    let admin = server.login("admin", "admin-demo").await;
    let text = "a ".repeat(900);
    let created = server
        .call(
            "POST",
            "articles",
            Some(&admin),
            Some(
                json!({"urn": "all-a", "title": text, "content": text, "venue": "V",
                        "abstract": text, "description": text}),
            ),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let tag = "t".repeat(64);
    let marked = search(
        &server,
        &token,
        "articles/search",
        json!({"q": "a", "highlight": true, "highlight_pre_tag": tag, "highlight_post_tag": tag,
               "highlight_fields": ["title", "content", "abstract", "description"]}),
    )
    .await;
    let hit = &marked["results"][0];
    assert_eq!(hit["urn"], "urn:article:all-a");
    let size = hit["_highlight"].to_string().len();
    assert!(
        size <= larder_contract::limits::MAX_HIGHLIGHT_BYTES_PER_HIT + 200,
        "{size} bytes of highlights"
    );
    assert!(
        !hit["_highlight"]["title"].is_null(),
        "the first field fits"
    );
    server.stop().await;
}
