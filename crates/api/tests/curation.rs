//! Issue 39's calls over the scripted transport: enrich, enrich-batch, editorial policy,
//! backfill, autocomplete, and the correlation headers every request carries.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{body, failing, line, ok, scripted};
use futures::executor::block_on;
use larder_api::collections::{GUIDES, ORGANIZATIONS};
use larder_api::machinery::correlation::is_valid_request_id;
use larder_api::{ApiError, EditorialPolicy, Enrichment, ErrorKind, Record};
use serde_json::json;

fn record(value: serde_json::Value) -> Record {
    value.as_object().cloned().unwrap_or_default()
}

fn enrichment(id: &str, fields: serde_json::Value) -> Enrichment {
    Enrichment {
        id: id.into(),
        fields: record(fields),
        force_fields: Vec::new(),
    }
}

#[test]
fn enrich_patches_agent_fields_and_force_fields() {
    let (fake, client) = scripted(vec![ok(json!({
        "id": "g1", "run_id": "r1", "agent": "bot",
        "enriched_fields": ["setting"], "skipped_fields": ["nutrients"]
    }))]);
    let mut item = enrichment("g1", json!({"setting": ["home"], "nutrients": ["iron"]}));
    item.force_fields = vec!["setting".into()];
    let outcome = block_on(client.enrich_guideline("bot", &item)).unwrap();
    let request = &fake.requests()[0];
    assert_eq!(
        line(request),
        "PATCH http://data/api/v1/guidelines/g1/enrich"
    );
    assert_eq!(
        body(request),
        json!({"agent": "bot", "fields": {"setting": ["home"], "nutrients": ["iron"]}, "force_fields": ["setting"]})
    );
    assert_eq!(outcome.skipped_fields, ["nutrients"]);
    assert_eq!(outcome.run_id.as_deref(), Some("r1"));
}

#[test]
fn enrich_refuses_what_production_refuses_before_sending() {
    let (fake, client) = scripted(vec![]);
    let not_enrichable = enrichment("g1", json!({"rule_text": "x"}));
    let empty = enrichment("g1", json!({}));
    for item in [not_enrichable, empty] {
        let error = block_on(client.enrich_guideline("bot", &item)).unwrap_err();
        assert!(matches!(error, ApiError::Caller(_)), "{error:?}");
    }
    let too_many: Vec<Enrichment> = (0..201)
        .map(|i| enrichment(&format!("g{i}"), json!({"setting": ["home"]})))
        .collect();
    let error = block_on(client.enrich_guidelines("bot", &too_many, true)).unwrap_err();
    assert!(matches!(error, ApiError::Caller(_)));
    assert!(fake.requests().is_empty());
}

#[test]
fn a_batch_reports_the_service_counts_and_each_refusal() {
    let (fake, client) = scripted(vec![ok(json!({
        "dry_run": true, "agent": "bot", "total": 2, "succeeded": 1, "failed": 1,
        "results": [
            {"id": "g1", "ok": true, "dry_run": true, "would_enrich_fields": ["setting"], "skipped_fields": []},
            {"id": "g2", "ok": false, "error": "Invalid enrichment values: setting"}
        ]
    }))]);
    let items = [
        enrichment("g1", json!({"setting": ["home"]})),
        enrichment("g2", json!({"setting": ["x"]})),
    ];
    let outcome = block_on(client.enrich_guidelines("bot", &items, true)).unwrap();
    let request = &fake.requests()[0];
    assert_eq!(
        line(request),
        "POST http://data/api/v1/guidelines/enrich-batch"
    );
    assert_eq!(body(request)["dry_run"], true);
    assert_eq!(body(request)["items"][1]["id"], "g2");
    assert!(body(request)["items"][0].get("force_fields").is_none());
    assert_eq!(
        (outcome.total, outcome.succeeded, outcome.failed),
        (2, 1, 1)
    );
    assert_eq!(outcome.results[0].would_enrich_fields, ["setting"]);
    assert_eq!(
        outcome.results[1].error.as_deref(),
        Some("Invalid enrichment values: setting")
    );
}

