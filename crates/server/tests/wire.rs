//! `--wire production`: where production answers differently from the reference wire, the
//! server answers as production does (production.md §1-§5).

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

async fn production() -> TestServer {
    TestServer::start(&["--demo", "--wire", "production"]).await
}

fn claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn sign_in_ping_and_roles_as_keycloak_gives_them() {
    let server = production().await;
    let answer = server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "curator", "password": "curator-demo"})),
        )
        .await;
    let result = &answer.body["result"];
    assert!(result.get("token").is_none(), "no token key: {result}");
    for key in [
        "access_token",
        "expires_in",
        "refresh_token",
        "token_type",
        "scope",
        "session_state",
    ] {
        assert!(result.get(key).is_some(), "{key} in {result}");
    }
    let token = result["access_token"].as_str().unwrap();
    let curator = claims(token);
    assert_eq!(
        curator["resource_access"]["larder-console"]["roles"],
        json!(["Expert"])
    );
    assert_eq!(curator["realm_access"]["roles"], json!([]));
    // A client role, any case, opens the curator's routes.
    let created = server
        .call(
            "POST",
            "guides",
            Some(token),
            Some(json!({"urn": "client-role", "title": "T", "description": "D", "url": "https://example.org",
                        "license": "CC0", "content": "C", "status": "draft"})),
        )
        .await;
    assert_eq!(
        created.status, 200,
        "every success is a 200 here: {}",
        created.body
    );
    let ping = server.call("GET", "system/ping", Some(token), None).await;
    assert_eq!(ping.body["result"], "pong");
    let admin = server.login("admin", "admin-demo").await;
    assert_eq!(claims(&admin)["realm_access"]["roles"], json!(["admin"]));
    server.stop().await;
}

#[tokio::test]
async fn routes_only_the_interface_has_answer_bare_404_and_405() {
    let server = production().await;
    let curator = server.login("curator", "curator-demo").await;
    for (method, path, status, detail) in [
        (
            "GET",
            "artifacts?parent_urn=urn:guide:eat-well-2024",
            405,
            "Method Not Allowed",
        ),
        ("POST", "artifacts/search", 405, "Method Not Allowed"),
        ("GET", "textbook-passages", 405, "Method Not Allowed"),
        (
            "PUT",
            "articles/vitamin-d-bone-health",
            405,
            "Method Not Allowed",
        ),
        ("PATCH", "guides/eat-well-2024/enhance", 404, "Not Found"),
        (
            "PATCH",
            "textbooks/foundations-of-nutrition-science/enhance",
            404,
            "Not Found",
        ),
        ("GET", "no-such-route", 404, "Not Found"),
    ] {
        let body = (method != "GET").then(|| json!({"agent": "x", "fields": {"ai_category": "y"}}));
        let answer = server.call(method, path, Some(&curator), body).await;
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        assert_eq!(answer.body, json!({"detail": detail}), "{method} {path}");
    }
    // `GET articles/search` is read as the article `search`: an enveloped 404.
    let older = server
        .call("GET", "articles/search?q=salt", Some(&curator), None)
        .await;
    assert_error(&older, 404, "resource/not_found");
    server.stop().await;
}

#[tokio::test]
async fn artifacts_patch_to_null_and_stream_without_a_length() {
    let server = production().await;
    let curator = server.login("curator", "curator-demo").await;
    let uploaded = server
        .upload(
            Some(&curator),
            "urn:article:coffee-liver",
            "c.txt",
            b"coffee".to_vec(),
        )
        .await;
    assert_eq!(uploaded.status, 200, "{}", uploaded.body);
    let id = uploaded.body["result"]["id"].as_str().unwrap().to_string();
    let patched = server
        .call(
            "PATCH",
            &format!("artifacts/{id}"),
            Some(&curator),
            Some(json!({"file_type": "txt", "title": "Renamed"})),
        )
        .await;
    assert_eq!(patched.status, 200);
    assert_eq!(patched.body["result"], Value::Null);
    let unchanged = server
        .call("GET", &format!("artifacts/{id}"), Some(&curator), None)
        .await;
    assert_eq!(
        unchanged.body["result"]["title"], "c.txt",
        "production stores nothing"
    );
    let still_checked = server
        .call(
            "PATCH",
            &format!("artifacts/{id}"),
            Some(&curator),
            Some(json!({"title": "x"})),
        )
        .await;
    assert_error(&still_checked, 422, "request/unprocessable");
    let (status, headers, bytes) = server.download(&curator, &id).await;
    assert_eq!(status, 200);
    assert_eq!(bytes, b"coffee");
    assert!(headers.get("content-length").is_none(), "{headers:?}");
    server.stop().await;
}

