//! Household members and their profiles over the API, one behaviour a test: create, list, read,
//! patch and delete a member; a profile's shape, its upsert, patches and deletion.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

/// Noah's household (Noah himself as its first member) with Mia added: answers Noah's token,
/// the household's id and the answer to Mia's creation.
async fn with_mia(server: &TestServer) -> (String, String, common::Answer) {
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
    let noahs_id = created.body["result"]["id"].as_str().unwrap().to_string();
    let member = server
        .call(
            "POST",
            "members",
            Some(&noah),
            Some(json!({"household_id": noahs_id, "name": "Mia", "age_group": "baby", "profile": {"dietary_groups": ["omnivore"], "nutritional_preferences": {}}})),
        )
        .await;
    (noah, noahs_id, member)
}

/// Noah's token and Mia's id.
async fn mia(server: &TestServer) -> (String, String) {
    let (noah, _, member) = with_mia(server).await;
    assert_eq!(member.status, 201, "{}", member.body);
    let member_id = member.body["result"]["id"].as_str().unwrap().to_string();
    (noah, member_id)
}

#[tokio::test]
async fn a_created_member_joins_its_household() {
    let server = TestServer::demo().await;
    let (_, noahs_id, member) = with_mia(&server).await;
    assert_eq!(member.status, 201, "{}", member.body);
    assert_eq!(member.body["result"]["household_id"], noahs_id.as_str());
    assert!(member.body["result"]["joined_at"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn a_profile_nested_in_a_new_member_keeps_its_allergies_as_production_does() {
    // Production's `POST members` stores the nested profile's allergies (its `POST households`
    // does not, and neither keeps `properties`).
    let server = TestServer::start(&[
        "--demo",
        "--user",
        "zoe:zoe-secret-1",
        "--user",
        "eli:eli-secret-12",
    ])
    .await;
    let (noah, noahs_id, _) = with_mia(&server).await;
    let profile = json!({"allergies": ["milk"], "dietary_groups": ["vegetarian"], "properties": {"note": "x"}});
    let member = server
        .call(
            "POST",
            "members",
            Some(&noah),
            Some(json!({"household_id": noahs_id, "name": "Ada", "age_group": "child", "profile": profile})),
        )
        .await;
    assert_eq!(member.status, 201, "{}", member.body);
    let kept = &member.body["result"]["profile"];
    assert_eq!(kept["allergies"], json!(["milk"]), "{kept}");
    assert_eq!(kept["dietary_groups"], json!(["vegetarian"]));
    assert_eq!(kept["properties"], json!({}));
    let household = server
        .call(
            "POST",
            "households",
            Some(&server.login("zoe", "zoe-secret-1").await),
            Some(json!({"name": "Zoe's", "members": [{"name": "Ben", "age_group": "adult", "profile": profile}]})),
        )
        .await;
    assert_eq!(household.status, 201, "{}", household.body);
    let ben = &household.body["result"]["members"][0]["profile"];
    assert_eq!(ben["allergies"], json!([]), "{ben}");
    assert_eq!(ben["dietary_groups"], json!(["vegetarian"]));
    // `profile: {}` makes a profile in `POST members` (production fills in its defaults) and none
    // in `POST households` (production reads only what was sent, and `{}` is falsy there).
    let empty = server
        .call(
            "POST",
            "members",
            Some(&noah),
            Some(json!({"household_id": noahs_id, "name": "Eve", "age_group": "adult", "profile": {}})),
        )
        .await;
    assert!(
        empty.body["result"]["profile"].is_object(),
        "{}",
        empty.body
    );
    let eli = server.login("eli", "eli-secret-12").await;
    let household = server
        .call(
            "POST",
            "households",
            Some(&eli),
            Some(json!({"name": "Eli's", "members": [{"name": "Eli", "age_group": "adult", "profile": {}}]})),
        )
        .await;
    assert_eq!(household.status, 201, "{}", household.body);
    let home = server.call("GET", "households/me", Some(&eli), None).await;
    assert_eq!(
        home.body["result"]["members"][0]["profile"],
        Value::Null,
        "{}",
        home.body
    );
    server.stop().await;
}

#[tokio::test]
async fn members_list_by_household_in_pages() {
    let server = TestServer::demo().await;
    let (noah, noahs_id, member) = with_mia(&server).await;
    let member_id = member.body["result"]["id"].as_str().unwrap();
    let listed = server
        .call(
            "GET",
            &format!("members?household_id={noahs_id}&limit=1&offset=1"),
            Some(&noah),
            None,
        )
        .await;
    assert_eq!(listed.body["result"].as_array().unwrap().len(), 1);
    assert_eq!(listed.body["result"][0]["id"], member_id);
    server.stop().await;
}

#[tokio::test]
async fn a_member_reads_with_its_profile() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let got = server
        .call("GET", &format!("members/{member_id}"), Some(&noah), None)
        .await;
    assert_eq!(
        got.body["result"]["profile"]["dietary_groups"],
        json!(["omnivore"])
    );
    server.stop().await;
}

#[tokio::test]
async fn a_member_patch_renames_and_regroups() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
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
    server.stop().await;
}

#[tokio::test]
async fn a_null_clears_a_members_image_and_a_null_name_is_ignored() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
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
        unpictured.body["result"]["name"], "Mia",
        "a null name is ignored"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_deleted_member_reads_as_not_found() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
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
    server.stop().await;
}

