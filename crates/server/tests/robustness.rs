//! No input produces a 500: odd bodies, queries and paths on every route; plus the HTTP
//! plumbing (split system address, CORS preflight, compression) that the console relies on.

mod common;

use common::TestServer;
use serde_json::{json, Value};

fn odd_bodies() -> Vec<Value> {
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!([deep]);
    }
    vec![
        json!(null),
        json!(0),
        json!("text"),
        json!([]),
        json!([{"a": 1}]),
        json!({}),
        json!({"title": {"nested": true}, "urn": ["x"], "page_no": 9223372036854775807u64, "sequence_no": -1}),
        json!({"guide_urn": 5, "textbook_urn": null, "parent_urn": {}, "household_id": [], "agent": 1}),
        json!({"q": [], "fq": [1], "sort": 5, "limit": 1e300, "fields": {"a": 1}}),
        // Once 500s ("Expression tree is too large"): now capped with a 400.
        json!({"q": "a", "fq": vec!["status:active"; 1001], "sort": vec!["title asc"; 1001].join(", ")}),
        json!({"fields": vec!["status"; 500], "highlight": true}),
        json!({"passages": "all", "guidelines": {}, "structure_tree": [[]], "members": 3, "profile": []}),
        json!({"name": "x", "age_group": "adult", "dietary_groups": [null], "metadata": "m"}),
        json!({"sequence_no": 9223372036854775807i64, "page_no": 1, "text": "t", "rule_text": "r", "title": "t"}),
        deep,
    ]
}

#[tokio::test]
async fn no_input_produces_a_server_error() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let home = server
        .call(
            "GET",
            "households/me",
            Some(&server.login("olivia", "olivia-demo").await),
            None,
        )
        .await;
    let household = home.body["result"]["id"].as_str().unwrap().to_string();
    let member = home.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let guide = server
        .call("GET", "guides/eat-well-2024", Some(&admin), None)
        .await;
    let artifact = guide.body["result"]["artifacts"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let rule = guide.body["result"]["guidelines"][0]
        .as_str()
        .unwrap()
        .to_string();
    let mut routes: Vec<(&str, String)> = Vec::new();
    for collection in larder_contract::COLLECTIONS {
        let path = collection.path;
        let one = match path {
            "artifacts" => artifact.clone(),
            "guidelines" => rule.clone(),
            "textbook-passages" => "00000000-0000-0000-0000-000000000000".into(),
            "articles" => "coffee-liver".into(),
            "guides" => "eat-well-2024".into(),
            "textbooks" => "foundations-of-nutrition-science".into(),
            _ => "nordic-fct-2023".into(),
        };
        routes.push(("POST", path.to_string()));
        routes.push(("POST", format!("{path}/search")));
        routes.push(("PATCH", format!("{path}/{one}")));
        routes.push(("PUT", format!("{path}/{one}")));
        routes.push(("PATCH", format!("{path}/{one}/enhance")));
    }
    for route in [
        "guidelines/by-guide/eat-well-2024/import",
        "guidelines/by-guide/eat-well-2024/search",
        "textbook-passages/by-textbook/foundations-of-nutrition-science/replace",
        "textbook-passages/by-textbook/foundations-of-nutrition-science/search",
        "households",
        "members",
        "system/login",
        "system/mtm",
        "artifacts/upload",
    ] {
        routes.push(("POST", route.to_string()));
    }
    routes.push(("PATCH", format!("households/{household}")));
    routes.push(("PATCH", format!("members/{member}")));
    routes.push(("PATCH", format!("members/{member}/profile")));
    routes.push(("POST", format!("members/{member}/profile")));
    let mut checked = 0;
    for (method, route) in &routes {
        for body in odd_bodies() {
            let answer = server
                .call(method, route, Some(&admin), Some(body.clone()))
                .await;
            checked += 1;
            assert!(
                answer.status < 500,
                "{method} {route} {body}: {} {}",
                answer.status,
                answer.body
            );
            if answer.status >= 400 {
                assert_eq!(answer.body["success"], false, "{method} {route}");
            }
        }
    }
    let odd_paths = [
        "articles/%FF%FE",
        "articles/..%2F..%2Fetc",
        "articles?limit=99999999999999999999",
        "articles?offset=abc&limit=",
        "artifacts?parent_urn=",
        "artifacts/%00/download",
        "members?household_id=%00",
        "households?limit=-5",
        "guidelines/by-guide/%22;%20DROP%20TABLE%20records",
        "textbook-passages/by-textbook/x?limit=0",
        "articles/search?q=%22&limit=0",
        "articles/search?q=NEAR(&limit=1",
    ];
    for path in odd_paths {
        let answer = server.call("GET", path, Some(&admin), None).await;
        checked += 1;
        assert!(
            answer.status < 500,
            "GET {path}: {} {}",
            answer.status,
            answer.body
        );
        assert!(
            answer.status >= 400 || answer.body["success"] == true,
            "GET {path}"
        );
    }
    assert!(checked > 500, "{checked}");
    let still = server
        .call("GET", "articles?limit=1", Some(&admin), None)
        .await;
    assert_eq!(still.status, 200);
    server.stop().await;
}

