//! Revocation (issue 21, finding 11): the account files are the whole truth. Changing an
//! account's secret or roles, or removing it, refuses its older tokens once the files are read
//! again (on SIGHUP or at restart); unchanged accounts keep theirs.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{token_of, TestServer};
use serde_json::json;

/// A server whose users come from `users` (a file in `dir`), on an in-memory database.
async fn with_users(dir: &Path, users: &str, extra: &[&str]) -> (TestServer, std::path::PathBuf) {
    let file = dir.join("users");
    std::fs::write(&file, users).unwrap();
    let mut args = vec!["--user-file", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    (TestServer::start(&args).await, file)
}

/// The status `system/ping` answers with `token`: 200 while it holds, 401 once refused.
async fn status(server: &TestServer, token: &str) -> u16 {
    server
        .call("GET", "system/ping", Some(token), None)
        .await
        .status
}

async fn sign_in_status(server: &TestServer, name: &str, password: &str) -> u16 {
    server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": name, "password": password})),
        )
        .await
        .status
}

fn reload(server: &TestServer) -> larder_server::auth::Changes {
    larder_server::account_config::reload(&server.state).expect("reload")
}

#[tokio::test]
async fn a_password_change_refuses_older_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let (server, file) = with_users(dir.path(), "ann:first:expert\n", &[]).await;
    let token = server.login("ann", "first").await;
    assert_eq!(status(&server, &token).await, 200);
    std::fs::write(&file, "ann:second:expert\n").unwrap();
    let changes = reload(&server);
    assert_eq!(changes.changed, ["user:ann"]);
    assert_eq!(status(&server, &token).await, 401);
    assert_eq!(sign_in_status(&server, "ann", "first").await, 401);
    let fresh = server.login("ann", "second").await;
    assert_eq!(status(&server, &fresh).await, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_removed_role_refuses_older_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let (server, file) = with_users(dir.path(), "ann:pw:expert,admin\n", &[]).await;
    let token = server.login("ann", "pw").await;
    std::fs::write(&file, "ann:pw:expert\n").unwrap();
    assert_eq!(reload(&server).changed, ["user:ann"]);
    assert_eq!(status(&server, &token).await, 401);
    let fresh = server.login("ann", "pw").await;
    let ping = server.call("GET", "system/ping", Some(&fresh), None).await;
    assert_eq!(ping.body["result"]["roles"], json!(["expert"]));
    server.stop().await;
}

#[tokio::test]
async fn an_account_removed_from_the_file_is_refused_after_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let (server, file) = with_users(dir.path(), "ann:pw\nbob:pw\n", &[]).await;
    let ann = server.login("ann", "pw").await;
    let bob = server.login("bob", "pw").await;
    std::fs::write(&file, "bob:pw\n").unwrap();
    let changes = reload(&server);
    assert_eq!(changes.removed, ["user:ann"]);
    assert!(changes.added.is_empty() && changes.changed.is_empty());
    assert_eq!(status(&server, &ann).await, 401);
    assert_eq!(sign_in_status(&server, "ann", "pw").await, 401);
    assert_eq!(status(&server, &bob).await, 200, "bob is unchanged");
    server.stop().await;
}

#[tokio::test]
async fn unchanged_accounts_and_demo_accounts_keep_their_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let (server, file) = with_users(dir.path(), "ann:pw:admin\n", &["--demo"]).await;
    let ann = server.login("ann", "pw").await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let family = server
        .login("family01", larder_server::demo::FAMILY_PASSWORD)
        .await;
    // Read again, nothing changed: nothing is rewritten.
    assert!(reload(&server).is_empty());
    std::fs::write(&file, "ann:pw:admin\ncarl:pw\n").unwrap();
    assert_eq!(reload(&server).added, ["user:carl"]);
    for token in [&ann, &olivia, &family] {
        assert_eq!(status(&server, token).await, 200);
    }
    server.login("carl", "pw").await;
    server.stop().await;
}

