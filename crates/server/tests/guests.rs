//! Guests (production.md §8 row 2): the role `guest` in account specs, and the daily budget's
//! 429 once `/__faults/guest-budget` has spent it.

mod common;

use common::{assert_error, TestServer};
use serde_json::json;

/// In process: the budget is spent through `/__faults`, which the in-process router serves too.
async fn server() -> TestServer {
    TestServer::start(&[
        "--fault-injection",
        "--user",
        "gus:gus-secret:guest",
        "--user",
        "ann:ann-secret",
    ])
    .await
}

async fn spend(server: &TestServer, value: bool) {
    let (status, _, _) = server
        .post_faults("/__faults/guest-budget", json!({ "spent": value }))
        .await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn a_guest_account_signs_in_with_the_guest_role() {
    let server = server().await;
    let gus = server.login("gus", "gus-secret").await;
    let ping = server.call("GET", "system/ping", Some(&gus), None).await;
    assert_eq!(ping.body["result"]["roles"], json!(["guest"]));
}

#[tokio::test]
async fn a_spent_budget_answers_a_guest_429_until_the_next_utc_midnight() {
    let server = server().await;
    let gus = server.login("gus", "gus-secret").await;
    spend(&server, true).await;
    let answer = server.call("GET", "households/me", Some(&gus), None).await;
    assert_error(&answer, 429, "quota/rate_limited");
    assert_eq!(
        answer.body["error"]["detail"],
        "Create a free account to continue"
    );
    let wait: u64 = answer.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let midnight = (now / 86_400 + 1) * 86_400;
    assert!(wait.abs_diff(midnight - now) <= 2, "{wait}");
}

#[tokio::test]
async fn a_spent_guest_budget_leaves_other_users_alone() {
    let server = server().await;
    let ann = server.login("ann", "ann-secret").await;
    spend(&server, true).await;
    let answer = server.call("GET", "articles", Some(&ann), None).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn a_guest_passes_until_the_budget_is_spent_and_after_it_is_given_back() {
    let server = server().await;
    let gus = server.login("gus", "gus-secret").await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&gus), None)
            .await
            .status,
        200
    );
    spend(&server, true).await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&gus), None)
            .await
            .status,
        429
    );
    spend(&server, false).await;
    assert_eq!(
        server
            .call("GET", "articles", Some(&gus), None)
            .await
            .status,
        200
    );
}