/// Production validates each guideline hit against the full record: an `fl` that leaves out a
/// required field answers 500 once anything is found; whole records, or nothing found, do not.
#[tokio::test]
async fn a_narrow_guideline_search_fails_on_production_only() {
    for (server, fails) in [
        (production().await, true),
        (TestServer::demo().await, false),
    ] {
        let curator = server.login("curator", "curator-demo").await;
        let search = |body: Value| {
            let (server, curator) = (&server, &curator);
            async move {
                server
                    .call("POST", "guidelines/search", Some(curator), Some(body))
                    .await
            }
        };
        let whole = search(json!({"q": "", "limit": 2})).await;
        assert_eq!(whole.status, 200, "{}", whole.body);
        assert!(whole.body["result"]["total"].as_u64().unwrap() > 0);
        let narrow = search(json!({"q": "", "limit": 2, "fl": ["id", "updated_at"]})).await;
        if fails {
            assert_error(&narrow, 500, "server/internal");
        } else {
            assert_eq!(narrow.status, 200, "{}", narrow.body);
        }
        let none = search(json!({"q": "no-such-word-anywhere", "fl": ["id"]})).await;
        assert_eq!(none.status, 200, "{}", none.body);
        server.stop().await;
    }
}

#[tokio::test]
async fn households_answer_in_production_shapes() {
    let server = production().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let admin = server.login("admin", "admin-demo").await;
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let id = mine.body["result"]["id"].as_str().unwrap().to_string();
    assert_eq!(mine.body["result"]["members"].as_array().unwrap().len(), 3);
    let by_id = server
        .call("GET", &format!("households/{id}"), Some(&olivia), None)
        .await;
    assert_eq!(by_id.body["result"]["members"], json!([]));
    assert_eq!(by_id.body["result"]["member_count"], 3);
    let patched = server
        .call(
            "PATCH",
            &format!("households/{id}"),
            Some(&olivia),
            Some(json!({"name": "Renamed"})),
        )
        .await;
    assert_eq!(patched.body["result"]["member_count"], 0);
    // The administrator's list holds their own households only, each with member_count 0.
    let listed = server
        .call("GET", "households?limit=100", Some(&admin), None)
        .await;
    assert_eq!(listed.body["result"], json!([]));
    // Members come from `members?household_id=`, newest first.
    let members = server
        .call(
            "GET",
            &format!("members?household_id={id}"),
            Some(&olivia),
            None,
        )
        .await;
    let joined: Vec<&str> = members.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["joined_at"].as_str().unwrap())
        .collect();
    assert!(joined.windows(2).all(|w| w[0] >= w[1]), "{joined:?}");
    // The systemic service's 422s carry no field list.
    let refused = server
        .call(
            "POST",
            "members",
            Some(&olivia),
            Some(json!({"household_id": id, "name": ""})),
        )
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    assert!(
        refused.body["error"].get("errors").is_none(),
        "{}",
        refused.body
    );
    server.stop().await;
}

#[test]
fn help_is_printed_and_succeeds() {
    for flag in ["--help", "-h"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_larder-server"))
            .arg(flag)
            .output()
            .expect("larder-server runs");
        assert!(out.status.success(), "{flag}: {:?}", out.status);
        let usage = String::from_utf8_lossy(&out.stdout);
        assert!(
            usage.contains("--wire") && usage.contains("--static"),
            "{usage}"
        );
    }
    let wrong = std::process::Command::new(env!("CARGO_BIN_EXE_larder-server"))
        .arg("--no-such-option")
        .output()
        .expect("larder-server runs");
    assert!(!wrong.status.success());
}
