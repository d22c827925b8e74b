//! A sign-in whose answer is already in hand: the console's start-up module sends the sign-in
//! request itself (before the client's module has arrived) and hands the answer over. The
//! client reads it exactly as its own, keeps the credentials, and sends no second sign-in.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{failing, ok, scripted};
use futures::executor::block_on;
use larder_api::{ApiError, Credentials};
use serde_json::json;

#[test]
fn an_answer_in_hand_signs_in_without_sending_the_login_again() {
    let (fake, client) = scripted(vec![ok(
        json!({"authenticated": true, "username": "ann", "roles": []}),
    )]);
    let credentials = Credentials::user("ann", "pw");
    assert_eq!(
        client.sign_in_request(&credentials).url,
        "http://sys/api/v1/system/login"
    );
    let answer = ok(json!({"access_token": "early", "expires_in": 3600})).unwrap();
    let called = std::cell::Cell::new(false);
    let me = block_on(client.sign_in_answered_then(credentials, answer, || called.set(true)));
    assert_eq!(me.unwrap().display_name(), "ann");
    assert!(
        called.get(),
        "the page's reads start once the token is held"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1, "only the identity question went out");
    assert!(requests[0].url.ends_with("/system/ping"));
    assert_eq!(requests[0].header("authorization"), Some("Bearer early"));
    assert!(block_on(client.is_signed_in()));
}

#[test]
fn a_refused_answer_in_hand_is_the_same_error_as_the_clients_own() {
    let refused = failing(401, "", "Incorrect username or password").unwrap();
    let (handed, client) = scripted(vec![]);
    let called = std::cell::Cell::new(false);
    let answered = block_on(client.sign_in_answered_then(
        Credentials::user("ann", "pw"),
        refused.clone(),
        || called.set(true),
    ));
    let (sent, itself) = scripted(vec![Ok(refused)]);
    let own = block_on(itself.sign_in(Credentials::user("ann", "pw")));
    assert!(matches!(
        answered,
        Err(ApiError::Authentication {
            status: Some(401),
            ..
        })
    ));
    assert_eq!(format!("{answered:?}"), format!("{own:?}"));
    assert!(!called.get());
    assert!(handed.requests().is_empty());
    assert_eq!(sent.requests().len(), 1);
    assert!(!block_on(client.is_signed_in()));
}
