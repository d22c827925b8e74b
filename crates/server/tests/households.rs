//! Households, members and profiles over real HTTP: every route, shapes, conflicts, bad input.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn the_demo_household_and_every_route() {
    let server = TestServer::demo().await;
    let olivia = server.login("olivia", "olivia-demo").await;
    let noah = server.login("noah", "noah-demo").await;

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
    let id = home["id"].as_str().unwrap().to_string();
    let none = server.call("GET", "households/me", Some(&noah), None).await;
    assert_error(&none, 404, "resource/not_found");

    // Noah creates his household with a member; a second one is a conflict.
    let created = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Noah's", "region": "FR", "metadata": {"pets": 1}, "members": [{"name": "Noah", "age_group": "young_adult"}]})),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let noahs = created.body["result"].clone();
    assert_eq!(noahs["owner_id"], "user:noah");
    assert_eq!(noahs["member_count"], 1);
    assert_eq!(noahs["metadata"], json!({"pets": 1}));
    let again = server
        .call(
            "POST",
            "households",
            Some(&noah),
            Some(json!({"name": "Second"})),
        )
        .await;
    assert_error(&again, 409, "resource/conflict");
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
    assert_eq!(cleared.body["result"]["name"], "The Noahs");
    assert_eq!(cleared.body["result"]["metadata"], json!({"pets": 1}));

    // Members.
    let member = server
        .call(
            "POST",
            "members",
            Some(&noah),
            Some(json!({"household_id": noahs_id, "name": "Mia", "age_group": "baby", "profile": {"dietary_groups": ["omnivore"], "nutritional_preferences": {}}})),
        )
        .await;
    assert_eq!(member.status, 201, "{}", member.body);
    let member_id = member.body["result"]["id"].as_str().unwrap().to_string();
    assert_eq!(member.body["result"]["household_id"], noahs_id);
    assert!(member.body["result"]["joined_at"].is_string());
    let listed = server
        .call(
            "GET",
            &format!("members?household_id={noahs_id}&limit=1&offset=1"),
            Some(&noah),
            None,
        )
        .await;
    assert_eq!(listed.body["result"].as_array().unwrap().len(), 1);
    assert_eq!(listed.body["result"][0]["id"], member_id.as_str());
    let got = server
        .call("GET", &format!("members/{member_id}"), Some(&noah), None)
        .await;
    assert_eq!(
        got.body["result"]["profile"]["dietary_groups"],
        json!(["omnivore"])
    );
    let renamed = server
        .call(
            "PATCH",
            &format!("members/{member_id}"),
            Some(&noah),
            Some(json!({"name": "Mia B.", "age_group": "child"})),
        )
        .await;
    assert_eq!(renamed.body["result"]["name"], "Mia B.");
    assert_eq!(renamed.body["result"]["age_group"], "child");
    let pictured = server
        .call(
            "PATCH",
            &format!("members/{member_id}"),
            Some(&noah),
            Some(json!({"image_url": "https://example.org/mia.png"})),
        )
        .await;
    assert_eq!(
        pictured.body["result"]["image_url"],
        "https://example.org/mia.png"
    );
    let unpictured = server
        .call(
            "PATCH",
            &format!("members/{member_id}"),
            Some(&noah),
            Some(json!({"image_url": null, "name": null})),
        )
        .await;
    assert_eq!(
        unpictured.body["result"]["image_url"],
        Value::Null,
        "null clears the image"
    );
    assert_eq!(
        unpictured.body["result"]["name"], "Mia B.",
        "a null name is ignored"
    );

    // Profiles.
    let profile_path = format!("members/{member_id}/profile");
    let profile = server.call("GET", &profile_path, Some(&noah), None).await;
    let profile = profile.body["result"].clone();
    for key in [
        "id",
        "household_member_id",
        "nutritional_preferences",
        "dietary_groups",
        "allergies",
        "properties",
        "created_at",
        "updated_at",
    ] {
        assert!(profile.get(key).is_some(), "profile has {key}");
    }
    assert_eq!(profile["household_member_id"], member_id.as_str());
    // POST is an upsert (production): it updates the profile there is, and never answers 409;
    // `properties` is ignored there and replaced by a PATCH.
    let upserted = server
        .call(
            "POST",
            &profile_path,
            Some(&noah),
            Some(json!({"dietary_groups": ["omnivore"], "properties": {"ignored": true}})),
        )
        .await;
    assert_eq!(upserted.status, 201, "{}", upserted.body);
    assert_eq!(
        upserted.body["result"]["id"], profile["id"],
        "the same profile"
    );
    assert_eq!(upserted.body["result"]["properties"], json!({}));
    let with_properties = server
        .call(
            "PATCH",
            &profile_path,
            Some(&noah),
            Some(json!({"properties": {"note": "likes soup"}})),
        )
        .await;
    assert_eq!(
        with_properties.body["result"]["properties"],
        json!({"note": "likes soup"})
    );
    let changed = server
        .call(
            "PATCH",
            &profile_path,
            Some(&noah),
            Some(json!({"allergies": ["milk"]})),
        )
        .await;
    assert_eq!(changed.body["result"]["allergies"], json!(["milk"]));
    assert_eq!(
        changed.body["result"]["dietary_groups"],
        json!(["omnivore"])
    );
    assert_eq!(
        server
            .call("DELETE", &profile_path, Some(&noah), None)
            .await
            .status,
        200
    );
    assert_error(
        &server.call("GET", &profile_path, Some(&noah), None).await,
        404,
        "resource/not_found",
    );
    assert_eq!(
        server
            .call("DELETE", &profile_path, Some(&noah), None)
            .await
            .status,
        200,
        "deleting a profile that is not there is not an error (production)"
    );
    assert_error(
        &server
            .call(
                "PATCH",
                &profile_path,
                Some(&noah),
                Some(json!({"allergies": []})),
            )
            .await,
        404,
        "resource/not_found",
    );
    let fresh = server
        .call("POST", &profile_path, Some(&noah), Some(json!({"dietary_groups": ["vegan", "gluten_free"], "nutritional_preferences": {"spice": "mild"}})))
        .await;
    assert_eq!(fresh.status, 201);
    assert_eq!(fresh.body["result"]["allergies"], json!([]));
    assert_eq!(fresh.body["result"]["properties"], json!({}));

    assert_eq!(
        server
            .call("DELETE", &format!("members/{member_id}"), Some(&noah), None)
            .await
            .status,
        200
    );
    assert_error(
        &server
            .call("GET", &format!("members/{member_id}"), Some(&noah), None)
            .await,
        404,
        "resource/not_found",
    );
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
    // Olivia's household is untouched.
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
