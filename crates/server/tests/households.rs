//! Households over the API, one behaviour a test: the demo household, the routes, conflicts, bad
//! input and limits. Members and profiles are in `members.rs`.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

/// Noah (who has no household in the demo data) creates one with himself as a member; answers
/// his token and the created household.
async fn noahs_household(server: &TestServer) -> (String, Value) {
    let noah = server.login("noah", "noah-demo").await;
    let created = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Noah's", "region": "FR", "metadata": {"pets": 1}, "members": [{"name": "Noah", "age_group": "young_adult"}]})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    (noah, created.body["result"].clone())
}

#[tokio::test]
async fn the_demo_household_has_every_field_and_its_members_profiles() {
    let server = TestServer::demo().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert_eq!(mine.status, 200);
    let home = &mine.body["result"];
    for key in [
        "id",
        "name",
        "owner_id",
        "region",
        "member_count",
        "created_at",
        "updated_at",
        "metadata",
        "members",
    ] {
        assert!(home.get(key).is_some(), "household has {key}");
    }
    assert_eq!(home["member_count"], 3);
    let members = home["members"].as_array().unwrap();
    assert!(members
        .iter()
        .all(|m| m["profile"]["dietary_groups"].is_array()));
    server.stop().await;
}

#[tokio::test]
async fn a_caller_without_a_household_finds_none() {
    let server = TestServer::demo().await;
    let noah = server.login("noah", "noah-demo").await;
    let none = server.call("GET", "households/me", Some(&noah), None).await;
    assert_error(&none, 404, "resource/not_found");
    server.stop().await;
}

#[tokio::test]
async fn a_created_household_belongs_to_its_creator() {
    let server = TestServer::demo().await;
    let (_, noahs) = noahs_household(&server).await;
    assert_eq!(noahs["owner_id"], "user:noah");
    assert_eq!(noahs["member_count"], 1);
    assert_eq!(noahs["metadata"], json!({"pets": 1}));
    server.stop().await;
}

#[tokio::test]
async fn a_second_household_is_a_conflict() {
    let server = TestServer::demo().await;
    let (noah, _) = noahs_household(&server).await;
    let again = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Second"})),
        )
        .await;
    assert_error(&again, 409, "resource/conflict");
    server.stop().await;
}

#[tokio::test]
async fn a_household_patch_renames_but_never_changes_the_owner() {
    let server = TestServer::demo().await;
    let (noah, noahs) = noahs_household(&server).await;
    let noahs_id = noahs["id"].as_str().unwrap();
    let patched = server
        .call(
            "PATCH",
            &format!("households/{noahs_id}"),
            Some(&noah),
            Some(json!({"name": "The Noahs", "owner_id": "user:olivia"})),
        )
        .await;
    assert_eq!(patched.status, 200);
    assert_eq!(patched.body["result"]["name"], "The Noahs");
    assert_eq!(patched.body["result"]["owner_id"], "user:noah");
    assert_eq!(patched.body["result"]["region"], "FR");
    server.stop().await;
}

#[tokio::test]
async fn a_null_clears_the_region_and_leaves_name_and_metadata() {
    let server = TestServer::demo().await;
    let (noah, noahs) = noahs_household(&server).await;
    let noahs_id = noahs["id"].as_str().unwrap();
    // null clears the region, and leaves the name and metadata (production.md 4.2).
    let cleared = server
        .call(
            "PATCH",
            &format!("households/{noahs_id}"),
            Some(&noah),
            Some(json!({"region": null, "name": null, "metadata": null})),
        )
        .await;
    assert_eq!(cleared.body["result"]["region"], Value::Null);
    assert_eq!(cleared.body["result"]["name"], "Noah's");
    assert_eq!(cleared.body["result"]["metadata"], json!({"pets": 1}));
    server.stop().await;
}

