//! The thin slice, one behaviour a test: sign-in, ping, articles, and the envelope for every failure.

mod common;

use common::{Answer, TestServer};
use serde_json::json;

/// The demo server and a curator's token.
async fn curator() -> (TestServer, String) {
    let server = TestServer::demo().await;
    let token = server.login("curator", "curator-demo").await;
    (server, token)
}

/// Creates `urn:article:new-study` as the curator.
async fn create_new_study(server: &TestServer, token: &str) -> Answer {
    server
        .call("POST", "articles", Some(token), Some(json!({"urn": "new-study", "title": "New", "content": "Body", "venue": "V", "authors": ["A"]})))
        .await
}

#[tokio::test]
async fn an_anonymous_ping_answers_unauthenticated() {
    let server = TestServer::demo().await;
    let anonymous = server.call("GET", "system/ping", None, None).await;
    assert_eq!(anonymous.status, 200);
    assert_eq!(anonymous.body["result"]["authenticated"], false);
    server.stop().await;
}

#[tokio::test]
async fn a_signed_in_ping_names_the_caller_and_roles() {
    let (server, token) = curator().await;
    let ping = server.call("GET", "system/ping", Some(&token), None).await;
    assert_eq!(
        ping.body["result"],
        json!({"authenticated": true, "kind": "user", "username": "curator", "roles": ["expert"]})
    );
    server.stop().await;
}

#[tokio::test]
async fn articles_list_as_a_page_of_urns() {
    let (server, token) = curator().await;
    let list = server
        .call("GET", "articles?limit=5", Some(&token), None)
        .await;
    assert_eq!(list.status, 200);
    let ids = list.body["result"].as_array().unwrap();
    assert_eq!(ids.len(), 5);
    assert!(ids[0].as_str().unwrap().starts_with("urn:article:"));
    server.stop().await;
}

#[tokio::test]
async fn a_created_article_gets_its_urn_status_and_creator() {
    let (server, token) = curator().await;
    let created = create_new_study(&server, &token).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let record = &created.body["result"];
    assert_eq!(record["urn"], "urn:article:new-study");
    assert_eq!(record["status"], "active");
    assert_eq!(record["creator"], "curator");
    server.stop().await;
}

#[tokio::test]
async fn an_article_reads_by_slug_and_by_full_urn() {
    let (server, token) = curator().await;
    assert_eq!(create_new_study(&server, &token).await.status, 201);
    for identifier in ["new-study", "urn:article:new-study"] {
        let got = server
            .call("GET", &format!("articles/{identifier}"), Some(&token), None)
            .await;
        assert_eq!(got.status, 200, "{identifier}");
        assert_eq!(got.body["result"]["venue"], "V");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_duplicate_urn_is_a_conflict() {
    let (server, token) = curator().await;
    assert_eq!(create_new_study(&server, &token).await.status, 201);
    let duplicate = server
        .call(
            "POST",
            "articles",
            Some(&token),
            Some(json!({"urn": "new-study", "title": "Again", "content": "", "venue": "V"})),
        )
        .await;
    assert_eq!(duplicate.status, 409);
    assert_eq!(duplicate.body["error"]["code"], "resource/conflict");
    server.stop().await;
}

#[tokio::test]
async fn a_wrong_password_is_unauthorized_in_the_envelope() {
    let server = TestServer::demo().await;
    let wrong_password = server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "curator", "password": "nope"})),
        )
        .await;
    assert_eq!(wrong_password.status, 401);
    assert_eq!(wrong_password.body["success"], false);
    assert_eq!(wrong_password.body["error"]["code"], "auth/unauthorized");
    server.stop().await;
}

#[tokio::test]
async fn a_missing_or_unreadable_token_is_unauthorized() {
    let server = TestServer::demo().await;
    let no_token = server.call("GET", "articles", None, None).await;
    assert_eq!(no_token.status, 401);
    let bad_token = server
        .call("GET", "articles", Some("abc.def.ghi"), None)
        .await;
    assert_eq!(bad_token.status, 401);
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_route_is_not_found_with_help_naming_it() {
    let (server, token) = curator().await;
    let unknown = server
        .call("GET", "no-such-thing/here/deep", Some(&token), None)
        .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.body["error"]["code"], "resource/not_found");
    assert!(unknown.body["help"]
        .as_str()
        .unwrap()
        .contains("/api/v1/no-such-thing"));
    server.stop().await;
}

