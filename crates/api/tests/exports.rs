//! Reading for "Download my data": members as answered (unknown keys and `null` profiles kept),
//! and a member's saved things absent (404/405) told apart from a failure.
#![cfg(not(target_arch = "wasm32"))]

use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpResponse, TransportError};
use larder_api::{Client, ClientConfig};
use serde_json::json;

fn client(handler: impl Fn(&str) -> HttpResponse + Send + Sync + 'static) -> Client<FakeTransport> {
    let fake = FakeTransport::new(1_000_000, move |request| {
        Ok::<_, TransportError>(handler(&request.url))
    });
    Client::new(fake, ClientConfig::split("http://data/", "http://sys"))
}

#[test]
fn members_come_back_as_answered() {
    let client = client(|url| {
        assert!(
            url.contains("members?household_id=h1&limit=25&offset=50"),
            "{url}"
        );
        HttpResponse::json(
            200,
            &json!({"success": true, "result": [{"id": "m1", "profile": null, "new_key": 1}]}),
        )
    });
    let members = block_on(client.member_values("h1", 25, 50)).unwrap();
    assert_eq!(
        members,
        vec![json!({"id": "m1", "profile": null, "new_key": 1})]
    );
}

#[test]
fn saved_things_are_absent_on_404_and_405_and_listed_otherwise() {
    let client = client(|url| {
        if url.ends_with("/meal-plans") {
            HttpResponse::json(
                200,
                &json!({"success": true, "result": [{"date": "2026-11-26"}]}),
            )
        } else if url.ends_with("/favorites") {
            HttpResponse::json(405, &json!({"detail": "Method Not Allowed"}))
        } else if url.ends_with("/saved-items") {
            HttpResponse::json(404, &json!({"detail": "Not Found"}))
        } else {
            HttpResponse::json(403, &json!({"detail": "Forbidden"}))
        }
    });
    let plans = block_on(client.member_items("m1", "meal-plans")).unwrap();
    assert_eq!(plans, Some(vec![json!({"date": "2026-11-26"})]));
    assert_eq!(
        block_on(client.member_items("m1", "favorites")).unwrap(),
        None
    );
    assert_eq!(
        block_on(client.member_items("m1", "saved-items")).unwrap(),
        None
    );
    assert!(block_on(client.member_items("m1", "other")).is_err());
}
