//! `PATCH {collection}/{urn}/enhance` with the built-in extractive agent.

mod common;

use common::{assert_error, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn enhance_runs_the_extractive_agent() {
    let server = TestServer::demo().await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    let answer = server
        .call(
            "PATCH",
            "articles/sodium-blood-pressure/enhance",
            Some(&agent),
            Some(json!({"agent": "extractive", "fields": {}})),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let result = &answer.body["result"];
    assert_eq!(result["urn"], "urn:article:sodium-blood-pressure");
    assert_eq!(result["agent"], "extractive");
    assert!(uuid::Uuid::parse_str(result["run_id"].as_str().unwrap()).is_ok());
    let record = server
        .call("GET", "articles/sodium-blood-pressure", Some(&agent), None)
        .await;
    let record = &record.body["result"];
    let tags = record["ai_tags"].as_array().unwrap();
    assert!(tags.contains(&json!("sodium")), "{tags:?}");
    assert_eq!(record["ai_category"], "cardiometabolic health");
    assert!(record["ai_key_takeaways"][0]
        .as_str()
        .unwrap()
        .starts_with("Lowering sodium intake"));

    // The flat form, a subset of fields, and a supplied value.
    let flat = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "extractive", "ai_category": "iodine"})),
        )
        .await;
    assert_eq!(flat.status, 200);
    let got = server
        .call("GET", "articles/iodine-salt", Some(&agent), None)
        .await;
    assert_eq!(got.body["result"]["ai_category"], "iodine");
    let subset = server
        .call(
            "PATCH",
            "guides/healthy-plates-children/enhance",
            Some(&server.login("curator", "curator-demo").await),
            Some(json!({"agent": "extractive", "fields": ["ai_tags"]})),
        )
        .await;
    assert_eq!(subset.body["result"]["enhanced_fields"], json!(["ai_tags"]));

    let unknown = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "gpt-9"})),
        )
        .await;
    assert_error(&unknown, 422, "request/unprocessable");
    assert!(unknown.body["error"]["errors"][0]["msg"]
        .as_str()
        .unwrap()
        .contains("extractive"));
    // Given values, any agent name is a label: the values are stored as given.
    let given = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "gpt-9", "fields": {"ai_tags": ["iodine", "thyroid"]}})),
        )
        .await;
    assert_eq!(given.status, 200, "{}", given.body);
    assert_eq!(given.body["result"]["enhanced_fields"], json!(["ai_tags"]));
    let missing = server
        .call(
            "PATCH",
            "articles/nope/enhance",
            Some(&agent),
            Some(json!({"agent": "extractive"})),
        )
        .await;
    assert_error(&missing, 404, "resource/not_found");
    let not_offered = server
        .call(
            "PATCH",
            "guidelines/x/enhance",
            Some(&agent),
            Some(json!({"agent": "extractive"})),
        )
        .await;
    assert!(matches!(not_offered.status, 404 | 405));
    let runs: i64 = server.state.store.with(|conn| {
        conn.query_row("SELECT count(*) FROM enhance_runs", [], |row| row.get(0))
            .unwrap()
    });
    assert_eq!(runs, 4);
    server.stop().await;
}

#[tokio::test]
async fn the_production_wire_enhances_articles_only_and_needs_values() {
    let server = TestServer::start(&["--demo", "--wire", "production"]).await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    let stored = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "summariser", "fields": {"ai_category": "iodine"}})),
        )
        .await;
    assert_eq!(stored.status, 200, "{}", stored.body);
    assert_eq!(
        stored.body["result"],
        json!({"urn": "urn:article:iodine-salt", "run_id": stored.body["result"]["run_id"],
               "enhanced_fields": ["ai_category"], "agent": "summariser"})
    );
    let empty = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "summariser", "fields": {}})),
        )
        .await;
    assert_error(&empty, 422, "request/unprocessable");
    let elsewhere = server
        .call(
            "PATCH",
            "guides/eat-well-2024/enhance",
            Some(&agent),
            Some(json!({"agent": "summariser", "fields": {"ai_category": "x"}})),
        )
        .await;
    assert_eq!(elsewhere.status, 404);
    assert_eq!(
        elsewhere.body,
        json!({"detail": "Not Found"}),
        "FastAPI's bare body"
    );
    server.stop().await;
}