#[test]
fn an_editorial_policy_sends_selection_change_and_dry_run() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"dry_run": true, "matched": 120, "updated": 0, "capped": false, "max_docs": 10000,
                  "changes": {"status": "active"}, "sample": [{"id": "g1", "status": "draft"}]}),
        ),
        failing(403, "auth/forbidden", "Administrators only."),
    ]);
    let policy = EditorialPolicy {
        fq: vec!["guide_urn:\"urn:guide:x\"".into()],
        status: Some("active".into()),
        ..Default::default()
    };
    let outcome = block_on(client.editorial_policy(&policy, true)).unwrap();
    assert_eq!(
        body(&fake.requests()[0]),
        json!({"fq": ["guide_urn:\"urn:guide:x\""], "status": "active", "dry_run": true})
    );
    assert_eq!((outcome.matched, outcome.updated), (120, 0));
    assert_eq!(outcome.sample[0]["status"], "draft");
    let error = block_on(client.editorial_policy(&policy, false)).unwrap_err();
    assert!(error.is_kind(ErrorKind::Authorization), "{error:?}");
    assert_eq!(fake.requests().len(), 2, "a POST is not retried");

    let no_change = EditorialPolicy {
        ids: vec!["g1".into()],
        ..Default::default()
    };
    assert!(matches!(
        block_on(client.editorial_policy(&no_change, true)),
        Err(ApiError::Caller(_))
    ));
    assert_eq!(fake.requests().len(), 2);
}

#[test]
fn the_read_again_narrows_the_same_selection_to_what_carries_the_change() {
    let policy = EditorialPolicy {
        ids: vec!["g1".into(), "g2".into()],
        fq: vec!["guide_urn:\"urn:guide:x\"".into()],
        status: Some("active".into()),
        visibility: Some("pub\"lic".into()),
        ..Default::default()
    };
    let check = policy.already_applied();
    assert_eq!(check.ids, policy.ids);
    assert_eq!(
        (&check.status, &check.visibility),
        (&policy.status, &policy.visibility)
    );
    assert_eq!(
        check.fq,
        vec![
            "guide_urn:\"urn:guide:x\"".to_string(),
            "status:\"active\"".to_string(),
            "visibility:\"public\"".to_string(),
        ]
    );
}

#[test]
fn backfill_and_autocomplete_put_their_options_in_the_query() {
    let (fake, client) = scripted(vec![
        ok(
            json!({"dry_run": true, "guide_urn": "urn:guide:x", "only_missing": true, "queued": 0,
                  "failed": 0, "skipped_already_embedded": 3, "scanned": 7, "max_docs": 100}),
        ),
        ok(
            json!([{"urn": "urn:guide:m", "title": "Mediterranean", "short_title": null,
                   "region": "GR", "publication_year": 2022}]),
        ),
    ]);
    let outcome =
        block_on(client.backfill_guideline_embeddings(Some("urn:guide:x"), true, Some(100), true))
            .unwrap();
    assert_eq!(
        line(&fake.requests()[0]),
        "POST http://data/api/v1/guidelines/embeddings/backfill?guide_urn=urn%3Aguide%3Ax&only_missing=true&max_docs=100&dry_run=true"
    );
    assert_eq!((outcome.scanned, outcome.skipped_already_embedded), (7, 3));
    let items = block_on(client.autocomplete(&GUIDES, "medit", None)).unwrap();
    assert_eq!(
        line(&fake.requests()[1]),
        "GET http://data/api/v1/guides/autocomplete?q=medit&limit=15"
    );
    assert_eq!(items[0]["title"], "Mediterranean");
    // A limit production refuses is the caller's, before any request.
    assert!(matches!(
        block_on(client.autocomplete(&ORGANIZATIONS, "x", Some(0))),
        Err(ApiError::Caller(_))
    ));
    assert_eq!(fake.requests().len(), 2);
}

