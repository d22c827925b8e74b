//! No input from the network makes the client panic: arbitrary bytes and arbitrary JSON (biased
//! towards the field names the types know, with every JSON type in every place) are decoded
//! into every response type and run through the error interpretation; and unknown fields
//! survive a read and a write. 5 properties x 2,560 cases (`cargo xtask fuzz`: many more).
#![cfg(not(target_arch = "wasm32"))]

use futures::executor::block_on;
use larder_api::artifacts::content_disposition_file_name;
use larder_api::auth::token_from_answer;
use larder_api::client::{decode, interpret};
use larder_api::error::failure_from_answer;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::HttpResponse;
use larder_api::types::{
    EnhanceResult, FcTable, GuidelineImport, Household, Member, Message, Node, Profile,
    ReplaceResult, StructureTree, Year,
};
use larder_api::{
    Article, Artifact, Client, ClientConfig, Guide, Guideline, Identity, Listed, Passage, Record,
    SearchResults, Textbook,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Cases per property: 2,560 in `cargo test`; `cargo xtask fuzz` sets LARDER_FUZZ_CASES higher.
fn cases() -> u32 {
    std::env::var("LARDER_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_560)
}

const KEYS: &[&str] = &[
    "urn",
    "id",
    "title",
    "content",
    "status",
    "type",
    "abstract",
    "publication_year",
    "authors",
    "tags",
    "extras",
    "geographic_context",
    "artifacts",
    "artifact_records",
    "guidelines",
    "guideline_ids",
    "structure_tree",
    "structure_tree_payload",
    "roots",
    "children",
    "kind",
    "page_start",
    "page_end",
    "page_no",
    "sequence_no",
    "structure_path",
    "text",
    "file_size",
    "completeness_percent",
    "annotation_confidence",
    "members",
    "profile",
    "metadata",
    "dietary_groups",
    "nutritional_preferences",
    "allergies",
    "results",
    "facets",
    "total",
    "value",
    "count",
    "_score",
    "_highlight",
    "enhanced_fields",
    "replaced_count",
    "structure_tree_updated",
    "passages",
    "imported_count",
    "ids",
    "message",
    "success",
    "error",
    "result",
    "help",
    "detail",
    "code",
    "errors",
    "loc",
    "msg",
    "token",
    "access_token",
    "jwt",
    "expires_in",
    "username",
    "client_id",
    "roles",
    "authenticated",
    "frequency",
    "quantity",
];

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(KEYS).prop_map(str::to_string),
        1 => ".{0,8}",
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        (1990i64..2030).prop_map(|y| json!(y.to_string())),
        ".{0,12}".prop_map(Value::from),
        proptest::sample::select(KEYS).prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Decodes `value` into every response type; each answer is a value or an error.
fn decode_everything(value: &Value) {
    macro_rules! each {
        ($($ty:ty),* $(,)?) => {$(
            let _ = decode::<$ty>(value.clone());
            if let Ok(typed) = decode::<$ty>(value.clone()) {
                // What was read can always be written back.
                serde_json::to_value(&typed).expect("a decoded value serialises");
            }
        )*};
    }
    each!(
        Article,
        Guide,
        Guideline,
        Textbook,
        Passage,
        Artifact,
        FcTable,
        Household,
        Member,
        Profile,
        StructureTree,
        Node,
        EnhanceResult,
        Year,
        Record,
        Vec<Listed>,
        SearchResults<Record>,
        SearchResults<Article>,
    );
    let _ = SearchResults::<Record>::from_result(value.clone());
    let _ = SearchResults::<Passage>::from_result(value.clone());
    let _ = SearchResults::<Guideline>::from_result(value.clone());
    let _ = ReplaceResult::from_result(value.clone());
    let _ = GuidelineImport::from_result(value.clone());
    let _ = Message::from_result(value.clone());
    let _ = Identity::from_ping(value);
}

/// The same types straight from bytes, as serde_json would read a body.
fn parse_everything(bytes: &[u8]) {
    macro_rules! each {
        ($($ty:ty),* $(,)?) => {$( let _ = serde_json::from_slice::<$ty>(bytes); )*};
    }
    each!(
        Article,
        Guide,
        Guideline,
        Textbook,
        Passage,
        Artifact,
        FcTable,
        Household,
        Member,
        Profile,
        StructureTree,
        Node,
        EnhanceResult,
        ReplaceResult,
        GuidelineImport,
        Message,
        Year,
        Record,
        Vec<Listed>,
        SearchResults<Record>,
        SearchResults<Textbook>,
    );
}

/// A body through every interpretation of an answer.
fn interpret_everything(status: u16, body: &str, retry_after: Option<String>) {
    let _ = failure_from_answer(status, body, None);
    let mut response = HttpResponse::text(status, body);
    if let Some(value) = retry_after {
        response = response.with_header("Retry-After", &value);
    }
    if let Ok(result) = interpret(response.clone()) {
        decode_everything(&result);
    }
    let _ = token_from_answer(&response, u64::MAX);
    let _ = token_from_answer(&response, 0);
    let _ = content_disposition_file_name(body);
    let _ = Identity::from_token(body);
    // And through a whole client: retries, sign-in and decoding on the virtual clock.
    let fake = FakeTransport::new(0, move |_| Ok(response.clone()));
    let client = Client::new(fake, ClientConfig::new("http://h"));
    let _ = block_on(client.search_articles("q", 1));
    let _ = block_on(client.download_artifact("a", None));
    let _ = block_on(client.own_household());
    let _ = block_on(client.households(1, 0));
    let _ = block_on(client.members("h", 1, 0));
    let _ = block_on(client.artifacts_of("urn:guide:g", 1, 0));
    let _ = block_on(client.guidelines_of("urn:guide:g", 1, 0));
    let _ = block_on(client.passages_on_page("urn:textbook:t", 1, 1));
    let _ = block_on(client.get::<Textbook>("t"));
}

/// Decodes `base` plus `extra` as `T`, writes it back, and checks every extra field came back as
/// it was sent.
fn keeps_unknown_fields<T>(base: Value, extra: &Map<String, Value>) -> Result<(), TestCaseError>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let mut object = base.as_object().cloned().unwrap_or_default();
    object.extend(extra.clone());
    let typed: T = decode(Value::Object(object)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let written = serde_json::to_value(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for (key, value) in extra {
        prop_assert_eq!(written.get(key), Some(value), "{}", key);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Failures are reported with their minimal input; nothing is written into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        parse_everything(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        interpret_everything(200, &text, None);
        interpret_everything(503, &text, Some(text.to_string()));
    }

    #[test]
    fn arbitrary_json_never_panics(value in json()) {
        decode_everything(&value);
        parse_everything(value.to_string().as_bytes());
    }

    #[test]
    fn arbitrary_envelopes_never_panic(
        status in 100u16..600,
        success in proptest::option::of(json()),
        error in proptest::option::of(json()),
        result in proptest::option::of(json()),
        detail in proptest::option::of(json()),
        retry_after in proptest::option::of(".{0,30}"),
    ) {
        let mut envelope = Map::new();
        for (key, part) in [("success", success), ("error", error), ("result", result), ("detail", detail)] {
            if let Some(part) = part {
                envelope.insert(key.into(), part);
            }
        }
        let body = Value::Object(envelope).to_string();
        interpret_everything(status, &body, retry_after);
        // Cut short, as a dropped connection would leave it.
        let cut = String::from_utf8_lossy(&body.as_bytes()[..body.len() / 2]).into_owned();
        interpret_everything(status, &cut, None);
    }

    #[test]
    fn unknown_fields_are_written_back_untouched(
        extra in proptest::collection::btree_map("x_[a-z_]{1,10}", json(), 0..6),
    ) {
        let extra: Map<String, Value> = extra.into_iter().collect();
        keeps_unknown_fields::<Article>(json!({"urn": "urn:article:a", "title": "A"}), &extra)?;
        keeps_unknown_fields::<Guide>(json!({"urn": "urn:guide:g", "guidelines": ["x"]}), &extra)?;
        keeps_unknown_fields::<Textbook>(
            json!({"structure_tree": {"roots": [{"id": "n", "children": []}]}}),
            &extra,
        )?;
        keeps_unknown_fields::<Node>(json!({"id": "n", "kind": "chapter"}), &extra)?;
        keeps_unknown_fields::<Guideline>(json!({"guide_urn": "urn:guide:g"}), &extra)?;
        keeps_unknown_fields::<Passage>(json!({"text": "t", "page_no": 1}), &extra)?;
        keeps_unknown_fields::<Artifact>(json!({"parent_urn": "urn:guide:g"}), &extra)?;
        keeps_unknown_fields::<FcTable>(json!({"completeness_percent": 1.5}), &extra)?;
        keeps_unknown_fields::<Household>(json!({"id": "h", "members": [{"id": "m"}]}), &extra)?;
        keeps_unknown_fields::<Member>(json!({"id": "m", "profile": {"id": "p"}}), &extra)?;
        keeps_unknown_fields::<Profile>(json!({"dietary_groups": ["vegan"]}), &extra)?;
    }

    #[test]
    fn header_values_never_panic(header in ".{0,80}", quoted in "[ -~]{0,40}") {
        for candidate in [
            header.clone(),
            format!("attachment; filename=\"{quoted}\""),
            format!("attachment; filename*={quoted}; filename={header}"),
            format!("attachment; filename*=UTF-8''{quoted}"),
        ] {
            if let Some(name) = content_disposition_file_name(&candidate) {
                prop_assert!(!name.contains('/') && !name.contains('\\') && !name.is_empty());
            }
        }
        let _ = larder_api::retry::parse_retry_after_ms(&header, 0);
        let _ = larder_api::retry::parse_http_date(&header);
    }
}
