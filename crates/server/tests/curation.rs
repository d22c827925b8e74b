//! Issue 39 on both wires: guideline facets and provenance, the ownership rule, enrich and
//! enrich-batch, editorial policy and embeddings backfill (production.md §10.5). Autocomplete,
//! organizations, recipe collections, article write fields and request ids: `kb_routes.rs`.

mod common;

use common::TestServer;
use serde_json::{json, Value};

const GUIDE: &str = "urn:guide:mediterranean-diet-guide";

async fn on(wire: &str) -> TestServer {
    TestServer::start(&["--demo", "--wire", wire]).await
}

async fn rules(server: &TestServer, token: &str) -> Vec<Value> {
    let answer = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{GUIDE}"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body["result"].as_array().unwrap().clone()
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_human_edit_takes_a_field_over_and_enrich_keeps_off_it_unless_forced() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let admin = server.login("admin", "admin-demo").await;
        let rule = &rules(&server, &admin).await[0];
        let id = rule["id"].as_str().unwrap();
        assert!(names(&rule["ai_generated_fields"]).contains(&"nutrients".to_string()));
        assert_eq!(rule["enhancements"][0]["agent"], "demo-enricher", "{wire}");

        let patched = server
            .call(
                "PATCH",
                &format!("guidelines/{id}"),
                Some(&admin),
                Some(json!({"nutrients": ["fat", "energy"]})),
            )
            .await;
        assert_eq!(patched.status, 200, "{wire}: {}", patched.body);
        let owned = names(&patched.body["result"]["ai_generated_fields"]);
        assert!(
            !owned.contains(&"nutrients".to_string()),
            "{wire}: {owned:?}"
        );
        assert!(
            owned.contains(&"life_stage".to_string()),
            "{wire}: {owned:?}"
        );

        // PATCH takes no provenance (production.md §10.5).
        let provenance = server
            .call(
                "PATCH",
                &format!("guidelines/{id}"),
                Some(&admin),
                Some(json!({"ai_generated_fields": []})),
            )
            .await;
        assert_eq!(provenance.status, 422, "{wire}: {}", provenance.body);

        // The human-owned field is skipped; the machine's own is rewritten.
        let enrich = json!({"agent": "tester", "fields": {"nutrients": ["salt"], "life_stage": ["adolescence"]}});
        let enriched = server
            .call(
                "PATCH",
                &format!("guidelines/{id}/enrich"),
                Some(&admin),
                Some(enrich),
            )
            .await;
        assert_eq!(enriched.status, 200, "{wire}: {}", enriched.body);
        let result = &enriched.body["result"];
        assert_eq!(result["id"], id);
        assert_eq!(result["agent"], "tester");
        assert!(names(&result["skipped_fields"]).contains(&"nutrients".to_string()));
        assert!(names(&result["enriched_fields"]).contains(&"life_stage".to_string()));
        let after = server
            .call("GET", &format!("guidelines/{id}"), Some(&admin), None)
            .await;
        let after = &after.body["result"];
        assert_eq!(after["nutrients"], json!(["fat", "energy"]), "{wire}");
        assert_eq!(after["life_stage"], json!(["adolescence"]), "{wire}");
        assert!(after["enhancements"].as_array().unwrap().len() >= 2);

        // force_fields overwrites it and hands it back to the machine.
        let forced = json!({"agent": "tester", "fields": {"nutrients": ["salt"]}, "force_fields": ["nutrients"]});
        let forced = server
            .call(
                "PATCH",
                &format!("guidelines/{id}/enrich"),
                Some(&admin),
                Some(forced),
            )
            .await;
        assert_eq!(forced.status, 200, "{wire}: {}", forced.body);
        let after = server
            .call("GET", &format!("guidelines/{id}"), Some(&admin), None)
            .await;
        assert_eq!(after.body["result"]["nutrients"], json!(["salt"]), "{wire}");
        assert!(names(&after.body["result"]["ai_generated_fields"]).contains(&"nutrients".into()));

        // rule_text is not enrichable; a bad facet value is refused with the field named.
        for fields in [
            json!({"rule_text": "x"}),
            json!({"life_stage": ["toddler"]}),
        ] {
            let refused = server
                .call(
                    "PATCH",
                    &format!("guidelines/{id}/enrich"),
                    Some(&admin),
                    Some(json!({"agent": "tester", "fields": fields})),
                )
                .await;
            assert_eq!(refused.status, 422, "{wire}: {}", refused.body);
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn facets_are_validated_and_searchable() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let admin = server.login("admin", "admin-demo").await;
        let id = rules(&server, &admin).await[0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        for bad in [
            json!({"setting": ["beach"]}),
            json!({"guideline_type": "vibes"}),
            json!({"age_min_months": 36, "age_max_months": 12}),
        ] {
            let answer = server
                .call(
                    "PATCH",
                    &format!("guidelines/{id}"),
                    Some(&admin),
                    Some(bad.clone()),
                )
                .await;
            assert!(
                answer.status == 422 || answer.status == 500,
                "{wire} {bad}: {} {}",
                answer.status,
                answer.body
            );
        }
        let search = server
            .call(
                "POST",
                "guidelines/search",
                Some(&admin),
                Some(json!({"q": "", "fq": ["life_stage:older_adulthood"], "fields": ["life_stage"]})),
            )
            .await;
        assert_eq!(search.status, 200, "{wire}: {}", search.body);
        let results = search.body["result"]["results"].as_array().unwrap();
        assert_eq!(results.len(), 1, "{wire}: {}", search.body);
        let facet = search.body["result"]["facets"]["life_stage"]
            .as_array()
            .unwrap();
        assert!(
            facet.contains(&json!({"value": "older_adulthood", "count": 1})),
            "{wire}: {facet:?}"
        );
        server.stop().await;
    }
}

#[tokio::test]
async fn enrich_batch_dry_runs_caps_and_refuses_per_item() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let curator = server.login("curator", "curator-demo").await;
        let all = rules(&server, &curator).await;
        let (a, b) = (all[0]["id"].clone(), all[1]["id"].clone());
        let missing = "00000000-0000-4000-8000-0000000000ff";
        let items = json!([
            {"id": a, "fields": {"setting": ["school"]}, "force_fields": ["setting"]},
            {"id": b, "fields": {"setting": ["nowhere"]}},
            {"id": missing, "fields": {"setting": ["home"]}},
        ]);
        let dry = server
            .call(
                "POST",
                "guidelines/enrich-batch",
                Some(&curator),
                Some(json!({"agent": "batch", "items": items, "dry_run": true})),
            )
            .await;
        assert_eq!(dry.status, 200, "{wire}: {}", dry.body);
        let r = &dry.body["result"];
        assert_eq!(r["dry_run"], true);
        assert_eq!(
            (
                r["total"].clone(),
                r["succeeded"].clone(),
                r["failed"].clone()
            ),
            (json!(3), json!(1), json!(2)),
            "{wire}: {r}"
        );
        assert_eq!(
            r["results"][0]["would_enrich_fields"],
            json!(["setting"]),
            "{r}"
        );
        assert_eq!(r["results"][1]["ok"], false);
        assert!(r["results"][1]["error"].is_string(), "{r}");
        let unchanged = server
            .call(
                "GET",
                &format!("guidelines/{}", a.as_str().unwrap()),
                Some(&curator),
                None,
            )
            .await;
        assert_eq!(
            unchanged.body["result"]["setting"],
            json!(["home"]),
            "a dry run writes nothing"
        );

        let applied = server
            .call(
                "POST",
                "guidelines/enrich-batch",
                Some(&curator),
                Some(json!({"agent": "batch", "items": items})),
            )
            .await;
        assert_eq!(applied.status, 200, "{wire}: {}", applied.body);
        assert_eq!(applied.body["result"]["succeeded"], 1);
        let changed = server
            .call(
                "GET",
                &format!("guidelines/{}", a.as_str().unwrap()),
                Some(&curator),
                None,
            )
            .await;
        assert_eq!(changed.body["result"]["setting"], json!(["school"]));

        let many: Vec<Value> = (0..201)
            .map(|_| json!({"id": a, "fields": {"setting": ["home"]}}))
            .collect();
        let over = server
            .call(
                "POST",
                "guidelines/enrich-batch",
                Some(&curator),
                Some(json!({"agent": "batch", "items": many, "dry_run": true})),
            )
            .await;
        assert_eq!(over.status, 422, "{wire}: {}", over.body);
        server.stop().await;
    }
}