#[tokio::test]
async fn a_missing_article_is_not_found() {
    let (server, token) = curator().await;
    let missing = server
        .call("GET", "articles/not-there", Some(&token), None)
        .await;
    assert_eq!(missing.status, 404);
    server.stop().await;
}

#[tokio::test]
async fn a_wrong_method_is_not_allowed() {
    let (server, token) = curator().await;
    let wrong_method = server.call("PUT", "system/ping", Some(&token), None).await;
    assert_eq!(wrong_method.status, 405);
    assert_eq!(wrong_method.body["error"]["code"], "request/not_allowed");
    server.stop().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_unprocessable() {
    let (server, token) = curator().await;
    let headers = [
        ("authorization", format!("Bearer {token}")),
        ("content-type", "application/json".to_string()),
    ];
    let (status, _, bytes) = server
        .oneshot("POST", "articles", &headers, b"{not json".to_vec())
        .await;
    // FastAPI answers a body it cannot parse with a 422 (`json_invalid`).
    assert_eq!(status, 422);
    let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["error"]["code"], "request/unprocessable");
    assert_eq!(body["error"]["errors"][0]["type"], "json_invalid");
    server.stop().await;
}

#[tokio::test]
async fn a_urn_that_is_not_a_slug_is_unprocessable() {
    let (server, token) = curator().await;
    let bad_slug = server
        .call(
            "POST",
            "articles",
            Some(&token),
            Some(json!({"urn": "Not A Slug", "title": "x"})),
        )
        .await;
    assert_eq!(bad_slug.status, 422);
    assert_eq!(bad_slug.body["error"]["code"], "request/unprocessable");
    server.stop().await;
}

#[tokio::test]
async fn an_owner_may_not_create_an_article() {
    let server = TestServer::demo().await;
    let owner = server.login("olivia", "olivia-demo").await;
    let forbidden = server
        .call(
            "POST",
            "articles",
            Some(&owner),
            Some(json!({"title": "x"})),
        )
        .await;
    assert_eq!(forbidden.status, 403);
    assert_eq!(forbidden.body["error"]["code"], "auth/forbidden");
    server.stop().await;
}

#[tokio::test]
async fn tampered_and_unsigned_tokens_are_refused() {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let server = TestServer::demo().await;
    let token = server.login("admin", "admin-demo").await;
    let parts: Vec<&str> = token.split('.').collect();

    let mut claims: serde_json::Value =
        serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
    claims["realm_access"]["roles"] = json!(["admin", "expert"]);
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        b64.encode(claims.to_string()),
        parts[2]
    );
    let unsigned = format!(
        "{}.{}.",
        b64.encode(r#"{"alg":"none","typ":"JWT"}"#),
        parts[1]
    );
    for bad in [tampered, unsigned] {
        assert_eq!(
            server
                .call("GET", "articles", Some(&bad), None)
                .await
                .status,
            401
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn an_expired_token_is_refused_and_a_fresh_one_accepted() {
    let server = TestServer::demo().await;
    let token = server.login("admin", "admin-demo").await;
    let identity = server.state.auth.verify(&token).unwrap();
    let now = larder_server::auth::unix_now();
    let expired = server
        .state
        .auth
        .sign_claims(&larder_server::auth::claims_for(
            &identity,
            now - 7200,
            3600,
        ));
    assert_eq!(
        server
            .call("GET", "articles", Some(&expired), None)
            .await
            .status,
        401
    );
    let fresh = server
        .state
        .auth
        .sign_claims(&larder_server::auth::claims_for(&identity, now, 3600));
    assert_eq!(
        server
            .call("GET", "articles", Some(&fresh), None)
            .await
            .status,
        200
    );
    server.stop().await;
}

#[tokio::test]
async fn failed_sign_ins_are_throttled() {
    let server = TestServer::demo().await;
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let answer = server
            .call(
                "POST",
                "system/login",
                None,
                Some(json!({"username": "noah", "password": "wrong"})),
            )
            .await;
        statuses.push(answer.status);
        if answer.status == 429 {
            assert!(answer.headers.contains_key("retry-after"));
        }
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429, 429]);
    // Even the right password waits out the window.
    let right = server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "noah", "password": "noah-demo"})),
        )
        .await;
    assert_eq!(right.status, 429);
    server.stop().await;
}
