//! A member's library (production.md §10.3, later routes) on both wires: saved items,
//! favourites, adapted recipes and saved meal plans, with production's shapes, limits and words;
//! and what erasing an account, deleting a member or a household leaves of them (nothing).

mod common;

use common::{assert_error, TestServer};
use larder_contract::member_data::{MAX_ADAPTED_PAYLOAD_BYTES, MAX_ADAPTED_RECIPES_PER_MEMBER};
use serde_json::{json, Value};

const WIRES: [&str; 2] = ["reference", "production"];

async fn server(wire: &str) -> TestServer {
    TestServer::start(&["--demo", "--wire", wire]).await
}

/// Noah's token and the ids of a household of his with `names`.
async fn noahs(server: &TestServer, names: &[&str]) -> (String, Vec<String>) {
    let noah = server.login("noah", "noah-demo").await;
    let members: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "age_group": "adult"}))
        .collect();
    let created = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Library", "members": members})),
        )
        .await;
    let id = created.body["result"]["id"].as_str().unwrap().to_string();
    let listed = server
        .call(
            "GET",
            &format!("members?household_id={id}"),
            Some(&noah),
            None,
        )
        .await;
    let ids = names
        .iter()
        .map(|name| {
            listed.body["result"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["name"] == *name)
                .unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    (noah, ids)
}

fn detail(answer: &common::Answer) -> &str {
    answer.body["error"]["detail"].as_str().unwrap_or_default()
}

fn meal(title: &str) -> Value {
    json!({"recipe_id": format!("r-{title}"), "title": title, "ingredients": "x", "directions": "y"})
}

#[tokio::test]
async fn saved_items_and_favourites_are_one_library() {
    for wire in WIRES {
        let server = server(wire).await;
        let (noah, ids) = noahs(&server, &["Ann"]).await;
        let base = format!("members/{}", ids[0]);
        let put = server
            .call(
                "PUT",
                &format!("{base}/saved-items/guide/urn:guide:eat-well/2024"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(put.status, 200, "{wire}: {}", put.body);
        assert_eq!(put.body["result"]["item_type"], "guide");
        assert_eq!(
            put.body["result"]["item_ref"], "urn:guide:eat-well/2024",
            "{wire}: `/` and `:` kept"
        );
        let again = server
            .call(
                "PUT",
                &format!("{base}/saved-items/guide/urn:guide:eat-well/2024"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(
            again.body["result"], put.body["result"],
            "{wire}: idempotent"
        );
        let favourite = server
            .call("PUT", &format!("{base}/favorites/rw-9"), Some(&noah), None)
            .await;
        assert_eq!(favourite.body["result"]["recipe_id"], "rw-9");
        assert!(favourite.body["result"]["created_at"].is_string());

        let all = server
            .call("GET", &format!("{base}/saved-items"), Some(&noah), None)
            .await;
        assert_eq!(all.body["result"]["member_id"], ids[0].as_str());
        assert_eq!(all.body["result"]["count"], 2);
        assert_eq!(
            all.body["result"]["saved_items"][0]["item_type"], "recipe",
            "{wire}: newest first"
        );
        let recipes = server
            .call(
                "GET",
                &format!("{base}/saved-items?item_type=recipe"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(recipes.body["result"]["count"], 1);
        let favourites = server
            .call("GET", &format!("{base}/favorites"), Some(&noah), None)
            .await;
        assert_eq!(favourites.body["result"], json!([favourite.body["result"]]));

        let unsupported = server
            .call(
                "PUT",
                &format!("{base}/saved-items/podcast/x"),
                Some(&noah),
                None,
            )
            .await;
        assert_error(&unsupported, 422, "request/unprocessable");
        assert_eq!(unsupported.body["error"]["title"], "DataError");
        assert_eq!(
            detail(&unsupported),
            "Unsupported saved item type 'podcast'. Allowed: article, guide, recipe, textbook."
        );
        let listed_wrong = server
            .call(
                "GET",
                &format!("{base}/saved-items?item_type=podcast"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(detail(&listed_wrong), detail(&unsupported));
        let long = server
            .call(
                "PUT",
                &format!("{base}/favorites/{}", "r".repeat(129)),
                Some(&noah),
                None,
            )
            .await;
        assert_error(&long, 422, "request/unprocessable");

        let removed = server
            .call(
                "DELETE",
                &format!("{base}/favorites/rw-9"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(removed.body["result"], json!({"deleted": true}));
        let twice = server
            .call(
                "DELETE",
                &format!("{base}/favorites/rw-9"),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(twice.body["result"], json!({"deleted": false}), "{wire}");
        let olivia = server.login("olivia", "olivia-demo").await;
        let theirs = server
            .call("GET", &format!("{base}/saved-items"), Some(&olivia), None)
            .await;
        assert_error(&theirs, 403, "auth/forbidden");
        assert_eq!(detail(&theirs), "You do not have access to this member");
        let nobody = server
            .call("GET", "members/nope/favorites", Some(&olivia), None)
            .await;
        assert_eq!(detail(&nobody), "Household member nope not found");
        server.stop().await;
    }
}

#[tokio::test]
async fn adapted_recipes_are_saved_replaced_and_bounded() {
    for wire in WIRES {
        let server = server(wire).await;
        let (noah, ids) = noahs(&server, &["Ann"]).await;
        let base = format!("members/{}/adapted-recipes", ids[0]);
        let payload =
            json!({"action": "swap", "ingredients": ["oat milk"], "nutrition": {"kcal": 300}});
        let put = server
            .call(
                "PUT",
                &format!("{base}/rw-1"),
                Some(&noah),
                Some(json!({"title": "Oat porridge", "payload": payload})),
            )
            .await;
        assert_eq!(put.status, 200, "{wire}: {}", put.body);
        assert_eq!(put.body["result"]["recipe_id"], "rw-1");
        assert_eq!(put.body["result"]["payload"], payload);
        let replaced = server
            .call(
                "PUT",
                &format!("{base}/rw-1"),
                Some(&noah),
                Some(json!({"payload": {"ingredients": []}})),
            )
            .await;
        assert_eq!(
            replaced.body["result"]["title"],
            Value::Null,
            "{wire}: both are replaced"
        );
        assert_eq!(
            replaced.body["result"]["created_at"],
            put.body["result"]["created_at"]
        );
        let one = server
            .call("GET", &format!("{base}/rw-1"), Some(&noah), None)
            .await;
        assert_eq!(one.body["result"], replaced.body["result"]);
        let listed = server.call("GET", &base, Some(&noah), None).await;
        assert_eq!(listed.body["result"].as_array().unwrap().len(), 1);
        let missing = server
            .call("GET", &format!("{base}/rw-2"), Some(&noah), None)
            .await;
        assert_error(&missing, 404, "resource/not_found");
        assert_eq!(detail(&missing), "No adapted recipe saved for 'rw-2'");
        let no_payload = server
            .call(
                "PUT",
                &format!("{base}/rw-2"),
                Some(&noah),
                Some(json!({"title": "x"})),
            )
            .await;
        assert_error(&no_payload, 422, "request/unprocessable");
        let too_big = json!({"payload": {"text": "x".repeat(MAX_ADAPTED_PAYLOAD_BYTES)}});
        let big = server
            .call("PUT", &format!("{base}/rw-2"), Some(&noah), Some(too_big))
            .await;
        assert_error(&big, 422, "request/unprocessable");
        for n in 2..=MAX_ADAPTED_RECIPES_PER_MEMBER {
            let kept = server
                .call(
                    "PUT",
                    &format!("{base}/rw-{n}"),
                    Some(&noah),
                    Some(json!({"payload": {}})),
                )
                .await;
            assert_eq!(kept.status, 200, "{n}: {}", kept.body);
        }
        let over = server
            .call(
                "PUT",
                &format!("{base}/rw-x"),
                Some(&noah),
                Some(json!({"payload": {}})),
            )
            .await;
        assert_error(&over, 409, "resource/conflict");
        let deleted = server
            .call("DELETE", &format!("{base}/rw-1"), Some(&noah), None)
            .await;
        assert_eq!(deleted.body["result"], json!({"deleted": true}));
        server.stop().await;
    }
}

#[tokio::test]
async fn a_saved_meal_plan_is_a_snapshot_kept_under_a_name() {
    for wire in WIRES {
        let server = server(wire).await;
        let (noah, ids) = noahs(&server, &["Ann", "Ben"]).await;
        let (ann, ben) = (&ids[0], &ids[1]);
        let plan = json!({"id": "fc-7", "breakfast": meal("A"), "lunch": meal("B"), "dinner": meal("C"), "reasoning": "r"});
        let stored = server
            .call(
                "POST",
                &format!("members/{ann}/meal-plans"),
                Some(&noah),
                Some(json!({"meal_plan": plan})),
            )
            .await;
        let plan_id = stored.body["result"]["id"].as_str().unwrap().to_string();
        let base = format!("members/{ann}/saved-meal-plans");
        let saved = server
            .call(
                "POST",
                &base,
                Some(&noah),
                Some(json!({"name": "  Weekday  ", "meal_plan_id": plan_id})),
            )
            .await;
        assert_eq!(saved.status, 200, "{wire}: {}", saved.body);
        let entry = saved.body["result"].clone();
        assert_eq!(entry["name"], "Weekday");
        assert_eq!(entry["source_meal_plan_id"], plan_id.as_str());
        assert_eq!(entry["source_applied_on"], stored.body["result"]["date"]);
        assert_eq!(entry["lunch"]["title"], "B");
        // Revoking the plan leaves the snapshot.
        server
            .call(
                "DELETE",
                &format!("members/{ann}/meal-plans/{plan_id}"),
                Some(&noah),
                None,
            )
            .await;
        let kept = server
            .call(
                "GET",
                &format!("{base}/{}", entry["id"].as_str().unwrap()),
                Some(&noah),
                None,
            )
            .await;
        assert_eq!(kept.body["result"]["lunch"]["title"], "B", "{wire}");
        // By value; the same source again renames the entry rather than adding one.
        let by_value = server
            .call("POST", &base, Some(&noah), Some(json!({"name": "Chat", "meal_plan": {"id": "fc-8", "breakfast": meal("D"), "lunch": meal("E"), "dinner": meal("F")}})))
            .await;
        assert_eq!(by_value.body["result"]["source_meal_plan_id"], "fc-8");
        let renamed = server
            .call("POST", &base, Some(&noah), Some(json!({"name": "Chat again", "meal_plan": {"id": "fc-8", "breakfast": meal("D"), "lunch": meal("E"), "dinner": meal("F")}})))
            .await;
        assert_eq!(renamed.body["result"]["id"], by_value.body["result"]["id"]);
        assert_eq!(renamed.body["result"]["name"], "Chat again");
        let listed = server.call("GET", &base, Some(&noah), None).await;
        assert_eq!(listed.body["result"]["count"], 2);
        assert_eq!(
            listed.body["result"]["saved_meal_plans"][0]["id"], by_value.body["result"]["id"],
            "{wire}: newest first"
        );

        let patched = server
            .call(
                "PATCH",
                &format!("{base}/{}", entry["id"].as_str().unwrap()),
                Some(&noah),
                Some(json!({"name": "Weekdays"})),
            )
            .await;
        assert_eq!(patched.body["result"]["name"], "Weekdays");
        let unknown_plan = server
            .call(
                "POST",
                &base,
                Some(&noah),
                Some(json!({"name": "x", "meal_plan_id": "nope"})),
            )
            .await;
        assert_eq!(detail(&unknown_plan), "Meal plan nope not found");
        let not_bens = server
            .call("POST", &format!("members/{ben}/meal-plans"), Some(&noah), Some(json!({"meal_plan": {"breakfast": meal("G"), "lunch": meal("H"), "dinner": meal("I")}})))
            .await;
        let bens_plan = not_bens.body["result"]["id"].as_str().unwrap();
        let not_assigned = server
            .call(
                "POST",
                &base,
                Some(&noah),
                Some(json!({"name": "x", "meal_plan_id": bens_plan})),
            )
            .await;
        assert_eq!(
            detail(&not_assigned),
            format!("Meal plan {bens_plan} not assigned to member {ann}")
        );
        let blank = server
            .call(
                "POST",
                &base,
                Some(&noah),
                Some(json!({"name": "   ", "meal_plan_id": bens_plan})),
            )
            .await;
        assert_error(&blank, 422, "request/unprocessable");
        let missing = server
            .call("GET", &format!("{base}/nope"), Some(&noah), None)
            .await;
        assert_eq!(
            detail(&missing),
            format!("Saved meal plan nope not found for member {ann}")
        );
        let id = entry["id"].as_str().unwrap();
        let deleted = server
            .call("DELETE", &format!("{base}/{id}"), Some(&noah), None)
            .await;
        assert_eq!(
            deleted.body["result"],
            json!({"saved_meal_plan_id": id, "member_id": ann, "deleted": true})
        );
        let twice = server
            .call("DELETE", &format!("{base}/{id}"), Some(&noah), None)
            .await;
        assert_error(&twice, 404, "resource/not_found");
        server.stop().await;
    }
}

fn rows(server: &TestServer, table: &str) -> i64 {
    server
        .state
        .store
        .with(|conn| {
            conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
                row.get(0)
            })
        })
        .unwrap()
}

const TABLES: [&str; 5] = [
    "meal_plans",
    "meal_plan_members",
    "saved_items",
    "adapted_recipes",
    "saved_meal_plans",
];

/// Gives `member` a plan of their own, one shared with `other`, and one of each library kind.
async fn fill(server: &TestServer, token: &str, member: &str, other: &str) {
    let plan = |n: &str| json!({"breakfast": meal(n), "lunch": meal("L"), "dinner": meal("D")});
    let calls = [
        (
            "POST",
            format!("members/{member}/meal-plans"),
            Some(json!({"meal_plan": plan("own")})),
        ),
        (
            "POST",
            format!("members/{other}/meal-plans"),
            Some(
                json!({"meal_plan": plan("shared"), "applies_to_member_ids": [member], "date": chrono::Utc::now().date_naive().succ_opt().unwrap().to_string()}),
            ),
        ),
        (
            "PUT",
            format!("members/{member}/saved-items/article/urn:article:a"),
            None,
        ),
        (
            "PUT",
            format!("members/{member}/adapted-recipes/r1"),
            Some(json!({"payload": {}})),
        ),
        (
            "POST",
            format!("members/{member}/saved-meal-plans"),
            Some(json!({"name": "n", "meal_plan": plan("saved")})),
        ),
    ];
    for (method, path, body) in calls {
        let answer = server.call(method, &path, Some(token), body).await;
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    }
}

#[tokio::test]
async fn deleting_a_member_a_household_or_the_account_leaves_none_of_it() {
    let server = server("production").await;
    let before: Vec<i64> = TABLES.iter().map(|t| rows(&server, t)).collect();
    let (noah, ids) = noahs(&server, &["Ann", "Ben"]).await;
    let (ann, ben) = (&ids[0], &ids[1]);
    fill(&server, &noah, ann, ben).await;
    // Ann goes: her plan with her, the shared one stays Ben's alone.
    let deleted = server
        .call("DELETE", &format!("members/{ann}"), Some(&noah), None)
        .await;
    assert_eq!(deleted.status, 200);
    let grown: Vec<i64> = TABLES
        .iter()
        .zip(&before)
        .map(|(t, b)| rows(&server, t) - b)
        .collect();
    assert_eq!(grown, [1, 1, 0, 0, 0], "{TABLES:?}");
    let tomorrow = chrono::Utc::now().date_naive().succ_opt().unwrap();
    let bens = server
        .call(
            "GET",
            &format!("members/{ben}/meal-plans?date={tomorrow}"),
            Some(&noah),
            None,
        )
        .await;
    assert_eq!(bens.body["result"]["applies_to_member_ids"], json!([ben]));
    // The household goes with everything.
    let home = server.call("GET", "households/me", Some(&noah), None).await;
    let home_id = home.body["result"]["id"].as_str().unwrap();
    server
        .call(
            "DELETE",
            &format!("households/{home_id}"),
            Some(&noah),
            None,
        )
        .await;
    let after: Vec<i64> = TABLES.iter().map(|t| rows(&server, t)).collect();
    assert_eq!(after, before);

    // An erasure too.
    let (noah, ids) = noahs(&server, &["Cid", "Dee"]).await;
    fill(&server, &noah, &ids[0], &ids[1]).await;
    let erased = server.call("DELETE", "users/me", Some(&noah), None).await;
    assert_eq!(erased.status, 200, "{}", erased.body);
    let after: Vec<i64> = TABLES.iter().map(|t| rows(&server, t)).collect();
    assert_eq!(after, before);
    server.stop().await;
}
