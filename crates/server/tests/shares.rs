//! Share links (issue 41, production.md §10.4) on both wires: create, list, revoke, the public
//! read with its headers and its one "not available", view counts, erasure.
//!
//! The meal-plan routes are another branch's (owners-plans); until they are merged, plans are
//! inserted straight into the tables that store keeps (created here as it creates them), which
//! is what `shares::source::plan_to_share` reads.

mod common;

use common::{assert_error, Answer, TestServer};
use serde_json::{json, Value};

const WIRES: [&str; 2] = ["reference", "production"];

/// The meal-plan store's two tables, as branch owners-plans creates them (`IF NOT EXISTS`:
/// once merged, they are there already).
const PLAN_TABLES: &str = r#"
    CREATE TABLE IF NOT EXISTS meal_plans (
        id TEXT PRIMARY KEY,
        household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
        applied_on TEXT NOT NULL,
        created_at TEXT NOT NULL,
        doc TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS saved_meal_plans (
        id TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        source_meal_plan_id TEXT,
        created_at TEXT NOT NULL,
        doc TEXT NOT NULL
    );
"#;

struct World {
    server: TestServer,
    wire: &'static str,
    ann: String,
    bob: String,
    admin: String,
    agent: String,
    /// Ann's day plan and saved plan.
    plan: String,
    saved: String,
    member: String,
}

fn dish(title: &str) -> Value {
    json!({"recipe_id": format!("r-{title}"), "title": title, "ingredients": "oats, milk",
           "directions": "stir", "match_reasons": ["Ann's iron goal"], "member_id": "m-secret"})
}

async fn world(wire: &'static str) -> World {
    let server = TestServer::start(&[
        "--wire",
        wire,
        "--user",
        "ann:ann-secret-1",
        "--user",
        "bob:bob-secret-1",
        "--user",
        "root:root-secret-1:admin",
        "--client",
        "robot:robot-secret:agent",
    ])
    .await;
    let ann = server.login("ann", "ann-secret-1").await;
    let bob = server.login("bob", "bob-secret-1").await;
    let admin = server.login("root", "root-secret-1").await;
    let agent = server.mtm("robot", "robot-secret").await;
    let home = server
        .call(
            "POST",
            "households",
            Some(&ann),
            Some(
                json!({"name": "Ann's", "members": [{"name": "Ann Smith", "age_group": "adult"}]}),
            ),
        )
        .await;
    let household = home.body["result"]["id"].as_str().unwrap().to_string();
    let me = server.call("GET", "households/me", Some(&ann), None).await;
    let member = me.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    server
        .call(
            "POST",
            "households",
            Some(&bob),
            Some(json!({"name": "Bob's"})),
        )
        .await;
    let (plan, saved) = ("plan-1".to_string(), "saved-1".to_string());
    let plan_doc = json!({
        "source_meal_plan_id": "fc-9", "reasoning": "Ann Smith is anaemic",
        "breakfast": dish("Porridge"), "lunch": [dish("Soup"), {"note": "no dish"}], "dinner": dish("Stew"),
    });
    let saved_doc = json!({"id": saved, "member_id": member, "name": "Iron week", "source_applied_on": "2026-11-20",
                           "breakfast": dish("Eggs"), "lunch": null, "dinner": dish("Lentils"), "reasoning": "private"});
    server.state.store.with(|conn| {
        conn.execute_batch(PLAN_TABLES).unwrap();
        conn.execute(
            "INSERT INTO meal_plans (id, household_id, applied_on, created_at, doc) VALUES (?1, ?2, '2026-11-26', '2026-11-26T08:00:00Z', ?3)",
            rusqlite::params![plan, household, plan_doc.to_string()],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO saved_meal_plans (id, member_id, source_meal_plan_id, created_at, doc) VALUES (?1, ?2, 'plan-1', '2026-11-26T09:00:00Z', ?3)",
            rusqlite::params![saved, member, saved_doc.to_string()],
        )
        .unwrap();
    });
    World {
        server,
        wire,
        ann,
        bob,
        admin,
        agent,
        plan,
        saved,
        member,
    }
}

impl World {
    fn created(&self) -> u16 {
        if self.wire == "production" {
            200
        } else {
            201
        }
    }

    async fn share(&self, token: &str, body: Value) -> Answer {
        self.server
            .call("POST", "shares", Some(token), Some(body))
            .await
    }

    /// The public read, with the raw headers.
    async fn public(&self, token: &str) -> Answer {
        self.server
            .call("GET", &format!("shares/public/{token}"), None, None)
            .await
    }
}

fn assert_share_headers(answer: &Answer) {
    assert_eq!(
        answer.headers["x-robots-tag"],
        "noindex, nofollow, noarchive"
    );
    assert_eq!(answer.headers["referrer-policy"], "no-referrer");
    assert_eq!(answer.headers["cache-control"], "private, no-store");
}

#[tokio::test]
async fn a_plan_is_shared_as_a_scrubbed_snapshot_anyone_can_read() {
    for wire in WIRES {
        let w = world(wire).await;
        let created = w
            .share(
                &w.ann,
                json!({"kind": "meal_plan", "id": w.plan, "expires_in_days": 7, "extra": 1}),
            )
            .await;
        assert_eq!(created.status, w.created(), "{wire}: {}", created.body);
        let result = &created.body["result"];
        let mut keys: Vec<&String> = result.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["expires_at", "kind", "title", "token"]);
        assert_eq!(result["kind"], "meal_plan");
        assert_eq!(
            result["title"], "Meal plan for 2026-11-26",
            "production's default title"
        );
        let token = result["token"].as_str().unwrap();
        assert_eq!(token.len(), 43);
        assert!(token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        let expires =
            larder_contract::time::unix_ms(result["expires_at"].as_str().unwrap()).unwrap();
        let in_a_week = chrono::Utc::now().timestamp_millis() + 7 * 86_400_000;
        assert!((expires - in_a_week).abs() < 60_000);

        let read = w.public(token).await;
        assert_eq!(read.status, 200, "{wire}: {}", read.body);
        assert_share_headers(&read);
        let shared = &read.body["result"];
        assert_eq!(shared["kind"], "meal_plan");
        assert_eq!(shared["title"], "Meal plan for 2026-11-26");
        assert!(shared["created_at"].is_string());
        let food = |title: &str| json!({"recipe_id": format!("r-{title}"), "title": title, "ingredients": "oats, milk", "directions": "stir"});
        assert_eq!(
            shared["payload"],
            json!({"date": "2026-11-26", "meals": {"breakfast": food("Porridge"), "lunch": [food("Soup")], "dinner": food("Stew")}})
        );
        let text = read.body.to_string();
        for secret in ["Ann", "anaemic", "m-secret", "fc-9", "plan-1", &w.member] {
            assert!(!text.contains(secret), "{wire}: {secret} in {text}");
        }
        // The snapshot is taken now: a later change of the plan changes nothing for the reader.
        w.server
            .state
            .store
            .with(|c| c.execute("UPDATE meal_plans SET doc = '{}'", []).unwrap());
        assert_eq!(
            w.public(token).await.body["result"]["payload"],
            shared["payload"]
        );
    }
}

#[tokio::test]
async fn a_saved_plan_takes_its_name_and_a_title_given_is_trimmed_and_cut() {
    for wire in WIRES {
        let w = world(wire).await;
        let saved = w
            .share(&w.ann, json!({"kind": "saved_meal_plan", "id": w.saved}))
            .await;
        assert_eq!(saved.body["result"]["title"], "Iron week");
        assert_eq!(
            saved.body["result"]["expires_at"],
            Value::Null,
            "until revoked"
        );
        let token = saved.body["result"]["token"].as_str().unwrap();
        let read = w.public(token).await;
        assert_eq!(read.body["result"]["payload"]["date"], "2026-11-20");
        assert!(read.body["result"]["payload"]["meals"]
            .get("lunch")
            .is_none());
        let titled = w
            .share(
                &w.ann,
                json!({"kind": "meal_plan", "id": w.plan, "title": "  Our week  "}),
            )
            .await;
        assert_eq!(titled.body["result"]["title"], "Our week");
        let long = w
            .share(
                &w.ann,
                json!({"kind": "meal_plan", "id": w.plan, "title": "t".repeat(201)}),
            )
            .await;
        assert_error(&long, 422, "request/unprocessable");
    }
}

#[tokio::test]
async fn the_owner_lists_and_revokes_and_the_public_read_counts_views() {
    for wire in WIRES {
        let w = world(wire).await;
        let first = w
            .share(&w.ann, json!({"kind": "meal_plan", "id": w.plan}))
            .await;
        let second = w
            .share(
                &w.ann,
                json!({"kind": "saved_meal_plan", "id": w.saved, "expires_in_days": 1}),
            )
            .await;
        let first = first.body["result"]["token"].as_str().unwrap().to_string();
        let second = second.body["result"]["token"].as_str().unwrap().to_string();
        assert_eq!(w.public(&first).await.status, 200);
        assert_eq!(w.public(&first).await.status, 200);
        let listed = w.server.call("GET", "shares", Some(&w.ann), None).await;
        assert_eq!(listed.status, 200, "{}", listed.body);
        let shares = listed.body["result"]["shares"].as_array().unwrap().clone();
        assert_eq!(shares.len(), 2);
        assert_eq!(shares[0]["token"], second.as_str(), "newest first");
        let mut keys: Vec<&String> = shares[1].as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "created_at",
                "expires_at",
                "kind",
                "last_viewed_at",
                "live",
                "revoked",
                "title",
                "token",
                "view_count"
            ]
        );
        assert_eq!(shares[1]["view_count"], 2);
        assert!(shares[1]["last_viewed_at"].is_string());
        assert_eq!(
            (shares[1]["live"].clone(), shares[1]["revoked"].clone()),
            (json!(true), json!(false))
        );
        assert_eq!(shares[0]["view_count"], 0);
        assert_eq!(shares[0]["last_viewed_at"], Value::Null);
        // limit is clamped, not refused; a limit that is no integer is.
        let one = w
            .server
            .call("GET", "shares?limit=0", Some(&w.ann), None)
            .await;
        assert_eq!(one.body["result"]["shares"].as_array().unwrap().len(), 1);
        let many = w
            .server
            .call("GET", "shares?limit=100000", Some(&w.ann), None)
            .await;
        assert_eq!(many.body["result"]["shares"].as_array().unwrap().len(), 2);
        assert_error(
            &w.server
                .call("GET", "shares?limit=two", Some(&w.ann), None)
                .await,
            422,
            "request/unprocessable",
        );

        // Only the owner revokes, once; the row stays, listed as revoked, and reads no more.
        for token in [&w.bob, &w.admin] {
            let refused = w
                .server
                .call("DELETE", &format!("shares/{first}"), Some(token), None)
                .await;
            assert_error(&refused, 404, "resource/not_found");
            assert_eq!(refused.body["error"]["detail"], "No such share link");
        }
        let revoked = w
            .server
            .call("DELETE", &format!("shares/{first}"), Some(&w.ann), None)
            .await;
        assert_eq!(revoked.status, 200);
        assert_eq!(revoked.body["result"], json!({"revoked": true}));
        let twice = w
            .server
            .call("DELETE", &format!("shares/{first}"), Some(&w.ann), None)
            .await;
        assert_eq!(twice.body["error"]["detail"], "No such share link");
        let after = w.server.call("GET", "shares", Some(&w.ann), None).await;
        let old = &after.body["result"]["shares"][1];
        assert_eq!(
            (
                old["revoked"].clone(),
                old["live"].clone(),
                old["view_count"].clone()
            ),
            (json!(true), json!(false), json!(2))
        );
        let gone = w.public(&first).await;
        assert_eq!(gone.status, 404);
        assert_share_headers(&gone);
        assert_eq!(w.server.call("GET", "shares", None, None).await.status, 401);
    }
}

