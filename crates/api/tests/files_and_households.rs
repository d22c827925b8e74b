//! Uploads, streamed downloads and the household routes over the scripted transport.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{body, failing, line, ok, scripted, START};
use futures::executor::block_on;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::HttpResponse;
use larder_api::types::{
    HouseholdChanges, MemberChanges, NewArtifact, NewHousehold, NewMember, ProfileChanges,
    ProfileInput,
};
use larder_api::{
    ApiError, ArtifactUpload, Client, ClientConfig, Credentials, ErrorKind, Progress, Request,
};
use serde_json::json;

#[test]
fn artifacts_of_a_parent_and_created_by_metadata() {
    let (fake, client) = scripted(vec![
        ok(
            json!([{"id": "u1", "parent_urn": "urn:guide:g", "title": "PDF", "file_size": 10}, "u2"]),
        ),
        ok(json!({"id": "u3", "parent_urn": "urn:guide:g", "title": "Link"})),
    ]);
    let artifacts = block_on(client.artifacts_of("urn:guide:g", 10, 0)).unwrap();
    assert_eq!(artifacts[0].file_size, Some(10));
    assert_eq!(artifacts[1].id.as_deref(), Some("u2"));
    let new = NewArtifact {
        parent_urn: "urn:guide:g".into(),
        title: "Link".into(),
        file_url: "https://x/y.pdf".into(),
        file_type: "application/pdf".into(),
        file_size: Some(5),
        ..NewArtifact::default()
    };
    block_on(client.create_artifact(&new)).unwrap();
    let requests = fake.requests();
    assert_eq!(
        line(&requests[0]),
        "GET http://data/api/v1/artifacts?parent_urn=urn%3Aguide%3Ag&limit=10&offset=0"
    );
    assert_eq!(line(&requests[1]), "POST http://data/api/v1/artifacts");
    assert_eq!(
        body(&requests[1]),
        json!({"parent_urn": "urn:guide:g", "title": "Link", "file_url": "https://x/y.pdf",
               "file_type": "application/pdf", "file_size": 5})
    );
}

