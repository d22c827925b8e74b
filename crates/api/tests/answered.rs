//! A sign-in whose answers are already in hand: the console's start-up module sends the
//! sign-in request itself (before the client's module has arrived) and, with its token, the
//! identity question (`system/ping`), and hands both answers over. The client reads them
//! exactly as its own, keeps the credentials, and asks again only what it would have retried.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{failing, ok, scripted};
use futures::executor::block_on;
use larder_api::{ApiError, Credentials};
use serde_json::json;

fn ann() -> serde_json::Value {
    json!({"authenticated": true, "username": "ann", "roles": []})
}

#[test]
fn answers_in_hand_sign_in_without_sending_anything() {
    let (fake, client) = scripted(vec![]);
    let credentials = Credentials::user("ann", "pw");
    assert_eq!(
        client.sign_in_request(&credentials).url,
        "http://sys/api/v1/system/login"
    );
    let answer = ok(json!({"access_token": "early", "expires_in": 3600})).unwrap();
    let ping = ok(ann()).unwrap();
    let me = block_on(client.sign_in_answered(credentials, answer, Some(ping)));
    assert_eq!(me.unwrap().display_name(), "ann");
    assert!(fake.requests().is_empty(), "nothing asked twice");
    assert!(block_on(client.is_signed_in()));
}

#[test]
fn without_the_identity_answer_the_client_asks_itself() {
    for ping in [None, Some(failing(503, "", "Busy").unwrap())] {
        let (fake, client) = scripted(vec![ok(ann())]);
        let answer = ok(json!({"access_token": "early", "expires_in": 3600})).unwrap();
        let me = block_on(client.sign_in_answered(Credentials::user("ann", "pw"), answer, ping));
        assert_eq!(me.unwrap().display_name(), "ann");
        let requests = fake.requests();
        assert_eq!(requests.len(), 1, "only the identity question went out");
        assert!(requests[0].url.ends_with("/system/ping"));
        assert_eq!(requests[0].header("authorization"), Some("Bearer early"));
    }
}

#[test]
fn a_refused_identity_answer_is_the_clients_own_error() {
    let refused = failing(403, "", "Injected fault").unwrap();
    let (handed, client) = scripted(vec![]);
    let answer = ok(json!({"access_token": "early"})).unwrap();
    let answered = block_on(client.sign_in_answered(
        Credentials::user("ann", "pw"),
        answer.clone(),
        Some(refused.clone()),
    ));
    let (sent, itself) = scripted(vec![Ok(answer), Ok(refused)]);
    let own = block_on(itself.sign_in(Credentials::user("ann", "pw")));
    assert!(answered.is_err());
    // The same error, but for the request id: the client's own names the id it sent; an
    // answer in hand names the one its header carries (the start-up module's, see below), and
    // this one has none.
    let own_id = match &own {
        Err(ApiError::Api(failure)) => failure.request_id.clone(),
        other => panic!("{other:?}"),
    };
    assert!(own_id.is_some());
    let own = own.map_err(|error| match error {
        ApiError::Api(mut failure) => {
            failure.request_id = None;
            ApiError::Api(failure)
        }
        other => other,
    });
    assert_eq!(format!("{answered:?}"), format!("{own:?}"));
    assert!(handed.requests().is_empty());
    assert_eq!(sent.requests().len(), 2);
}

#[test]
fn a_refusal_in_hand_names_the_request_id_the_start_up_module_sent() {
    let mut refused = failing(403, "", "Injected fault").unwrap();
    // What the console makes of the start-up module's `[status, body, id]`
    // (`larder::session::request_id_header`).
    refused
        .headers
        .push(("X-Request-Id".to_string(), "s00000000abcd-2".to_string()));
    let (_, client) = scripted(vec![]);
    let answer = ok(json!({"access_token": "early"})).unwrap();
    let answered =
        block_on(client.sign_in_answered(Credentials::user("ann", "pw"), answer, Some(refused)));
    match answered {
        Err(ApiError::Api(failure)) => {
            assert_eq!(failure.request_id.as_deref(), Some("s00000000abcd-2"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_refused_answer_in_hand_is_the_same_error_as_the_clients_own() {
    let refused = failing(401, "", "Incorrect username or password").unwrap();
    let (handed, client) = scripted(vec![]);
    let answered =
        block_on(client.sign_in_answered(Credentials::user("ann", "pw"), refused.clone(), None));
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
    assert!(handed.requests().is_empty());
    assert_eq!(sent.requests().len(), 1);
    assert!(!block_on(client.is_signed_in()));
}
