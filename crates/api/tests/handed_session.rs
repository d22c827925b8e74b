//! Issue 42 item 3: a session handed from one tab of the console to another. Only the access
//! token travels; the receiving client cannot renew it itself and says so when it runs out,
//! while the handing client renews before handing over a token about to expire. A scripted
//! transport with a virtual clock.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{bearer, failing, ok, scripted};
use futures::executor::block_on;
use larder_api::transport::HttpResponse;
use larder_api::{collections, ApiError, Credentials};
use serde_json::json;

fn login(token: &str) -> HttpResponse {
    HttpResponse::json(
        200,
        &json!({"result": {"access_token": token, "token_type": "Bearer", "expires_in": 300}}),
    )
}

#[test]
fn a_handed_token_is_used_until_it_runs_out_and_then_the_session_is_lost() {
    let (fake, client) = scripted(vec![
        ok(json!({"username": "ann", "roles": ["admin"]})), // ping with the handed token
        ok(json!([])),
    ]);
    let identity = block_on(client.adopt_handed("handed-1".into(), 60_000, true))
        .unwrap()
        .unwrap();
    assert_eq!(identity.display_name(), "ann");
    block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap();
    let requests = fake.requests();
    assert!(requests
        .iter()
        .all(|r| bearer(r).as_deref() == Some("Bearer handed-1")));
    // Past its time, nothing renews it here: no sign-in is sent, the call fails, and a token
    // handed again is taken without asking the service who it is.
    fake.advance(60_001);
    let error = block_on(client.list(&collections::ARTICLES, 1, 0)).unwrap_err();
    assert!(
        matches!(error, ApiError::InvalidCredentials(_)),
        "{error:?}"
    );
    assert_eq!(
        fake.requests().len(),
        2,
        "nothing sent for a lost handed session"
    );
    assert!(
        block_on(client.adopt_handed("handed-2".into(), 60_000, false))
            .unwrap()
            .is_none()
    );
    assert_eq!(
        block_on(client.token_to_hand_over(1)).unwrap().0,
        "handed-2"
    );
    assert!(
        block_on(client.token_to_hand_over(120_000)).is_none(),
        "a handed session cannot renew to hand on longer"
    );
}

#[test]
fn a_refused_handed_token_leaves_the_tab_signed_out() {
    let (fake, client) = scripted(vec![failing(401, "auth/invalid-token", "Token expired.")]);
    let error = block_on(client.adopt_handed("stale".into(), 60_000, true)).unwrap_err();
    // The 401 drops the token, and a handed session has nothing to sign in again with.
    assert!(
        matches!(error, ApiError::InvalidCredentials(_)),
        "{error:?}"
    );
    assert_eq!(fake.requests().len(), 1);
    assert!(!block_on(client.is_signed_in()));
}

#[test]
fn the_handing_tab_renews_a_token_about_to_run_out_and_never_hands_one_when_signed_out() {
    let (fake, client) = scripted(vec![
        ok(json!({"username": "ann", "roles": []})), // ping after the sign-in
        Ok(login("renewed")),                        // the renewal before handing over
    ]);
    assert!(block_on(client.token_to_hand_over(1)).is_none());
    block_on(client.sign_in_answered(Credentials::user("ann", "pw"), login("first"), None))
        .unwrap();
    let (token, left) = block_on(client.token_to_hand_over(60_000)).unwrap();
    assert_eq!(token, "first");
    // 300 s minus the 30 s margin.
    assert_eq!(left, 270_000);
    fake.advance(240_000);
    let (token, left) = block_on(client.token_to_hand_over(60_000)).unwrap();
    assert_eq!((token.as_str(), left), ("renewed", 270_000));
    // A signed-in tab does not take another's session.
    assert!(block_on(client.adopt_handed("other".into(), 60_000, false)).is_err());
    assert_eq!(block_on(client.token_to_hand_over(1)).unwrap().0, "renewed");
}