#[test]
fn an_upload_sends_the_form_and_reports_progress() {
    let (fake, client) = scripted(vec![ok(
        json!({"id": "u1", "parent_urn": "urn:textbook:t", "title": "book.pdf", "file_size": 4}),
    )]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let progress = seen.clone();
    let upload = ArtifactUpload::new("urn:textbook:t", b"%PDF".to_vec())
        .file_name("book.pdf")
        .title("The book")
        .language("en")
        .on_progress(move |p| progress.lock().unwrap().push(p));
    let artifact = block_on(client.upload_artifact(upload)).unwrap();
    assert_eq!(artifact.id.as_deref(), Some("u1"));
    let uploads = fake.uploads();
    assert_eq!(uploads[0].url, "http://data/api/v1/artifacts/upload");
    assert_eq!(
        uploads[0].fields,
        [
            ("parent_urn".to_string(), "urn:textbook:t".to_string()),
            ("title".to_string(), "The book".to_string()),
            ("language".to_string(), "en".to_string()),
        ]
    );
    assert_eq!(
        (
            uploads[0].file_field.as_str(),
            uploads[0].file_name.as_deref()
        ),
        ("file", Some("book.pdf"))
    );
    assert_eq!(uploads[0].file, b"%PDF");
    assert!(
        !uploads[0]
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type")),
        "the transport writes the multipart Content-Type"
    );
    assert_eq!(fake.requests()[0].body, None);
    assert_eq!(
        *seen.lock().unwrap(),
        [Progress {
            loaded: 4,
            total: Some(4)
        }]
    );
    let empty_parent = ArtifactUpload::new(" ", Vec::new());
    assert!(matches!(
        block_on(client.upload_artifact(empty_parent)),
        Err(ApiError::Caller(_))
    ));
}

#[test]
fn an_upload_is_never_retried_but_is_repeated_once_after_a_401() {
    let (fake, client) = scripted(vec![failing(503, "upstream/unavailable", "busy")]);
    let error = block_on(client.upload_artifact(ArtifactUpload::new("urn:guide:g", vec![1])));
    assert!(error.unwrap_err().is_kind(ErrorKind::ServiceUnavailable));
    assert_eq!(fake.uploads().len(), 1);

    let logins = Arc::new(AtomicUsize::new(0));
    let counter = logins.clone();
    let fake = FakeTransport::new(START, move |request| {
        if request.url.ends_with("/system/login") {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            return ok(json!({"token": format!("t{n}")}));
        }
        if request.url.ends_with("/upload") && request.header("authorization") == Some("Bearer t1")
        {
            return failing(401, "auth/unauthorized", "expired");
        }
        ok(json!({"id": "u9", "parent_urn": "urn:guide:g", "title": "x"}))
    });
    let client = Client::new(fake.clone(), ClientConfig::new("http://h"));
    block_on(client.sign_in(Credentials::user("ann", "pw"))).ok();
    let artifact =
        block_on(client.upload_artifact(ArtifactUpload::new("urn:guide:g", vec![7, 7]))).unwrap();
    assert_eq!(artifact.id.as_deref(), Some("u9"));
    let uploads = fake.uploads();
    assert_eq!(uploads.len(), 2);
    assert_eq!(uploads[1].file, [7, 7], "the same file is sent again");
    assert_eq!(logins.load(Ordering::SeqCst), 2);
}

#[test]
fn a_download_hands_over_the_unread_body_with_length_and_name() {
    let file = HttpResponse::text(200, "file bytes")
        .with_header("Content-Length", "10")
        .with_header("Content-Type", "text/plain")
        .with_header(
            "Content-Disposition",
            "attachment; filename=\"na_ve.txt\"; filename*=UTF-8''na%C3%AFve.txt",
        );
    let (fake, client) = scripted(vec![
        failing(503, "upstream/unavailable", "busy"),
        Ok(file),
        failing(
            404,
            "resource/not_found",
            "This artifact has no stored file.",
        ),
    ]);
    let download = block_on(client.download_artifact("u1", None)).unwrap();
    assert_eq!(download.stream, b"file bytes");
    assert_eq!(download.content_length, Some(10));
    assert_eq!(download.file_name.as_deref(), Some("naïve.txt"));
    assert_eq!(download.content_type.as_deref(), Some("text/plain"));
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "a GET is retried");
    assert_eq!(
        line(&requests[0]),
        "GET http://data/api/v1/artifacts/u1/download"
    );
    assert_eq!(requests[0].header("accept"), Some("*/*"));
    let missing = block_on(client.download_artifact("u1", None)).unwrap_err();
    assert!(missing.is_kind(ErrorKind::NotFound));
    assert_eq!(missing.detail(), "This artifact has no stored file.");
}

#[test]
fn own_household_is_none_when_the_caller_owns_none() {
    let (fake, client) = scripted(vec![
        failing(404, "resource/not_found", "no household"),
        ok(json!({"id": "h1", "name": "Home", "members": null, "metadata": null})),
        failing(403, "auth/forbidden", "not yours"),
    ]);
    assert_eq!(block_on(client.own_household()).unwrap(), None);
    let own = block_on(client.own_household()).unwrap().unwrap();
    assert!(own.members.is_empty() && own.metadata.is_empty());
    assert!(block_on(client.own_household())
        .unwrap_err()
        .is_kind(ErrorKind::Authorization));
    assert_eq!(
        line(&fake.requests()[0]),
        "GET http://sys/api/v1/households/me"
    );
}

#[test]
fn household_routes() {
    let household = json!({"id": "h1", "name": "Home", "owner_id": "olivia", "member_count": 1,
                           "members": [{"id": "m1", "household_id": "h1", "name": "Ann", "age_group": "adult"}]});
    let (fake, client) = scripted(vec![
        ok(household.clone()),
        ok(household.clone()),
        ok(json!([household.clone()])),
        ok(household),
        ok(json!({"message": "Household deleted"})),
    ]);
    let new = NewHousehold {
        name: "Home".into(),
        region: Some("EU".into()),
        members: vec![NewMember::new("Ann", "adult")],
        ..NewHousehold::default()
    };
    let created = block_on(client.create_household(&new)).unwrap();
    assert_eq!(created.members[0].name, "Ann");
    block_on(client.household("h1")).unwrap();
    assert_eq!(block_on(client.households(100, 0)).unwrap().len(), 1);
    let mut renamed = created.clone();
    renamed.name = "House".into();
    let changes = HouseholdChanges::between(&created, &renamed);
    block_on(client.update_household("h1", &changes)).unwrap();
    let message = block_on(client.delete_household("h1")).unwrap();
    assert_eq!(message.message.as_deref(), Some("Household deleted"));
    let requests = fake.requests();
    let lines: Vec<_> = requests.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "POST http://sys/api/v1/households",
            "GET http://sys/api/v1/households/h1",
            "GET http://sys/api/v1/households?limit=100&offset=0",
            "PATCH http://sys/api/v1/households/h1",
            "DELETE http://sys/api/v1/households/h1",
        ]
    );
    assert_eq!(
        body(&requests[0]),
        json!({"name": "Home", "region": "EU", "members": [{"name": "Ann", "age_group": "adult"}]})
    );
    assert_eq!(body(&requests[3]), json!({"name": "House"}));
}

