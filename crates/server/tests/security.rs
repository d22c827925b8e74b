//! The reference server closed to abuse (issue 14): the sign-in throttle under bursts and from
//! several sources, bounded memory for failures, token checks before bodies are read, equal time
//! for known and unknown names, keys and secrets outside the database and the command line,
//! `help` links that never echo Host, and security headers on the console's pages.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{json, Value};

async fn sign_in(http: &reqwest::Client, base: &str, name: &str, password: &str) -> u16 {
    http.post(format!("{base}/system/login"))
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0)
}

/// A sign-in through the in-process router, as if from `ip`.
async fn sign_in_from(server: &TestServer, ip: [u8; 4], name: &str, password: &str) -> u16 {
    let body = serde_json::to_vec(&json!({"username": name, "password": password})).unwrap();
    let headers = [("content-type", "application/json".to_string())];
    let from = SocketAddr::from((ip, 40_000));
    server
        .oneshot_from(from, "POST", "system/login", &headers, body)
        .await
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_wrong_passwords_gets_five_checks_and_no_more() {
    // A socket: 60 requests race the throttle from spawned tasks on four threads.
    let server = TestServer::demo_socket().await;
    let http = reqwest::Client::new();
    let base = server.base.clone();
    let burst = (0..60).map(|n| {
        let (http, base) = (http.clone(), base.clone());
        tokio::spawn(async move { sign_in(&http, &base, "admin", &format!("wrong-{n}")).await })
    });
    let mut statuses = Vec::new();
    for call in burst {
        statuses.push(call.await.unwrap());
    }
    let checked = statuses.iter().filter(|s| **s == 401).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(checked + refused, 60, "{statuses:?}");
    assert!(checked <= 5, "{checked} passwords were checked");
    server.stop().await;
}

#[tokio::test]
async fn the_owner_still_signs_in_from_elsewhere() {
    let server = TestServer::demo().await;
    let (attacker, owner) = ([127, 0, 0, 2], [127, 0, 0, 3]);
    for _ in 0..5 {
        assert_eq!(sign_in_from(&server, attacker, "admin", "guess").await, 401);
    }
    assert_eq!(
        sign_in_from(&server, attacker, "admin", "admin-demo").await,
        429
    );
    assert_eq!(
        sign_in_from(&server, owner, "admin", "admin-demo").await,
        200,
        "failures from one address do not lock the account for others"
    );
    server.stop().await;
}

#[tokio::test]
async fn one_source_guessing_across_many_accounts_is_throttled() {
    let server = TestServer::demo().await;
    let sprayer = [127, 0, 0, 4];
    let mut refused = false;
    for n in 0..40 {
        if sign_in_from(&server, sprayer, &format!("user{n}"), "guess").await == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "a source spraying many accounts is throttled");
    server.stop().await;
}

#[tokio::test]
async fn a_long_name_is_refused_before_it_is_counted() {
    let server = TestServer::demo().await;
    let before = server.state.auth.throttle().entries();
    // A long name is refused before anything is counted or looked up.
    let long = "n".repeat(10_000);
    assert_eq!(sign_in_from(&server, [127, 0, 0, 1], &long, "x").await, 401);
    assert_eq!(server.state.auth.throttle().entries(), before);
    server.stop().await;
}

#[tokio::test]
async fn sign_in_bodies_are_small() {
    let server = TestServer::demo().await;
    let huge = "n".repeat(1 << 20);
    let too_big = sign_in_from(&server, [127, 0, 0, 1], &huge, "x").await;
    assert_eq!(too_big, 413, "sign-in bodies are small");
    server.stop().await;
}

#[tokio::test]
async fn unknown_and_known_names_take_as_long() {
    let server = TestServer::demo().await;
    // Known and unknown names take turns, so a busy moment of the machine slows both alike;
    // each attempt comes from a fresh source, so the throttle never answers before the check.
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for n in 0..7u8 {
        for (name, times, net) in [("admin", &mut known, 1), ("nobody-at-all", &mut unknown, 2)] {
            let at = Instant::now();
            sign_in_from(&server, [127, 0, net, n], name, "wrong").await;
            times.push(at.elapsed());
        }
    }
    let median = |times: &mut Vec<std::time::Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (known, unknown) = (median(&mut known), median(&mut unknown));
    assert!(
        unknown * 3 >= known,
        "an unknown name answers in {unknown:?}, a known one in {known:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn bodies_without_a_token_are_refused_unread() {
    // A socket: the body is streamed by a client that never ends it.
    let server = TestServer::demo_socket().await;
    // A body that never ends: the answer must come without reading it.
    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    sender.send(Ok(b"{\"name\": \"".to_vec())).await.unwrap();
    let endless = reqwest::Body::wrap_stream(tokio_stream_of(receiver));
    let answer = tokio::time::timeout(
        Duration::from_secs(5),
        reqwest::Client::new()
            .post(format!("{}/households", server.base))
            .header("content-type", "application/json")
            .body(endless)
            .send(),
    )
    .await
    .expect("an answer before the body ends")
    .unwrap();
    assert_eq!(answer.status().as_u16(), 401);
    drop(sender);
    server.stop().await;
}

#[tokio::test]
async fn a_body_with_a_forged_token_is_refused() {
    let server = TestServer::demo().await;
    let forged = server
        .call(
            "POST",
            "households",
            Some("not.a.token"),
            Some(json!({"name": "x"})),
        )
        .await;
    assert_eq!(forged.status, 401);
    server.stop().await;
}

fn tokio_stream_of(
    mut receiver: tokio::sync::mpsc::Receiver<Result<Vec<u8>, std::io::Error>>,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, std::io::Error>> {
    futures_util::stream::poll_fn(move |cx| receiver.poll_recv(cx))
}

#[tokio::test]
async fn help_links_never_echo_the_host_header() {
    let server = TestServer::demo().await;
    let headers = [("host", "evil.example".to_string())];
    let (_, _, bytes) = server
        .oneshot("GET", "articles", &headers, Vec::new())
        .await;
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let help = answer["help"].as_str().unwrap();
    assert!(!help.contains("evil"), "{help}");
    assert_eq!(help, "/api/v1/articles");
    server.stop().await;
}

#[tokio::test]
async fn help_links_start_with_the_public_url() {
    let server = TestServer::start(&["--public-url", "https://api.example.org/"]).await;
    let answer = server.call("GET", "articles", None, None).await;
    assert_eq!(
        answer.body["help"],
        "https://api.example.org/api/v1/articles"
    );
    server.stop().await;
}

#[tokio::test]
async fn keys_and_secrets_come_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("token.key");
    std::fs::write(
        &key,
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    )
    .unwrap();
    let users = dir.path().join("users");
    std::fs::write(
        &users,
        "# accounts\nann:ann-secret:admin\n\nbob:bob-secret\n",
    )
    .unwrap();
    let args = |db: &str| {
        vec![
            "--db".to_string(),
            db.to_string(),
            "--token-key-file".into(),
            key.to_str().unwrap().into(),
            "--user-file".into(),
            users.to_str().unwrap().into(),
        ]
    };
    let first_db = dir.path().join("a.db");
    let first_args = args(first_db.to_str().unwrap());
    let first =
        TestServer::start_with(&first_args.iter().map(String::as_str).collect::<Vec<_>>()).await;
    let token = first.login("ann", "ann-secret").await;
    first.login("bob", "bob-secret").await;
    let stored: Option<Vec<u8>> = first.state.store.with(|conn| {
        rusqlite::OptionalExtension::optional(conn.query_row(
            "SELECT value FROM meta WHERE key = 'token_key'",
            [],
            |row| row.get(0),
        ))
        .unwrap()
    });
    assert!(
        stored.is_none(),
        "with a key file the database holds no key"
    );
    first.stop().await;
    // Another database, the same key: the token still holds.
    let second_db = dir.path().join("b.db");
    let second_args = args(second_db.to_str().unwrap());
    let second =
        TestServer::start_with(&second_args.iter().map(String::as_str).collect::<Vec<_>>()).await;
    let answer = second
        .call("GET", "articles?limit=1", Some(&token), None)
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    second.stop().await;
}

#[test]
fn a_token_ttl_must_be_a_sane_number_of_seconds() {
    for ttl in ["10", "100000", "soon"] {
        let parsed = <larder_server::Options as clap::Parser>::try_parse_from([
            "larder-server",
            "--token-ttl",
            ttl,
        ]);
        assert!(parsed.is_err(), "--token-ttl {ttl}");
    }
}

/// A server hosting a console folder of `files` (name, contents); the folder lives as long as the
/// returned guard.
async fn console_of(files: &[(&str, &[u8])]) -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    for (name, contents) in files {
        std::fs::write(dir.path().join(name), contents).unwrap();
    }
    let server = TestServer::start(&["--static", dir.path().to_str().unwrap()]).await;
    (dir, server)
}

#[tokio::test]
async fn the_console_is_sent_with_security_headers() {
    let config = r#"{"data_api_base": "https://data.example.org/", "system_api_base": "https://system.example.org"}"#;
    let (_dir, server) = console_of(&[
        ("index.html", b"<!doctype html><title>c</title>"),
        ("config.json", config.as_bytes()),
    ])
    .await;
    let (_, headers, _) = server
        .oneshot_root("GET", "/household", &[], Vec::new())
        .await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(
        policy.contains("connect-src 'self' https://data.example.org https://system.example.org"),
        "{policy}"
    );
    assert!(policy.starts_with("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"));
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    // Files other than pages carry no policy (browsers apply it to documents only).
    let (status, headers, _) = server
        .oneshot_root("GET", "/config.json", &[], Vec::new())
        .await;
    assert_eq!(status, 200);
    assert!(!headers.contains_key("content-security-policy"));
    assert_eq!(headers["x-content-type-options"], "nosniff");
    server.stop().await;
}

/// Issue 36 finding 10: the header's `img-src` allows member pictures from `config.json`'s
/// `picture_hosts` only (every `https:` host before), so an administrator viewing someone's
/// household loads nothing from a host the owner chose.
#[tokio::test]
async fn the_image_policy_follows_the_picture_hosts_of_config_json() {
    let image_policy = |policy: &str| {
        policy
            .split("; ")
            .find(|d| d.starts_with("img-src"))
            .unwrap_or_default()
            .to_string()
    };
    let (_dir, server) = console_of(&[("index.html", b"<!doctype html><title>c</title>")]).await;
    let (_, headers, _) = server
        .oneshot_root("GET", "/households", &[], Vec::new())
        .await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert_eq!(image_policy(policy), "img-src 'self' data:", "{policy}");
    server.stop().await;

    let config =
        r#"{"picture_hosts": ["Pictures.Example.org", "https://evil.example", "*.cdn.example"]}"#;
    let (_dir, server) = console_of(&[
        ("index.html", b"<!doctype html><title>c</title>"),
        ("config.json", config.as_bytes()),
    ])
    .await;
    let (_, headers, _) = server
        .oneshot_root("GET", "/households", &[], Vec::new())
        .await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert_eq!(
        image_policy(policy),
        "img-src 'self' data: https://pictures.example.org https://*.cdn.example",
        "{policy}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_console_signing_in_at_an_identity_provider_may_reach_it_and_post_its_sign_out_there() {
    let config = r#"{"oidc": {"issuer": "https://auth.example.org/realms/master", "client_id": "larder-console"}}"#;
    let (_dir, server) = console_of(&[
        ("index.html", b"<!doctype html><title>c</title>"),
        ("config.json", config.as_bytes()),
    ])
    .await;
    let (_, headers, _) = server.oneshot_root("GET", "/", &[], Vec::new()).await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains("connect-src 'self' https://auth.example.org;"),
        "{policy}"
    );
    assert!(
        policy.contains("form-action 'self' https://auth.example.org;"),
        "{policy}"
    );
    server.stop().await;
    // Without a provider, forms post to the console's own origin only.
    let (_dir, server) = console_of(&[("index.html", b"<!doctype html><title>c</title>")]).await;
    let (_, headers, _) = server.oneshot_root("GET", "/", &[], Vec::new()).await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("form-action 'self';"), "{policy}");
    server.stop().await;
}