#[tokio::test]
async fn deleting_a_household_leaves_the_others_untouched() {
    let server = TestServer::demo().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let mine = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let id = mine.body["result"]["id"].as_str().unwrap().to_string();
    let (noah, noahs) = noahs_household(&server).await;
    let noahs_id = noahs["id"].as_str().unwrap();
    let deleted = server
        .call(
            "DELETE",
            &format!("households/{noahs_id}"),
            Some(&noah),
            None,
        )
        .await;
    assert_eq!(deleted.status, 200);
    assert!(deleted.body["result"]["message"].is_string());
    assert_error(
        &server.call("GET", "households/me", Some(&noah), None).await,
        404,
        "resource/not_found",
    );
    let still = server
        .call("GET", &format!("households/{id}"), Some(&olivia), None)
        .await;
    assert_eq!(still.body["result"]["member_count"], 3);
    server.stop().await;
}

#[tokio::test]
async fn bad_household_input() {
    let server = TestServer::demo().await;
    let noah = server.login("noah", "noah-demo").await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let cases: Vec<(&str, &str, Value)> = vec![
        ("POST", "households", json!({})),
        ("POST", "households", json!({"name": ""})),
        ("POST", "households", json!({"name": "x", "metadata": [1]})),
        (
            "POST",
            "households",
            json!({"name": "x", "members": [{"name": "a", "age_group": "toddler"}]}),
        ),
        (
            "POST",
            "households",
            json!({"name": "x", "members": [{"name": "a", "age_group": "adult", "profile": {"dietary_groups": ["carnivore"]}}]}),
        ),
        ("POST", "households", json!({"name": 5})),
        ("POST", "households", json!("name")),
    ];
    for (method, path, body) in cases {
        let answer = server
            .call(method, path, Some(&noah), Some(body.clone()))
            .await;
        assert_error(&answer, 422, "request/unprocessable");
        assert!(answer.body["error"]["errors"].is_array(), "{body}");
    }
    assert_error(
        &server.call("GET", "households/me", Some(&noah), None).await,
        404,
        "resource/not_found",
    );
    let home = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let id = home.body["result"]["id"].as_str().unwrap().to_string();
    let member = home.body["result"]["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let more: Vec<(&str, String, Value)> = vec![
        (
            "PATCH",
            format!("households/{id}"),
            json!({"metadata": "x"}),
        ),
        ("PATCH", format!("households/{id}"), json!({"name": ""})),
        (
            "POST",
            "members".into(),
            json!({"household_id": id, "name": "x"}),
        ),
        (
            "POST",
            "members".into(),
            json!({"name": "x", "age_group": "adult"}),
        ),
        (
            "PATCH",
            format!("members/{member}"),
            json!({"age_group": "ancient"}),
        ),
        (
            "PATCH",
            format!("members/{member}/profile"),
            json!({"dietary_groups": "vegan"}),
        ),
        (
            "PATCH",
            format!("members/{member}/profile"),
            json!({"nutritional_preferences": []}),
        ),
    ];
    for (method, path, body) in more {
        let answer = server
            .call(method, &path, Some(&olivia), Some(body.clone()))
            .await;
        assert_error(&answer, 422, "request/unprocessable");
    }
    let no_household = server.call("GET", "members", Some(&olivia), None).await;
    assert_error(&no_household, 422, "request/unprocessable");
    let unknown = server
        .call("GET", "households/nope", Some(&olivia), None)
        .await;
    assert_error(&unknown, 404, "resource/not_found");
    let unknown = server
        .call("GET", "members/nope/profile", Some(&olivia), None)
        .await;
    assert_error(&unknown, 404, "resource/not_found");
    let bad_page = server
        .call(
            "GET",
            "households?limit=0",
            Some(&server.login("admin", "admin-demo").await),
            None,
        )
        .await;
    assert_error(&bad_page, 422, "request/unprocessable");
    server.stop().await;
}

