//! A user's own account (issue 41, production.md §10.4) on both wires: the consent ledger, and a
//! guest keeping their account (`users/me/claim`).

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

const WIRES: [&str; 2] = ["reference", "production"];

/// A server on `wire` with a guest `gus`, a user `ann` and a machine client.
async fn server(wire: &str) -> TestServer {
    TestServer::start(&[
        "--wire",
        wire,
        "--user",
        "gus:gus-secret-1:guest",
        "--user",
        "ann:ann-secret-1",
        "--client",
        "robot:robot-secret:agent",
    ])
    .await
}

fn created_status(wire: &str) -> u16 {
    if wire == "production" {
        200
    } else {
        201
    }
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn consent_never_given_then_recorded_and_read_back() {
    for wire in WIRES {
        let server = server(wire).await;
        let ann = server.login("ann", "ann-secret-1").await;
        let none = server
            .call("GET", "users/me/consent", Some(&ann), None)
            .await;
        assert_eq!(none.status, 200, "{wire}: {}", none.body);
        assert_eq!(
            none.body["result"],
            json!({"granted": false, "consent_type": "service_data_processing", "version": null, "granted_at": null})
        );
        let recorded = server
            .call(
                "POST",
                "users/me/consent",
                Some(&ann),
                Some(json!({"version": "1.0", "unknown": 1})),
            )
            .await;
        assert_eq!(
            recorded.status,
            created_status(wire),
            "{wire}: {}",
            recorded.body
        );
        let row = &recorded.body["result"];
        assert_eq!(
            keys(row),
            ["consent_type", "granted_at", "ip_address", "version"]
        );
        assert_eq!(row["consent_type"], "service_data_processing");
        assert_eq!(row["version"], "1.0");
        // In-process requests come from 127.0.0.1 (see `common`).
        assert_eq!(row["ip_address"], "127.0.0.1");
        let again = server
            .call(
                "POST",
                "users/me/consent",
                Some(&ann),
                Some(json!({"version": "2.1"})),
            )
            .await;
        assert_eq!(again.status, created_status(wire));
        let read = server
            .call("GET", "users/me/consent", Some(&ann), None)
            .await;
        assert_eq!(read.body["result"]["granted"], true);
        assert_eq!(
            read.body["result"]["version"], "2.1",
            "the latest row answers"
        );
        assert_eq!(
            read.body["result"]["granted_at"],
            again.body["result"]["granted_at"]
        );
        assert_eq!(
            keys(&read.body["result"]),
            ["consent_type", "granted", "granted_at", "version"]
        );
        // Another type is its own question; another user has their own ledger.
        let other = server
            .call(
                "GET",
                "users/me/consent?consent_type=analytics",
                Some(&ann),
                None,
            )
            .await;
        assert_eq!(other.body["result"]["granted"], false);
        assert_eq!(other.body["result"]["consent_type"], "analytics");
        let gus = server.login("gus", "gus-secret-1").await;
        let theirs = server
            .call("GET", "users/me/consent", Some(&gus), None)
            .await;
        assert_eq!(
            theirs.body["result"]["granted"], false,
            "{wire}: guests too, their own"
        );
        // The ledger is append-only: both rows are there.
        let rows: i64 = server.state.store.read(|c| {
            c.query_row(
                "SELECT count(*) FROM consent_ledger WHERE user_key = 'user:ann'",
                [],
                |r| r.get(0),
            )
            .unwrap()
        });
        assert_eq!(rows, 2);
    }
}

#[tokio::test]
async fn consent_records_the_forwarded_client_and_refuses_what_production_refuses() {
    for wire in WIRES {
        let server = server(wire).await;
        let ann = server.login("ann", "ann-secret-1").await;
        let headers = [
            ("authorization", format!("Bearer {ann}")),
            ("content-type", "application/json".to_string()),
            ("x-forwarded-for", "203.0.113.7, 10.0.0.1".to_string()),
        ];
        let (status, _, body) = server
            .oneshot(
                "POST",
                "users/me/consent",
                &headers,
                br#"{"version":"1.0","consent_type":"cookies"}"#.to_vec(),
            )
            .await;
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(status, created_status(wire), "{body}");
        assert_eq!(body["result"]["ip_address"], "203.0.113.7");
        assert_eq!(body["result"]["consent_type"], "cookies");
        // Something that is not an address is not recorded as one.
        let headers = [
            headers[0].clone(),
            headers[1].clone(),
            ("x-forwarded-for", "<script>".to_string()),
        ];
        let (_, _, body) = server
            .oneshot(
                "POST",
                "users/me/consent",
                &headers,
                br#"{"version":"1.0"}"#.to_vec(),
            )
            .await;
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["result"]["ip_address"], "127.0.0.1");
        for refused in [
            json!({}),
            json!({"version": ""}),
            json!({"version": "x".repeat(17)}),
            json!({"version": "1.0", "consent_type": "c".repeat(65)}),
            json!({"version": 1}),
        ] {
            let answer = server
                .call(
                    "POST",
                    "users/me/consent",
                    Some(&ann),
                    Some(refused.clone()),
                )
                .await;
            assert_error(&answer, 422, "request/unprocessable");
            // Production's systemic service lists no field problems.
            assert_eq!(
                answer.body["error"].get("errors").is_some(),
                wire == "reference",
                "{wire} {refused}"
            );
        }
        let long = format!("users/me/consent?consent_type={}", "c".repeat(65));
        assert_error(
            &server.call("GET", &long, Some(&ann), None).await,
            422,
            "request/unprocessable",
        );
        assert_error(
            &server
                .call("GET", "users/me/consent?consent_type=", Some(&ann), None)
                .await,
            422,
            "request/unprocessable",
        );
        assert_eq!(
            server
                .call("GET", "users/me/consent", None, None)
                .await
                .status,
            401
        );
        assert_eq!(
            server
                .call(
                    "POST",
                    "users/me/consent",
                    None,
                    Some(json!({"version": "1"}))
                )
                .await
                .status,
            401
        );
    }
}