#[test]
fn member_and_profile_routes() {
    let member = json!({"id": "m1", "household_id": "h1", "name": "Ann", "age_group": "adult",
                        "profile": {"id": "p1", "dietary_groups": ["vegan"]}});
    let profile = json!({"id": "p1", "household_member_id": "m1", "dietary_groups": ["vegan"],
                         "nutritional_preferences": {"salt": "low"}});
    let (fake, client) = scripted(vec![
        ok(json!({"results": [member.clone()]})),
        ok(member.clone()),
        ok(member.clone()),
        ok(member),
        ok(json!(null)),
        failing(404, "resource/not_found", "no profile"),
        ok(profile.clone()),
        ok(profile.clone()),
        failing(404, "resource/not_found", "no profile"),
        ok(profile),
        ok(json!("deleted")),
    ]);
    let members = block_on(client.members("h1", 100, 0)).unwrap();
    assert_eq!(
        members[0].profile.as_ref().unwrap().dietary_groups,
        ["vegan"]
    );
    let input = ProfileInput {
        dietary_groups: vec!["vegan".into()],
        ..ProfileInput::default()
    };
    block_on(client.create_member("h1", &NewMember::new("Ann", "adult"), Some(&input))).unwrap();
    block_on(client.member("m1")).unwrap();
    let changes = MemberChanges {
        age_group: Some("senior".into()),
        ..MemberChanges::default()
    };
    block_on(client.update_member("m1", &changes)).unwrap();
    block_on(client.delete_member("m1")).unwrap();
    assert_eq!(block_on(client.profile("m1")).unwrap(), None);
    block_on(client.create_profile("m1", &input)).unwrap();
    let only_groups = ProfileChanges {
        dietary_groups: Some(vec!["halal".into()]),
        ..ProfileChanges::default()
    };
    block_on(client.update_profile("m1", &only_groups)).unwrap();
    let saved = block_on(client.save_profile("m1", &input)).unwrap();
    assert_eq!(saved.nutritional_preferences["salt"], "low");
    let gone = block_on(client.delete_profile("m1")).unwrap();
    assert_eq!(gone.message.as_deref(), Some("deleted"));
    let requests = fake.requests();
    let lines: Vec<_> = requests.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "GET http://sys/api/v1/members?household_id=h1&limit=100&offset=0",
            "POST http://sys/api/v1/members",
            "GET http://sys/api/v1/members/m1",
            "PATCH http://sys/api/v1/members/m1",
            "DELETE http://sys/api/v1/members/m1",
            "GET http://sys/api/v1/members/m1/profile",
            "POST http://sys/api/v1/members/m1/profile",
            "PATCH http://sys/api/v1/members/m1/profile",
            "PATCH http://sys/api/v1/members/m1/profile",
            "POST http://sys/api/v1/members/m1/profile",
            "DELETE http://sys/api/v1/members/m1/profile",
        ]
    );
    assert_eq!(
        body(&requests[1]),
        json!({"household_id": "h1", "name": "Ann", "age_group": "adult",
               "profile": {"dietary_groups": ["vegan"]}})
    );
    assert_eq!(body(&requests[3]), json!({"age_group": "senior"}));
    // No preferences to set, none sent: production's POST is an upsert that would replace a
    // profile's preferences with `{}` had the key been sent.
    assert_eq!(body(&requests[6]), json!({"dietary_groups": ["vegan"]}));
    assert_eq!(body(&requests[7]), json!({"dietary_groups": ["halal"]}));
}