/// A published guide is frozen: enhance answers 409 as PATCH and DELETE do, and changes nothing
/// (security review 2, finding 8).
#[tokio::test]
async fn enhance_leaves_a_published_guide_alone() {
    let server = TestServer::demo().await;
    let curator = server.login("curator", "curator-demo").await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    let path = "guides/eat-well-2024";
    let before = server.call("GET", path, Some(&curator), None).await;
    assert_eq!(before.status, 200, "{}", before.body);
    for (token, body) in [
        (
            &agent,
            json!({"agent": "extractive", "ai_category": "changed by an agent"}),
        ),
        (&curator, json!({"agent": "extractive", "fields": {}})),
    ] {
        let answer = server
            .call("PATCH", &format!("{path}/enhance"), Some(token), Some(body))
            .await;
        assert_error(&answer, 409, "resource/conflict");
    }
    let after = server.call("GET", path, Some(&curator), None).await;
    assert_eq!(after.body["result"], before.body["result"]);
    let runs: i64 = server.state.store.with(|conn| {
        conn.query_row("SELECT count(*) FROM enhance_runs", [], |row| row.get(0))
            .unwrap()
    });
    assert_eq!(runs, 0, "no run is recorded for a refused enhance");
    server.stop().await;
}

/// Each enhancement appends an audit event to the record (production.md §5.3): the run, the
/// agent, the time and every field's value before and after, oldest first; on both wires.
#[tokio::test]
async fn enhancements_are_recorded_on_the_record_with_before_and_after() {
    for wire in ["reference", "production"] {
        let server = TestServer::start(&["--demo", "--wire", wire]).await;
        let agent = server.mtm("enhancer", "enhancer-demo").await;
        let mut runs = Vec::new();
        for category in ["iodine", "salt"] {
            let answer = server
                .call(
                    "PATCH",
                    "articles/iodine-salt/enhance",
                    Some(&agent),
                    Some(json!({"agent": "summariser", "fields": {"ai_category": category}})),
                )
                .await;
            assert_eq!(answer.status, 200, "{wire}: {}", answer.body);
            runs.push(answer.body["result"]["run_id"].clone());
        }
        let record = server
            .call("GET", "articles/iodine-salt", Some(&agent), None)
            .await;
        let record = &record.body["result"];
        let events = record["enhancements"].as_array().expect("enhancements");
        assert_eq!(events.len(), 2, "{wire}: {events:?}");
        assert_eq!(events[0]["run_id"], runs[0]);
        assert_eq!(events[1]["run_id"], runs[1]);
        assert_eq!(events[1]["agent"], "summariser");
        // Production's shape (`src/entities/articles.py`, `enhance`): names, then both sides.
        assert!(events[1]["enhanced_at"]
            .as_str()
            .is_some_and(|t| t.len() >= 19));
        assert_eq!(events[1]["fields"], json!(["ai_category"]));
        assert_eq!(events[1]["before"], json!({"ai_category": "iodine"}));
        assert_eq!(events[1]["after"], json!({"ai_category": "salt"}));
        assert_eq!(record["ai_generated_fields"], json!(["ai_category"]));
        assert_eq!(record["updated_at"], events[1]["enhanced_at"]);
        server.stop().await;
    }
}