#[tokio::test]
async fn editorial_policy_previews_then_applies_for_administrators_only() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let admin = server.login("admin", "admin-demo").await;
        let curator = server.login("curator", "curator-demo").await;
        let body = json!({"fq": [format!("guide_urn:\"{GUIDE}\"")], "review_status": "verified", "dry_run": true});
        let refused = server
            .call(
                "POST",
                "guidelines/editorial-policy",
                Some(&curator),
                Some(body.clone()),
            )
            .await;
        assert_eq!(refused.status, 403, "{wire}: {}", refused.body);

        let dry = server
            .call(
                "POST",
                "guidelines/editorial-policy",
                Some(&admin),
                Some(body),
            )
            .await;
        assert_eq!(dry.status, 200, "{wire}: {}", dry.body);
        let r = &dry.body["result"];
        assert_eq!(
            (
                r["dry_run"].clone(),
                r["matched"].clone(),
                r["updated"].clone()
            ),
            (json!(true), json!(4), json!(0)),
            "{wire}: {r}"
        );
        assert_eq!(r["sample"].as_array().unwrap().len(), 4);
        assert_eq!(r["sample"][0]["review_status"], "unreviewed");

        let applied = server
            .call(
                "POST",
                "guidelines/editorial-policy",
                Some(&admin),
                Some(
                    json!({"fq": [format!("guide_urn:\"{GUIDE}\"")], "review_status": "verified"}),
                ),
            )
            .await;
        assert_eq!(applied.status, 200, "{wire}: {}", applied.body);
        let r = &applied.body["result"];
        assert_eq!(
            (r["matched"].clone(), r["updated"].clone()),
            (json!(4), json!(4)),
            "{wire}: {r}"
        );
        assert!(
            r["failures"].is_array() && r["version_conflicts"].is_number(),
            "{r}"
        );
        let rule = &rules(&server, &admin).await[0];
        assert_eq!(rule["review_status"], "verified");
        assert!(rule["verifier_user_id"].is_string(), "{rule}");

        let extra = server
            .call(
                "POST",
                "guidelines/editorial-policy",
                Some(&admin),
                Some(json!({"ids": [rule["id"]], "status": "active", "colour": "red"})),
            )
            .await;
        assert_eq!(extra.status, 422, "{wire}: {}", extra.body);
        server.stop().await;
    }
}

