//! The edges of HTTP: uncacheable token answers, and what `--static` refuses (dotfiles,
//! symlinks).

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
    let server = TestServer::start(&["--static", root.to_str().unwrap()]).await;
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
