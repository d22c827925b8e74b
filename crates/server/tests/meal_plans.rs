//! A member's meal plans by day (production.md §10.3), on both wires: both answer production's
//! shapes and words, so each of production's error texts is asserted on each.

mod common;

use chrono::{Days, Utc};
use common::{assert_error, TestServer};
use serde_json::{json, Value};

const WIRES: [&str; 2] = ["reference", "production"];

async fn server(wire: &str) -> TestServer {
    TestServer::start(&["--demo", "--wire", wire]).await
}

/// `offset` days from the service's today (UTC), `YYYY-MM-DD`.
fn day(offset: i64) -> String {
    let today = Utc::now().date_naive();
    let moved = if offset < 0 {
        today.checked_sub_days(Days::new(offset.unsigned_abs()))
    } else {
        today.checked_add_days(Days::new(offset as u64))
    };
    moved.unwrap().format("%Y-%m-%d").to_string()
}

/// A household for `user` with members named `names`: their ids, in the order named.
pub async fn household(server: &TestServer, token: &str, names: &[&str]) -> Vec<String> {
    let members: Vec<Value> = names
        .iter()
        .map(|name| json!({"name": name, "age_group": "adult"}))
        .collect();
    let created = server
        .call(
            "POST",
            "households",
            Some(token),
            Some(json!({"name": "Plans", "members": members})),
        )
        .await;
    assert!(created.status < 300, "{}", created.body);
    let id = created.body["result"]["id"].as_str().unwrap().to_string();
    let listed = server
        .call(
            "GET",
            &format!("members?household_id={id}"),
            Some(token),
            None,
        )
        .await;
    names
        .iter()
        .map(|name| {
            let member = listed.body["result"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["name"] == *name)
                .unwrap();
            member["id"].as_str().unwrap().to_string()
        })
        .collect()
}

fn meal(title: &str) -> Value {
    json!({"recipe_id": format!("r-{title}"), "title": title, "ingredients": "oats\nmilk", "directions": "Stir.", "kcal": 320})
}

fn plan(reasoning: &str) -> Value {
    json!({"id": "fc-1", "created_at": "2026-01-02T03:04:05Z", "breakfast": meal("Oats"), "lunch": meal("Soup"), "dinner": meal("Stew"), "reasoning": reasoning})
}

