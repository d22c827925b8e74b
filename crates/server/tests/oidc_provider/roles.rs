//! The provider's roles open the service's gates; crafted tokens do not.

use super::*;

#[tokio::test]
async fn the_providers_roles_open_the_services_gates_and_crafted_tokens_do_not() {
    let provider = Provider::start();
    let console = Console::discover(&provider.issuer).await;
    let server = TestServer::start(&["--demo", "--oidc-issuer", &provider.issuer]).await;

    // The curator's Expert is a client role of the console: the expert's gate passes.
    let (_, curator) = console.sign_in(&mut Browser::new(), "curator").await;
    let ping = server
        .call("GET", "system/ping", Some(&curator.access_token), None)
        .await;
    let roles = ping.body["result"]["roles"].as_array().unwrap().clone();
    assert!(roles.contains(&json!("expert")), "{roles:?}");
    assert!(!roles.contains(&json!("admin")));
    assert_eq!(
        server
            .call("GET", "households", Some(&curator.access_token), None)
            .await
            .status,
        403
    );
    // The admin's realm role: every household.
    let (_, admin) = console.sign_in(&mut Browser::new(), "admin").await;
    assert_eq!(
        server
            .call("GET", "households", Some(&admin.access_token), None)
            .await
            .status,
        200
    );

    // Tokens signed by the provider's own key with one claim wrong, and one by a key it never
    // published: refused as access tokens by the service, and as ID tokens by the console.
    let now = now_ms() / 1000;
    let access = json!({
        "iss": provider.issuer, "aud": "account", "sub": "user:admin", "preferred_username": "admin",
        "exp": now + 60, "iat": now, "realm_access": {"roles": ["admin"]},
    });
    let sign = |claims: Value, key: &'static str| {
        let url = format!("{}/_test/sign", provider.issuer);
        async move {
            reqwest::Client::new()
                .post(url)
                .body(json!({"claims": claims, "key": key}).to_string())
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    let good = sign(access.clone(), "own").await;
    assert_eq!(
        server
            .call("GET", "households", Some(&good), None)
            .await
            .status,
        200
    );
    for (what, change, key) in [
        (
            "another issuer",
            json!({"iss": "http://localhost:1"}),
            "own",
        ),
        ("another audience", json!({"aud": "larder-console"}), "own"),
        ("expired", json!({"exp": now - 120}), "own"),
        ("a key never published", json!({}), "foreign"),
    ] {
        let mut claims = access.clone();
        for (k, v) in change.as_object().unwrap() {
            claims[k] = v.clone();
        }
        let token = sign(claims, key).await;
        assert_eq!(
            server
                .call("GET", "households", Some(&token), None)
                .await
                .status,
            401,
            "{what}"
        );
    }
    let id_claims = json!({
        "iss": provider.issuer, "aud": "larder-console", "sub": "user:olivia", "nonce": "n",
        "exp": now + 60, "iat": now,
    });
    assert!(console
        .identity(
            &sign(id_claims.clone(), "own").await,
            Nonce::Exactly("n"),
            None
        )
        .is_ok());
    for (change, key, claim) in [
        (json!({"iss": "http://localhost:1"}), "own", Claim::Issuer),
        (json!({"aud": "account"}), "own", Claim::Audience),
        (json!({"nonce": "other"}), "own", Claim::Nonce),
        (json!({}), "foreign", Claim::Signature),
    ] {
        let mut claims = id_claims.clone();
        for (k, v) in change.as_object().unwrap() {
            claims[k] = v.clone();
        }
        let token = sign(claims, key).await;
        assert_eq!(
            console.identity(&token, Nonce::Exactly("n"), None),
            Err(Failure::IdToken(claim))
        );
    }
    server.stop().await;
}