#[tokio::test]
async fn an_editorial_policy_refused_in_part_lists_each_refusal_and_writes_the_rest() {
    for wire in ["reference", "production"] {
        let server = on(wire).await;
        let admin = server.login("admin", "admin-demo").await;
        let free = rules(&server, &admin).await[0]["id"].clone();
        // A rule of the demo's active guide: its guidelines must stay active and verified.
        let bound = server
            .call(
                "GET",
                "guidelines/by-guide/urn:guide:healthy-plates-children",
                Some(&admin),
                None,
            )
            .await;
        let bound = bound.body["result"][0]["id"].clone();
        assert!(bound.is_string() && free.is_string(), "{wire}");
        let applied = server
            .call(
                "POST",
                "guidelines/editorial-policy",
                Some(&admin),
                Some(json!({"ids": [free, bound], "review_status": "unreviewed"})),
            )
            .await;
        assert_eq!(applied.status, 200, "{wire}: {}", applied.body);
        let r = &applied.body["result"];
        assert_eq!(
            (r["matched"].clone(), r["updated"].clone()),
            (json!(2), json!(1)),
            "{wire}: {r}"
        );
        // A search engine's bulk failure, as production's update-by-query reports one.
        let failures = r["failures"].as_array().unwrap();
        assert_eq!(failures.len(), 1, "{wire}: {r}");
        assert_eq!(failures[0]["id"], bound, "{wire}: {r}");
        assert_eq!(failures[0]["index"], "guidelines", "{wire}: {r}");
        assert_eq!(failures[0]["status"], 409, "{wire}: {r}");
        assert_eq!(
            failures[0]["cause"]["reason"],
            "A guideline of an active guide must be active and verified.",
            "{wire}: {r}"
        );
        let read = |id: Value| {
            let server = &server;
            let admin = &admin;
            async move {
                let path = format!("guidelines/{}", id.as_str().unwrap());
                server.call("GET", &path, Some(admin), None).await.body["result"]["review_status"]
                    .clone()
            }
        };
        assert_eq!(read(free).await, "unreviewed", "{wire}");
        assert_eq!(read(bound).await, "verified", "{wire}");
        server.stop().await;
    }
}

#[tokio::test]
async fn backfill_answers_production_counts() {
    let server = on("reference").await;
    let admin = server.login("admin", "admin-demo").await;
    let dry = server
        .call(
            "POST",
            &format!("guidelines/embeddings/backfill?guide_urn={GUIDE}&dry_run=true"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(dry.status, 200, "{}", dry.body);
    let r = &dry.body["result"];
    for key in [
        "dry_run",
        "guide_urn",
        "only_missing",
        "queued",
        "failed",
        "skipped_already_embedded",
        "scanned",
        "max_docs",
    ] {
        assert!(r.get(key).is_some(), "{key}: {r}");
    }
    assert_eq!(r["scanned"], 4, "{r}");
    let over = server
        .call(
            "POST",
            "guidelines/embeddings/backfill?max_docs=10001",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(over.status, 422, "{}", over.body);
    server.stop().await;
}