fn detail(answer: &common::Answer) -> &str {
    answer.body["error"]["detail"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_plan_is_stored_read_by_day_and_an_identical_one_reused() {
    for wire in WIRES {
        let server = server(wire).await;
        let noah = server.login("noah", "noah-demo").await;
        let ids = household(&server, &noah, &["Ann", "Ben", "Cid"]).await;
        let (ann, ben, cid) = (&ids[0], &ids[1], &ids[2]);
        let stored = server
            .call(
                "POST",
                &format!("members/{ann}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan("why"), "applies_to_member_ids": [ben, ben], "unknown": 1})),
            )
            .await;
        assert_eq!(stored.status, 200, "{wire}: {}", stored.body);
        let result = &stored.body["result"];
        let mut both = vec![ann.clone(), ben.clone()];
        both.sort();
        assert_eq!(result["applies_to_member_ids"], json!(both), "{wire}");
        assert_eq!(result["other_member_ids"], json!([ben]), "{wire}");
        assert_eq!(
            result["date"],
            day(0),
            "{wire}: the service's today, in UTC"
        );
        assert_eq!(result["source_meal_plan_id"], "fc-1");
        assert_eq!(result["source_created_at"], "2026-01-02T03:04:05Z");
        assert_eq!(
            result["breakfast"]["kcal"], 320,
            "{wire}: a meal's own keys are kept"
        );
        assert_eq!(result["reasoning"], "why");
        assert!(result["created_at"].as_str().unwrap().ends_with('Z'));
        let id = result["id"].as_str().unwrap().to_string();

        let read = server
            .call(
                "GET",
                &format!("members/{ben}/meal-plans?date={}", day(0)),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(read.status, 200, "{wire}: {}", read.body);
        assert_eq!(read.body["result"]["id"], id.as_str());
        assert_eq!(read.body["result"]["other_member_ids"], json!([ann]));
        // Without a date: today.
        let today = server
            .call(
                "GET",
                &format!("members/{ann}/meal-plans"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(today.body["result"]["id"], id.as_str(), "{wire}");
        let none = server
            .call(
                "GET",
                &format!("members/{ben}/meal-plans?date={}", day(1)),
                Some(&noah),
                None,
            )
            .await;
        assert_error(&none, 404, "resource/not_found");
        assert_eq!(
            detail(&none),
            format!("No meal plan found for member {ben} on date {}", day(1))
        );

        // The identical plan again, for Cid from Ben: reused, Cid added.
        let again = server
            .call(
                "POST",
                &format!("members/{ben}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan("why"), "applies_to_member_ids": [cid], "date": day(0)})),
            )
            .await;
        assert_eq!(again.status, 200, "{wire}: {}", again.body);
        assert_eq!(again.body["result"]["id"], id.as_str(), "{wire}: reused");
        assert_eq!(
            again.body["result"]["applies_to_member_ids"]
                .as_array()
                .unwrap()
                .len(),
            3
        );
        // From a FoodChat answer, for tomorrow.
        let chat = server
            .call(
                "POST",
                &format!("members/{cid}/meal-plans"),
                Some(&noah),
                Some(json!({"date": day(1), "foodchat_response": {"success": true, "result": [plan("chat")]}})),
            )
            .await;
        assert_eq!(chat.status, 200, "{wire}: {}", chat.body);
        assert_ne!(chat.body["result"]["id"], id.as_str());
        assert_eq!(chat.body["result"]["reasoning"], "chat");
        server.stop().await;
    }
}

#[tokio::test]
async fn each_refusal_comes_in_production_order_and_words() {
    for wire in WIRES {
        let server = server(wire).await;
        let noah = server.login("noah", "noah-demo").await;
        let olivia = server.login("olivia", "olivia-demo").await;
        let ids = household(&server, &noah, &["Ann", "Ben"]).await;
        let (ann, ben) = (&ids[0], &ids[1]);
        let olivias = server
            .call("GET", "households/me", Some(&olivia), None)
            .await;
        let liam = olivias.body["result"]["members"][1]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let post = |member: String, body: Value| {
            let (server, noah) = (&server, noah.clone());
            async move {
                server
                    .call(
                        "POST",
                        &format!("members/{member}/meal-plans"),
                        Some(&noah),
                        Some(body),
                    )
                    .await
            }
        };

        let past = post(
            ann.clone(),
            json!({"date": day(-1), "meal_plan": plan("x")}),
        )
        .await;
        assert_error(&past, 422, "request/unprocessable");
        assert_eq!(past.body["error"]["title"], "DataError");
        assert_eq!(
            detail(&past),
            format!(
                "Meal plans can only be applied for today or a future date. Received date: {}",
                day(-1)
            )
        );
        let unknown = post(
            ann.clone(),
            json!({"meal_plan": plan("x"), "applies_to_member_ids": ["zz", "aa"]}),
        )
        .await;
        assert_error(&unknown, 404, "resource/not_found");
        assert_eq!(detail(&unknown), "Members not found: aa, zz");
        let elsewhere = post(
            ann.clone(),
            json!({"meal_plan": plan("x"), "applies_to_member_ids": [liam]}),
        )
        .await;
        assert_error(&elsewhere, 409, "resource/conflict");
        assert_eq!(
            detail(&elsewhere),
            "All assigned members must belong to the same household"
        );
        for body in [
            json!({"date": day(0)}),
            json!({"foodchat_response": {"result": []}}),
            json!({"meal_plan": {"breakfast": meal("A"), "lunch": meal("B")}}),
            json!({"meal_plan": plan("x"), "date": "tomorrow"}),
        ] {
            let refused = post(ann.clone(), body.clone()).await;
            assert_error(&refused, 422, "request/unprocessable");
            assert_eq!(
                refused.body["error"]["title"], "RequestValidationError",
                "{body}"
            );
            assert_eq!(detail(&refused), "Validation failed");
        }
        let missing = post("nope".into(), json!({"meal_plan": plan("x")})).await;
        assert_error(&missing, 404, "resource/not_found");
        assert_eq!(detail(&missing), "Household member nope not found");
        let theirs = server
            .call(
                "POST",
                &format!("members/{liam}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan("x")})),
            )
            .await;
        assert_error(&theirs, 403, "auth/forbidden");
        assert_eq!(detail(&theirs), "You do not have access to this member");

        // A different plan that day: 409 naming the members who have one, nothing written.
        let first = post(
            ann.clone(),
            json!({"meal_plan": plan("first"), "applies_to_member_ids": [ben]}),
        )
        .await;
        assert_eq!(first.status, 200);
        let different = post(
            ben.clone(),
            json!({"meal_plan": plan("second"), "applies_to_member_ids": [ann]}),
        )
        .await;
        assert_error(&different, 409, "resource/conflict");
        let mut both = [ann.clone(), ben.clone()];
        both.sort();
        assert_eq!(
            detail(&different),
            format!(
                "Different meal plan already exists for date {} and members: {}",
                day(0),
                both.join(", ")
            )
        );
        let kept = server
            .call(
                "GET",
                &format!("members/{ben}/meal-plans"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(kept.body["result"]["reasoning"], "first", "{wire}");
        let bad_day = server
            .call(
                "GET",
                &format!("members/{ann}/meal-plans?date=2026-13-01"),
                Some(&noah),
                None,
            )
            .await;
        assert_error(&bad_day, 422, "request/unprocessable");
        assert_eq!(detail(&bad_day), "Validation failed");
        let no_token = server
            .call("GET", &format!("members/{ann}/meal-plans"), None, None)
            .await;
        assert_error(&no_token, 401, "auth/unauthorized");
        server.stop().await;
    }
}

#[tokio::test]
async fn a_plan_is_revoked_for_one_member_then_for_everyone() {
    for wire in WIRES {
        let server = server(wire).await;
        let noah = server.login("noah", "noah-demo").await;
        let olivia = server.login("olivia", "olivia-demo").await;
        let ids = household(&server, &noah, &["Ann", "Ben", "Cid"]).await;
        let (ann, ben, cid) = (&ids[0], &ids[1], &ids[2]);
        let stored = server
            .call(
                "POST",
                &format!("members/{ann}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan("x"), "applies_to_member_ids": [ben, cid]})),
            )
            .await;
        let id = stored.body["result"]["id"].as_str().unwrap().to_string();
        let delete = |member: &str, query: &str| {
            let path = format!("members/{member}/meal-plans/{id}{query}");
            let (server, noah) = (&server, noah.clone());
            async move { server.call("DELETE", &path, Some(&noah), None).await }
        };
        let refused = delete(ann, "?revoke_for_all_members=maybe").await;
        assert_error(&refused, 422, "request/unprocessable");
        let one = delete(ann, "").await;
        assert_eq!(one.status, 200, "{wire}: {}", one.body);
        assert_eq!(
            one.body["result"],
            json!({"meal_plan_id": id, "revoked_for_member_id": ann, "revoked_for_all_members": false, "meal_plan_deleted": false})
        );
        let again = delete(ann, "").await;
        assert_error(&again, 404, "resource/not_found");
        assert_eq!(
            detail(&again),
            format!("Meal plan {id} not assigned to member {ann}")
        );
        let unknown = server
            .call(
                "DELETE",
                &format!("members/{ann}/meal-plans/nope"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(detail(&unknown), "Meal plan nope not found");
        // Olivia's Liam is of another household.
        let olivias = server
            .call("GET", "households/me", Some(&olivia), None)
            .await;
        let liam = olivias.body["result"]["members"][1]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let other = server
            .call(
                "DELETE",
                &format!("members/{liam}/meal-plans/{id}"),
                Some(&olivia),
                None,
            )
            .await;
        assert_error(&other, 404, "resource/not_found");
        assert_eq!(
            detail(&other),
            format!("Meal plan {id} not found for member {liam}")
        );
        let still = server
            .call(
                "GET",
                &format!("members/{cid}/meal-plans"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(
            still.body["result"]["applies_to_member_ids"]
                .as_array()
                .unwrap()
                .len(),
            2
        );

        let all = delete(ben, "?revoke_for_all_members=yes").await;
        assert_eq!(
            all.body["result"]["revoked_for_all_members"], true,
            "{wire}"
        );
        assert_eq!(all.body["result"]["meal_plan_deleted"], true);
        let gone = server
            .call(
                "GET",
                &format!("members/{cid}/meal-plans"),
                Some(&noah),
                None,
            )
            .await;
        assert_error(&gone, 404, "resource/not_found");

        // Revoking a plan's last member deletes the plan.
        let alone = server
            .call(
                "POST",
                &format!("members/{cid}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan("alone")})),
            )
            .await;
        let alone_id = alone.body["result"]["id"].as_str().unwrap().to_string();
        let last = server
            .call(
                "DELETE",
                &format!("members/{cid}/meal-plans/{alone_id}?revoke_for_all_members=false"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(last.body["result"]["meal_plan_deleted"], true, "{wire}");
        server.stop().await;
    }
}

#[tokio::test]
async fn administrators_and_agents_pass_the_gate_others_do_not() {
    let server = server("production").await;
    let callers = server.callers().await;
    let olivias = server
        .call("GET", "households/me", Some(&callers.owner_a), None)
        .await;
    let olivia = olivias.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("members/{olivia}/meal-plans");
    for (who, token, status) in [
        ("owner", &callers.owner_a, 200),
        ("admin", &callers.admin, 200),
        ("agent", &callers.agent, 200),
        ("another owner", &callers.owner_b, 403),
        ("curator", &callers.expert, 403),
    ] {
        let answer = server.call("GET", &path, Some(token), None).await;
        assert_eq!(answer.status, status, "{who}: {}", answer.body);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_production_wire_answers_a_wrong_method_bare() {
    let server = server("production").await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let answer = server
        .call(
            "PUT",
            "members/x/meal-plans",
            Some(&olivia),
            Some(json!({})),
        )
        .await;
    assert_eq!(answer.status, 405);
    assert_eq!(answer.body, json!({"detail": "Method Not Allowed"}));
    server.stop().await;
}

#[tokio::test]
async fn the_demo_household_has_plans_around_today() {
    let server = server("reference").await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let home = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let members = home.body["result"]["members"].as_array().unwrap().clone();
    let id_of = |name: &str| {
        members.iter().find(|m| m["name"] == name).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let today = server
        .call(
            "GET",
            &format!("members/{}/meal-plans", id_of("Olivia")),
            Some(&olivia),
            None,
        )
        .await;
    assert_eq!(today.status, 200, "{}", today.body);
    assert_eq!(
        today.body["result"]["other_member_ids"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let yesterday = server
        .call(
            "GET",
            &format!("members/{}/meal-plans?date={}", id_of("Liam"), day(-1)),
            Some(&olivia),
            None,
        )
        .await;
    assert_eq!(yesterday.status, 200, "a past day's plan is kept and read");
    let items = server
        .call(
            "GET",
            &format!("members/{}/saved-items", id_of("Olivia")),
            Some(&olivia),
            None,
        )
        .await;
    assert_eq!(items.body["result"]["count"], 4);
    server.stop().await;
}
