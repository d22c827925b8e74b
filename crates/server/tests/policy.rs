//! Reading policy (production.md §8 row 4): `reader_visibility` and `indexing_tier` on articles,
//! what readers without `admin`/`expert` see, and `POST articles/policy` on both wires.

mod common;

use common::TestServer;
use serde_json::{json, Value};

const SODIUM: &str = "urn:article:sodium-blood-pressure";
const IODINE: &str = "urn:article:iodine-salt";

async fn policy(server: &TestServer, token: &str, body: Value) -> common::Answer {
    server
        .call("POST", "articles/policy", Some(token), Some(body))
        .await
}

async fn found(server: &TestServer, token: &str, q: &str) -> Vec<String> {
    let answer = server
        .call(
            "POST",
            "articles/search",
            Some(token),
            Some(json!({"q": q, "limit": 100})),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body["result"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["urn"].as_str().unwrap().to_string())
        .collect()
}

async fn listed(server: &TestServer, token: &str) -> Vec<String> {
    let answer = server
        .call("GET", "articles?limit=1000", Some(token), None)
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_value(answer.body["result"].clone()).unwrap()
}

async fn policy_story(wire: &str) {
    let server = TestServer::start(&["--demo", "--wire", wire]).await;
    let callers = server.callers().await;
    let reader = &callers.owner_a;
    assert!(listed(&server, reader).await.contains(&SODIUM.to_string()));

    // A dry run counts and samples, and changes nothing.
    let dry = policy(
        &server,
        &callers.expert,
        json!({"urns": [SODIUM, IODINE, "urn:article:no-such"], "reader_visibility": "hidden", "dry_run": true}),
    )
    .await;
    assert_eq!(dry.status, 200, "{}", dry.body);
    let result = &dry.body["result"];
    assert_eq!(result["dry_run"], true);
    assert_eq!(result["matched"], 2);
    assert_eq!(result["updated"], 0);
    assert_eq!(result["capped"], false);
    assert_eq!(result["max_docs"], 10_000);
    let sample: Vec<&str> = result["sample"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["urn"].as_str().unwrap())
        .collect();
    assert_eq!(sample.len(), 2);
    assert!(sample.contains(&SODIUM) && sample.contains(&IODINE));
    assert!(result["sample"][0]["title"].is_string());
    assert!(listed(&server, reader).await.contains(&SODIUM.to_string()));

    // The real run: readers lose both in lists, reads and search; curators keep them.
    let run = policy(
        &server,
        &callers.admin,
        json!({"urns": [SODIUM, IODINE], "reader_visibility": "hidden", "indexing_tier": "prime"}),
    )
    .await;
    assert_eq!(run.status, 200, "{}", run.body);
    assert_eq!(run.body["result"]["updated"], 2);
    assert_eq!(run.body["result"]["dry_run"], false);
    let list = listed(&server, reader).await;
    assert!(!list.contains(&SODIUM.to_string()) && !list.contains(&IODINE.to_string()));
    let read = server
        .call("GET", "articles/sodium-blood-pressure", Some(reader), None)
        .await;
    assert_eq!(read.status, 404, "{}", read.body);
    assert!(!found(&server, reader, "sodium")
        .await
        .contains(&SODIUM.to_string()));
    let curator_read = server
        .call(
            "GET",
            "articles/sodium-blood-pressure",
            Some(&callers.expert),
            None,
        )
        .await;
    assert_eq!(curator_read.body["result"]["reader_visibility"], "hidden");
    assert_eq!(curator_read.body["result"]["indexing_tier"], "prime");
    assert!(found(&server, &callers.expert, "sodium")
        .await
        .contains(&SODIUM.to_string()));

    // expert_only hides from readers too; public (by a single PATCH) shows again.
    let patched = server
        .call(
            "PATCH",
            "articles/sodium-blood-pressure",
            Some(&callers.expert),
            Some(json!({"reader_visibility": "public"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert!(listed(&server, reader).await.contains(&SODIUM.to_string()));
    let by_query = policy(
        &server,
        &callers.expert,
        json!({"q": "sodium", "reader_visibility": "expert_only"}),
    )
    .await;
    assert_eq!(by_query.status, 200, "{}", by_query.body);
    assert!(by_query.body["result"]["updated"].as_u64().unwrap() >= 1);
    assert!(!found(&server, reader, "sodium")
        .await
        .contains(&SODIUM.to_string()));

    // Clearing the tier removes it.
    let cleared = policy(
        &server,
        &callers.expert,
        json!({"urns": [SODIUM], "clear_indexing_tier": true}),
    )
    .await;
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    let read = server
        .call(
            "GET",
            "articles/sodium-blood-pressure",
            Some(&callers.expert),
            None,
        )
        .await;
    assert!(read.body["result"].get("indexing_tier").is_none());
    server.stop().await;
}

#[tokio::test]
async fn policy_selects_previews_and_hides_from_readers_on_the_reference_wire() {
    policy_story("reference").await;
}

#[tokio::test]
async fn policy_selects_previews_and_hides_from_readers_on_the_production_wire() {
    policy_story("production").await;
}

#[tokio::test]
async fn policy_refuses_what_production_refuses() {
    let server = TestServer::demo().await;
    let callers = server.callers().await;
    // Only admins and experts.
    for token in [&callers.owner_a, &callers.agent] {
        let answer = policy(
            &server,
            token,
            json!({"urns": [SODIUM], "reader_visibility": "hidden"}),
        )
        .await;
        assert_eq!(answer.status, 403, "{}", answer.body);
    }
    // A selection of everything, no change, both tier forms, unknown values and keys.
    for body in [
        json!({"reader_visibility": "hidden"}),
        json!({"q": "", "fq": [], "reader_visibility": "hidden"}),
        json!({"q": "*", "reader_visibility": "hidden"}),
        json!({"urns": [SODIUM]}),
        json!({"urns": [SODIUM], "indexing_tier": "prime", "clear_indexing_tier": true}),
        json!({"urns": [SODIUM], "indexing_tier": "platinum"}),
        json!({"urns": [SODIUM], "reader_visibility": "secret"}),
        json!({"urns": [SODIUM], "reader_visibility": "hidden", "max_docs": 10_001}),
        json!({"urns": [SODIUM], "reader_visibility": "hidden", "colour": "red"}),
    ] {
        let answer = policy(&server, &callers.admin, body.clone()).await;
        assert_eq!(answer.status, 422, "{body}: {}", answer.body);
    }
    // The update allow-list takes the policy fields, checked; the AI tier is the service's.
    let bad = server
        .call(
            "PATCH",
            "articles/sodium-blood-pressure",
            Some(&callers.expert),
            Some(json!({"reader_visibility": "secret"})),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    let ai = server
        .call(
            "PATCH",
            "articles/sodium-blood-pressure",
            Some(&callers.expert),
            Some(json!({"ai_indexing_tier": "prime"})),
        )
        .await;
    assert_eq!(ai.status, 422, "{}", ai.body);
    // GET articles/policy stays the read of the record whose slug is `policy`.
    let get = server
        .call("GET", "articles/policy", Some(&callers.expert), None)
        .await;
    assert_eq!(get.status, 404, "{}", get.body);
    server.stop().await;
}

#[tokio::test]
async fn policy_caps_at_max_docs_and_says_so() {
    let server = TestServer::start(&["--demo", "--generate-articles", "30"]).await;
    let admin = server.login("admin", "admin-demo").await;
    let all = listed(&server, &admin).await;
    assert!(all.len() > 12, "{}", all.len());
    let answer = policy(
        &server,
        &admin,
        json!({"urns": all, "indexing_tier": "core", "max_docs": 5}),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let result = &answer.body["result"];
    assert_eq!(result["capped"], true);
    assert_eq!(result["max_docs"], 5);
    assert_eq!(result["updated"], 5);
    assert_eq!(result["matched"], all.len());
    server.stop().await;
}

/// A curator hides articles one after another while a policy run over thousands of them goes
/// on: every acknowledged hide holds afterwards, and the run's own change reached them too.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_policy_run_never_reverts_a_write_acknowledged_meanwhile() {
    let server = TestServer::start_socket(&["--demo", "--generate-articles", "3000"]).await;
    let admin = server.login("admin", "admin-demo").await;
    let curator = server.login("curator", "curator-demo").await;
    let run = policy(
        &server,
        &admin,
        json!({"q": "synthetic", "indexing_tier": "core"}),
    );
    let hides = async {
        // Wait until the run is under way, then hide article after article until it answers.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let mut hidden = Vec::new();
        let mut slowest = std::time::Duration::ZERO;
        for n in 0..3000 {
            let started = std::time::Instant::now();
            let answer = server
                .call(
                    "PATCH",
                    &format!("articles/synthetic-{n}"),
                    Some(&curator),
                    Some(json!({"reader_visibility": "hidden"})),
                )
                .await;
            slowest = slowest.max(started.elapsed());
            assert_eq!(answer.status, 200, "{}", answer.body);
            hidden.push(n);
            if hidden.len() >= 40 {
                break;
            }
        }
        (hidden, slowest)
    };
    let (ran, (hidden, slowest)) = tokio::join!(run, hides);
    assert_eq!(ran.status, 200, "{}", ran.body);
    assert_eq!(ran.body["result"]["updated"], 3000, "{}", ran.body);
    let mut reverted = Vec::new();
    for &n in &hidden {
        let record = server
            .call(
                "GET",
                &format!("articles/synthetic-{n}"),
                Some(&admin),
                None,
            )
            .await;
        let record = &record.body["result"];
        if record["reader_visibility"] != "hidden" {
            reverted.push(n);
        }
        assert_eq!(record["indexing_tier"], "core", "synthetic-{n}");
    }
    println!(
        "{} of {} hides reverted; the slowest hide during the run took {slowest:?}",
        reverted.len(),
        hidden.len()
    );
    assert!(reverted.is_empty(), "reverted: {reverted:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_selection_of_everything_needs_all_true() {
    let server = TestServer::start(&["--demo", "--generate-articles", "20"]).await;
    let admin = server.login("admin", "admin-demo").await;
    let every = listed(&server, &admin).await.len();
    // Filters that match every article are the whole corpus, however they are spelled.
    for fq in [json!(["urn:*"]), json!(["title:*"])] {
        let answer = policy(
            &server,
            &admin,
            json!({"fq": fq, "indexing_tier": "core", "dry_run": true}),
        )
        .await;
        assert_eq!(answer.status, 422, "{fq}: {}", answer.body);
        assert!(
            answer.body.to_string().contains("all: true"),
            "{}",
            answer.body
        );
    }
    let all = policy(
        &server,
        &admin,
        json!({"all": true, "indexing_tier": "core", "dry_run": true}),
    )
    .await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(all.body["result"]["matched"], every);
    let filtered = policy(
        &server,
        &admin,
        json!({"fq": ["urn:*"], "all": true, "indexing_tier": "core"}),
    )
    .await;
    assert_eq!(filtered.status, 200, "{}", filtered.body);
    assert_eq!(filtered.body["result"]["updated"], every);
    // `all` beside a list of URNs changes nothing: the list is the selection.
    let listed_urns = listed(&server, &admin).await;
    let one = policy(
        &server,
        &admin,
        json!({"all": true, "urns": [listed_urns[0]], "indexing_tier": "core", "dry_run": true}),
    )
    .await;
    assert_eq!(one.status, 200, "{}", one.body);
    assert_eq!(one.body["result"]["matched"], 1);
    // A selection of part of the corpus needs no flag.
    let part = policy(
        &server,
        &admin,
        json!({"q": "synthetic", "indexing_tier": "prime", "dry_run": true}),
    )
    .await;
    assert_eq!(part.status, 200, "{}", part.body);
    assert_eq!(part.body["result"]["matched"], 20);
    server.stop().await;
    // Production's schema has no `all`: on its wire the key is refused as any unknown key.
    let production = TestServer::start(&["--demo", "--wire", "production"]).await;
    let admin = production.login("admin", "admin-demo").await;
    let answer = policy(
        &production,
        &admin,
        json!({"all": true, "indexing_tier": "core"}),
    )
    .await;
    assert_eq!(answer.status, 422, "{}", answer.body);
    production.stop().await;
}

/// One rule for the reading policy: an agent may not set it by PATCH or PUT any more than
/// through the bulk route; curators may, and an agent's other edits still pass.
#[tokio::test]
async fn only_curators_set_the_reading_policy_on_any_path() {
    let server = TestServer::demo().await;
    let callers = server.callers().await;
    let path = "articles/sodium-blood-pressure";
    for body in [
        json!({"reader_visibility": "hidden"}),
        json!({"reader_visibility": "expert_only"}),
        json!({"indexing_tier": "prime"}),
    ] {
        let answer = server
            .call("PATCH", path, Some(&callers.agent), Some(body.clone()))
            .await;
        assert_eq!(answer.status, 403, "{body}: {}", answer.body);
    }
    let mut article = server
        .call("GET", path, Some(&callers.admin), None)
        .await
        .body["result"]
        .clone();
    assert!(article.get("indexing_tier").is_none_or(Value::is_null));
    // A curator promotes it; the agent's edit of another field leaves that alone and passes.
    let hide = server
        .call(
            "PATCH",
            path,
            Some(&callers.expert),
            Some(json!({"indexing_tier": "prime"})),
        )
        .await;
    assert_eq!(hide.status, 200, "{}", hide.body);
    let edit = server
        .call(
            "PATCH",
            path,
            Some(&callers.agent),
            Some(json!({"description": "edited by an agent"})),
        )
        .await;
    assert_eq!(edit.status, 200, "{}", edit.body);
    // A PUT without the policy fields would clear them: that is a change of policy too.
    article = edit.body["result"].clone();
    let put = server
        .call(
            "PUT",
            path,
            Some(&callers.agent),
            Some(json!({"title": article["title"], "venue": article["venue"],
                "content": article["content"], "description": "again"})),
        )
        .await;
    assert_eq!(put.status, 403, "{}", put.body);
    let after = server.call("GET", path, Some(&callers.admin), None).await;
    assert_eq!(after.body["result"]["indexing_tier"], "prime");
    assert_eq!(after.body["result"]["description"], "edited by an agent");
    server.stop().await;
}