#[tokio::test]
async fn unknown_revoked_expired_and_long_tokens_read_alike() {
    for wire in WIRES {
        let w = world(wire).await;
        let made = w
            .share(
                &w.ann,
                json!({"kind": "meal_plan", "id": w.plan, "expires_in_days": 2}),
            )
            .await;
        let token = made.body["result"]["token"].as_str().unwrap().to_string();
        w.server.state.store.with(|c| {
            c.execute(
                "UPDATE share_links SET expires_at = '2020-01-01T00:00:00.000Z' WHERE token = ?1",
                [&token],
            )
            .unwrap()
        });
        let revoked = w
            .share(&w.ann, json!({"kind": "meal_plan", "id": w.plan}))
            .await;
        let revoked = revoked.body["result"]["token"]
            .as_str()
            .unwrap()
            .to_string();
        w.server
            .call("DELETE", &format!("shares/{revoked}"), Some(&w.ann), None)
            .await;
        let misses = [
            token.clone(),
            revoked,
            "x".repeat(43),
            "y".repeat(65),
            "%20".into(),
        ];
        let mut bodies = Vec::new();
        for miss in &misses {
            let answer = w.public(miss).await;
            assert_error(&answer, 404, "resource/not_found");
            assert_eq!(answer.body["error"]["detail"], "This link is not available");
            assert_share_headers(&answer);
            let mut error = answer.body["error"].clone();
            error.as_object_mut().unwrap().remove("help");
            bodies.push(error);
        }
        assert!(
            bodies.windows(2).all(|pair| pair[0] == pair[1]),
            "{bodies:?}"
        );
        let listed = w.server.call("GET", "shares", Some(&w.ann), None).await;
        let expired = listed.body["result"]["shares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["token"] == token.as_str())
            .unwrap()
            .clone();
        assert_eq!(
            (
                expired["live"].clone(),
                expired["revoked"].clone(),
                expired["view_count"].clone()
            ),
            (json!(false), json!(false), json!(0))
        );
        // A token sent along does not matter to the public read.
        let with_token = w
            .server
            .call("GET", &format!("shares/public/{token}"), Some(&w.bob), None)
            .await;
        assert_eq!(with_token.status, 404);
    }
}

#[tokio::test]
async fn email_is_not_configured_here() {
    for wire in WIRES {
        let w = world(wire).await;
        let made = w
            .share(&w.ann, json!({"kind": "meal_plan", "id": w.plan}))
            .await;
        let token = made.body["result"]["token"].as_str().unwrap();
        let answer = w
            .server
            .call(
                "POST",
                &format!("shares/{token}/email"),
                Some(&w.ann),
                Some(json!({"note": "hi"})),
            )
            .await;
        assert_error(&answer, 404, "resource/not_found");
        assert_eq!(
            answer.body["error"]["detail"],
            "Email is not configured for this deployment"
        );
        let long = w
            .server
            .call(
                "POST",
                &format!("shares/{token}/email"),
                Some(&w.ann),
                Some(json!({"note": "n".repeat(501)})),
            )
            .await;
        assert_error(&long, 422, "request/unprocessable");
    }
}

#[tokio::test]
async fn erasure_removes_the_owners_links() {
    let w = world("reference").await;
    let made = w
        .share(&w.ann, json!({"kind": "meal_plan", "id": w.plan}))
        .await;
    let token = made.body["result"]["token"].as_str().unwrap().to_string();
    w.share(&w.admin, json!({"kind": "meal_plan", "id": w.plan}))
        .await;
    assert_eq!(
        w.server
            .call("DELETE", "users/me", Some(&w.ann), None)
            .await
            .status,
        200
    );
    assert_eq!(w.public(&token).await.status, 404);
    let left: i64 = w.server.state.store.read(|c| {
        c.query_row("SELECT count(*) FROM share_links", [], |r| r.get(0))
            .unwrap()
    });
    assert_eq!(left, 1, "the administrator's link stays: it is theirs");
}

#[tokio::test]
async fn the_public_read_is_closed_during_maintenance() {
    let w = world("production").await;
    let made = w
        .share(&w.ann, json!({"kind": "meal_plan", "id": w.plan}))
        .await;
    let token = made.body["result"]["token"].as_str().unwrap().to_string();
    w.server.state.maintenance.set(true);
    let closed = w.public(&token).await;
    assert_error(&closed, 503, "platform/maintenance");
    w.server.state.maintenance.set(false);
    assert_eq!(w.public(&token).await.status, 200);
}

#[tokio::test]
async fn without_the_meal_plan_tables_every_plan_is_no_such_plan() {
    // Main before the meal-plan routes are merged: the tables are not there.
    let server = TestServer::start(&["--user", "ann:ann-secret-1"]).await;
    let ann = server.login("ann", "ann-secret-1").await;
    if server
        .state
        .store
        .read(|c| c.prepare("SELECT 1 FROM meal_plans").is_ok())
    {
        return; // merged: the tables exist, this case is gone.
    }
    let answer = server
        .call(
            "POST",
            "shares",
            Some(&ann),
            Some(json!({"kind": "meal_plan", "id": "p"})),
        )
        .await;
    assert_error(&answer, 404, "resource/not_found");
    assert_eq!(answer.body["error"]["detail"], "No such meal plan");
}

#[path = "shares/refusals.rs"]
mod refusals;
