//! The client's rules over a scripted transport with a virtual clock: tokens, renewal,
//! single-flight sign-in, one re-sign-in after 401, retries and their waits.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpRequest, HttpResponse, TransportError};
use larder_api::{collections, ApiError, Client, ClientConfig, Credentials, ErrorKind, Notice};
use serde_json::json;

const START: u64 = 1_000_000;

fn ok(result: serde_json::Value) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse::json(
        200,
        &json!({"success": true, "result": result, "help": "h"}),
    ))
}

fn status(code: u16) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse::json(
        code,
        &json!({"success": false, "error": {"title": "T", "detail": "D", "code": ""}}),
    ))
}

/// A service whose sign-ins mint `token-N` and whose other routes answer `route`.
fn service(
    expires_in: u64,
    route: impl Fn(&HttpRequest) -> Result<HttpResponse, TransportError> + Send + Sync + 'static,
) -> (FakeTransport, Arc<AtomicUsize>) {
    let logins = Arc::new(AtomicUsize::new(0));
    let counter = logins.clone();
    let fake = FakeTransport::new(START, move |request| {
        if request.url.ends_with("/system/login") || request.url.ends_with("/system/mtm") {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            return ok(json!({"access_token": format!("token-{n}"), "expires_in": expires_in}));
        }
        route(request)
    });
    (fake, logins)
}

fn client(fake: &FakeTransport) -> Client<FakeTransport> {
    Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    )
}

fn bearer(request: &HttpRequest) -> Option<String> {
    request.header("authorization").map(str::to_string)
}

#[test]
fn sign_in_sends_no_bearer_and_later_calls_send_one() {
    let (fake, _) = service(3600, |_| {
        ok(json!({"authenticated": true, "username": "ann", "roles": ["admin"]}))
    });
    let client = client(&fake);
    let me = block_on(client.sign_in(Credentials::user("ann", "pw"))).unwrap();
    assert_eq!(me.display_name(), "ann");
    let requests = fake.requests();
    assert_eq!(requests[0].url, "http://sys/api/v1/system/login");
    assert_eq!(bearer(&requests[0]), None);
    assert_eq!(requests[1].url, "http://sys/api/v1/system/ping");
    assert_eq!(bearer(&requests[1]).as_deref(), Some("Bearer token-1"));
}

#[test]
fn machine_credentials_use_mtm() {
    let (fake, _) = service(3600, |_| ok(json!("pong")));
    let client = client(&fake);
    let me = block_on(client.sign_in(Credentials::client("bot", "s"))).unwrap();
    assert!(fake.requests()[0].url.ends_with("/system/mtm"));
    // "pong" carries no identity: the token's claims are read (this fake's token has none).
    assert_eq!(me.display_name(), "unknown");
}

#[test]
fn invalid_credentials_fail_before_any_request() {
    let (fake, _) = service(3600, |_| ok(json!({})));
    let client = client(&fake);
    assert!(matches!(
        block_on(client.sign_in(Credentials::user("ann", ""))),
        Err(ApiError::InvalidCredentials(_))
    ));
    assert!(fake.requests().is_empty());
}

#[test]
fn a_request_without_credentials_goes_without_token() {
    let (fake, logins) = service(3600, |_| ok(json!({"authenticated": false})));
    let client = client(&fake);
    block_on(client.ping()).unwrap();
    assert_eq!(bearer(&fake.requests()[0]), None);
    assert_eq!(logins.load(Ordering::SeqCst), 0);
}

#[test]
fn the_token_is_renewed_after_its_margin() {
    let (fake, logins) = service(120, |_| ok(json!([])));
    let client = client(&fake);
    block_on(client.sign_in(Credentials::user("ann", "pw"))).unwrap();
    fake.advance(107_000); // 120 s minus the 12 s margin is 108 s
    block_on(client.list(&collections::ARTICLES, 10, 0)).unwrap();
    assert_eq!(logins.load(Ordering::SeqCst), 1);
    fake.advance(1_000);
    block_on(client.list(&collections::ARTICLES, 10, 0)).unwrap();
    assert_eq!(logins.load(Ordering::SeqCst), 2);
    assert_eq!(
        bearer(fake.requests().last().unwrap()).as_deref(),
        Some("Bearer token-2")
    );
}

#[test]
fn concurrent_calls_share_one_sign_in() {
    let (fake, logins) = service(3600, |_| ok(json!([])));
    let client = client(&fake);
    block_on(client.sign_in(Credentials::user("ann", "pw"))).unwrap();
    fake.advance(3_600_000); // expired
    let calls = (0..5).map(|_| client.list(&collections::ARTICLES, 1, 0));
    let results = block_on(futures::future::join_all(calls));
    assert!(results.iter().all(Result::is_ok));
    assert_eq!(
        logins.load(Ordering::SeqCst),
        2,
        "one sign-in at start, one shared renewal"
    );
}

