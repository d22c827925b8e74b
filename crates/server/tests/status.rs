//! The administrator's status routes (issue 40, production.md §10.6) on both wires:
//! `system/health`, `system/indices`, `system/embeddings` and the two embedding backfills, with
//! production's shapes and this service's honest values.

mod common;

use common::{assert_error, Answer, TestServer};
use serde_json::{json, Value};

const WIRES: [&str; 2] = ["reference", "production"];

fn keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    keys.sort();
    keys
}

async fn demo(wire: &str) -> (TestServer, String, String) {
    let server = TestServer::start(&["--wire", wire, "--demo"]).await;
    let admin = server.login("admin", "admin-demo").await;
    let expert = server.login("curator", "curator-demo").await;
    (server, admin, expert)
}

const CLUSTER_KEYS: [&str; 6] = [
    "active_shards",
    "cluster_name",
    "number_of_nodes",
    "reachable",
    "status",
    "unassigned_shards",
];

#[tokio::test]
async fn health_needs_no_token_and_answers_productions_shape() {
    for wire in WIRES {
        let (server, _, _) = demo(wire).await;
        let health = server.call("GET", "system/health", None, None).await;
        assert_eq!(health.status, 200, "{wire}: {}", health.body);
        let result = &health.body["result"];
        assert_eq!(
            keys(result),
            ["elasticsearch", "healthy", "redis", "storage"]
        );
        assert_eq!(result["healthy"], true, "{result}");
        assert_eq!(keys(&result["elasticsearch"]), CLUSTER_KEYS);
        assert_eq!(result["elasticsearch"]["status"], "green");
        assert_eq!(
            result["elasticsearch"]["active_shards"],
            larder_contract::status::INDICES.len()
        );
        assert_eq!(result["elasticsearch"]["unassigned_shards"], 0);
        assert_eq!(result["redis"], json!({"reachable": true}));
        assert_eq!(result["storage"]["healthy"], true);
        assert_eq!(result["storage"]["database"]["integrity"], "ok");
        assert_eq!(result["storage"]["artifacts"], "ok");
        assert!(result["storage"].get("error").is_none());
        // The check left nothing in the artifact folder.
        let left = std::fs::read_dir(server.state.store.files())
            .unwrap()
            .filter(|f| {
                f.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".larder-health")
            })
            .count();
        assert_eq!(left, 0);
    }
}

/// Writes `doc` of record `urn` straight into the database, behind the search index's back.
fn behind_the_index(server: &TestServer, sql: &str) {
    server
        .state
        .store
        .with(|conn| conn.execute(sql, []).unwrap());
}

