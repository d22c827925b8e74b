//! The thin slice over real HTTP: sign-in, ping, articles, and the envelope for every failure.

mod common;

use common::TestServer;
use serde_json::json;

#[tokio::test]
async fn login_ping_and_articles() {
    let server = TestServer::demo().await;
    let anonymous = server.call("GET", "system/ping", None, None).await;
    assert_eq!(anonymous.status, 200);
    assert_eq!(anonymous.body["result"]["authenticated"], false);

    let token = server.login("curator", "curator-demo").await;
    let ping = server.call("GET", "system/ping", Some(&token), None).await;
    assert_eq!(
        ping.body["result"],
        json!({"authenticated": true, "kind": "user", "username": "curator", "roles": ["expert"]})
    );

    let list = server
        .call("GET", "articles?limit=5", Some(&token), None)
        .await;
    assert_eq!(list.status, 200);
    let ids = list.body["result"].as_array().unwrap();
    assert_eq!(ids.len(), 5);
    assert!(ids[0].as_str().unwrap().starts_with("urn:article:"));

    let created = server
        .call("POST", "articles", Some(&token), Some(json!({"urn": "new-study", "title": "New", "content": "Body", "venue": "V", "authors": ["A"]})))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let record = &created.body["result"];
    assert_eq!(record["urn"], "urn:article:new-study");
    assert_eq!(record["status"], "active");
    assert_eq!(record["creator"], "curator");

    for identifier in ["new-study", "urn:article:new-study"] {
        let got = server
            .call("GET", &format!("articles/{identifier}"), Some(&token), None)
            .await;
        assert_eq!(got.status, 200, "{identifier}");
        assert_eq!(got.body["result"]["venue"], "V");
    }
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
async fn failures_use_the_envelope() {
    let server = TestServer::demo_socket().await;
    let token = server.login("curator", "curator-demo").await;

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

    let no_token = server.call("GET", "articles", None, None).await;
    assert_eq!(no_token.status, 401);

    let bad_token = server
        .call("GET", "articles", Some("abc.def.ghi"), None)
        .await;
    assert_eq!(bad_token.status, 401);

    let unknown = server
        .call("GET", "no-such-thing/here/deep", Some(&token), None)
        .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.body["error"]["code"], "resource/not_found");
    assert!(unknown.body["help"]
        .as_str()
        .unwrap()
        .contains("/api/v1/no-such-thing"));

    let missing = server
        .call("GET", "articles/not-there", Some(&token), None)
        .await;
    assert_eq!(missing.status, 404);

    let wrong_method = server.call("PUT", "system/ping", Some(&token), None).await;
    assert_eq!(wrong_method.status, 405);
    assert_eq!(wrong_method.body["error"]["code"], "request/not_allowed");

    let malformed = server
        .http
        .post(format!("{}/articles", server.base))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    // FastAPI answers a body it cannot parse with a 422 (`json_invalid`).
    assert_eq!(malformed.status().as_u16(), 422);
    let body: serde_json::Value = malformed.json().await.unwrap();
    assert_eq!(body["error"]["code"], "request/unprocessable");
    assert_eq!(body["error"]["errors"][0]["type"], "json_invalid");

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
async fn tokens_that_are_tampered_unsigned_or_expired_are_refused() {
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
