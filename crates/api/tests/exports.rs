//! Reading for "Download my data": members as answered (unknown keys and `null` profiles kept),
//! and a member's meal plans day by day, a day without one told apart from a failure.
#![cfg(not(target_arch = "wasm32"))]

use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpResponse, TransportError};
use larder_api::{Client, ClientConfig};
use larder_contract::member_data::{FAVORITES, SAVED_ITEMS};
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
fn meal_plans_are_read_day_by_day_three_at_a_time_in_order() {
    let days: Vec<String> = (1..=9).map(|d| format!("2026-12-0{d}")).collect();
    let fake = FakeTransport::new(1_000_000, |request| {
        let day = request
            .url
            .rsplit("date=")
            .next()
            .unwrap_or_default()
            .to_string();
        Ok::<_, TransportError>(if day.ends_with(['1', '4', '9']) {
            HttpResponse::json(
                200,
                &json!({"success": true, "result": {"id": format!("p{day}"), "date": day, "later": 1}}),
            )
        } else {
            HttpResponse::json(
                404,
                &json!({"success": false, "error": {"title": "NotFoundError", "code": "resource/not_found",
                "detail": format!("No meal plan found for member m1 on date {day}")}}),
            )
        })
    });
    let client = Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    );
    let plans = block_on(client.member_meal_plans("m1", &days)).unwrap();
    let read: Vec<&str> = plans.iter().map(|p| p["date"].as_str().unwrap()).collect();
    assert_eq!(
        read,
        ["2026-12-01", "2026-12-04", "2026-12-09"],
        "days without a plan left out, in order"
    );
    assert_eq!(plans[0]["later"], 1, "as answered");
    assert_eq!(fake.requests().len(), 9);
    assert!(fake.requests()[0]
        .url
        .ends_with("/members/m1/meal-plans?date=2026-12-01"));
    assert_eq!(fake.most_open(), 3, "three days at a time, never more");
}

#[test]
fn a_route_gone_or_a_failure_stops_the_reading() {
    for answer in [
        json!({"detail": "Not Found"}),
        json!({"success": false, "error": {"code": "auth/forbidden", "detail": "You do not have access to this member"}}),
    ] {
        let status = if answer.get("detail").is_some() {
            404
        } else {
            403
        };
        let client = client(move |_| HttpResponse::json(status, &answer));
        assert!(block_on(client.member_meal_plans("m1", &["2026-12-01".into()])).is_err());
    }
}

#[test]
fn a_members_plans_and_lists_share_one_queue_of_three() {
    let fake = FakeTransport::new(1_000_000, |request| {
        let url = request.url.as_str();
        Ok::<_, TransportError>(if url.contains("date=2026-12-02") {
            HttpResponse::json(
                200,
                &json!({"success": true, "result": {"date": "2026-12-02"}}),
            )
        } else if url.contains("/meal-plans?") {
            HttpResponse::json(
                404,
                &json!({"success": false, "error": {"code": "resource/not_found", "detail": "No meal plan"}}),
            )
        } else if url.ends_with("/saved-items") {
            HttpResponse::json(
                200,
                &json!({"success": true, "result": {"member_id": "m1", "count": 1, "saved_items": [{"item_ref": "r"}]}}),
            )
        } else {
            HttpResponse::json(
                200,
                &json!({"success": true, "result": [{"recipe_id": "x"}]}),
            )
        })
    });
    let client = Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    );
    let days: Vec<String> = (1..=5).map(|d| format!("2026-12-0{d}")).collect();
    let kinds = [&SAVED_ITEMS, &FAVORITES];
    let extras = block_on(client.member_extras("m1", &days, &kinds)).unwrap();
    assert_eq!(extras.plans, vec![json!({"date": "2026-12-02"})]);
    assert_eq!(
        extras.lists[0],
        (&SAVED_ITEMS, vec![json!({"item_ref": "r"})])
    );
    assert_eq!(
        extras.lists[1],
        (&FAVORITES, vec![json!({"recipe_id": "x"})])
    );
    assert_eq!(fake.requests().len(), 7);
    assert_eq!(fake.most_open(), 3);
}
