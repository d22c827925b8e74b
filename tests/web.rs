//! The console's client in real headless Chromium against a real larder-server.
//! `cargo xtask test` starts the server and passes its address in LARDER_TEST_SERVER.
#![cfg(target_arch = "wasm32")]

use larder_api::collections::ARTICLES;
use larder_api::{ApiError, Credentials, ErrorKind};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::client;

#[wasm_bindgen_test]
async fn signs_in_and_lists_articles() {
    let client = client();
    let me = client
        .sign_in(Credentials::user("curator", "curator-demo"))
        .await
        .unwrap();
    assert_eq!(me.display_name(), "curator");
    assert!(me.has_role("expert"));
    let listed = client.list(&ARTICLES, 5, 0).await.unwrap();
    assert_eq!(listed.len(), 5);
    let first = listed[0].identifier().unwrap().to_string();
    let record = client.get_record(&ARTICLES, &first).await.unwrap();
    assert_eq!(record["urn"], first.as_str());
}

#[wasm_bindgen_test]
async fn a_wrong_password_is_an_authentication_failure_with_the_detail() {
    let error = client()
        .sign_in(Credentials::user("curator", "wrong"))
        .await
        .unwrap_err();
    match error {
        ApiError::Authentication { status, detail, .. } => {
            assert_eq!(status, Some(401));
            assert_eq!(detail, "Invalid credentials.");
        }
        other => panic!("expected an authentication failure, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_missing_record_is_a_typed_not_found() {
    let client = client();
    client
        .sign_in(Credentials::user("curator", "curator-demo"))
        .await
        .unwrap();
    let error = client
        .get_record(&ARTICLES, "no-such-article")
        .await
        .unwrap_err();
    assert!(error.is_kind(ErrorKind::NotFound), "{error:?}");
    assert!(error
        .failure()
        .unwrap()
        .help
        .as_deref()
        .unwrap_or_default()
        .contains("/api/v1/articles/"));
}
