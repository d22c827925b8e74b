//! Production's answers that stand at once (issue 22): maintenance and a guest's daily budget
//! reach the caller after exactly one request, typed; a short 429 is still retried.
#![cfg(not(target_arch = "wasm32"))]

use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpResponse, TransportError};
use larder_api::{collections, Client, ClientConfig, Notice};
use serde_json::json;

const START: u64 = 1_795_714_963_000; // 2026-11-26T17:42:43Z

fn client(fake: &FakeTransport) -> Client<FakeTransport> {
    Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    )
}

fn ok_empty() -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse::json(
        200,
        &json!({"success": true, "result": []}),
    ))
}

fn maintenance() -> HttpResponse {
    HttpResponse::json(
        503,
        &json!({"success": false, "error": {"code": "platform/maintenance", "title": "Maintenance",
            "detail": "WiseFood is briefly closed for maintenance. Please try again shortly."}}),
    )
    .with_header("Retry-After", "300")
    .with_header("Cache-Control", "no-store")
}

#[test]
fn maintenance_is_said_after_one_request() {
    let fake = FakeTransport::scripted(START, vec![Ok(maintenance()), ok_empty()]);
    let error = block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert_eq!(fake.requests().len(), 1, "never retried silently");
    assert!(fake.sleeps().is_empty());
    let said = error.maintenance().expect("typed as maintenance");
    assert_eq!(said.retry_after_secs, 300);
    assert!(said.detail.contains("maintenance"));
    assert_eq!(error.daily_budget(START), None);
}

#[test]
fn maintenance_with_a_short_retry_after_is_still_said_at_once() {
    let short = maintenance().with_header("Retry-After", "5");
    let fake = FakeTransport::scripted(START, vec![Ok(short), ok_empty()]);
    let error = block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert_eq!(fake.requests().len(), 1);
    assert!(error.maintenance().is_some());
}

#[test]
fn a_daily_budget_is_not_retried_and_says_when_it_resets() {
    let budget = HttpResponse::json(
        429,
        &json!({"success": false, "error": {"title": "Too Many Requests",
            "detail": "Create a free account to continue"}}),
    )
    .with_header("Retry-After", "22637");
    let fake = FakeTransport::scripted(START, vec![Ok(budget), ok_empty()]);
    let error = block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert_eq!(fake.requests().len(), 1);
    assert!(fake.sleeps().is_empty());
    let said = error.daily_budget(START).expect("typed as a daily budget");
    assert_eq!(said.resets_at_ms, START + 22_637_000);
    assert_eq!(error.maintenance(), None);
}

#[test]
fn a_short_429_is_retried_as_before() {
    let limited = HttpResponse::json(429, &json!({"error": {"code": "quota/rate_limited"}}))
        .with_header("Retry-After", "7");
    let fake = FakeTransport::scripted(START, vec![Ok(limited), ok_empty()]);
    block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(fake.requests().len(), 2);
    assert_eq!(fake.sleeps(), vec![7000]);
}

#[test]
fn the_guest_role_is_read_like_any_other() {
    let claims = json!({"realm_access": {"roles": [" Guest "]}, "resource_access": {"ui": {"roles": ["guest"]}}});
    assert_eq!(
        larder_contract::roles::from_claims(&claims),
        [larder_contract::roles::GUEST]
    );
    let identity =
        larder_api::Identity::from_ping(&json!({"username": "g-1", "roles": ["GUEST"]})).unwrap();
    assert!(identity.has_role(larder_contract::roles::GUEST));
    assert_eq!(identity.roles, ["guest"]);
}

/// What the observer heard, in order (the console's banner follows these).
fn heard(client: &Client<FakeTransport>) -> std::sync::Arc<std::sync::Mutex<Vec<Notice>>> {
    let notices = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = notices.clone();
    client.set_observer(move |n| seen.lock().unwrap().push(n.clone()));
    notices
}

#[test]
fn maintenance_is_announced_and_the_next_other_answer_says_the_service_answers_again() {
    let fake = FakeTransport::scripted(
        START,
        vec![
            Ok(maintenance()),
            Ok(HttpResponse::json(503, &json!({"error": {"code": "x"}}))
                .with_header("Retry-After", "600")),
            ok_empty(),
        ],
    );
    let client = client(&fake);
    let notices = heard(&client);
    let _ = block_on(client.list(&collections::ARTICLES, 1, 0));
    // A 503 asking to wait longer than retries do is maintenance too, with its own wait.
    let _ = block_on(client.list(&collections::ARTICLES, 1, 0));
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(
        *notices.lock().unwrap(),
        vec![
            Notice::Maintenance {
                retry_after_secs: 300
            },
            Notice::Maintenance {
                retry_after_secs: 600
            },
            Notice::ServiceAnswered,
        ]
    );
}

#[test]
fn maintenance_without_retry_after_waits_what_production_sends() {
    let bare = HttpResponse::json(
        503,
        &json!({"success": false, "error": {"code": "platform/maintenance"}}),
    );
    let fake = FakeTransport::scripted(START, vec![Ok(bare)]);
    let client = client(&fake);
    let notices = heard(&client);
    let _ = block_on(client.list(&collections::ARTICLES, 1, 0));
    assert_eq!(
        *notices.lock().unwrap(),
        vec![Notice::Maintenance {
            retry_after_secs: 300
        }]
    );
}
