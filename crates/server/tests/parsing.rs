//! Property test of the server's request parsing: generated requests (any method, paths built
//! from the API's own segments and from noise, query strings, bearer tokens real and forged,
//! bodies of arbitrary JSON or bytes with any content type) go through the whole router
//! in-process. Whatever arrives, the answer is never a 5xx, and every failure is the error
//! envelope. 10,000 cases here; `cargo xtask fuzz` runs many more (LARDER_FUZZ_CASES).
//! `LARDER_FUZZ_TRACE=1` prints every answer's status, which is how RELIABILITY.md's spread of
//! statuses was counted (`-- --nocapture | grep STATUS`).

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use larder_contract::COLLECTIONS;
use larder_server::app::{router, Apis};
use larder_server::Options;
use proptest::prelude::*;
use serde_json::{json, Value};
use tower::ServiceExt;

fn cases() -> u32 {
    std::env::var("LARDER_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

struct World {
    runtime: tokio::runtime::Runtime,
    app: Router,
    tokens: Vec<String>,
}

/// One demo server for every case (its database changes as cases write to it, as a real one would).
fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut options = Options::for_tests();
        options.demo = true;
        let state = larder_server::prepare(options).expect("demo state");
        let app = router(state, Apis::Both, &[]);
        let tokens = runtime.block_on(async {
            let mut tokens = Vec::new();
            for (user, password) in [("admin", "admin-demo"), ("olivia", "olivia-demo")] {
                let request = Request::post("/api/v1/system/login")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(
                        json!({"username": user, "password": password}).to_string(),
                    ))
                    .unwrap();
                let answer = app.clone().oneshot(request).await.unwrap();
                let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
                    .await
                    .unwrap();
                let body: Value = serde_json::from_slice(&bytes).unwrap();
                let token = ["token", "access_token", "jwt"]
                    .iter()
                    .find_map(|key| body["result"][key].as_str())
                    .unwrap_or_else(|| panic!("no token in {body}"));
                tokens.push(token.to_string());
            }
            tokens
        });
        World {
            runtime,
            app,
            tokens,
        }
    })
}

/// Path segments besides the collections' own (`larder_contract::COLLECTIONS`).
const OTHER_SEGMENTS: &[&str] = &[
    "search",
    "enhance",
    "by-guide",
    "by-textbook",
    "import",
    "replace",
    "upload",
    "download",
    "households",
    "me",
    "members",
    "profile",
    "system",
    "login",
    "mtm",
    "ping",
    "urn:article:vitamin-d-and-bone-health",
    "urn:guide:healthy-eating-basics",
    "urn:textbook:human-nutrition",
    "00000000-0000-0000-0000-000000000000",
    "1",
    "-1",
    "",
    "..",
    "%2e%2e",
    "%00",
    "%ZZ",
    "urn:article:",
    "'; DROP TABLE records; --",
];

fn collection_paths() -> Vec<&'static str> {
    COLLECTIONS.iter().map(|c| c.path).collect()
}

const QUERY_KEYS: &[&str] = &[
    "limit",
    "offset",
    "q",
    "fq",
    "sort",
    "rows",
    "start",
    "parent_urn",
    "household_id",
    "page",
    "facet",
];

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select([collection_paths(), OTHER_SEGMENTS.to_vec()].concat())
            .prop_map(str::to_string),
        1 => "[a-zA-Z0-9:._~%-]{0,24}",
    ]
}

/// The API's own route shapes; `{c}` is a collection and `{id}` any identifier-like segment.
const ROUTES: &[&str] = &[
    "{c}",
    "{c}/{id}",
    "{c}/search",
    "{c}/{id}/enhance",
    "artifacts/upload",
    "artifacts/{id}/download",
    "guidelines/by-guide/{id}",
    "guidelines/by-guide/{id}/search",
    "guidelines/by-guide/{id}/import",
    "textbook-passages/by-textbook/{id}",
    "textbook-passages/by-textbook/{id}/search",
    "textbook-passages/by-textbook/{id}/replace",
    "households",
    "households/me",
    "households/{id}",
    "members",
    "members/{id}",
    "members/{id}/profile",
    "system/login",
    "system/mtm",
    "system/ping",
];

/// Mostly real route shapes with odd identifiers, sometimes any sequence of segments.
fn path() -> impl Strategy<Value = String> {
    let routed = (
        proptest::sample::select(ROUTES),
        proptest::sample::select(collection_paths()),
        segment(),
    )
        .prop_map(|(route, collection, id)| route.replace("{c}", collection).replace("{id}", &id));
    prop_oneof![
        3 => routed,
        1 => proptest::collection::vec(segment(), 0..5).prop_map(|s| s.join("/")),
    ]
}