#[tokio::test]
async fn a_deep_link_gets_the_pages_own_precompressed_copy() {
    // The page carries the start-up set (some 100 KB raw): a deep link must get the build's
    // brotli, as `/index.html` does, not the compression layer's quicker, larger one.
    let (_dir, server) = console_of(&[
        ("index.html", b"<!doctype html><title>raw</title>"),
        ("index.html.br", b"the build's brotli"),
    ])
    .await;
    let accept = [("accept-encoding", "gzip, br".to_string())];
    for path in ["/household", "/records/articles", "/index.html"] {
        let (status, headers, body) = server.oneshot_root("GET", path, &accept, Vec::new()).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["content-encoding"], "br", "{path}");
        assert_eq!(body, b"the build's brotli", "{path}");
    }
    let (_, headers, body) = server
        .oneshot_root("GET", "/household", &[], Vec::new())
        .await;
    assert!(!headers.contains_key("content-encoding"));
    assert_eq!(body, b"<!doctype html><title>raw</title>");
    server.stop().await;
}

#[tokio::test]
async fn the_header_allows_the_pages_own_inline_start_and_nothing_more() {
    // A built page allows its inline script and style by their hashes (cargo xtask dist); the
    // header, which the browser enforces beside the page's own policy, must allow them too.
    let script = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
    let style = "'sha256-RFWPLDbv2BY+rCkDzsE+0fr8ylGr2R2faWMhq4lfEQc='";
    let page = format!(
        "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" \
         content=\"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {script} 'unsafe-inline'; \
         style-src 'self' {style}\"><title>c</title>"
    );
    let (_dir, server) = console_of(&[("index.html", page.as_bytes())]).await;
    let (_, headers, _) = server
        .oneshot_root("GET", "/household", &[], Vec::new())
        .await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {script};")),
        "{policy}"
    );
    assert!(
        policy.contains(&format!("style-src 'self' {style};")),
        "{policy}"
    );
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    server.stop().await;
}