/// Production's household models strip nothing (`schemas.py`): spaces are kept and counted, so a
/// name of 255 letters and a space is refused and a name of spaces is taken, as there.
#[tokio::test]
async fn household_strings_keep_their_spaces_as_production_keeps_them() {
    let server = TestServer::demo().await;
    let noah = server.login("noah", "noah-demo").await;
    let created = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "  Oak  ", "region": " EU ", "members": [{"name": " Ana ", "age_group": "adult"}]})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["result"]["id"].as_str().unwrap().to_string();
    let home = server.call("GET", "households/me", Some(&noah), None).await;
    let household = &home.body["result"];
    assert_eq!(
        (
            &household["name"],
            &household["region"],
            &household["members"][0]["name"]
        ),
        (&json!("  Oak  "), &json!(" EU "), &json!(" Ana "))
    );
    let too_long = json!({ "name": format!("{} ", "a".repeat(255)) });
    let refused = server
        .call(
            "PATCH",
            &format!("households/{id}"),
            Some(&noah),
            Some(too_long),
        )
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    let spaces = server
        .call(
            "PATCH",
            &format!("households/{id}"),
            Some(&noah),
            Some(json!({"name": "   "})),
        )
        .await;
    assert_eq!(spaces.status, 200, "{}", spaces.body);
    assert_eq!(spaces.body["result"]["name"], "   ");
    let member = household["members"][0]["id"].as_str().unwrap();
    let profile = server
        .call(
            "POST",
            &format!("members/{member}/profile"),
            Some(&noah),
            Some(json!({"allergies": [" peanuts "]})),
        )
        .await;
    assert!(profile.status < 300, "{}", profile.body);
    assert_eq!(profile.body["result"]["allergies"], json!([" peanuts "]));
    server.stop().await;
}

/// `households/me` takes only GET in production; a PATCH or DELETE there reaches
/// `households/{id}` with the id `me`: a checked body, then 404 (production.md §4.1).
#[tokio::test]
async fn patching_or_deleting_households_me_is_household_me_not_found() {
    let server = TestServer::demo().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let bad = server
        .call(
            "PATCH",
            "households/me",
            Some(&olivia),
            Some(json!({"name": ""})),
        )
        .await;
    assert_error(&bad, 422, "request/unprocessable");
    let patched = server
        .call(
            "PATCH",
            "households/me",
            Some(&olivia),
            Some(json!({"name": "Renamed"})),
        )
        .await;
    assert_error(&patched, 404, "resource/not_found");
    let deleted = server
        .call("DELETE", "households/me", Some(&olivia), None)
        .await;
    assert_error(&deleted, 404, "resource/not_found");
    let home = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert_ne!(home.body["result"]["name"], "Renamed");
    server.stop().await;
}

#[tokio::test]
async fn an_admin_pages_through_every_household() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    let all = server
        .call("GET", "households?limit=1000", Some(&admin), None)
        .await;
    let all = all.body["result"].as_array().unwrap().clone();
    assert_eq!(all.len(), 25);
    let default_page = server.call("GET", "households", Some(&admin), None).await;
    assert_eq!(default_page.body["result"].as_array().unwrap().len(), 25);
    let mut paged = Vec::new();
    for offset in (0..30).step_by(10) {
        let page = server
            .call(
                "GET",
                &format!("households?limit=10&offset={offset}"),
                Some(&admin),
                None,
            )
            .await;
        paged.extend(
            page.body["result"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["id"].clone()),
        );
    }
    let ids: Vec<Value> = all.iter().map(|h| h["id"].clone()).collect();
    assert_eq!(paged, ids);
    let family = server.login("family07", "family-demo").await;
    let theirs = server
        .call("GET", "households/me", Some(&family), None)
        .await;
    assert_eq!(theirs.body["result"]["name"], "Family 07");
    assert_error(
        &server.call("GET", "households", Some(&family), None).await,
        403,
        "auth/forbidden",
    );
    server.stop().await;
}

