//! `DELETE users/me` (production.md §8 row 3): a user erases their household, its members and
//! profiles, and their account; what is erased is counted, what is kept is named.

mod common;

use common::{assert_error, TestServer};
use serde_json::json;

/// A server with user `ann` (and `bob`, and a machine client) on an in-memory database.
async fn server(extra: &[&str]) -> TestServer {
    let mut args = vec![
        "--user",
        "ann:ann-secret",
        "--user",
        "bob:bob-secret",
        "--client",
        "robot:robot-secret:agent",
    ];
    args.extend_from_slice(extra);
    TestServer::start(&args).await
}

/// Ann's household with `members` members, each with a profile.
async fn household(server: &TestServer, token: &str, members: usize) -> String {
    let members: Vec<_> = (0..members)
        .map(|i| json!({"name": format!("m{i}"), "age_group": "adult", "profile": {"dietary_groups": ["vegan"]}}))
        .collect();
    let created = server
        .call(
            "POST",
            "households",
            Some(token),
            Some(json!({"name": "Home", "members": members})),
        )
        .await;
    // 201 on the reference wire, 200 on production's.
    assert!(matches!(created.status, 200 | 201), "{}", created.body);
    created.body["result"]["id"].as_str().unwrap().to_string()
}

async fn sign_in_status(server: &TestServer, name: &str, password: &str) -> u16 {
    server
        .call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": name, "password": password})),
        )
        .await
        .status
}

#[tokio::test]
async fn erasure_answers_what_was_deleted_and_what_is_kept() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    household(&server, &ann, 3).await;
    let answer = server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["success"], true);
    assert_eq!(
        answer.body["result"],
        json!({
            "erased": true,
            "households_deleted": 1,
            "members_deleted": 3,
            "chat_sessions_deleted": 0,
            "retained": ["authored_records", "consent_ledger", "enhancement_log", "erasure_record"],
        })
    );
}

#[tokio::test]
async fn erasure_removes_the_household_its_members_and_profiles() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    let id = household(&server, &ann, 2).await;
    let home = server.call("GET", "households/me", Some(&ann), None).await;
    let member = home.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    server.call("DELETE", "users/me", Some(&ann), None).await;
    let left = {
        let (households, members, profiles): (i64, i64, i64) = server.state.store.with(|c| {
            c.query_row(
                "SELECT (SELECT count(*) FROM households), (SELECT count(*) FROM members), (SELECT count(*) FROM profiles)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
        });
        (households, members, profiles)
    };
    assert_eq!(left, (0, 0, 0), "household {id}, member {member} gone");
}

#[tokio::test]
async fn erasure_leaves_other_households_alone() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    let bob = server.login("bob", "bob-secret").await;
    household(&server, &ann, 1).await;
    household(&server, &bob, 2).await;
    server.call("DELETE", "users/me", Some(&ann), None).await;
    let home = server.call("GET", "households/me", Some(&bob), None).await;
    assert_eq!(home.status, 200);
    assert_eq!(home.body["result"]["member_count"], 2);
}

#[tokio::test]
async fn erased_account_tokens_are_refused() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    let other = server.login("ann", "ann-secret").await;
    assert_eq!(
        server
            .call("DELETE", "users/me", Some(&ann), None)
            .await
            .status,
        200
    );
    for token in [&ann, &other] {
        let answer = server.call("GET", "households/me", Some(token), None).await;
        assert_eq!(answer.status, 401, "{}", answer.body);
    }
    let again = server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(again.status, 401);
}

#[tokio::test]
async fn erased_account_cannot_sign_in() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(sign_in_status(&server, "ann", "ann-secret").await, 401);
    assert_eq!(sign_in_status(&server, "bob", "bob-secret").await, 200);
}

#[tokio::test]
async fn a_user_without_a_household_erases_just_the_account() {
    let server = server(&[]).await;
    let ann = server.login("ann", "ann-secret").await;
    let answer = server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["result"]["households_deleted"], 0);
    assert_eq!(answer.body["result"]["members_deleted"], 0);
    assert_eq!(sign_in_status(&server, "ann", "ann-secret").await, 401);
}

