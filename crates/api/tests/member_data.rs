//! A member's meal plans and library against production's own answers (recorded from its
//! households service, production.md §10.3): a plan, a day without one, a route the service
//! lacks, a revoke, a share refused with production's words, and each kind of the library.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{body, failing, line, ok, scripted};
use futures::executor::block_on;
use larder_api::transport::HttpResponse;
use larder_api::types::SavedItem;
use larder_api::{ErrorKind, PlanOfDay};
use larder_contract::member_data::SAVED_ITEMS;
use serde_json::json;

/// `GET members/{id}/meal-plans` as production answered it, a meal's extra key included.
fn production_plan() -> serde_json::Value {
    json!({
        "id": "f2a31ecd-28e0-419e-a87d-2c3b97588fce", "household_id": "b3ac4791", "date": "2026-11-28",
        "source_meal_plan_id": "src-1", "source_created_at": "2026-01-02T03:04:05Z",
        "breakfast": {"title": "Oats", "extra_key": {"x": 1}, "recipe_id": "r-Oats", "directions": "do it", "ingredients": "a\nb"},
        "lunch": {"recipe_id": "r-Soup", "title": "Soup", "ingredients": "a\nb", "directions": "do it"},
        "dinner": {"recipe_id": "r-Stew", "title": "Stew", "ingredients": "a\nb", "directions": "do it"},
        "reasoning": "because", "applies_to_member_ids": ["c8ce", "d532"], "other_member_ids": ["c8ce"],
        "created_at": "2026-11-28T01:37:53.687906Z", "later_key": true
    })
}

#[test]
fn a_day_is_a_plan_none_or_a_route_the_service_lacks() {
    let (fake, client) = scripted(vec![
        ok(production_plan()),
        failing(
            404,
            "resource/not_found",
            "No meal plan found for member d532 on date 2026-11-29",
        ),
        Ok(HttpResponse::json(404, &json!({"detail": "Not Found"}))),
        Ok(HttpResponse::json(
            405,
            &json!({"detail": "Method Not Allowed"}),
        )),
        failing(
            403,
            "auth/forbidden",
            "You do not have access to this member",
        ),
    ]);
    let PlanOfDay::Plan(plan) = block_on(client.meal_plan("d532", "2026-11-28")).unwrap() else {
        panic!("a plan");
    };
    assert_eq!(plan.breakfast.title, "Oats");
    assert_eq!(plan.breakfast.extra["extra_key"], json!({"x": 1}));
    assert_eq!(plan.other_member_ids, ["c8ce"]);
    assert_eq!(plan.extra["later_key"], true);
    assert_eq!(
        line(&fake.requests()[0]),
        "GET http://sys/api/v1/members/d532/meal-plans?date=2026-11-28"
    );
    assert_eq!(
        block_on(client.meal_plan("d532", "2026-11-29")).unwrap(),
        PlanOfDay::NoPlan
    );
    assert_eq!(
        block_on(client.meal_plan("d532", "2026-11-29")).unwrap(),
        PlanOfDay::NotOffered
    );
    assert_eq!(
        block_on(client.meal_plan_value("d532", "2026-11-29")).unwrap(),
        PlanOfDay::NotOffered
    );
    let refused = block_on(client.meal_plan("d532", "2026-11-29")).unwrap_err();
    assert!(refused.is_kind(ErrorKind::Authorization));
}

#[test]
fn a_revoke_names_whom_and_says_what_went() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"meal_plan_id": "p1", "revoked_for_member_id": "m1", "revoked_for_all_members": true, "meal_plan_deleted": true}),
        ),
        failing(
            404,
            "resource/not_found",
            "Meal plan p1 not assigned to member m1",
        ),
    ]);
    let revoked = block_on(client.revoke_meal_plan("m1", "p1", true)).unwrap();
    assert!(revoked.meal_plan_deleted && revoked.revoked_for_all_members);
    assert_eq!(
        line(&fake.requests()[0]),
        "DELETE http://sys/api/v1/members/m1/meal-plans/p1?revoke_for_all_members=true"
    );
    let failed = block_on(client.revoke_meal_plan("m1", "p1", false)).unwrap_err();
    assert_eq!(failed.detail(), "Meal plan p1 not assigned to member m1");
    assert!(line(&fake.requests()[1]).ends_with("revoke_for_all_members=false"));
}