#[tokio::test]
async fn a_profile_has_every_field_and_names_its_member() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
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
    server.stop().await;
}

#[tokio::test]
async fn posting_a_profile_updates_the_one_there_is_and_ignores_properties() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let profile_path = format!("members/{member_id}/profile");
    let profile = server.call("GET", &profile_path, Some(&noah), None).await;
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
        upserted.body["result"]["id"], profile.body["result"]["id"],
        "the same profile"
    );
    assert_eq!(upserted.body["result"]["properties"], json!({}));
    server.stop().await;
}

#[tokio::test]
async fn a_profile_patch_sets_properties() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let with_properties = server
        .call(
            "PATCH",
            &format!("members/{member_id}/profile"),
            Some(&noah),
            Some(json!({"properties": {"note": "likes soup"}})),
        )
        .await;
    assert_eq!(
        with_properties.body["result"]["properties"],
        json!({"note": "likes soup"})
    );
    server.stop().await;
}

#[tokio::test]
async fn a_profile_patch_changes_only_the_fields_it_names() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let changed = server
        .call(
            "PATCH",
            &format!("members/{member_id}/profile"),
            Some(&noah),
            Some(json!({"allergies": ["milk"]})),
        )
        .await;
    assert_eq!(changed.body["result"]["allergies"], json!(["milk"]));
    assert_eq!(
        changed.body["result"]["dietary_groups"],
        json!(["omnivore"])
    );
    server.stop().await;
}

#[tokio::test]
async fn a_deleted_profile_is_gone_and_deleting_it_again_is_no_error() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let profile_path = format!("members/{member_id}/profile");
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
    server.stop().await;
}

#[tokio::test]
async fn a_profile_posted_after_a_deletion_starts_fresh() {
    let server = TestServer::demo().await;
    let (noah, member_id) = mia(&server).await;
    let profile_path = format!("members/{member_id}/profile");
    let changed = server
        .call(
            "PATCH",
            &profile_path,
            Some(&noah),
            Some(json!({"allergies": ["milk"], "properties": {"note": "likes soup"}})),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(
        server
            .call("DELETE", &profile_path, Some(&noah), None)
            .await
            .status,
        200
    );
    let fresh = server
        .call("POST", &profile_path, Some(&noah), Some(json!({"dietary_groups": ["vegan", "gluten_free"], "nutritional_preferences": {"spice": "mild"}})))
        .await;
    assert_eq!(fresh.status, 201);
    assert_eq!(fresh.body["result"]["allergies"], json!([]));
    assert_eq!(fresh.body["result"]["properties"], json!({}));
    server.stop().await;
}
