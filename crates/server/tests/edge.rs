//! The edges of HTTP: uncacheable token answers.

mod common;

use common::TestServer;
use serde_json::json;

#[tokio::test]
async fn token_answers_are_never_cached() {
    let server = TestServer::start(&[
        "--user",
        "ada:ada-secret-1",
        "--client",
        "robot:robot-secret-1",
    ])
    .await;
    let login = server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "ada", "password": "ada-secret-1"})),
        )
        .await;
    let mtm = server
        .call(
            "POST",
            "system/mtm",
            None,
            Some(json!({"client_id": "robot", "client_secret": "robot-secret-1"})),
        )
        .await;
    let refused = server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "ada", "password": "wrong"})),
        )
        .await;
    assert_eq!((login.status, mtm.status, refused.status), (200, 200, 401));
    for answer in [&login, &mtm, &refused] {
        assert_eq!(answer.headers["cache-control"], "no-store");
        assert_eq!(answer.headers["pragma"], "no-cache");
    }
    server.stop().await;
}
