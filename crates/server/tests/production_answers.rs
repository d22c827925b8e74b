//! `--wire production` answers the household routes as production's own households service did
//! when run here (realprod's ANSWERS.md, production.md §9): its words for refusals and misses,
//! zone-less stamps where it reads them back from PostgreSQL, and a member whose nested profile
//! was just created answered with `profile: null`.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

async fn production() -> TestServer {
    TestServer::start(&["--demo", "--wire", "production"]).await
}

/// A zone-less stamp with microseconds, as PostgreSQL's `TIMESTAMP` reads back.
fn is_naive(stamp: &Value) -> bool {
    let text = stamp.as_str().unwrap_or_default();
    chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.6f").is_ok()
        && text.len() == "2026-11-26T17:42:43.282604".len()
}

/// A stamp with its zone (`…Z`), as one just set in Python comes back.
fn is_zoned(stamp: &Value) -> bool {
    chrono::DateTime::parse_from_rfc3339(stamp.as_str().unwrap_or_default()).is_ok()
}

/// Olivia's token, her household's id and its first member's id (from the demo data).
async fn olivias(server: &TestServer) -> (String, String, String) {
    let olivia = server.login("olivia", "olivia-demo").await;
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let id = mine.body["result"]["id"].as_str().unwrap().to_string();
    let member = mine.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    (olivia, id, member)
}

