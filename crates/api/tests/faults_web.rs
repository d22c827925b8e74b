//! The client against a misbehaving service: real HTTP from Chromium to larder-server started with
//! `--fault-injection`, whose `/__faults` arms a fault for one path and counts what arrived there.
//!
//! Each test aims its faults at a record of its own, so tests never see each other's faults. The
//! counts prove the retry policy of interface.md part 8 and wire-notes' Transport: statuses 429 and
//! 5xx are retried up to 3 times for GET and PUT (DELETE only on 429 and 503), never for POST or
//! PATCH; transport
//! failures and malformed answers are reported, not retried.
#![cfg(target_arch = "wasm32")]

use std::sync::{Arc, Mutex};

use gloo_net::http::Request;
use larder_api::transport::gloo::GlooTransport;
use larder_api::{
    ApiError, Article, BrowserClient, Client, ClientConfig, Credentials, ErrorKind, FcTable, Notice,
};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn server() -> &'static str {
    match option_env!("LARDER_TEST_SERVER") {
        Some(url) => url,
        None => panic!("set LARDER_TEST_SERVER to a larder-server started with --fault-injection"),
    }
}

/// A curator's client with the given timeout, and the notices it raised.
async fn curator(timeout_ms: u64) -> (BrowserClient, Arc<Mutex<Vec<Notice>>>) {
    let mut config = ClientConfig::new(server());
    config.timeout_ms = timeout_ms;
    let client = Client::new(GlooTransport, config);
    client
        .sign_in(Credentials::user("curator", "curator-demo"))
        .await
        .expect("demo sign-in");
    let notices = Arc::new(Mutex::new(Vec::new()));
    let sink = notices.clone();
    client.set_observer(move |notice| sink.lock().unwrap().push(notice.clone()));
    (client, notices)
}

fn unique(prefix: &str) -> String {
    let now = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * 1e9) as u64;
    format!("{prefix}-{now}-{random}")
}

/// A fresh article, so each test owns the path its faults are armed on.
async fn article(client: &BrowserClient) -> String {
    let new = Article {
        urn: Some(unique("fault")),
        title: "Fault target".into(),
        content: "A record for fault injection.".into(),
        venue: "Fault Journal".into(),
        authors: vec!["F. Ault".into()],
        ..Article::default()
    };
    client.create(&new).await.expect("create").urn.unwrap()
}

async fn arm(method: &str, path: &str, faults: Value) {
    let answer = Request::post(&format!("{}/__faults", server()))
        .json(&json!({ "method": method, "path": path, "faults": faults }))
        .unwrap()
        .send()
        .await
        .expect("the server runs with --fault-injection");
    assert_eq!(answer.status(), 204, "arming a fault");
}

