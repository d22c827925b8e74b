//! Issue 42: a sign-in at the identity provider renews at the provider's token endpoint with the
//! refresh token held in memory, keeps the refresh token each answer rotates in, and ends the
//! session when the provider refuses. A scripted transport with a virtual clock.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::{Arc, Mutex};

use common::{bearer, ok, scripted};
use futures::executor::block_on;
use larder_api::transport::HttpResponse;
use larder_api::{collections, Credentials, ProviderGrant};
use serde_json::json;

const TOKEN_ENDPOINT: &str = "http://localhost:9/token";

fn grant(refresh_token: &str) -> Credentials {
    Credentials::Provider(ProviderGrant {
        token_endpoint: TOKEN_ENDPOINT.into(),
        client_id: "larder console".into(),
        refresh_token: refresh_token.into(),
        logout: None,
    })
}

/// The provider's token answer (a bare body, as OAuth's token endpoint answers).
fn tokens(access: &str, refresh: Option<&str>) -> HttpResponse {
    let mut body = json!({"access_token": access, "token_type": "Bearer", "expires_in": 300});
    if let Some(refresh) = refresh {
        body["refresh_token"] = json!(refresh);
    }
    HttpResponse::json(200, &body)
}

#[test]
fn renewal_goes_to_the_provider_with_the_latest_refresh_token() {
    let (fake, client) = scripted(vec![
        ok(json!({"username": "olivia", "roles": []})), // ping after the sign-in
        ok(json!([])),
        Ok(tokens("at-2", Some("rt-2"))), // renewal, rotating
        ok(json!([])),
        Ok(tokens("at-3", None)), // renewal that keeps the refresh token
        ok(json!([])),
        Ok(tokens("at-4", Some("rt-3"))),
        ok(json!([])),
    ]);
    let identity =
        block_on(client.sign_in_answered(grant("rt-1"), tokens("at-1", Some("rt-1")), None))
            .unwrap();
    assert_eq!(identity.display_name(), "olivia");
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    // 300 s minus the 30 s margin.
    fake.advance(271_000);
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    fake.advance(271_000);
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    fake.advance(271_000);
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();

    let requests = fake.requests();
    let renewals: Vec<_> = requests
        .iter()
        .filter(|r| r.url == TOKEN_ENDPOINT)
        .collect();
    let bodies: Vec<_> = renewals.iter().map(|r| r.body.clone().unwrap()).collect();
    assert_eq!(
        bodies,
        [
            "grant_type=refresh_token&refresh_token=rt-1&client_id=larder%20console",
            "grant_type=refresh_token&refresh_token=rt-2&client_id=larder%20console",
            "grant_type=refresh_token&refresh_token=rt-2&client_id=larder%20console",
        ]
    );
    for renewal in &renewals {
        assert_eq!(renewal.method, "POST");
        // A simple request: no Authorization, a form body, so no preflight.
        assert_eq!(bearer(renewal), None);
        assert!(renewal
            .headers
            .iter()
            .any(|(name, value)| name == "Content-Type"
                && value == "application/x-www-form-urlencoded"));
    }
    let sent: Vec<_> = requests
        .iter()
        .filter(|r| r.url != TOKEN_ENDPOINT)
        .filter_map(bearer)
        .collect();
    assert_eq!(
        sent,
        [
            "Bearer at-1",
            "Bearer at-1",
            "Bearer at-2",
            "Bearer at-3",
            "Bearer at-4"
        ]
    );
    assert!(!format!("{:?}", grant("rt-secret")).contains("rt-secret"));
}

#[test]
fn a_refused_renewal_ends_the_session() {
    let (fake, client) = scripted(vec![
        ok(json!({"username": "olivia", "roles": []})),
        Ok(HttpResponse::json(
            400,
            &json!({"error": "invalid_grant", "error_description": "grant request is invalid"}),
        )),
    ]);
    let notices = Arc::new(Mutex::new(Vec::new()));
    let seen = notices.clone();
    client.set_observer(move |notice| seen.lock().unwrap().push(format!("{notice:?}")));
    block_on(client.sign_in_answered(grant("rt-1"), tokens("at-1", Some("rt-1")), None)).unwrap();
    fake.advance(300_000);
    assert!(block_on(client.list(&collections::ARTICLES, 1, 0)).is_err());
    assert!(notices
        .lock()
        .unwrap()
        .iter()
        .any(|n| n.contains("SessionLost")));
    assert_eq!(fake.requests().len(), 2, "nothing sent without a token");
}

#[test]
fn a_grant_without_a_refresh_token_is_refused() {
    let (_, client) = scripted(vec![]);
    assert!(block_on(client.sign_in_answered(grant(""), tokens("at-1", None), None)).is_err());
}
