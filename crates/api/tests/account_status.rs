//! Issue 40 and 41's calls: consent, a guest's claim (and the renewed session), share links,
//! the status page's reads and backfill, and the household search. Each answer typed with the
//! unknown keys kept, a malformed one an error, and a route the service lacks (a bare 404 or a
//! 405) `None`, never a failure; a 404 a route answers about a record stays an error.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex};

use futures::executor::block_on;
use larder_api::account::GuestClaim;
use larder_api::household_search::HouseholdSearch;
use larder_api::shares::NewShare;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpRequest, HttpResponse, TransportError};
use larder_api::{collections, ApiError, Client, ClientConfig, Credentials};
use serde_json::{json, Value};

const START: u64 = 1_000_000;

type Seen = Arc<Mutex<Vec<(String, String, Option<Value>)>>>;

/// A service that signs anyone in, and answers `route(method, path-and-query)` for the rest.
fn service(
    route: impl Fn(&str, &str, Option<&Value>) -> HttpResponse + Send + Sync + 'static,
) -> (FakeTransport, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let fake = FakeTransport::new(START, move |request: &HttpRequest| {
        let path = request
            .url
            .split("/api/v1/")
            .nth(1)
            .unwrap_or(&request.url)
            .to_string();
        let body: Option<Value> = request
            .body
            .as_deref()
            .map(|b| serde_json::from_str(b).unwrap());
        if path == "system/login" {
            let user = body.as_ref().unwrap()["username"]
                .as_str()
                .unwrap()
                .to_string();
            return Ok::<_, TransportError>(HttpResponse::json(
                200,
                &json!({"success": true, "result": {"access_token": format!("t-{user}"), "expires_in": 300}}),
            ));
        }
        if path == "system/ping" {
            return Ok(answer(json!({})));
        }
        log.lock()
            .unwrap()
            .push((request.method.to_string(), path.clone(), body.clone()));
        Ok(route(request.method, &path, body.as_ref()))
    });
    (fake, seen)
}

fn answer(result: Value) -> HttpResponse {
    HttpResponse::json(200, &json!({"success": true, "result": result}))
}

fn absent() -> [HttpResponse; 2] {
    [
        HttpResponse::json(404, &json!({"detail": "Not Found"})),
        HttpResponse::json(405, &json!({"detail": "Method Not Allowed"})),
    ]
}

fn client_of(fake: &FakeTransport) -> Client<FakeTransport> {
    let client = Client::new(
        fake.clone(),
        ClientConfig::split("http://data", "http://sys"),
    );
    block_on(client.sign_in(Credentials::user("gus", "gus-secret-1"))).unwrap();
    client
}