#[test]
fn sharing_sends_the_same_plan_and_keeps_productions_words_when_refused() {
    let (fake, client) = scripted(vec![
        failing(
            409,
            "resource/conflict",
            "Different meal plan already exists for date 2026-11-28 and members: c8ce",
        ),
        failing(
            422,
            "request/unprocessable",
            "Meal plans can only be applied for today or a future date. Received date: 2026-11-27",
        ),
    ]);
    let plan: larder_api::types::MealPlan = serde_json::from_value(production_plan()).unwrap();
    let refused = block_on(client.share_meal_plan("d532", &plan, &["c8ce".into()])).unwrap_err();
    assert!(refused.is_kind(ErrorKind::Conflict));
    assert_eq!(
        refused.detail(),
        "Different meal plan already exists for date 2026-11-28 and members: c8ce"
    );
    let sent = body(&fake.requests()[0]);
    assert_eq!(sent["date"], "2026-11-28");
    assert_eq!(sent["applies_to_member_ids"], json!(["c8ce"]));
    assert_eq!(sent["meal_plan"]["id"], "src-1");
    assert_eq!(
        sent["meal_plan"]["breakfast"],
        production_plan()["breakfast"],
        "the meal as stored, so production reuses it"
    );
    assert_eq!(sent["meal_plan"]["reasoning"], "because");
    let past = block_on(client.share_meal_plan("d532", &plan, &[])).unwrap_err();
    assert!(past
        .detail()
        .starts_with("Meal plans can only be applied for today"));
}

#[test]
fn each_kind_of_the_library_reads_in_its_own_shape() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"member_id": "m1", "count": 1, "saved_items": [{"item_type": "guide", "item_ref": "urn:guide:eat-well/2024", "created_at": "2026-11-28T01:00:00Z"}]}),
        ),
        ok(json!([{"recipe_id": "rw-9", "created_at": "2026-11-28T01:00:00Z"}])),
        ok(
            json!([{"recipe_id": "rw-1", "title": null, "payload": {"action": "swap"}, "created_at": "t", "updated_at": "t"}]),
        ),
        ok(
            json!({"member_id": "m1", "count": 1, "saved_meal_plans": [{"id": "s1", "name": "Sunday", "breakfast": {"title": "Oats"}, "lunch": {}, "dinner": {}}]}),
        ),
        Ok(HttpResponse::json(404, &json!({"detail": "Not Found"}))),
        ok(json!({"deleted": true})),
        ok(json!({"member_id": "m1", "count": 1, "saved_items": "not a list"})),
    ]);
    let items = block_on(client.saved_items("m1")).unwrap().unwrap();
    assert_eq!(items[0].item_ref, "urn:guide:eat-well/2024");
    assert_eq!(
        block_on(client.favorites("m1")).unwrap().unwrap()[0].recipe_id,
        "rw-9"
    );
    let adapted = block_on(client.adapted_recipes("m1")).unwrap().unwrap();
    assert_eq!(
        (
            adapted[0].title.clone(),
            adapted[0].payload["action"].clone()
        ),
        (None, json!("swap"))
    );
    assert_eq!(
        block_on(client.saved_meal_plans("m1")).unwrap().unwrap()[0]
            .breakfast
            .title,
        "Oats"
    );
    assert_eq!(
        block_on(client.favorites("m1")).unwrap(),
        None,
        "a bare 404: not offered"
    );
    let item = SavedItem {
        item_type: "guide".into(),
        item_ref: "urn:guide:eat-well/2024".into(),
        ..Default::default()
    };
    assert!(block_on(client.remove_saved_item("m1", &item)).unwrap());
    assert_eq!(
        line(&fake.requests()[5]),
        "DELETE http://sys/api/v1/members/m1/saved-items/guide/urn:guide:eat-well%2F2024"
    );
    let broken = block_on(client.library_values("m1", &SAVED_ITEMS)).unwrap_err();
    assert!(
        matches!(broken, larder_api::ApiError::Decode { .. }),
        "{broken:?}"
    );
}