#[tokio::test]
async fn health_and_indices_say_when_the_index_left_the_database() {
    let (server, admin, _) = demo("reference").await;
    let indices = server
        .call("GET", "system/indices", Some(&admin), None)
        .await;
    assert_eq!(indices.status, 200, "{}", indices.body);
    assert_eq!(indices.body["result"]["drifted"], json!([]));
    // A field the contract has, written to the database without reaching the index.
    behind_the_index(
        &server,
        "UPDATE records SET doc = json_set(doc, '$.indexing_tier', 'core') WHERE collection = 'articles'",
    );
    // A record the index never saw.
    behind_the_index(
        &server,
        "INSERT INTO records (id, collection, urn, doc) VALUES ('x-1', 'fctables', 'urn:fctable:ghost', '{\"id\":\"x-1\",\"urn\":\"urn:fctable:ghost\",\"title\":\"Ghost\"}')",
    );
    let indices = server
        .call("GET", "system/indices", Some(&admin), None)
        .await;
    let result = &indices.body["result"];
    assert_eq!(result["drifted"], json!(["articles"]), "{result}");
    let articles = result["indices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["index"] == "articles")
        .unwrap();
    assert_eq!(articles["missing_fields"], json!(["indexing_tier"]));
    assert_eq!(result["cluster"]["status"], "yellow");
    assert_eq!(result["cluster"]["unassigned_shards"], 1);
    assert_eq!(
        result["cluster"]["active_shards"],
        larder_contract::status::INDICES.len() - 1
    );
    // The health answer is reused for a few seconds, then says the same.
    tokio::time::sleep(larder_server::status::HEALTH_EVERY).await;
    let health = server.call("GET", "system/health", None, None).await;
    assert_eq!(health.body["result"]["elasticsearch"]["status"], "yellow");
    assert_eq!(
        health.body["result"]["healthy"], true,
        "a drifted index still answers"
    );
}

#[tokio::test]
async fn indices_report_every_collection_in_productions_shape() {
    for wire in WIRES {
        let (server, admin, _) = demo(wire).await;
        let answer = server
            .call("GET", "system/indices", Some(&admin), None)
            .await;
        assert_eq!(answer.status, 200, "{wire}: {}", answer.body);
        let result = &answer.body["result"];
        assert_eq!(keys(result), ["cluster", "drifted", "indices"]);
        assert_eq!(keys(&result["cluster"]), CLUSTER_KEYS);
        let names: Vec<&str> = result["indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["index"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "rcollections",
                "guides",
                "guidelines",
                "textbooks",
                "textbook_passages",
                "artifacts",
                "articles",
                "organizations",
                "fctables"
            ]
        );
        let articles = server
            .state
            .store
            .records()
            .count(&larder_contract::collections::ARTICLES)
            .unwrap();
        for index in result["indices"].as_array().unwrap() {
            assert_eq!(
                keys(index),
                [
                    "deleted_docs",
                    "doc_count",
                    "exists",
                    "expected_max_result_window",
                    "index",
                    "mapped_fields",
                    "max_result_window",
                    "missing_fields",
                    "size_bytes"
                ]
            );
            assert_eq!(index["exists"], true);
            assert_eq!(index["max_result_window"], 10_000);
            if index["index"] == "articles" {
                assert_eq!(index["doc_count"], articles);
                assert!(index["mapped_fields"].as_u64().unwrap() > 5);
                assert!(index["size_bytes"].as_u64().unwrap() > 1000);
            }
        }
    }
}

