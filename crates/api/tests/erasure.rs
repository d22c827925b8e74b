//! `DELETE users/me` (issue 22): the typed answer, unknown keys kept, a malformed answer an
//! error, "not offered" told apart, and the token forgotten after an erasure.
#![cfg(not(target_arch = "wasm32"))]

use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpResponse, TransportError};
use larder_api::{ApiError, Client, ClientConfig, Credentials};
use serde_json::{json, Value};

const START: u64 = 1_000_000;

/// A service whose sign-in mints a token and whose `users/me` answers `erase`.
fn service(erase: HttpResponse) -> FakeTransport {
    FakeTransport::new(START, move |request| {
        if request.url.ends_with("/system/login") {
            return Ok::<_, TransportError>(HttpResponse::json(
                200,
                &json!({"success": true, "result": {"access_token": "t", "expires_in": 300}}),
            ));
        }
        if request.url.ends_with("/users/me") {
            assert_eq!(request.method, "DELETE");
            return Ok(erase.clone());
        }
        // Sign-in asks `system/ping` who the caller is.
        Ok(HttpResponse::json(
            200,
            &json!({"success": true, "result": {}}),
        ))
    })
}

fn signed_in(fake: &FakeTransport) -> Client<FakeTransport> {
    let client = Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    );
    block_on(client.sign_in(Credentials::user("owner", "secret"))).unwrap();
    client
}

fn answer(result: Value) -> HttpResponse {
    HttpResponse::json(200, &json!({"success": true, "result": result}))
}

#[test]
fn an_erasure_is_typed_and_signs_out() {
    let fake = service(answer(json!({
        "erased": true, "households_deleted": 1, "members_deleted": 3,
        "chat_sessions_deleted": 2, "retained": ["consent_ledger", "model_request_traces"],
        "identity_deleted": true
    })));
    let client = signed_in(&fake);
    let erasure = block_on(client.erase_account()).unwrap().expect("offered");
    assert!(erasure.erased);
    assert_eq!(
        (
            erasure.households_deleted,
            erasure.members_deleted,
            erasure.chat_sessions_deleted
        ),
        (1, 3, 2)
    );
    assert_eq!(erasure.retained, ["consent_ledger", "model_request_traces"]);
    assert_eq!(erasure.extra.get("identity_deleted"), Some(&json!(true)));
    assert!(!block_on(client.is_signed_in()), "the token is forgotten");
}

#[test]
fn a_bare_answer_without_the_envelope_reads_too() {
    let bare = HttpResponse::json(200, &json!({"erased": true, "retained": []}));
    let client = signed_in(&service(bare));
    let erasure = block_on(client.erase_account()).unwrap().unwrap();
    assert_eq!(erasure.members_deleted, 0);
}

#[test]
fn not_offered_is_none_and_keeps_the_session() {
    for refusal in [
        HttpResponse::json(404, &json!({"detail": "Not Found"})),
        HttpResponse::json(405, &json!({"detail": "Method Not Allowed"})),
    ] {
        let client = signed_in(&service(refusal));
        assert_eq!(block_on(client.erase_account()).unwrap(), None);
        assert!(block_on(client.is_signed_in()));
    }
}

#[test]
fn a_malformed_answer_is_an_error_and_keeps_the_session() {
    for result in [
        json!({"erased": "yes"}),
        json!([1, 2]),
        json!({"retained": [1]}),
    ] {
        let client = signed_in(&service(answer(result.clone())));
        let error = block_on(client.erase_account()).unwrap_err();
        assert!(
            matches!(error, ApiError::Decode { .. }),
            "{result}: {error:?}"
        );
        assert!(block_on(client.is_signed_in()));
    }
}

#[test]
fn an_incomplete_erasure_is_the_service_failure() {
    let failed = HttpResponse::json(
        500,
        &json!({"success": false, "error": {"detail": "Erasure incomplete"}}),
    );
    let client = signed_in(&service(failed));
    let error = block_on(client.erase_account()).unwrap_err();
    assert_eq!(error.status(), Some(500));
    assert!(block_on(client.is_signed_in()));
}