#[tokio::test]
async fn a_machine_client_cannot_erase_itself() {
    let server = server(&[]).await;
    let robot = server.mtm("robot", "robot-secret").await;
    let answer = server.call("DELETE", "users/me", Some(&robot), None).await;
    assert_error(&answer, 403, "auth/forbidden");
    assert_eq!(
        server
            .call("GET", "system/ping", Some(&robot), None)
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn erasure_without_a_token_is_401() {
    let server = server(&[]).await;
    let answer = server.call("DELETE", "users/me", None, None).await;
    assert_eq!(answer.status, 401);
}

#[tokio::test]
async fn erasure_answers_200_on_the_production_wire() {
    let server = server(&["--wire", "production"]).await;
    let ann = server.login("ann", "ann-secret").await;
    household(&server, &ann, 1).await;
    let answer = server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["result"]["households_deleted"], 1);
    assert_eq!(answer.body["result"]["members_deleted"], 1);
}

#[tokio::test]
async fn a_reload_of_the_same_declaration_does_not_bring_an_erased_account_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("users");
    std::fs::write(&file, "ann:ann-secret\n").unwrap();
    let server = TestServer::start(&["--user-file", file.to_str().unwrap()]).await;
    let ann = server.login("ann", "ann-secret").await;
    server.call("DELETE", "users/me", Some(&ann), None).await;
    larder_server::account_config::reload(&server.state).expect("reload");
    assert_eq!(sign_in_status(&server, "ann", "ann-secret").await, 401);
    assert_eq!(
        server
            .call("GET", "system/ping", Some(&ann), None)
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn a_new_secret_declared_for_an_erased_account_creates_it_again_empty() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("users");
    std::fs::write(&file, "ann:ann-secret\n").unwrap();
    let server = TestServer::start(&["--user-file", file.to_str().unwrap()]).await;
    let ann = server.login("ann", "ann-secret").await;
    household(&server, &ann, 1).await;
    server.call("DELETE", "users/me", Some(&ann), None).await;
    std::fs::write(&file, "ann:new-secret\n").unwrap();
    let changes = larder_server::account_config::reload(&server.state).expect("reload");
    assert_eq!(changes.added, ["user:ann"]);
    let fresh = server.login("ann", "new-secret").await;
    let home = server
        .call("GET", "households/me", Some(&fresh), None)
        .await;
    assert_eq!(home.status, 404);
    assert_eq!(
        server
            .call("GET", "system/ping", Some(&ann), None)
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn an_erased_account_stays_erased_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("larder.db");
    let db = db.to_str().unwrap();
    let args = ["--db", db, "--user", "ann:ann-secret"];
    let server = TestServer::start_with(&args).await;
    let ann = server.login("ann", "ann-secret").await;
    server.call("DELETE", "users/me", Some(&ann), None).await;
    server.stop().await;
    let server = TestServer::start_with(&args).await;
    assert_eq!(sign_in_status(&server, "ann", "ann-secret").await, 401);
    assert_eq!(
        server
            .call("GET", "system/ping", Some(&ann), None)
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn an_erased_demo_owner_stays_erased_after_a_demo_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("larder.db");
    let server = TestServer::on_file(&db).await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let answer = server.call("DELETE", "users/me", Some(&olivia), None).await;
    assert_eq!(answer.body["result"]["households_deleted"], 1);
    server.stop().await;
    let server = TestServer::on_file(&db).await;
    assert_eq!(sign_in_status(&server, "olivia", "olivia-demo").await, 401);
    let owned: i64 = server.state.store.with(|c| {
        c.query_row(
            "SELECT count(*) FROM households WHERE owner = 'user:olivia'",
            [],
            |r| r.get(0),
        )
        .unwrap()
    });
    assert_eq!(owned, 0);
}

/// Security review 3, finding 4: households created by requests of the account that passed the
/// token check just before its erasure survived it (28 of 30 races), and the next account of
/// that name inherited them. Eight creates keep coming while the erasure runs; afterwards no
/// household of the erased account is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn households_created_during_an_erasure_do_not_survive_it() {
    const ROUNDS: usize = 10;
    let names: Vec<String> = (0..ROUNDS)
        .map(|n| format!("racer{n}:racer-secret"))
        .collect();
    let mut args = vec!["--user", "admin:admin-secret:admin"];
    for name in &names {
        args.extend(["--user", name.as_str()]);
    }
    let server = TestServer::start_socket(&args).await;
    let admin = server.login("admin", "admin-secret").await;
    for round in 0..ROUNDS {
        let name = format!("racer{round}");
        let token = server.login(&name, "racer-secret").await;
        let creates = (0..8).map(|_| async {
            for _ in 0..400 {
                let answer = server
                    .call(
                        "POST",
                        "households",
                        Some(&token),
                        Some(json!({"name": "Race"})),
                    )
                    .await;
                if answer.status == 401 {
                    return;
                }
                assert!(
                    matches!(answer.status, 201 | 409),
                    "{}: {}",
                    answer.status,
                    answer.body
                );
            }
        });
        let erase = async {
            tokio::time::sleep(std::time::Duration::from_millis(5 + 3 * round as u64)).await;
            let answer = server.call("DELETE", "users/me", Some(&token), None).await;
            assert_eq!(answer.status, 200, "{}", answer.body);
        };
        tokio::join!(futures_util::future::join_all(creates), erase);
        let listed = server
            .call("GET", "households?limit=1000", Some(&admin), None)
            .await;
        assert_eq!(listed.status, 200, "{}", listed.body);
        let owner = format!("user:{name}");
        let left: Vec<_> = listed.body["result"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["owner_id"] == owner.as_str())
            .collect();
        assert!(left.is_empty(), "round {round}: {left:?}");
    }
    server.stop().await;
}