#[tokio::test]
async fn the_system_and_data_apis_answer_on_their_own_addresses() {
    // Sockets: the two APIs are served on two listeners.
    let server = TestServer::start_socket(&["--demo", "--system-addr", "127.0.0.1:0"]).await;
    let running = server.running.as_ref().unwrap();
    assert_ne!(running.addr, running.system_addr);
    let system = format!("http://{}/api/v1", running.system_addr);
    let login = server
        .http
        .post(format!("{system}/system/login"))
        .json(&json!({"username": "olivia", "password": "olivia-demo"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status().as_u16(), 200);
    let token = common::token_of(&login.json::<Value>().await.unwrap()["result"]);
    let home = server
        .http
        .get(format!("{system}/households/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(home.status().as_u16(), 200);
    let no_data_there = server
        .http
        .get(format!("{system}/articles"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(no_data_there.status().as_u16(), 404);
    let no_system_here = server
        .call("GET", "households/me", Some(&token), None)
        .await;
    assert_eq!(no_system_here.status, 404);
    let data_here = server
        .call("GET", "articles?limit=1", Some(&token), None)
        .await;
    assert_eq!(
        data_here.status, 200,
        "a token from the systemic address works on the data address"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_cors_preflight_allows_the_consoles_methods() {
    let server = TestServer::demo().await;
    let headers = [
        ("origin", "http://console.example".to_string()),
        ("access-control-request-method", "PATCH".to_string()),
        (
            "access-control-request-headers",
            "authorization, content-type".to_string(),
        ),
    ];
    let (status, headers, _) = server
        .oneshot("OPTIONS", "articles/coffee-liver", &headers, Vec::new())
        .await;
    assert!((200..300).contains(&status), "{status}");
    let methods = headers["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .to_uppercase();
    assert!(
        methods.contains("PATCH") && methods.contains("DELETE"),
        "{methods}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_long_list_is_compressed_when_asked() {
    let server = TestServer::demo().await;
    let token = server.login("olivia", "olivia-demo").await;
    let headers = [
        ("authorization", format!("Bearer {token}")),
        ("accept-encoding", "gzip".to_string()),
    ];
    let (_, headers, _) = server
        .oneshot("GET", "articles?limit=1000", &headers, Vec::new())
        .await;
    assert_eq!(
        headers.get("content-encoding").map(|v| v.to_str().unwrap()),
        Some("gzip")
    );
    server.stop().await;
}

/// A console folder: `index.html` and one hashed asset.
fn console_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<html>console</html>").unwrap();
    std::fs::write(dir.path().join("app-0123456789abcdef.js"), "console.log(1)").unwrap();
    // `cargo xtask dist`'s layout: the hash names the folder.
    let folder = dir.path().join("larder-0123456789abcdef");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("chunk_5.wasm"), "wasm").unwrap();
    dir
}

/// A GET of a console path through the in-process router: status, headers, body text.
async fn page(server: &TestServer, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let (status, headers, bytes) = server.oneshot_root("GET", path, &[], Vec::new()).await;
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

#[tokio::test]
async fn the_console_is_served_with_a_fallback_and_caching() {
    let dir = console_dir();
    let static_dir = dir.path().to_str().unwrap().to_string();
    let server = TestServer::start(&["--static", &static_dir]).await;
    // Deep links get the page, never kept: even one that looks hashed.
    for path in [
        "/",
        "/records/articles/urn:article:x",
        "/household/members/m-0123456789abcdef01",
        "/x-0123456789abcdef/y",
    ] {
        let (status, headers, text) = page(&server, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["cache-control"], "no-cache");
        assert_eq!(text, "<html>console</html>");
    }
    for hashed in [
        "/app-0123456789abcdef.js",
        "/larder-0123456789abcdef/chunk_5.wasm",
    ] {
        let (status, asset, _) = page(&server, hashed).await;
        assert_eq!(status, 200, "{hashed}");
        assert_eq!(
            asset["cache-control"], "public, max-age=31536000, immutable",
            "{hashed}"
        );
    }
    // A missing file is a 404, never index.html in its place (the console reads an absent
    // config.json as "use this origin").
    // Nor is it kept: a file missing under a hashed name or folder may be there after the next
    // deployment, so a 404 is never cached for a year.
    for missing in [
        "/config.json",
        "/app-ffffffffffffffff.js",
        "/sub/dir/file.css",
        "/larder-0123456789abcdef/missing.wasm",
    ] {
        let (status, headers, _) = page(&server, missing).await;
        assert_eq!(status, 404, "{missing}");
        assert_eq!(headers["cache-control"], "no-cache", "{missing}");
    }
    let api = server
        .call("POST", "nothing/here", None, Some(json!({})))
        .await;
    assert_eq!(api.status, 404);
    assert_eq!(api.body["error"]["code"], "resource/not_found");
    server.stop().await;
}

/// A demo server with the console under `/console/`.
async fn console_under_a_prefix(dir: &tempfile::TempDir) -> TestServer {
    let static_dir = dir.path().to_str().unwrap().to_string();
    TestServer::start(&[
        "--demo",
        "--static",
        &static_dir,
        "--static-prefix",
        "/console/",
    ])
    .await
}

#[tokio::test]
async fn the_console_can_live_under_a_prefix() {
    let dir = console_dir();
    let server = console_under_a_prefix(&dir).await;
    // Pages (deep links included) under the prefix get index.html.
    for path in [
        "/console/",
        "/console",
        "/console/sign-in",
        "/console/records/articles/urn:article:x",
    ] {
        let (status, headers, text) = page(&server, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        assert_eq!(text, "<html>console</html>", "{path}");
    }
    let (status, headers, text) = page(&server, "/console/app-0123456789abcdef.js").await;
    assert_eq!(status, 200);
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(text, "console.log(1)");
    server.stop().await;
}

#[tokio::test]
async fn nothing_outside_the_console_prefix_is_the_console() {
    let dir = console_dir();
    let server = console_under_a_prefix(&dir).await;
    // Missing files under the prefix, and anything outside it, are 404s, never the page.
    for missing in [
        "/console/config.json",
        "/console/app-ffffffffffffffff.js",
        "/",
        "/sign-in",
        "/app-0123456789abcdef.js",
        "/consoles/sign-in",
    ] {
        let (status, _, text) = page(&server, missing).await;
        assert_eq!(status, 404, "{missing}");
        assert_ne!(text, "<html>console</html>", "{missing}");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_api_stays_put_when_the_console_has_a_prefix() {
    let dir = console_dir();
    let server = console_under_a_prefix(&dir).await;
    let token = server.login("admin", "admin-demo").await;
    let list = server
        .call("GET", "articles?limit=1", Some(&token), None)
        .await;
    assert_eq!(list.status, 200);
    let unknown = server.call("GET", "nothing/here", None, None).await;
    assert_eq!(unknown.body["error"]["code"], "resource/not_found");
    server.stop().await;
}

#[test]
fn a_static_prefix_must_be_a_plain_path_outside_the_api() {
    use clap::Parser;
    let parse = |prefix: &str| {
        larder_server::Options::try_parse_from(["larder-server", "--static-prefix", prefix])
            .map(|o| o.static_prefix)
    };
    assert_eq!(parse("/").unwrap(), "/");
    assert_eq!(parse("/console/").unwrap(), "/console");
    assert_eq!(parse("a/b").unwrap(), "/a/b");
    for bad in ["/api", "/api/v1", "/a//b", "/{x}", "/../up"] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}