fn query() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        "-?[0-9]{1,22}",
        "[ -~]{0,30}",
        Just("title:*".to_string()),
        Just("publication_year:[2000 TO *]".to_string()),
    ];
    proptest::collection::vec((proptest::sample::select(QUERY_KEYS), value), 0..4).prop_map(
        |pairs| {
            pairs
                .into_iter()
                .map(|(k, v)| format!("{k}={}", encode(&v)))
                .collect::<Vec<_>>()
                .join("&")
        },
    )
}

/// Percent-encodes everything but unreserved characters, so any text can sit in a URI.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn json_value() -> impl Strategy<Value = Value> {
    let keys = proptest::sample::select(
        &[
            "urn",
            "title",
            "content",
            "status",
            "type",
            "limit",
            "offset",
            "q",
            "fq",
            "sort",
            "facets",
            "highlight",
            "fields",
            "agent",
            "guide_urn",
            "textbook_urn",
            "sequence_no",
            "page_no",
            "text",
            "passages",
            "guidelines",
            "structure_tree",
            "name",
            "household_id",
            "username",
            "password",
            "client_id",
            "client_secret",
            "publication_year",
            "tags",
        ][..],
    );
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[ -~]{0,20}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(keys.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.into(), v)).collect())),
        ]
    })
}

#[derive(Debug, Clone)]
enum Auth {
    None,
    Real(usize),
    Forged(String),
}

fn auth() -> impl Strategy<Value = Auth> {
    prop_oneof![
        Just(Auth::None),
        (0usize..2).prop_map(Auth::Real),
        "[ -~]{0,60}".prop_map(Auth::Forged),
    ]
}

fn body() -> impl Strategy<Value = (Option<&'static str>, Vec<u8>)> {
    prop_oneof![
        Just((None, Vec::new())),
        json_value().prop_map(|v| (Some("application/json"), v.to_string().into_bytes())),
        proptest::collection::vec(any::<u8>(), 0..200).prop_map(|b| (Some("application/json"), b)),
        proptest::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| (Some("multipart/form-data; boundary=x"), b)),
        proptest::collection::vec(any::<u8>(), 0..200).prop_map(|b| (Some("text/plain"), b)),
    ]
}

fn method() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(
        &[
            "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
        ][..],
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_request_gets_a_server_error_and_every_failure_is_an_envelope(
        method in method(),
        path in path(),
        query in query(),
        auth in auth(),
        (content_type, body) in body(),
    ) {
        let world = world();
        let mut uri = format!("/api/v1/{path}");
        if !query.is_empty() {
            uri = format!("{uri}?{query}");
        }
        // Text that is not a valid URI never reaches a server: hyper refuses it on the wire.
        let Ok(uri) = uri.parse::<axum::http::Uri>() else {
            return Ok(());
        };
        let mut request = Request::builder().method(method).uri(uri.clone());
        match &auth {
            Auth::None => {}
            Auth::Real(i) => request = request.header(header::AUTHORIZATION, format!("Bearer {}", world.tokens[*i])),
            Auth::Forged(text) => {
                if let Ok(value) = header::HeaderValue::from_str(&format!("Bearer {text}")) {
                    request = request.header(header::AUTHORIZATION, value);
                }
            }
        }
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let request = request.body(Body::from(body)).unwrap();
        let (status, head_only, bytes) = world.runtime.block_on(async {
            let answer = world.app.clone().oneshot(request).await.unwrap();
            let status = answer.status().as_u16();
            let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX).await.unwrap();
            (status, method == "HEAD", bytes)
        });
        if std::env::var_os("LARDER_FUZZ_TRACE").is_some() {
            eprintln!("STATUS {status} {method} {uri}");
        }
        prop_assert!(status < 500, "{method} {uri} answered {status}: {}", String::from_utf8_lossy(&bytes));
        if status >= 400 && !head_only {
            let envelope: Value = serde_json::from_slice(&bytes)
                .map_err(|e| TestCaseError::fail(format!("{method} {uri}: {status} not JSON: {e}")))?;
            prop_assert_eq!(&envelope["success"], &json!(false), "{} {}", method, uri);
            prop_assert!(envelope["error"]["code"].is_string(), "{method} {uri}: {envelope}");
        }
    }
}