/// How many requests reached `method path` since the rule was armed.
async fn hits(method: &str, path: &str) -> usize {
    let report: Value = Request::get(&format!("{}/__faults", server()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    report["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|hit| hit["method"] == method && hit["path"] == path)
        .count()
}

fn record_path(urn: &str) -> String {
    format!("/api/v1/articles/{urn}")
}

fn retries(notices: &Mutex<Vec<Notice>>) -> Vec<(u32, u64, u16)> {
    notices
        .lock()
        .unwrap()
        .iter()
        .filter_map(|notice| match notice {
            Notice::Retrying {
                attempt,
                wait_ms,
                status,
                ..
            } => Some((*attempt, *wait_ms, *status)),
            _ => None,
        })
        .collect()
}

fn kind(error: &ApiError) -> Option<ErrorKind> {
    match error {
        ApiError::Api(failure) => failure.kind,
        _ => None,
    }
}

#[wasm_bindgen_test]
async fn a_burst_of_server_errors_is_retried_with_back_off_then_succeeds() {
    let (client, notices) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    let statuses = [500, 502, 504];
    arm(
        "GET",
        &path,
        statuses
            .iter()
            .map(|s| json!({"kind": "status", "status": s}))
            .collect(),
    )
    .await;
    let started = js_sys::Date::now();
    let read: Article = client.get(&urn).await.expect("the fourth attempt succeeds");
    let elapsed = js_sys::Date::now() - started;
    assert_eq!(read.urn.as_deref(), Some(urn.as_str()));
    assert_eq!(hits("GET", &path).await, 4, "one attempt and three retries");
    assert_eq!(
        retries(&notices),
        [(1, 0, 500), (2, 2000, 502), (3, 4000, 504)]
    );
    assert!(
        elapsed >= 6000.0,
        "waits of 0, 2 and 4 s: took {elapsed} ms"
    );
}

#[wasm_bindgen_test]
async fn a_fourth_failure_stands_after_three_retries() {
    let (client, _) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    let burst = vec![json!({"kind": "status", "status": 503, "retry_after": "0"}); 5];
    arm("GET", &path, burst.into()).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    assert_eq!(kind(&error), Some(ErrorKind::ServiceUnavailable));
    assert!(error.is_retryable());
    assert_eq!(hits("GET", &path).await, 4, "never a fifth attempt");
}

#[wasm_bindgen_test]
async fn rate_limiting_waits_for_retry_after() {
    let (client, notices) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    arm(
        "GET",
        &path,
        json!([{"kind": "status", "status": 429, "retry_after": "1"}]),
    )
    .await;
    let started = js_sys::Date::now();
    client
        .get::<Article>(&urn)
        .await
        .expect("the retry succeeds");
    let elapsed = js_sys::Date::now() - started;
    assert_eq!(hits("GET", &path).await, 2);
    assert_eq!(retries(&notices), [(1, 1000, 429)]);
    assert!(
        elapsed >= 1000.0,
        "Retry-After: 1 honoured: took {elapsed} ms"
    );
}

#[wasm_bindgen_test]
async fn post_and_patch_are_never_retried() {
    let (client, notices) = curator(30_000).await;
    // Fctables: no other test here creates one, so the armed fault is this test's own.
    arm(
        "POST",
        "/api/v1/fctables",
        json!([{"kind": "status", "status": 503}]),
    )
    .await;
    let slug = unique("never-twice");
    let new = FcTable {
        urn: Some(slug.clone()),
        title: "Created at most once".into(),
        ..FcTable::default()
    };
    let error = client.create(&new).await.unwrap_err();
    assert_eq!(kind(&error), Some(ErrorKind::ServiceUnavailable));
    assert_eq!(hits("POST", "/api/v1/fctables").await, 1);
    let missing = client.get::<FcTable>(&format!("urn:fctable:{slug}")).await;
    assert!(missing.unwrap_err().is_kind(ErrorKind::NotFound));

    let urn = article(&client).await;
    let path = record_path(&urn);
    arm("PATCH", &path, json!([{"kind": "status", "status": 502}])).await;
    let read: Article = client.get(&urn).await.unwrap();
    let mut changed = read.clone();
    changed.title = "Changed once".into();
    let error = client.update(&urn, &read, &changed).await.unwrap_err();
    assert_eq!(kind(&error), Some(ErrorKind::BadGateway));
    assert_eq!(hits("PATCH", &path).await, 1);
    assert!(retries(&notices).is_empty(), "no retry was announced");
}

#[wasm_bindgen_test]
async fn an_answer_later_than_the_timeout_is_a_timeout() {
    let (client, _) = curator(1_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    arm("GET", &path, json!([{"kind": "delay", "delay_ms": 3000}])).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    assert_eq!(error, ApiError::Timeout { after_ms: 1_000 });
    // The next call is answered normally: the aborted request left nothing behind.
    client
        .get::<Article>(&urn)
        .await
        .expect("a later call works");
}

#[wasm_bindgen_test]
async fn a_dropped_connection_is_a_network_error() {
    let (client, notices) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    // Chromium itself repeats a request when a reused keep-alive connection closes without an
    // answer (once per idle connection it holds), so enough drops are armed to outlast those; the
    // client's own policy shows in its notices: no retry of a transport failure.
    arm("GET", &path, vec![json!({"kind": "drop"}); 10].into()).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    assert!(matches!(error, ApiError::Network(_)), "{error:?}");
    assert!(retries(&notices).is_empty(), "{:?}", retries(&notices));
    assert!(hits("GET", &path).await >= 1);
}

#[wasm_bindgen_test]
async fn an_html_error_page_keeps_its_status_and_text() {
    let (client, _) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    arm("GET", &path, vec![json!({"kind": "html"}); 4].into()).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    let ApiError::Api(failure) = &error else {
        panic!("expected an API failure, got {error:?}");
    };
    assert_eq!(failure.status, 502);
    assert_eq!(failure.kind, Some(ErrorKind::BadGateway));
    assert!(failure.body.contains("Bad Gateway"), "{:?}", failure.body);
    assert_eq!(
        hits("GET", &path).await,
        4,
        "502 is retried even without JSON"
    );
}

#[wasm_bindgen_test]
async fn truncated_json_is_a_decode_error() {
    let (client, _) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    arm("GET", &path, json!([{"kind": "truncated"}])).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    assert!(matches!(error, ApiError::Decode { .. }), "{error:?}");
    assert!(!error.is_retryable());
    assert_eq!(hits("GET", &path).await, 1);
}

#[wasm_bindgen_test]
async fn success_false_in_a_200_is_a_failure() {
    let (client, _) = curator(30_000).await;
    let urn = article(&client).await;
    let path = record_path(&urn);
    arm("GET", &path, json!([{"kind": "success_false"}])).await;
    let error = client.get::<Article>(&urn).await.unwrap_err();
    let ApiError::Api(failure) = &error else {
        panic!("expected an API failure, got {error:?}");
    };
    assert_eq!(failure.status, 200);
    assert!(failure.detail.contains("Injected fault"), "{failure:?}");
    assert_eq!(hits("GET", &path).await, 1);
}