#[test]
fn a_401_signs_in_again_and_repeats_once() {
    let (fake, logins) = service(3600, |request| {
        if bearer(request).as_deref() == Some("Bearer token-1") {
            status(401)
        } else {
            ok(json!(["urn:article:a"]))
        }
    });
    let client = client(&fake);
    block_on(client.sign_in(Credentials::user("ann", "pw"))).ok();
    let listed = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(logins.load(Ordering::SeqCst), 2);
}

#[test]
fn a_second_401_is_returned_and_reported_never_looped() {
    let (fake, logins) = service(3600, |request| {
        if request.url.ends_with("ping") {
            ok(json!({"username": "ann"}))
        } else {
            status(401)
        }
    });
    let client = client(&fake);
    let notices = Arc::new(Mutex::new(Vec::new()));
    let seen = notices.clone();
    client.set_observer(move |n| seen.lock().unwrap().push(n.clone()));
    block_on(client.sign_in(Credentials::user("ann", "pw"))).unwrap();
    let error = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert!(error.is_kind(ErrorKind::Authentication));
    assert_eq!(logins.load(Ordering::SeqCst), 2);
    assert_eq!(
        fake.requests()
            .iter()
            .filter(|r| r.url.contains("/articles"))
            .count(),
        2
    );
    assert!(notices.lock().unwrap().contains(&Notice::SessionLost));
}

#[test]
fn a_403_keeps_the_session() {
    let (fake, logins) = service(3600, |_| status(403));
    let client = client(&fake);
    block_on(client.sign_in(Credentials::user("ann", "pw"))).ok();
    let error = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert!(error.is_kind(ErrorKind::Authorization));
    assert_eq!(logins.load(Ordering::SeqCst), 1);
    assert!(block_on(client.is_signed_in()));
}

#[test]
fn retries_wait_0_2_4_and_report_progress() {
    let fake = FakeTransport::scripted(
        START,
        vec![status(503), status(500), status(502), ok(json!(["a"]))],
    );
    let client = client(&fake);
    let notices = Arc::new(Mutex::new(Vec::new()));
    let seen = notices.clone();
    client.set_observer(move |n| seen.lock().unwrap().push(n.clone()));
    let listed = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        fake.sleeps(),
        vec![2000, 4000],
        "the first retry is immediate"
    );
    let attempts: Vec<_> = notices
        .lock()
        .unwrap()
        .iter()
        .filter_map(|n| match n {
            Notice::Retrying { attempt, of, .. } => Some((*attempt, *of)),
            _ => None,
        })
        .collect();
    assert_eq!(attempts, [(1, 3), (2, 3), (3, 3)]);
}

#[test]
fn after_three_retries_the_failure_stands() {
    let fake = FakeTransport::scripted(
        START,
        vec![
            status(504),
            status(504),
            status(504),
            status(504),
            ok(json!([])),
        ],
    );
    let error = block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert!(error.is_kind(ErrorKind::GatewayTimeout));
    assert_eq!(fake.requests().len(), 4);
}