#[tokio::test]
async fn a_record_keeps_only_the_newest_enhancement_events() {
    let server = TestServer::start(&["--demo"]).await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    let max = larder_contract::limits::MAX_ENHANCEMENT_EVENTS;
    let mut last_run = Value::Null;
    for n in 0..max + 3 {
        let answer = server
            .call(
                "PATCH",
                "articles/iodine-salt/enhance",
                Some(&agent),
                Some(json!({"agent": "summariser", "fields": {"ai_category": format!("c{n}")}})),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        last_run = answer.body["result"]["run_id"].clone();
    }
    let record = server
        .call("GET", "articles/iodine-salt", Some(&agent), None)
        .await;
    let events = record.body["result"]["enhancements"]
        .as_array()
        .expect("enhancements")
        .clone();
    assert_eq!(events.len(), max);
    assert_eq!(events[max - 1]["run_id"], last_run);
    assert_eq!(events[0]["after"]["ai_category"], json!("c3"));
    server.stop().await;
}

#[tokio::test]
async fn the_enhancement_trail_is_bounded_in_bytes() {
    use larder_contract::limits::{MAX_ENHANCEMENT_HISTORY_BYTES, MAX_ENHANCEMENT_VALUE_BYTES};
    let server = TestServer::start(&["--demo"]).await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    // Large values (the most the schema takes, 100 items of 2,000 characters, in two fields):
    // each enhance would otherwise keep about 800 KB in the trail.
    let large = |n: usize| vec![format!("{n}{}", "x".repeat(1_990)); 100];
    for n in 0..4 {
        let answer = server
            .call(
                "PATCH",
                "articles/iodine-salt/enhance",
                Some(&agent),
                Some(json!({"agent": "summariser", "fields": {"ai_key_takeaways": large(n), "ai_tags": large(n)}})),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    // Small values beside them: enough events to pass the byte budget by count of bytes.
    let medium = "y".repeat(1_900);
    const { assert!(4 * 1_910 < MAX_ENHANCEMENT_VALUE_BYTES) };
    for n in 0..40 {
        let answer = server
            .call(
                "PATCH",
                "articles/iodine-salt/enhance",
                Some(&agent),
                Some(json!({"agent": "summariser", "fields": {"ai_tags": vec![format!("{n}{medium}"); 4]}})),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    let record = server
        .call("GET", "articles/iodine-salt", Some(&agent), None)
        .await;
    let record = &record.body["result"];
    let trail = &record["enhancements"];
    let bytes = trail.to_string().len();
    assert!(
        bytes <= MAX_ENHANCEMENT_HISTORY_BYTES,
        "the trail takes {bytes} bytes"
    );
    // The newest event is kept, with its small values.
    let events = trail.as_array().unwrap();
    let newest = &events[events.len() - 1];
    assert_eq!(newest["fields"], json!(["ai_tags"]));
    assert!(newest["after"]["ai_tags"][0]
        .as_str()
        .unwrap()
        .starts_with("39"));
    assert!(events.len() > 4, "small events are kept: {}", events.len());
    // The record still holds what the agent wrote; the trail left the large values out, saying so.
    assert_eq!(record["ai_key_takeaways"], json!(large(3)));
    assert!(record.to_string().len() < 2 * 210_000 + MAX_ENHANCEMENT_HISTORY_BYTES + 20_000);
    server.stop().await;
}

#[tokio::test]
async fn a_large_value_is_named_as_left_out_of_its_event() {
    let server = TestServer::start(&["--demo"]).await;
    let agent = server.mtm("enhancer", "enhancer-demo").await;
    let large = vec!["z".repeat(1_990); 10];
    let answer = server
        .call(
            "PATCH",
            "articles/iodine-salt/enhance",
            Some(&agent),
            Some(json!({"agent": "summariser", "fields": {"ai_key_takeaways": large}})),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let record = server
        .call("GET", "articles/iodine-salt", Some(&agent), None)
        .await;
    let events = record.body["result"]["enhancements"].as_array().unwrap();
    let event = &events[events.len() - 1];
    assert_eq!(event["fields"], json!(["ai_key_takeaways"]));
    assert_eq!(event["omitted"], json!(["after.ai_key_takeaways"]));
    assert!(event["after"].get("ai_key_takeaways").is_none(), "{event}");
    assert!(event["before"].get("ai_key_takeaways").is_some(), "{event}");
    server.stop().await;
}
