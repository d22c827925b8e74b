//! Maintenance mode (production.md §8 row 1): non-admins get production's 503, administrators
//! pass, `system/ping` and sign-in stay open; `--maintenance` at start, `/__faults/maintenance`
//! at run time.

mod common;

use common::TestServer;
use serde_json::json;

const USERS: [&str; 4] = [
    "--user",
    "ann:ann-secret",
    "--user",
    "root:root-secret:admin",
];

/// In process: maintenance is switched through `/__faults`, which the in-process router serves
/// too.
async fn server(extra: &[&str]) -> TestServer {
    let mut args = USERS.to_vec();
    args.extend_from_slice(extra);
    TestServer::start(&args).await
}

/// Asserts production's maintenance answer.
fn assert_maintenance(answer: &common::Answer) {
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert_eq!(
        answer.body["error"],
        json!({
            "code": "platform/maintenance",
            "title": "Maintenance",
            "detail": "WiseFood is briefly closed for maintenance. Please try again shortly.",
        })
    );
    assert_eq!(answer.body["success"], false);
    assert_eq!(answer.headers["retry-after"], "300");
    assert_eq!(answer.headers["cache-control"], "no-store");
}

async fn switch(server: &TestServer, value: bool) {
    let (status, _, _) = server
        .post_faults("/__faults/maintenance", json!({ "on": value }))
        .await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn a_user_gets_production_s_maintenance_answer() {
    let server = server(&["--maintenance"]).await;
    let ann = server.login("ann", "ann-secret").await;
    for (method, path) in [
        ("GET", "households/me"),
        ("POST", "households"),
        ("GET", "articles"),
        ("DELETE", "users/me"),
    ] {
        let answer = server
            .call(method, path, Some(&ann), Some(json!({"name": "x"})))
            .await;
        assert_maintenance(&answer);
    }
}

#[tokio::test]
async fn an_anonymous_request_gets_the_maintenance_answer() {
    let server = server(&["--maintenance"]).await;
    assert_maintenance(&server.call("GET", "households/me", None, None).await);
    assert_maintenance(
        &server
            .call("GET", "articles", Some("not-a-token"), None)
            .await,
    );
}

#[tokio::test]
async fn an_administrator_passes_maintenance() {
    let server = server(&["--maintenance"]).await;
    let root = server.login("root", "root-secret").await;
    let answer = server.call("GET", "articles", Some(&root), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let none = server.call("GET", "households/me", Some(&root), None).await;
    assert_eq!(none.status, 404);
}

#[tokio::test]
async fn ping_and_sign_in_stay_open_in_maintenance() {
    let server = server(&["--maintenance"]).await;
    assert_eq!(
        server.call("GET", "system/ping", None, None).await.status,
        200
    );
    let ann = server.login("ann", "ann-secret").await;
    let ping = server.call("GET", "system/ping", Some(&ann), None).await;
    assert_eq!(ping.status, 200);
}

#[tokio::test]
async fn maintenance_is_off_without_the_flag() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    let answer = server.call("GET", "articles", Some(&ann), None).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn maintenance_answers_the_same_on_the_production_wire() {
    let server = server(&["--maintenance", "--wire", "production"]).await;
    let ann = server.login("ann", "ann-secret").await;
    assert_maintenance(&server.call("GET", "households/me", Some(&ann), None).await);
}

#[tokio::test]
async fn fault_injection_switches_maintenance_at_run_time() {
    let server = server(&["--fault-injection"]).await;
    let ann = server.login("ann", "ann-secret").await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&ann), None)
            .await
            .status,
        200
    );
    switch(&server, true).await;
    assert_maintenance(&server.call("GET", "articles", Some(&ann), None).await);
    switch(&server, false).await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&ann), None)
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn the_maintenance_switch_is_absent_without_fault_injection() {
    let server = server(&[]).await;
    let (status, _, _) = server
        .post_faults("/__faults/maintenance", json!({ "on": true }))
        .await;
    assert_eq!(status, 404);
    let ann = server.login("ann", "ann-secret").await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&ann), None)
            .await
            .status,
        200
    );
}