#[test]
fn retry_after_replaces_the_wait() {
    let limited = HttpResponse::json(429, &json!({"error": {"code": "quota/rate_limited"}}))
        .with_header("Retry-After", "7");
    let fake = FakeTransport::scripted(
        START,
        vec![
            Ok(limited.clone()),
            Ok(limited.with_header("x", "y")),
            ok(json!([])),
        ],
    );
    block_on(client(&fake).list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(fake.sleeps(), vec![7000, 7000]);
}

#[test]
fn post_and_patch_are_never_retried() {
    for answer in [status(503), status(429), status(500)] {
        let fake = FakeTransport::scripted(START, vec![answer.clone(), ok(json!({}))]);
        let client = client(&fake);
        let fields = json!({"title": "x"}).as_object().unwrap().clone();
        assert!(block_on(client.create_record(&collections::ARTICLES, fields.clone())).is_err());
        assert_eq!(fake.requests().len(), 1);
        let fake = FakeTransport::scripted(START, vec![answer, ok(json!({}))]);
        assert!(block_on(
            Client::new(fake.clone(), ClientConfig::new("http://x")).patch_record(
                &collections::ARTICLES,
                "a",
                fields
            )
        )
        .is_err());
        assert_eq!(fake.requests().len(), 1);
    }
}

#[test]
fn retries_can_be_cancelled() {
    let fake = FakeTransport::scripted(START, vec![status(503), status(503), ok(json!([]))]);
    let client = client(&fake);
    let cancel = larder_api::CancelToken::new();
    let stopper = cancel.clone();
    client.set_observer(move |n| {
        if matches!(n, Notice::Retrying { attempt: 2, .. }) {
            stopper.cancel()
        }
    });
    let request = larder_api::Request::data_get("articles");
    assert_eq!(
        block_on(client.execute_cancellable(request, Some(&cancel))),
        Err(ApiError::Cancelled)
    );
    assert_eq!(fake.requests().len(), 2);
}

#[test]
fn transport_failures_are_typed() {
    let fake = FakeTransport::scripted(
        START,
        vec![
            Err(TransportError::Timeout),
            Err(TransportError::Network("refused".into())),
        ],
    );
    let client = client(&fake);
    assert_eq!(
        block_on(client.ping()),
        Err(ApiError::Timeout { after_ms: 30_000 })
    );
    assert!(matches!(block_on(client.ping()), Err(ApiError::Network(m)) if m == "refused"));
}

#[test]
fn success_false_and_malformed_bodies_are_errors() {
    let fake = FakeTransport::scripted(
        START,
        vec![
            Ok(HttpResponse::json(
                200,
                &json!({"success": false, "error": {"code": "resource/conflict", "detail": "dup"}}),
            )),
            Ok(HttpResponse::text(200, "{\"result\": [1, 2")),
            ok(json!({"title": 5})),
        ],
    );
    let client = client(&fake);
    let conflict = block_on(client.ping()).unwrap_err();
    assert!(conflict.is_kind(ErrorKind::Conflict));
    assert!(matches!(
        block_on(client.ping()),
        Err(ApiError::Decode { .. })
    ));
    let wrong_shape = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert!(
        matches!(wrong_shape, ApiError::Decode { ref path, .. } if path == "result"),
        "{wrong_shape:?}"
    );
}

#[test]
fn sign_out_forgets_token_and_credentials() {
    let (fake, logins) = service(3600, |_| ok(json!([])));
    let client = client(&fake);
    block_on(client.sign_in(Credentials::user("ann", "pw"))).ok();
    block_on(client.sign_out());
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    assert_eq!(bearer(fake.requests().last().unwrap()), None);
    assert_eq!(logins.load(Ordering::SeqCst), 1);
    assert!(!block_on(client.is_signed_in()));
}

#[test]
fn a_new_configuration_applies_to_later_requests() {
    let fake = FakeTransport::scripted(START, vec![ok(json!("pong")), ok(json!("pong"))]);
    let client = client(&fake);
    block_on(client.ping()).unwrap();
    let mut config = ClientConfig::split("http://data2", "http://sys2/");
    config.timeout_ms = 5_000;
    client.set_config(config.clone());
    block_on(client.ping()).unwrap();
    let requests = fake.requests();
    assert_eq!(requests[0].url, "http://sys/api/v1/system/ping");
    assert_eq!(
        (requests[1].url.as_str(), requests[1].timeout_ms),
        ("http://sys2/api/v1/system/ping", 5_000)
    );
    assert_eq!(client.config(), config);
}

#[test]
fn at_most_three_data_calls_and_ten_systemic_calls_are_open_at_once() {
    let data = FakeTransport::new(0, |request| {
        Ok(HttpResponse::json(
            200,
            &json!({"success": true, "result": if request.url.contains("/members") { json!([]) } else { json!(["urn:article:a"]) }}),
        ))
    });
    let client = Client::new(data.clone(), ClientConfig::new("http://api"));
    let calls = (0..12).map(|_| client.list(&collections::ARTICLES, 10, 0));
    let answers = block_on(futures::future::join_all(calls));
    assert!(
        answers.iter().all(Result::is_ok),
        "none dropped: {answers:?}"
    );
    assert_eq!(data.requests().len(), 12);
    assert_eq!(
        data.most_open(),
        3,
        "the data API's limit (interface.md §8)"
    );

    let system = FakeTransport::new(0, |_| {
        Ok(HttpResponse::json(
            200,
            &json!({"success": true, "result": []}),
        ))
    });
    let client = Client::new(system.clone(), ClientConfig::new("http://api"));
    let calls = (0..25).map(|_| client.members("h", 10, 0));
    let answers = block_on(futures::future::join_all(calls));
    assert!(answers.iter().all(Result::is_ok));
    assert_eq!(system.most_open(), 10, "the systemic API's limit");
}