#[tokio::test]
async fn a_malformed_file_at_reload_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (server, file) = with_users(dir.path(), "ann:pw\n", &[]).await;
    let ann = server.login("ann", "pw").await;
    std::fs::write(&file, "bob:pw:wizard\n").unwrap();
    assert!(larder_server::account_config::reload(&server.state).is_err());
    assert_eq!(status(&server, &ann).await, 200);
    std::fs::remove_file(&file).unwrap();
    assert!(larder_server::account_config::reload(&server.state).is_err());
    assert_eq!(status(&server, &ann).await, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_restart_with_a_changed_file_refuses_older_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("larder.db");
    let users = dir.path().join("users");
    let clients = dir.path().join("clients");
    std::fs::write(&users, "ann:pw:expert\nbob:pw\ncarl:pw\n").unwrap();
    std::fs::write(&clients, "robot:secret:agent\nscript:secret\n").unwrap();
    let args = [
        "--db",
        db.to_str().unwrap(),
        "--user-file",
        users.to_str().unwrap(),
        "--client-file",
        clients.to_str().unwrap(),
    ];
    let first = TestServer::start_with(&args).await;
    let ann = first.login("ann", "pw").await;
    let bob = first.login("bob", "pw").await;
    let carl = first.login("carl", "pw").await;
    let mtm = |id: &'static str| {
        let first = &first;
        async move {
            let answer = first
                .call(
                    "POST",
                    "system/mtm",
                    None,
                    Some(json!({"client_id": id, "client_secret": "secret"})),
                )
                .await;
            assert_eq!(answer.status, 200, "{}", answer.body);
            token_of(&answer.body["result"])
        }
    };
    let robot = mtm("robot").await;
    let script = mtm("script").await;
    first.stop().await;

    // ann loses a role, carl and the client `script` are removed; bob and robot are untouched.
    std::fs::write(&users, "ann:pw\nbob:pw\n").unwrap();
    std::fs::write(&clients, "robot:secret:agent\n").unwrap();
    let second = TestServer::start_with(&args).await;
    assert_eq!(status(&second, &ann).await, 401);
    assert_eq!(status(&second, &carl).await, 401);
    assert_eq!(status(&second, &script).await, 401);
    assert_eq!(sign_in_status(&second, "carl", "pw").await, 401);
    assert_eq!(status(&second, &bob).await, 200);
    assert_eq!(status(&second, &robot).await, 200);
    second.stop().await;
}

/// Kills the server when the test ends, passed or not.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The real binary reloads its account file on SIGHUP.
#[tokio::test]
async fn sighup_reloads_the_account_file() {
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("users");
    std::fs::write(&users, "ann:pw\nbob:pw\n").unwrap();
    let db = dir.path().join("larder.db");
    let child = Command::new(env!("CARGO_BIN_EXE_larder-server"))
        .args(["--addr", "127.0.0.1:0", "--db", db.to_str().unwrap()])
        .args(["--user-file", users.to_str().unwrap()])
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start larder-server");
    let mut child = Killed(child);
    let mut lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("an address").expect("read");
        if let Some(url) = line.strip_prefix("larder-server listening on ") {
            break format!("{}/api/v1", url.trim());
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let http = reqwest::Client::new();
    let login = |name: &'static str| {
        let (http, url) = (&http, &url);
        async move {
            let answer: serde_json::Value = http
                .post(format!("{url}/system/login"))
                .json(&json!({"username": name, "password": "pw"}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            token_of(&answer["result"])
        }
    };
    let ping = |token: String| {
        let (http, url) = (&http, &url);
        async move {
            http.get(format!("{url}/system/ping"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let ann = login("ann").await;
    let bob = login("bob").await;
    assert_eq!(ping(ann.clone()).await, 200);

    std::fs::write(&users, "bob:pw\n").unwrap();
    let hangup = Command::new("kill")
        .args(["-HUP", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(hangup.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    while ping(ann.clone()).await != 401 {
        assert!(Instant::now() < deadline, "ann's token outlived the reload");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        ping(bob).await,
        200,
        "the server is up and bob is unchanged"
    );
    assert!(
        child.0.try_wait().unwrap().is_none(),
        "SIGHUP did not end it"
    );
}