#[tokio::test]
async fn refusals_and_misses_are_worded_as_production_words_them() {
    let server = production().await;
    let (olivia, id, member) = olivias(&server).await;
    let noah = server.login("noah", "noah-demo").await;
    let detail = |answer: &common::Answer| answer.body["error"]["detail"].clone();

    // 403 says "member" for a household too, and production ends no detail with a full stop.
    for path in [
        format!("households/{id}"),
        format!("members/{member}"),
        format!("members?household_id={id}"),
    ] {
        let refused = server.call("GET", &path, Some(&noah), None).await;
        assert_error(&refused, 403, "auth/forbidden");
        assert_eq!(
            detail(&refused),
            "You do not have access to this member",
            "{path}"
        );
    }
    let missing = server
        .call("GET", "households/does-not-exist", Some(&noah), None)
        .await;
    assert_error(&missing, 404, "resource/not_found");
    assert_eq!(detail(&missing), "Household does-not-exist not found");
    let missing = server
        .call("GET", "members/does-not-exist", Some(&noah), None)
        .await;
    assert_eq!(
        detail(&missing),
        "Household member does-not-exist not found"
    );
    let none = server.call("GET", "households/me", Some(&noah), None).await;
    assert_eq!(detail(&none), "User does not own a household");
    // A member list without its household: FastAPI's validation words, no problem list.
    let unasked = server.call("GET", "members", Some(&olivia), None).await;
    assert_error(&unasked, 422, "request/unprocessable");
    assert_eq!(unasked.body["error"]["title"], "RequestValidationError");
    assert_eq!(detail(&unasked), "Validation failed");
    assert!(
        unasked.body["error"].get("errors").is_none(),
        "{}",
        unasked.body
    );

    // A second household: 409 naming the owner.
    let second = server
        .call(
            "POST",
            "households",
            Some(&olivia),
            Some(json!({"name": "Second"})),
        )
        .await;
    assert_error(&second, 409, "resource/conflict");
    let words = detail(&second);
    let words = words.as_str().unwrap();
    assert!(
        words.starts_with("User ") && words.ends_with(" already owns a household"),
        "{words}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_missing_profile_is_worded_as_get_and_patch_word_it() {
    let server = production().await;
    let (olivia, id, _) = olivias(&server).await;
    let added = server
        .call(
            "POST",
            "members",
            Some(&olivia),
            Some(json!({"household_id": id, "name": "Ann", "age_group": "adult"})),
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.body);
    let ann = added.body["result"]["id"].as_str().unwrap().to_string();
    let read = server
        .call(
            "GET",
            &format!("members/{ann}/profile"),
            Some(&olivia),
            None,
        )
        .await;
    assert_error(&read, 404, "resource/not_found");
    assert_eq!(
        read.body["error"]["detail"],
        "Profile not found for this member"
    );
    let patched = server
        .call(
            "PATCH",
            &format!("members/{ann}/profile"),
            Some(&olivia),
            Some(json!({"allergies": ["sesame"]})),
        )
        .await;
    assert_error(&patched, 404, "resource/not_found");
    assert_eq!(
        patched.body["error"]["detail"],
        format!("Profile for household member {ann} not found")
    );
    server.stop().await;
}

#[tokio::test]
async fn stamps_read_back_have_no_zone_and_stamps_just_set_keep_it() {
    let server = production().await;
    let (olivia, id, member) = olivias(&server).await;

    // Read back: every stamp naive, nested ones too.
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let home = &mine.body["result"];
    assert!(
        is_naive(&home["created_at"]) && is_naive(&home["updated_at"]),
        "{home}"
    );
    for m in home["members"].as_array().unwrap() {
        assert!(is_naive(&m["joined_at"]), "{m}");
        assert!(is_naive(&m["profile"]["created_at"]), "{m}");
    }
    let by_id = server
        .call("GET", &format!("households/{id}"), Some(&olivia), None)
        .await;
    assert!(is_naive(&by_id.body["result"]["created_at"]));
    let listed = server
        .call(
            "GET",
            &format!("members?household_id={id}"),
            Some(&olivia),
            None,
        )
        .await;
    assert!(listed.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| is_naive(&m["joined_at"])));
    let profile = server
        .call(
            "GET",
            &format!("members/{member}/profile"),
            Some(&olivia),
            None,
        )
        .await;
    assert!(
        is_naive(&profile.body["result"]["updated_at"]),
        "{}",
        profile.body
    );

    // Just set: PATCH's updated_at keeps the zone, the creation stamp reads back naive.
    let patched = server
        .call(
            "PATCH",
            &format!("households/{id}"),
            Some(&olivia),
            Some(json!({"region": "IE"})),
        )
        .await;
    let patched = &patched.body["result"];
    assert!(is_zoned(&patched["updated_at"]), "{patched}");
    assert!(is_naive(&patched["created_at"]), "{patched}");
    let edited = server
        .call(
            "PATCH",
            &format!("members/{member}/profile"),
            Some(&olivia),
            Some(json!({"allergies": ["oats"]})),
        )
        .await;
    let edited = &edited.body["result"];
    assert!(
        is_zoned(&edited["updated_at"]) && is_naive(&edited["created_at"]),
        "{edited}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_new_profile_keeps_both_zoned_stamps_and_a_nested_one_is_answered_as_null() {
    let server = production().await;
    let (olivia, id, _) = olivias(&server).await;
    let added = server
        .call(
            "POST",
            "members",
            Some(&olivia),
            Some(json!({"household_id": id, "name": "Ben", "age_group": " Adult "})),
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.body);
    assert_eq!(added.body["result"]["age_group"], "adult");
    let ben = added.body["result"]["id"].as_str().unwrap().to_string();

    // A PATCH of the member with a profile where none was: created, but answered as null.
    let patched = server
        .call(
            "PATCH",
            &format!("members/{ben}"),
            Some(&olivia),
            Some(json!({"profile": {"dietary_groups": ["vegan"]}})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert_eq!(patched.body["result"]["profile"], Value::Null);
    let profile = server
        .call(
            "GET",
            &format!("members/{ben}/profile"),
            Some(&olivia),
            None,
        )
        .await;
    assert_eq!(profile.body["result"]["dietary_groups"], json!(["vegan"]));
    // A second nested edit finds one: answered with it.
    let again = server
        .call(
            "PATCH",
            &format!("members/{ben}"),
            Some(&olivia),
            Some(json!({"profile": {"allergies": ["milk"]}})),
        )
        .await;
    assert_eq!(
        again.body["result"]["profile"]["allergies"],
        json!(["milk"])
    );

    // A profile created by POST: both stamps just set, both zoned.
    let other = server
        .call(
            "POST",
            "members",
            Some(&olivia),
            Some(json!({"household_id": id, "name": "Cy", "age_group": "child"})),
        )
        .await;
    let cy = other.body["result"]["id"].as_str().unwrap().to_string();
    let created = server
        .call(
            "POST",
            &format!("members/{cy}/profile"),
            Some(&olivia),
            Some(json!({"dietary_groups": ["halal"]})),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let created = &created.body["result"];
    assert!(
        is_zoned(&created["created_at"]) && is_zoned(&created["updated_at"]),
        "{created}"
    );
    server.stop().await;
}

/// `diabetic_friendly`, which production's schema takes and its storage enum lacks: every write
/// carrying it fails with 500 there and stores nothing; the reference wire stores it.
#[tokio::test]
async fn a_dietary_group_production_cannot_store_fails_every_write_there_and_only_there() {
    let groups = json!({"dietary_groups": ["vegan", "diabetic_friendly"]});
    for (server, stores) in [
        (production().await, false),
        (TestServer::demo().await, true),
    ] {
        let (olivia, household, member) = olivias(&server).await;
        let profile = format!("members/{member}/profile");
        let before = server.call("GET", &profile, Some(&olivia), None).await;
        let writes = [
            ("PATCH", profile.clone(), groups.clone()),
            ("POST", profile.clone(), groups.clone()),
            (
                "PATCH",
                format!("members/{member}"),
                json!({"name": "Renamed", "profile": groups}),
            ),
            (
                "POST",
                "members".into(),
                json!({"household_id": household, "name": "New", "age_group": "adult", "profile": groups}),
            ),
        ];
        for (method, path, body) in writes {
            let answer = server.call(method, &path, Some(&olivia), Some(body)).await;
            if stores {
                assert_eq!(answer.status / 100, 2, "{method} {path}: {}", answer.body);
            } else {
                assert_error(&answer, 500, "server/internal");
                assert_eq!(answer.body["error"]["title"], "InternalError");
                assert_eq!(answer.body["error"]["detail"], "Internal Server Error");
            }
        }
        let after = server.call("GET", &profile, Some(&olivia), None).await;
        let home = server
            .call("GET", "households/me", Some(&olivia), None)
            .await;
        let names: Vec<&str> = home.body["result"]["members"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["name"].as_str())
            .collect();
        if stores {
            assert_eq!(
                after.body["result"]["dietary_groups"],
                groups["dietary_groups"]
            );
            assert!(names.contains(&"Renamed") && names.contains(&"New"));
        } else {
            // Nothing stored: the profile, the member's name and the member list as they were.
            assert_eq!(after.body["result"], before.body["result"]);
            assert!(!names.contains(&"Renamed") && !names.contains(&"New"));
        }
        // A household created with such a member: none on production.
        let noah = server.login("noah", "noah-demo").await;
        let created = server
            .call(
                "POST",
                "households",
                Some(&noah),
                Some(json!({"name": "N", "members": [{"name": "A", "age_group": "adult", "profile": groups}]})),
            )
            .await;
        let own = server.call("GET", "households/me", Some(&noah), None).await;
        if stores {
            assert_eq!(created.status / 100, 2, "{}", created.body);
            assert_eq!(own.status, 200);
        } else {
            assert_error(&created, 500, "server/internal");
            assert_eq!(own.status, 404, "{}", own.body);
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn the_reference_wire_keeps_its_own_words_and_zoned_stamps() {
    let server = TestServer::demo().await;
    let (olivia, id, _) = olivias(&server).await;
    let noah = server.login("noah", "noah-demo").await;
    let refused = server
        .call("GET", &format!("households/{id}"), Some(&noah), None)
        .await;
    assert_eq!(
        refused.body["error"]["detail"],
        "You do not have access to this household."
    );
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert!(is_zoned(&mine.body["result"]["created_at"]));
    assert!(!is_naive(&mine.body["result"]["created_at"]));
    server.stop().await;
}

#[tokio::test]
async fn sign_in_and_token_refusals_are_worded_as_production_words_them() {
    let server = production().await;
    for (username, password) in [("olivia", "wrong"), ("nobody", "olivia-demo")] {
        let refused = server
            .call(
                "POST",
                "system/login",
                None,
                Some(json!({"username": username, "password": password})),
            )
            .await;
        assert_error(&refused, 401, "auth/unauthorized");
        assert_eq!(refused.body["error"]["detail"], "Invalid user credentials");
    }
    let bare = server.call("GET", "households/me", None, None).await;
    assert_error(&bare, 401, "auth/unauthorized");
    assert_eq!(bare.body["error"]["detail"], "Bearer token is missing");
    server.stop().await;
}