#[test]
fn every_request_carries_a_fresh_request_id_and_the_client_label() {
    let (fake, client) = scripted(vec![ok(json!([])), ok(json!([]))]);
    block_on(client.autocomplete(&GUIDES, "a", Some(3))).unwrap();
    block_on(client.autocomplete(&GUIDES, "b", Some(3))).unwrap();
    let header = |i: usize, name: &str| {
        fake.requests()[i]
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    let (first, second) = (header(0, "X-Request-Id"), header(1, "X-Request-Id"));
    assert!(is_valid_request_id(&first), "{first}");
    assert_ne!(first, second);
    assert!(header(0, "X-Client").starts_with("larder/"));
}

#[test]
fn a_failure_names_the_request_id_the_service_echoed_else_the_one_sent() {
    // Echoed: the service's id wins (it may have replaced one it would not honour).
    let mut echoed = failing(422, "invalid", "No such guide").unwrap();
    echoed
        .headers
        .push(("x-request-id".into(), "svc-7f3a:12".into()));
    let (_, client) = scripted(vec![Ok(echoed)]);
    let error = block_on(client.autocomplete(&GUIDES, "a", Some(3))).unwrap_err();
    assert_eq!(
        error.failure().unwrap().request_id.as_deref(),
        Some("svc-7f3a:12")
    );

    // Not echoed (production's households service): the id this attempt went with.
    let (fake, client) = scripted(vec![failing(409, "conflict", "Taken")]);
    let error = block_on(client.autocomplete(&GUIDES, "a", Some(3))).unwrap_err();
    let sent = fake.requests()[0]
        .headers
        .iter()
        .find(|(k, _)| k == "X-Request-Id")
        .map(|(_, v)| v.clone());
    assert!(sent.is_some());
    assert_eq!(error.failure().unwrap().request_id, sent);

    // A success carries none, and an echo production would not honour is not repeated.
    let mut odd = failing(400, "bad", "Bad").unwrap();
    odd.headers.push(("X-Request-Id".into(), "<script>".into()));
    let (_, client) = scripted(vec![Ok(odd)]);
    let error = block_on(client.autocomplete(&GUIDES, "a", Some(3))).unwrap_err();
    assert_eq!(error.failure().unwrap().request_id, None);
}

#[test]
fn each_refused_row_of_an_editorial_run_names_its_id_and_the_services_reason() {
    let outcome: larder_api::EditorialOutcome = serde_json::from_value(json!({
        "dry_run": false, "matched": 4, "updated": 0,
        "failures": [
            // A search engine's bulk failure, as production's update-by-query reports it.
            {"index": "guidelines", "id": "g-1", "status": 400,
             "cause": {"type": "Data", "reason": "visibility: public needs review_status verified"}},
            {"id": "g-2", "error": "version conflict"},
            {"id": "g-3", "reason": "locked"},
            {"id": "g-4", "cause": {"type": "x"}},
            // A shard that failed the search under the update (the engine's search failure:
            // no row id, its reason an object).
            {"index": "guidelines", "shard": 0, "node": "n1",
             "reason": {"type": "search_phase_execution_exception", "reason": "all shards failed"}},
            "a refusal in words only",
        ],
    }))
    .unwrap();
    let refusal = |id: Option<&str>, reason: &str| larder_api::Refusal {
        id: id.map(str::to_string),
        reason: reason.to_string(),
    };
    assert_eq!(
        outcome.refusals(),
        [
            refusal(
                Some("g-1"),
                "visibility: public needs review_status verified"
            ),
            refusal(Some("g-2"), "version conflict"),
            refusal(Some("g-3"), "locked"),
            // Nothing readable as a reason: the failure as sent, never nothing.
            refusal(Some("g-4"), r#"{"cause":{"type":"x"},"id":"g-4"}"#),
            refusal(None, "all shards failed"),
            refusal(None, "a refusal in words only"),
        ]
    );
}