#[tokio::test]
async fn a_guest_keeps_the_account_with_its_household() {
    for wire in WIRES {
        let server = server(wire).await;
        let gus = server.login("gus", "gus-secret-1").await;
        let home = server
            .call("POST", "households", Some(&gus), Some(json!({"name": "Guest Household", "members": [{"name": "Guest", "age_group": "adult"}]})))
            .await;
        let household = home.body["result"]["id"].as_str().unwrap().to_string();
        server
            .call(
                "POST",
                "users/me/consent",
                Some(&gus),
                Some(json!({"version": "1.0"})),
            )
            .await;

        let claim = json!({"email": "  Gus@Example.ORG ", "password": "a-long-enough-password", "first_name": "Gus"});
        let claimed = server
            .call("POST", "users/me/claim", Some(&gus), Some(claim))
            .await;
        assert_eq!(claimed.status, 200, "{wire}: {}", claimed.body);
        assert_eq!(
            claimed.body["result"],
            json!({"user_id": "user:gus@example.org", "email": "gus@example.org", "email_verified": false, "verification_sent": false})
        );

        // The token held still works, still says guest, and reaches the same household.
        let me = server.call("GET", "households/me", Some(&gus), None).await;
        assert_eq!(me.status, 200, "{wire}: {}", me.body);
        assert_eq!(me.body["result"]["id"], household.as_str());
        assert_eq!(me.body["result"]["members"].as_array().unwrap().len(), 1);
        let roles = larder_contract::roles::from_claims(&claims_of(&gus));
        assert_eq!(
            roles,
            ["guest"],
            "{wire}: the old token carries guest until renewed"
        );

        // The guest's name and password are gone; the address and the new password sign in,
        // without guest, to the same household and the same consent.
        let old = server
            .call(
                "POST",
                "system/login",
                None,
                Some(json!({"username": "gus", "password": "gus-secret-1"})),
            )
            .await;
        assert_eq!(old.status, 401);
        let renewed = server
            .login("gus@example.org", "a-long-enough-password")
            .await;
        assert!(larder_contract::roles::from_claims(&claims_of(&renewed)).is_empty());
        let mine = server
            .call("GET", "households/me", Some(&renewed), None)
            .await;
        assert_eq!(mine.body["result"]["id"], household.as_str());
        assert_eq!(mine.body["result"]["owner_id"], "user:gus@example.org");
        let consent = server
            .call("GET", "users/me/consent", Some(&renewed), None)
            .await;
        assert_eq!(consent.body["result"]["version"], "1.0");

        // A claim again is refused: the account is no guest's any more (old token or new).
        for token in [&gus, &renewed] {
            let again = server
                .call(
                    "POST",
                    "users/me/claim",
                    Some(token),
                    Some(json!({"email": "gus@example.org", "password": "a-long-enough-password"})),
                )
                .await;
            assert_error(&again, 403, "auth/forbidden");
            assert_eq!(
                again.body["error"]["detail"],
                "This account is not a guest account"
            );
        }
    }
}

