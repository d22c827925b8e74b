//! Data written through the API is there after the server stops and starts again on the same
//! database file; the demo load does not duplicate anything.

mod common;

use common::TestServer;
use serde_json::json;

#[tokio::test]
async fn data_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("larder.db");

    // On a socket (`on_file`): `Running::stop` is the real shutdown the data must survive.
    let first = TestServer::on_file(&db).await;
    let expert = first.login("curator", "curator-demo").await;
    let olivia = first.login("olivia", "olivia-demo").await;
    let created = first
        .call("POST", "articles", Some(&expert), Some(json!({"urn": "kept-study", "title": "Kept across restarts", "content": "Durable words", "venue": "V", "authors": ["A"]})))
        .await;
    assert_eq!(created.status, 201);
    let uploaded = first
        .upload(
            Some(&expert),
            "urn:article:kept-study",
            "kept.bin",
            vec![7, 8, 9],
        )
        .await;
    let artifact = uploaded.body["result"]["id"].as_str().unwrap().to_string();
    let member = first
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let household = member.body["result"]["id"].as_str().unwrap().to_string();
    let renamed = first
        .call(
            "PATCH",
            &format!("households/{household}"),
            Some(&olivia),
            Some(json!({"name": "Renamed"})),
        )
        .await;
    assert_eq!(renamed.status, 200);
    let articles_before = first
        .state
        .store
        .records()
        .count(&larder_contract::collections::ARTICLES)
        .unwrap();
    let households_before = first.state.store.households().count().unwrap();
    first.stop().await;

    assert!(dir
        .path()
        .join("larder.db-artifacts")
        .join(&artifact)
        .is_file());
    let second = TestServer::on_file(&db).await;
    // A token issued before the restart is still valid: the signing key lives in the database.
    let got = second
        .call("GET", "articles/kept-study", Some(&expert), None)
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.body["result"]["title"], "Kept across restarts");
    let found = second
        .call(
            "POST",
            "articles/search",
            Some(&expert),
            Some(json!({"q": "durable"})),
        )
        .await;
    assert_eq!(found.body["result"]["total"], 1);
    let (status, _, bytes) = second.download(&expert, &artifact).await;
    assert_eq!(status, 200);
    assert_eq!(bytes, [7, 8, 9]);
    let home = second
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert_eq!(home.body["result"]["name"], "Renamed");
    assert_eq!(home.body["result"]["member_count"], 3);
    assert_eq!(
        second
            .state
            .store
            .records()
            .count(&larder_contract::collections::ARTICLES)
            .unwrap(),
        articles_before
    );
    assert_eq!(
        second.state.store.households().count().unwrap(),
        households_before
    );
    second.stop().await;
}