#[test]
fn a_timeout_of_its_own_per_call() {
    let (fake, client) = scripted(vec![Err(larder_api::transport::TransportError::Timeout)]);
    let request = Request::data_get("articles").timeout_ms(5_000);
    assert_eq!(
        block_on(client.execute(request)),
        Err(ApiError::Timeout { after_ms: 5_000 })
    );
    assert_eq!(fake.requests()[0].timeout_ms, 5_000);
}

#[test]
fn retry_after_as_an_http_date_through_the_client() {
    // Sun, 06 Nov 1994 08:49:37 GMT, and an answer asking to come back 30 s later.
    let fake = FakeTransport::scripted(
        784_111_777_000,
        vec![
            Ok(
                HttpResponse::json(503, &json!({"error": {"code": "upstream/unavailable"}}))
                    .with_header("Retry-After", "Sun, 06 Nov 1994 08:50:07 GMT"),
            ),
            ok(json!([])),
        ],
    );
    let client = Client::new(fake.clone(), ClientConfig::new("http://h"));
    block_on(client.execute(Request::data_get("articles"))).unwrap();
    assert_eq!(fake.sleeps(), [30_000]);
}

#[test]
fn every_member_is_read_page_by_page() {
    let member = |n: usize| json!({"id": format!("m{n}"), "household_id": "h1", "name": format!("M{n}"), "age_group": "adult"});
    let (fake, client) = scripted(vec![
        ok(json!((0..100).map(member).collect::<Vec<_>>())),
        ok(json!((100..130).map(member).collect::<Vec<_>>())),
    ]);
    let all = block_on(client.all_members("h1")).unwrap();
    assert_eq!(all.len(), 130);
    assert_eq!(all[129].id, "m129");
    let lines: Vec<_> = fake.requests().iter().map(line).collect();
    assert_eq!(
        lines,
        [
            "GET http://sys/api/v1/members?household_id=h1&limit=100&offset=0",
            "GET http://sys/api/v1/members?household_id=h1&limit=100&offset=100",
        ]
    );
    // A service that ignores `offset` answers the first page again: reading stops.
    let (_, client) = scripted(vec![
        ok(json!((0..100).map(member).collect::<Vec<_>>())),
        ok(json!((0..100).map(member).collect::<Vec<_>>())),
    ]);
    assert_eq!(block_on(client.all_members("h1")).unwrap().len(), 100);
}

#[test]
fn an_emptied_region_or_picture_is_sent_as_null() {
    let household: larder_api::types::Household =
        serde_json::from_value(json!({"id": "h1", "name": "Home", "region": "GB"})).unwrap();
    let mut cleared = household.clone();
    cleared.region = None;
    let changes = HouseholdChanges::between(&household, &cleared);
    assert_eq!(
        serde_json::to_value(&changes).unwrap(),
        json!({"region": null})
    );
    let mut renamed = household.clone();
    renamed.name = "House".into();
    assert_eq!(
        serde_json::to_value(HouseholdChanges::between(&household, &renamed)).unwrap(),
        json!({"name": "House"})
    );
    let member: larder_api::types::Member = serde_json::from_value(
        json!({"id": "m1", "household_id": "h1", "name": "Ann", "age_group": "adult", "image_url": "https://x/a.png"}),
    )
    .unwrap();
    let mut no_picture = member.clone();
    no_picture.image_url = None;
    assert_eq!(
        serde_json::to_value(MemberChanges::between(&member, &no_picture)).unwrap(),
        json!({"image_url": null})
    );
}

#[test]
fn every_artifact_of_a_parent_is_read_page_by_page() {
    let artifact = |n: usize| json!({"id": format!("a{n}"), "parent_urn": "urn:guide:g", "title": format!("f{n}")});
    let (fake, client) = scripted(vec![
        ok(json!((0..1000).map(artifact).collect::<Vec<_>>())),
        ok(json!((1000..1130).map(artifact).collect::<Vec<_>>())),
    ]);
    let all = block_on(client.all_artifacts_of("urn:guide:g")).unwrap();
    assert_eq!(all.len(), 1130);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        line(&requests[1]).ends_with("limit=1000&offset=1000"),
        "{}",
        line(&requests[1])
    );
}