fn claims_of(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn a_claim_of_another_accounts_address_is_409_in_productions_words_and_changes_nothing() {
    for wire in WIRES {
        let server = TestServer::start(&[
            "--wire",
            wire,
            "--user",
            "gus:gus-secret-1:guest",
            "--user",
            "Ann@Example.org:ann-secret-1",
        ])
        .await;
        let gus = server.login("gus", "gus-secret-1").await;
        let taken = server
            .call(
                "POST",
                "users/me/claim",
                Some(&gus),
                Some(json!({"email": "ann@example.org", "password": "a-long-enough-password"})),
            )
            .await;
        assert_error(&taken, 409, "resource/conflict");
        assert_eq!(
            taken.body["error"]["detail"],
            "That email already has a WiseFood account. Sign in to it instead — you can share this plan to yourself from here first."
        );
        // Nothing changed: the guest signs in as before and is still a guest.
        let again = server.login("gus", "gus-secret-1").await;
        assert_eq!(
            larder_contract::roles::from_claims(&claims_of(&again)),
            ["guest"]
        );
        assert_eq!(
            server
                .call("GET", "households/me", Some(&gus), None)
                .await
                .status,
            404
        );
    }
}

#[tokio::test]
async fn a_guest_whose_name_is_the_address_claims_it_without_a_conflict() {
    let server = TestServer::start(&["--user", "gus@example.org:gus-secret-1:guest"]).await;
    let gus = server.login("gus@example.org", "gus-secret-1").await;
    let claimed = server
        .call(
            "POST",
            "users/me/claim",
            Some(&gus),
            Some(json!({"email": "GUS@example.org", "password": "a-long-enough-password"})),
        )
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    server
        .login("gus@example.org", "a-long-enough-password")
        .await;
}

#[tokio::test]
async fn only_guests_claim_and_bodies_are_checked() {
    for wire in WIRES {
        let server = server(wire).await;
        let ann = server.login("ann", "ann-secret-1").await;
        let body = json!({"email": "ann@example.org", "password": "a-long-enough-password"});
        let refused = server
            .call("POST", "users/me/claim", Some(&ann), Some(body.clone()))
            .await;
        assert_error(&refused, 403, "auth/forbidden");
        assert_eq!(
            refused.body["error"]["detail"],
            "This account is not a guest account"
        );
        let robot = server.mtm("robot", "robot-secret").await;
        assert_error(
            &server
                .call("POST", "users/me/claim", Some(&robot), Some(body.clone()))
                .await,
            403,
            "auth/forbidden",
        );
        assert_eq!(
            server
                .call("POST", "users/me/claim", None, Some(body))
                .await
                .status,
            401
        );
        let gus = server.login("gus", "gus-secret-1").await;
        for bad in [
            json!({"email": "gus@example.org", "password": "123456789"}),
            json!({"email": "gus@example.org", "password": "x".repeat(257)}),
            json!({"email": "gus@example.org"}),
            json!({"email": "gus@example.org", "password": 1234567890}),
            json!({"email": "not-an-address", "password": "a-long-enough-password"}),
            json!({"email": "gus:x@example.org", "password": "a-long-enough-password"}),
            json!({"password": "a-long-enough-password"}),
            json!({"email": "gus@example.org", "password": "a-long-enough-password", "first_name": "n".repeat(101)}),
            json!(["not", "an", "object"]),
        ] {
            let answer = server
                .call("POST", "users/me/claim", Some(&gus), Some(bad.clone()))
                .await;
            assert_error(&answer, 422, "request/unprocessable");
            assert_eq!(
                answer.body["error"].get("errors").is_some(),
                wire == "reference",
                "{wire} {bad}"
            );
        }
        // Still a guest after every refusal.
        let again = server.login("gus", "gus-secret-1").await;
        assert_eq!(
            larder_contract::roles::from_claims(&claims_of(&again)),
            ["guest"]
        );
    }
}

#[tokio::test]
async fn a_reload_keeps_the_claimed_account_and_does_not_bring_the_guest_back() {
    let server = server("reference").await;
    let gus = server.login("gus", "gus-secret-1").await;
    server
        .call(
            "POST",
            "users/me/claim",
            Some(&gus),
            Some(json!({"email": "gus@example.org", "password": "a-long-enough-password"})),
        )
        .await;
    let changes = larder_server::account_config::reload(&server.state).unwrap();
    assert!(changes.is_empty(), "{changes}");
    assert_eq!(
        server
            .call(
                "POST",
                "system/login",
                None,
                Some(json!({"username": "gus", "password": "gus-secret-1"}))
            )
            .await
            .status,
        401,
        "the guest's declaration does not come back"
    );
    server
        .login("gus@example.org", "a-long-enough-password")
        .await;
    assert_eq!(
        server
            .call("GET", "system/ping", Some(&gus), None)
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn a_claim_survives_a_restart_with_the_guests_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("larder.db");
    let db = db.to_str().unwrap();
    let args = ["--db", db, "--user", "gus:gus-secret-1:guest"];
    let first = TestServer::start_with_socket(&args).await;
    let gus = first.login("gus", "gus-secret-1").await;
    first
        .call(
            "POST",
            "households",
            Some(&gus),
            Some(json!({"name": "Home"})),
        )
        .await;
    let claimed = first
        .call(
            "POST",
            "users/me/claim",
            Some(&gus),
            Some(json!({"email": "gus@example.org", "password": "a-long-enough-password"})),
        )
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    first.stop().await;
    let second = TestServer::start_with_socket(&args).await;
    let me = second.call("GET", "households/me", Some(&gus), None).await;
    assert_eq!(
        me.status, 200,
        "the guest's token still leads to the account: {}",
        me.body
    );
    assert_eq!(me.body["result"]["owner_id"], "user:gus@example.org");
    let renewed = second
        .login("gus@example.org", "a-long-enough-password")
        .await;
    assert_eq!(
        second
            .call("GET", "households/me", Some(&renewed), None)
            .await
            .status,
        200
    );
    second.stop().await;
}

#[tokio::test]
async fn erasure_keeps_the_consent_ledger_off_the_accounts_key() {
    let server = server("reference").await;
    let ann = server.login("ann", "ann-secret-1").await;
    server
        .call(
            "POST",
            "users/me/consent",
            Some(&ann),
            Some(json!({"version": "1.0"})),
        )
        .await;
    let erased = server.call("DELETE", "users/me", Some(&ann), None).await;
    assert_eq!(erased.status, 200);
    assert!(erased.body["result"]["retained"]
        .as_array()
        .unwrap()
        .contains(&json!("consent_ledger")));
    let (kept, under_name): (i64, i64) = server.state.store.read(|c| {
        c.query_row(
            "SELECT count(*), count(CASE WHEN user_key = 'user:ann' THEN 1 END) FROM consent_ledger",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    });
    assert_eq!(
        (kept, under_name),
        (1, 0),
        "kept, but no longer the account's"
    );
}