#[tokio::test]
async fn a_soft_deleted_record_counts_as_deleted() {
    let (server, admin, _) = demo("reference").await;
    behind_the_index(
        &server,
        "UPDATE records SET doc = json_set(doc, '$.status', 'deleted') WHERE id = (SELECT id FROM records WHERE collection = 'fctables' LIMIT 1)",
    );
    let indices = server
        .call("GET", "system/indices", Some(&admin), None)
        .await;
    let tables = indices.body["result"]["indices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["index"] == "fctables")
        .unwrap()
        .clone();
    assert_eq!(tables["deleted_docs"], 1);
}

async fn coverage(server: &TestServer, admin: &str, index: &str) -> Value {
    let answer = server
        .call("GET", "system/embeddings", Some(admin), None)
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body["result"]["indices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["index"] == index)
        .unwrap()
        .clone()
}

async fn backfill(server: &TestServer, admin: &str, path: &str, query: &str) -> Answer {
    server
        .call(
            "POST",
            &format!("{path}/embeddings/backfill{query}"),
            Some(admin),
            None,
        )
        .await
}

/// The `embedded_at` of every record of `collection`, by id.
fn stamps(server: &TestServer, collection: &str) -> Vec<(String, Option<String>)> {
    server.state.store.read(|conn| {
        conn.prepare("SELECT id, json_extract(doc, '$.embedded_at') FROM records WHERE collection = ?1 ORDER BY rowid")
            .unwrap()
            .query_map([collection], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    })
}

#[tokio::test]
async fn a_preview_counts_exactly_what_the_backfill_then_embeds() {
    for wire in WIRES {
        for path in ["articles", "guidelines"] {
            let (server, admin, _) = demo(wire).await;
            let before = coverage(&server, &admin, path).await;
            let mut keys_seen = keys(&before);
            keys_seen.retain(|k| k != "error");
            assert_eq!(
                keys_seen,
                [
                    "coverage",
                    "current",
                    "embedded",
                    "exists",
                    "identifier_field",
                    "index",
                    "missing",
                    "stale",
                    "total"
                ]
            );
            let total = before["total"].as_u64().unwrap();
            assert!(total > 2, "{wire} {path}: {before}");
            assert_eq!(
                (before["embedded"].clone(), before["missing"].clone()),
                (json!(0), json!(total))
            );
            assert_eq!(before["coverage"], 0.0);

            let preview = backfill(&server, &admin, path, "?dry_run=true&max_docs=2").await;
            assert_eq!(preview.status, 200, "{wire} {path}: {}", preview.body);
            let mut expected_keys = vec![
                "dry_run",
                "failed",
                "max_docs",
                "only_missing",
                "queued",
                "scanned",
                "skipped_already_embedded",
            ];
            if path == "guidelines" {
                expected_keys.insert(2, "guide_urn");
            }
            assert_eq!(keys(&preview.body["result"]), expected_keys);
            assert_eq!(preview.body["result"]["queued"], 2);
            assert_eq!(preview.body["result"]["dry_run"], true);
            let untouched = stamps(&server, path);
            assert!(
                untouched.iter().all(|(_, s)| s.is_none()),
                "a dry run embeds nothing"
            );

            let applied = backfill(&server, &admin, path, "?max_docs=2").await;
            assert_eq!(
                applied.body["result"]["queued"],
                preview.body["result"]["queued"]
            );
            assert_eq!(
                applied.body["result"]["scanned"],
                preview.body["result"]["scanned"]
            );
            let after = stamps(&server, path);
            let changed: Vec<&String> = after
                .iter()
                .zip(&untouched)
                .filter(|(a, b)| a.1 != b.1)
                .map(|(a, _)| &a.0)
                .collect();
            assert_eq!(
                changed.len() as u64,
                applied.body["result"]["queued"].as_u64().unwrap()
            );
            let vectors: i64 = server.state.store.read(|c| {
                c.query_row("SELECT count(*) FROM record_embeddings", [], |r| r.get(0))
                    .unwrap()
            });
            assert_eq!(vectors, 2);

            // The rest: the preview says how many remain, and skips the two embedded.
            let rest = backfill(&server, &admin, path, "?dry_run=1").await;
            assert_eq!(
                rest.body["result"]["queued"].as_u64().unwrap()
                    + rest.body["result"]["failed"].as_u64().unwrap(),
                total - 2
            );
            assert_eq!(rest.body["result"]["skipped_already_embedded"], 2);
            let done = backfill(&server, &admin, path, "").await;
            assert_eq!(done.body["result"]["queued"], rest.body["result"]["queued"]);
            let now = coverage(&server, &admin, path).await;
            assert_eq!(now["missing"], done.body["result"]["failed"]);
            assert_eq!(now["stale"], 0);
            assert_eq!(now["current"], now["embedded"]);
        }
    }
}

#[tokio::test]
async fn an_edit_after_the_embedding_makes_it_stale_and_only_missing_false_renews_it() {
    let (server, admin, expert) = demo("reference").await;
    backfill(&server, &admin, "articles", "").await;
    let urn = server.state.store.read(|c| {
        c.query_row(
            "SELECT urn FROM records WHERE collection = 'articles' ORDER BY rowid LIMIT 1",
            [],
            |r| r.get::<_, String>(0),
        )
        .unwrap()
    });
    // Production's clocks are in milliseconds here: an edit in the same millisecond is not later.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let edited = server
        .call(
            "PATCH",
            &format!("articles/{urn}"),
            Some(&expert),
            Some(json!({"title": "Edited since"})),
        )
        .await;
    assert_eq!(edited.status, 200, "{}", edited.body);
    let stale = coverage(&server, &admin, "articles").await;
    assert_eq!(stale["stale"], 1, "{stale}");
    assert_eq!(
        stale["current"].as_u64().unwrap(),
        stale["embedded"].as_u64().unwrap() - 1
    );
    // The default backfill, as production's, leaves embedded records alone; a full one renews.
    let default = backfill(&server, &admin, "articles", "?dry_run=true").await;
    assert_eq!(default.body["result"]["queued"], 0);
    let renewed = backfill(&server, &admin, "articles", "?only_missing=false").await;
    assert!(renewed.body["result"]["queued"].as_u64().unwrap() >= 1);
    assert_eq!(renewed.body["result"]["skipped_already_embedded"], 0);
    assert_eq!(coverage(&server, &admin, "articles").await["stale"], 0);
    // Embedding does not edit: the record's updated_at is untouched.
    let read = server
        .call("GET", &format!("articles/{urn}"), Some(&expert), None)
        .await;
    assert!(
        read.body["result"]["embedded_at"].as_str().unwrap()
            > read.body["result"]["updated_at"].as_str().unwrap()
    );
}

#[tokio::test]
async fn a_guideline_backfill_narrows_to_a_guide_and_a_record_without_text_fails() {
    let (server, admin, _) = demo("reference").await;
    let (guide, in_guide): (String, u64) = server.state.store.read(|c| {
        c.query_row(
            "SELECT parent, count(*) FROM records WHERE collection = 'guidelines'
             AND coalesce(json_extract(doc, '$.status'), '') <> 'deleted' GROUP BY parent ORDER BY count(*) DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    });
    let narrowed = backfill(
        &server,
        &admin,
        "guidelines",
        &format!("?dry_run=true&guide_urn={guide}"),
    )
    .await;
    assert_eq!(narrowed.body["result"]["guide_urn"], guide.as_str());
    assert_eq!(narrowed.body["result"]["scanned"], in_guide);
    // A guideline whose embedded fields hold no text cannot be embedded: failed, in the preview too.
    behind_the_index(
        &server,
        &format!("UPDATE records SET doc = json_set(doc, '$.rule_text', ' ', '$.title', '', '$.notes', NULL) WHERE id = (SELECT id FROM records WHERE collection = 'guidelines' AND parent = '{guide}' ORDER BY rowid LIMIT 1)"),
    );
    let preview = backfill(
        &server,
        &admin,
        "guidelines",
        &format!("?dry_run=true&guide_urn={guide}"),
    )
    .await;
    assert_eq!(preview.body["result"]["failed"], 1);
    let applied = backfill(
        &server,
        &admin,
        "guidelines",
        &format!("?guide_urn={guide}"),
    )
    .await;
    assert_eq!(applied.body["result"]["failed"], 1);
    assert_eq!(
        applied.body["result"]["queued"],
        preview.body["result"]["queued"]
    );
    // The article backfill knows no guide_urn and ignores it, as FastAPI does.
    let articles = backfill(
        &server,
        &admin,
        "articles",
        &format!("?dry_run=true&guide_urn={guide}"),
    )
    .await;
    assert_eq!(articles.status, 200);
    assert!(articles.body["result"].get("guide_urn").is_none());
}

#[tokio::test]
async fn status_routes_are_the_administrators_and_parameters_are_checked() {
    for wire in WIRES {
        let (server, admin, expert) = demo(wire).await;
        let olivia = server.login("olivia", "olivia-demo").await;
        for (method, path) in [
            ("GET", "system/indices"),
            ("GET", "system/embeddings"),
            ("POST", "articles/embeddings/backfill?dry_run=true"),
            ("POST", "guidelines/embeddings/backfill?dry_run=true"),
        ] {
            assert_eq!(
                server.call(method, path, None, None).await.status,
                401,
                "{wire} {path}"
            );
            for token in [&expert, &olivia] {
                assert_error(
                    &server.call(method, path, Some(token), None).await,
                    403,
                    "auth/forbidden",
                );
            }
            assert_eq!(
                server.call(method, path, Some(&admin), None).await.status,
                200,
                "{wire} {path}"
            );
        }
        for query in [
            "?max_docs=0",
            "?max_docs=10001",
            "?max_docs=ten",
            "?dry_run=perhaps",
            "?only_missing=2",
        ] {
            let answer = backfill(&server, &admin, "articles", query).await;
            assert_error(&answer, 422, "request/unprocessable");
            assert_eq!(
                answer.body["error"]["errors"][0]["loc"][0], "query",
                "{query}"
            );
        }
        // Nothing was embedded by a refused call.
        assert_eq!(coverage(&server, &admin, "articles").await["embedded"], 0);
        // Other methods on the backfill path are not routes.
        assert_eq!(
            server
                .call("GET", "articles/embeddings/backfill", Some(&admin), None)
                .await
                .status,
            405
        );
    }
}

#[tokio::test]
async fn an_article_whose_slug_is_embeddings_is_still_an_article() {
    let (server, admin, expert) = demo("reference").await;
    let made = server
        .call("POST", "articles", Some(&expert), Some(json!({"urn": "embeddings", "title": "On embeddings", "content": "Words", "venue": "V", "authors": ["A"]})))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(
        server
            .call("GET", "articles/embeddings", Some(&expert), None)
            .await
            .status,
        200
    );
    let enhanced = server
        .call(
            "PATCH",
            "articles/embeddings/enhance",
            Some(&admin),
            Some(json!({"agent": "extractive"})),
        )
        .await;
    assert_eq!(enhanced.status, 200, "{}", enhanced.body);
}