#[test]
fn consent_is_read_and_recorded_with_the_default_type() {
    let (fake, seen) = service(|method, path, body| match (method, path) {
        ("GET", "users/me/consent?consent_type=service_data_processing") => answer(json!({
            "granted": false, "consent_type": "service_data_processing",
            "version": null, "granted_at": null
        })),
        ("POST", "users/me/consent") => answer(json!({
            "consent_type": body.unwrap()["consent_type"], "version": body.unwrap()["version"],
            "granted_at": "2026-11-28T05:00:00Z", "ip_address": "10.0.0.1", "row": 7
        })),
        _ => panic!("{method} {path}"),
    });
    let client = client_of(&fake);
    let never = block_on(client.consent(None)).unwrap().expect("offered");
    assert!(!never.granted && never.version.is_none() && !never.covers("1.0"));
    let recorded = block_on(client.accept_consent("1.0", None))
        .unwrap()
        .unwrap();
    assert_eq!(recorded.version, "1.0");
    assert_eq!(recorded.ip_address.as_deref(), Some("10.0.0.1"));
    assert_eq!(recorded.extra["row"], json!(7));
    assert_eq!(
        seen.lock().unwrap()[1].2,
        Some(json!({"version": "1.0", "consent_type": "service_data_processing"}))
    );
    // A version production would refuse is not sent.
    for bad in ["", "12345678901234567"] {
        assert!(matches!(
            block_on(client.accept_consent(bad, None)),
            Err(ApiError::Caller(_))
        ));
    }
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn every_account_and_share_call_is_none_where_the_route_is_absent() {
    for refusal in absent() {
        let refusal = Arc::new(refusal);
        let (fake, _) = service(move |_, _, _| (*refusal).clone());
        let client = client_of(&fake);
        assert_eq!(block_on(client.consent(None)).unwrap(), None);
        assert_eq!(block_on(client.accept_consent("1.0", None)).unwrap(), None);
        let claim = GuestClaim {
            email: "gus@example.org".into(),
            password: "a-long-enough-password".into(),
            ..GuestClaim::default()
        };
        assert_eq!(block_on(client.claim_account(&claim)).unwrap(), None);
        assert_eq!(block_on(client.share_links(50)).unwrap(), None);
        let share = NewShare::meal_plan("plan-1", "m-1");
        assert_eq!(block_on(client.create_share(&share)).unwrap(), None);
        assert_eq!(block_on(client.revoke_share("tok")).unwrap(), None);
        assert_eq!(block_on(client.system_health()).unwrap(), None);
        assert_eq!(block_on(client.system_indices()).unwrap(), None);
        assert_eq!(block_on(client.system_embeddings()).unwrap(), None);
        assert_eq!(
            block_on(client.backfill_embeddings(&collections::ARTICLES, true)).unwrap(),
            None
        );
        assert!(block_on(client.is_signed_in()), "the session is kept");
    }
}

#[test]
fn a_claim_renews_the_session_under_the_new_address() {
    let (fake, seen) = service(|method, path, body| match (method, path) {
        ("POST", "users/me/claim") => answer(json!({
            "user_id": "u-1", "email": body.unwrap()["email"].as_str().unwrap().trim().to_lowercase(),
            "email_verified": false, "verification_sent": false
        })),
        _ => panic!("{method} {path}"),
    });
    let client = client_of(&fake);
    let claim = GuestClaim {
        email: " Gus@Example.ORG".into(),
        password: "a-long-enough-password".into(),
        first_name: Some("Gus".into()),
        last_name: None,
    };
    let (claimed, _) = block_on(client.claim_account(&claim)).unwrap().unwrap();
    assert_eq!(claimed.email, "gus@example.org");
    assert_eq!(
        seen.lock().unwrap()[0].2,
        Some(
            json!({"email": " Gus@Example.ORG", "password": "a-long-enough-password", "first_name": "Gus"})
        )
    );
    // The next call carries the token of the new sign-in.
    let requests = fake.requests();
    let last_login = requests
        .iter()
        .rev()
        .find(|r| r.url.ends_with("system/login"))
        .unwrap();
    let login: Value = serde_json::from_str(last_login.body.as_deref().unwrap()).unwrap();
    assert_eq!(login["username"], "gus@example.org");
    assert_eq!(login["password"], "a-long-enough-password");
    assert!(!format!("{claim:?}").contains("a-long-enough-password"));
}

#[test]
fn a_claim_production_would_refuse_is_not_sent_and_a_409_is_the_services_failure() {
    let (fake, seen) = service(|_, _, _| {
        HttpResponse::json(
            409,
            &json!({"success": false, "error": {"detail": "That email already has a WiseFood account. Sign in to it instead — you can share this plan to yourself from here first.", "code": "resource/conflict"}}),
        )
    });
    let client = client_of(&fake);
    for (email, password) in [
        ("gus", "a-long-enough-password"),
        ("gus@example.org", "123456789"),
    ] {
        let claim = GuestClaim {
            email: email.into(),
            password: password.into(),
            ..GuestClaim::default()
        };
        assert!(matches!(
            block_on(client.claim_account(&claim)),
            Err(ApiError::Caller(_))
        ));
    }
    assert!(seen.lock().unwrap().is_empty());
    let claim = GuestClaim {
        email: "ann@example.org".into(),
        password: "a-long-enough-password".into(),
        ..GuestClaim::default()
    };
    let error = block_on(client.claim_account(&claim)).unwrap_err();
    assert_eq!(error.status(), Some(409));
    assert!(error.failure().unwrap().detail.starts_with("That email"));
}

#[test]
fn share_links_are_listed_created_and_revoked() {
    let (fake, seen) = service(|method, path, _| match (method, path) {
        ("GET", "shares?limit=200") => answer(json!({"shares": [{
            "token": "abc", "kind": "meal_plan", "title": "Meal plan for 2026-11-28",
            "created_at": "2026-11-28T05:00:00Z", "expires_at": null, "revoked": false,
            "live": true, "view_count": 2, "last_viewed_at": "2026-11-28T05:10:00Z"
        }]})),
        ("POST", "shares") => answer(json!({
            "token": "def", "kind": "meal_plan", "title": "Meal plan for 2026-11-28", "expires_at": null
        })),
        ("DELETE", "shares/abc") => answer(json!({"revoked": true})),
        ("DELETE", "shares/zzz") => HttpResponse::json(
            404,
            &json!({"success": false, "error": {"detail": "No such share link", "code": "resource/not_found"}}),
        ),
        ("DELETE", "shares/bare") => {
            HttpResponse::json(404, &json!({"detail": "No such share link"}))
        }
        ("DELETE", "shares/odd") => answer(json!({"revoked": "yes"})),
        _ => panic!("{method} {path}"),
    });
    let client = client_of(&fake);
    let links = block_on(client.share_links(5000)).unwrap().unwrap();
    assert_eq!(links.len(), 1);
    assert!(links[0].live && !links[0].revoked && links[0].view_count == 2);
    let made = block_on(client.create_share(&NewShare::meal_plan("plan-1", "m-1")))
        .unwrap()
        .unwrap();
    assert_eq!(made.token, "def");
    assert_eq!(
        seen.lock().unwrap()[1].2,
        Some(json!({"kind": "meal_plan", "id": "plan-1", "member_id": "m-1"}))
    );
    assert_eq!(block_on(client.revoke_share("abc")).unwrap(), Some(true));
    // A 404 about the link (enveloped, or bare with its own words) is an error, not "absent".
    for token in ["zzz", "bare"] {
        let error = block_on(client.revoke_share(token)).unwrap_err();
        assert_eq!(error.status(), Some(404), "{token}");
    }
    assert!(matches!(
        block_on(client.revoke_share("odd")),
        Err(ApiError::Decode { .. })
    ));
    assert_eq!(
        client.public_share_url("a/b", None),
        "http://sys/api/v1/shares/public/a%2Fb"
    );
    // The operator's page (config.json's `share_page`), the token in its place, escaped.
    assert_eq!(
        client.public_share_url("a/b", Some("https://app.example.org/shared/{token}?from=x")),
        "https://app.example.org/shared/a%2Fb?from=x"
    );
}

#[test]
fn a_malformed_share_list_is_an_error() {
    let (fake, _) = service(|_, _, _| answer(json!({"shares": [{"kind": "meal_plan"}]})));
    let client = client_of(&fake);
    assert!(matches!(
        block_on(client.share_links(50)),
        Err(ApiError::Decode { .. })
    ));
}

#[test]
fn the_status_reads_and_a_backfill_are_typed() {
    let (fake, seen) = service(|method, path, _| match (method, path) {
        ("GET", "system/health") => answer(json!({
            "healthy": false,
            "elasticsearch": {"reachable": false, "error": "refused"},
            "redis": {"reachable": true},
            "storage": {"healthy": true, "integrity": "ok"}
        })),
        ("GET", "system/indices") => answer(json!({
            "cluster": {"reachable": true, "cluster_name": "c", "status": "yellow", "number_of_nodes": 1,
                        "active_shards": 6, "unassigned_shards": 1},
            "indices": [{"index": "articles", "exists": true, "doc_count": 4, "deleted_docs": 0,
                         "size_bytes": 10, "mapped_fields": 12, "missing_fields": ["tags"],
                         "max_result_window": 10000, "expected_max_result_window": 10000}],
            "drifted": ["articles"]
        })),
        ("GET", "system/embeddings") => answer(json!({
            "queue": {"key": "q", "pending": null},
            "indices": [
                {"index": "articles", "identifier_field": "urn", "exists": true, "total": 4,
                 "embedded": 1, "missing": 3, "coverage": 0.25},
                {"index": "guides", "identifier_field": "urn", "exists": true, "total": 0,
                 "embedded": 0, "missing": 0, "coverage": null, "stale": 0, "current": 0}
            ]
        })),
        ("POST", "articles/embeddings/backfill?dry_run=true") => answer(json!({
            "dry_run": true, "only_missing": true, "queued": 3, "failed": 0,
            "skipped_already_embedded": 1, "scanned": 4, "max_docs": 10000
        })),
        _ => panic!("{method} {path}"),
    });
    let client = client_of(&fake);
    let health = block_on(client.system_health()).unwrap().unwrap();
    assert!(!health.healthy && !health.elasticsearch.reachable);
    assert!(health.redis.is_up() && health.storage.is_up());
    assert_eq!(health.storage.extra["integrity"], json!("ok"));
    let indices = block_on(client.system_indices()).unwrap().unwrap();
    assert_eq!(indices.drifted, ["articles"]);
    assert_eq!(indices.indices[0].missing_fields, ["tags"]);
    assert_eq!(indices.cluster.unassigned_shards, Some(1));
    let embeddings = block_on(client.system_embeddings()).unwrap().unwrap();
    assert_eq!(embeddings.queue.pending, None);
    let articles = &embeddings.indices[0];
    assert_eq!((articles.missing, articles.stale), (3, None));
    assert!(articles.wants_backfill());
    assert_eq!(
        articles.backfill_collection().map(|c| c.path),
        Some("articles")
    );
    assert!(embeddings.indices[1].backfill_collection().is_none());
    assert!(!embeddings.indices[1].wants_backfill());
    let preview = block_on(client.backfill_embeddings(&collections::ARTICLES, true))
        .unwrap()
        .unwrap();
    assert_eq!((preview.dry_run, preview.queued), (true, 3));
    // A collection without a backfill route is refused before anything is sent.
    let sent = seen.lock().unwrap().len();
    assert!(matches!(
        block_on(client.backfill_embeddings(&collections::GUIDES, false)),
        Err(ApiError::Caller(_))
    ));
    assert_eq!(seen.lock().unwrap().len(), sent);
}

#[test]
fn a_malformed_status_answer_is_an_error() {
    let (fake, _) = service(|_, _, _| answer(json!({"healthy": "very"})));
    let client = client_of(&fake);
    assert!(matches!(
        block_on(client.system_health()),
        Err(ApiError::Decode { .. })
    ));
}

#[test]
fn a_household_search_is_told_apart_from_a_plain_page() {
    let (fake, seen) = service(|_, path, _| {
        if path.contains("q=") {
            answer(json!({
                "households": [{"id": "h1", "name": "Kovács", "member_count": 3}],
                "total": 41,
                "applied": {"q": "kov", "region": null, "sort": "name", "order": "desc"}
            }))
        } else {
            answer(json!([{"id": "h1", "name": "Kovács"}, {"id": "h2", "name": "Novak"}]))
        }
    });
    let client = client_of(&fake);
    let search = HouseholdSearch {
        q: " kov ".into(),
        sort: "name".into(),
        descending: true,
        limit: 20,
        ..HouseholdSearch::default()
    };
    let found = block_on(client.search_households(&search)).unwrap();
    assert!(found.searched);
    assert_eq!(found.total, Some(41));
    assert_eq!(found.households[0].member_count, Some(3));
    assert_eq!(
        seen.lock().unwrap()[0].1,
        "households?limit=20&offset=0&q=kov&sort=name&order=desc"
    );
    let plain = block_on(client.search_households(&HouseholdSearch {
        limit: 20,
        ..HouseholdSearch::default()
    }))
    .unwrap();
    assert!(!plain.searched && plain.total.is_none());
    assert_eq!(plain.households.len(), 2);
    let bad = HouseholdSearch {
        sort: "owner".into(),
        ..search
    };
    assert!(matches!(
        block_on(client.search_households(&bad)),
        Err(ApiError::Caller(_))
    ));
}