/// Security review 2, finding 5: a profile of 1 MB was stored and composed into every
/// `households/me`. A profile is at most `MAX_PROFILE_BYTES` of JSON on every route that writes
/// one, so that answer stays bounded.
#[tokio::test]
async fn a_profile_has_a_size_limit() {
    use larder_contract::limits::MAX_PROFILE_BYTES;
    let server = TestServer::demo().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let noah = server.login("noah", "noah-demo").await;
    let home = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let before = home.body.to_string().len();
    let home = home.body["result"].clone();
    let household_id = home["id"].as_str().unwrap();
    let member_id = home["members"][0]["id"].as_str().unwrap();
    let big = json!({"note": "x".repeat(MAX_PROFILE_BYTES)});
    let big_list = json!(["x".repeat(MAX_PROFILE_BYTES)]);
    let profile_path = format!("members/{member_id}/profile");
    let member_path = format!("members/{member_id}");
    let cases = [
        ("PATCH", profile_path.as_str(), json!({"properties": big})),
        (
            "POST",
            profile_path.as_str(),
            json!({"nutritional_preferences": big}),
        ),
        (
            "PATCH",
            profile_path.as_str(),
            json!({"allergies": big_list}),
        ),
        (
            "PATCH",
            member_path.as_str(),
            json!({"profile": {"nutritional_preferences": big}}),
        ),
        (
            "POST",
            "members",
            json!({"household_id": household_id, "name": "Big", "age_group": "adult", "profile": {"nutritional_preferences": big}}),
        ),
    ];
    for (method, path, body) in cases {
        let answer = server.call(method, path, Some(&olivia), Some(body)).await;
        assert_error(&answer, 422, "request/unprocessable");
        let message = answer.body["error"]["errors"][0]["msg"].to_string();
        assert!(message.contains("at most"), "{method} {path}: {message}");
    }
    let created = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Big", "members": [{"name": "a", "age_group": "adult", "profile": {"nutritional_preferences": big}}]})),
        )
        .await;
    assert_error(&created, 422, "request/unprocessable");
    // A member's picture is bounded too: every member's is in households/me.
    let long_picture = "p".repeat(larder_contract::limits::MAX_IMAGE_URL_CHARS as usize + 1);
    let picture_cases = [
        (
            "PATCH",
            member_path.as_str(),
            json!({"image_url": long_picture}),
        ),
        (
            "POST",
            "members",
            json!({"household_id": household_id, "name": "Pic", "age_group": "adult", "image_url": long_picture}),
        ),
    ];
    for (method, path, body) in picture_cases {
        let answer = server.call(method, path, Some(&olivia), Some(body)).await;
        assert_error(&answer, 422, "request/unprocessable");
    }
    // Just under the limit is fine.
    let fits = json!({"properties": {"note": "x".repeat(MAX_PROFILE_BYTES - 1_000)}});
    let answer = server
        .call("PATCH", &profile_path, Some(&olivia), Some(fits))
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let after = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert!(after.body.to_string().len() < before + MAX_PROFILE_BYTES);
    server.stop().await;
}

/// Security review 2, finding 9: 64 concurrent creates on 990 members left 1,004. The count and
/// the insert are now one transaction.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_member_creates_keep_the_cap() {
    use larder_contract::limits::MAX_MEMBERS_PER_HOUSEHOLD;
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::on_file(&dir.path().join("cap.db")).await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let home = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    let household_id = home.body["result"]["id"].as_str().unwrap().to_string();
    let start = MAX_MEMBERS_PER_HOUSEHOLD - 10;
    let present = home.body["result"]["member_count"].as_u64().unwrap() as usize;
    server.state.store.with(|conn| {
        let tx = conn.transaction().unwrap();
        for n in present..start {
            let doc = json!({"id": format!("filler-{n}"), "household_id": household_id, "name": "Filler", "age_group": "adult", "image_url": null, "joined_at": "2026-01-01T00:00:00.000Z"});
            tx.execute(
                "INSERT INTO members (id, household_id, doc) VALUES (?1, ?2, ?3)",
                [format!("filler-{n}"), household_id.clone(), doc.to_string()],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    });
    let mut creates = tokio::task::JoinSet::new();
    for n in 0..64 {
        let body = json!({"household_id": household_id, "name": format!("Racer {n}"), "age_group": "adult"});
        let request = server
            .http
            .post(format!("{}/members", server.base))
            .bearer_auth(&olivia)
            .json(&body);
        creates.spawn(async move { request.send().await.unwrap().status().as_u16() });
    }
    let statuses = creates.join_all().await;
    let created = statuses.iter().filter(|s| **s == 201).count();
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 409),
        "{statuses:?}"
    );
    let after = server
        .call("GET", "households/me", Some(&olivia), None)
        .await;
    assert_eq!(
        after.body["result"]["member_count"].as_u64().unwrap() as usize,
        MAX_MEMBERS_PER_HOUSEHOLD
    );
    assert_eq!(created, MAX_MEMBERS_PER_HOUSEHOLD - start);
    server.stop().await;
}
