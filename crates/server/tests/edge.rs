//! The edges of HTTP: the Host check (DNS rebinding), uncacheable token answers, and what
//! `--static` refuses (dotfiles, symlinks).

mod common;

use common::TestServer;
use larder_server::Options;
use serde_json::{json, Value};

async fn ping_as(server: &TestServer, host: &str) -> (u16, Value) {
    let answer = server
        .http
        .get(format!("{}/system/ping", server.base))
        .header("host", host)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_loopback_server_answers_only_its_own_names() {
    let server = TestServer::start_socket(&[]).await;
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
        "10.0.0.1",
    ] {
        let (status, body) = ping_as(&server, host).await;
        assert_eq!(status, 421, "{host}: {body}");
        assert_eq!(body["success"], false);
        assert_eq!(body["error"]["code"], "request/misdirected");
        assert_eq!(body["help"], "/api/v1/system/ping");
    }
    for host in [
        "localhost",
        "LocalHost.:9",
        "127.0.0.1:1",
        "[::1]:8080",
        "[::1]",
    ] {
        let (status, body) = ping_as(&server, host).await;
        assert_eq!(status, 200, "{host}: {body}");
    }
    server.stop().await;
}

#[tokio::test]
async fn allow_host_and_public_url_add_names() {
    let server = TestServer::start_socket(&[
        "--allow-host",
        "larder.test",
        "--allow-host",
        "Pantry.Example",
        "--public-url",
        "https://api.example.org:8443/",
    ])
    .await;
    for host in [
        "larder.test",
        "pantry.example:80",
        "api.example.org",
        "localhost:1",
    ] {
        assert_eq!(ping_as(&server, host).await.0, 200, "{host}");
    }
    assert_eq!(ping_as(&server, "evil.example").await.0, 421);
    server.stop().await;
}

/// Starts a server bound to every interface (reached here through loopback).
async fn on_any_interface(extra: &[&str]) -> (TestServer, larder_server::Running) {
    let mut args = vec!["larder-server", "--addr", "0.0.0.0:0", "--db", ":memory:"];
    args.extend_from_slice(extra);
    let options = <Options as clap::Parser>::parse_from(args);
    let state = larder_server::prepare(options).expect("prepare");
    let running = larder_server::start(state.clone()).await.expect("start");
    let server = TestServer {
        state,
        running: None,
        base: format!("http://127.0.0.1:{}/api/v1", running.addr.port()),
        http: reqwest::Client::new(),
        router: None,
    };
    (server, running)
}

#[tokio::test]
async fn a_server_on_every_interface_checks_only_when_given_names() {
    let (server, running) = on_any_interface(&[]).await;
    assert_eq!(ping_as(&server, "anything.example").await.0, 200);
    running.stop().await;
    let (server, running) = on_any_interface(&["--allow-host", "larder.lan"]).await;
    assert_eq!(ping_as(&server, "larder.lan:8080").await.0, 200);
    assert_eq!(ping_as(&server, "localhost").await.0, 200);
    assert_eq!(ping_as(&server, "anything.example").await.0, 421);
    running.stop().await;
}

#[tokio::test]
async fn token_answers_are_never_cached() {
    let server = TestServer::start_socket(&[
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

#[cfg(unix)]
#[tokio::test]
async fn static_refuses_dotfiles_and_symlinks() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("index.html"), "<html>console</html>").unwrap();
    std::fs::write(root.join("app.js"), "plain").unwrap();
    std::fs::write(root.join("app.js.br"), "brotli").unwrap();
    std::fs::write(root.join("app.js.gz"), "gzip").unwrap();
    std::fs::write(root.join(".env"), "TOKEN=secret").unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/config"), "secret").unwrap();
    std::fs::create_dir(root.join("assets")).unwrap();
    std::fs::write(root.join("assets/site.css"), "body{}").unwrap();
    symlink(outside.path().join("secret.txt"), root.join("leak.txt")).unwrap();
    symlink(outside.path(), root.join("linked")).unwrap();
    symlink(root.join("app.js"), root.join("inside.js")).unwrap();
    // Twins of a file that does not exist, linked outside.
    symlink(outside.path().join("secret.txt"), root.join("ghost.js.br")).unwrap();
    symlink(outside.path().join("secret.txt"), root.join("ghost.js.gz")).unwrap();
    let server = TestServer::start_socket(&["--static", root.to_str().unwrap()]).await;
    let origin = server.base.trim_end_matches("/api/v1").to_string();
    let get = |path: &str, encoding: &str| {
        server
            .http
            .get(format!("{origin}{path}"))
            .header("accept-encoding", encoding)
            .send()
    };
    for path in [
        "/.env",
        "/%2eenv",
        "/.git/config",
        "/assets/.env",
        "/leak.txt",
        "/linked/secret.txt",
        "/inside.js",
    ] {
        let answer = get(path, "identity").await.unwrap();
        assert_eq!(answer.status().as_u16(), 404, "{path}");
        let text = answer.text().await.unwrap();
        assert!(!text.contains("secret"), "{path}: {text}");
    }
    for encoding in ["br", "gzip"] {
        let answer = get("/ghost.js", encoding).await.unwrap();
        assert_eq!(answer.status().as_u16(), 404, "{encoding}");
        let text = answer.text().await.unwrap();
        assert!(!text.contains("secret"), "{encoding}: {text}");
    }
    for (path, encoding, body) in [
        ("/app.js", "identity", "plain"),
        ("/app.js", "br", "brotli"),
        ("/app.js", "gzip", "gzip"),
        ("/assets/site.css", "identity", "body{}"),
        ("/", "identity", "<html>console</html>"),
        ("/records/articles/x", "identity", "<html>console</html>"),
    ] {
        let answer = get(path, encoding).await.unwrap();
        assert_eq!(answer.status().as_u16(), 200, "{path} {encoding}");
        assert_eq!(answer.bytes().await.unwrap(), body.as_bytes(), "{path}");
    }
    server.stop().await;
}

/// Two `Host` headers are a 400 (RFC 9112 §3.2), in either order and however allowed each is.
#[tokio::test]
async fn a_duplicate_host_header_is_a_400() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_socket(&[]).await;
    let addr = server.running.as_ref().expect("running").addr;
    for hosts in [
        ["127.0.0.1", "evil.example"],
        ["evil.example", "127.0.0.1"],
        ["localhost", "localhost"],
    ] {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "GET /api/v1/system/ping HTTP/1.1\r\nHost: {}\r\nHost: {}\r\nConnection: close\r\n\r\n",
            hosts[0], hosts[1]
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{hosts:?}: {answer}");
    }
    let (status, _) = ping_as(&server, "127.0.0.1").await;
    assert_eq!(status, 200);
    server.stop().await;
}
