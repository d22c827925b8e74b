//! Each endpoint family once, over real HTTP from Chromium against larder-server.
//!
//! The server's base URL comes at compile time from `LARDER_TEST_SERVER`; start it with
//! `--db :memory: --demo --cors-origin '*'`. Every test makes its own records (unique slugs), so
//! the tests may run in any order and against a server that has seen earlier runs.
#![cfg(target_arch = "wasm32")]

use std::sync::{Arc, Mutex};

use js_sys::{Array, Reflect, Uint8Array};
use larder_api::collections::{ARTICLES, FCTABLES};
use larder_api::transport::gloo::GlooTransport;
use larder_api::types::{
    HouseholdChanges, MemberChanges, NewArtifact, NewHousehold, NewMember, Node, PassageInput,
    ProfileChanges, ProfileInput, ReplacePassages, StructureTree,
};
use larder_api::{
    ApiError, Article, ArtifactUpload, BrowserClient, Client, ClientConfig, Credentials, ErrorKind,
    FcTable, Guide, Guideline, Listed, Record, SearchQuery, Textbook,
};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Blob, BlobPropertyBag, ReadableStreamDefaultReader};

wasm_bindgen_test_configure!(run_in_browser);

fn server() -> &'static str {
    // Failing loudly, not skipping: a run without a server must not look like a pass.
    match option_env!("LARDER_TEST_SERVER") {
        Some(url) => url,
        None => panic!("set LARDER_TEST_SERVER to a running larder-server (see the file's header)"),
    }
}

fn client() -> BrowserClient {
    Client::new(GlooTransport, ClientConfig::new(server()))
}

async fn signed_in(credentials: Credentials) -> BrowserClient {
    let client = client();
    client.sign_in(credentials).await.expect("demo sign-in");
    client
}

async fn curator() -> BrowserClient {
    signed_in(Credentials::user("curator", "curator-demo")).await
}

/// A slug no earlier run has used.
fn unique(prefix: &str) -> String {
    let now = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * 1e9) as u64;
    format!("{prefix}-{now}-{random}")
}

fn record(value: serde_json::Value) -> Record {
    value.as_object().cloned().unwrap_or_default()
}

fn blob(bytes: &[u8], mime: &str) -> Blob {
    let parts = Array::new();
    parts.push(&Uint8Array::from(bytes).into());
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    Blob::new_with_u8_array_sequence_and_options(&parts, &options).expect("a Blob")
}

/// Reads a fetch body chunk by chunk, as the console pipes a download.
async fn read_stream(response: web_sys::Response) -> Vec<u8> {
    let body = response.body().expect("a download has a body");
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.expect("a chunk");
        if Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            != Some(false)
        {
            return bytes;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .expect("chunk value")
            .unchecked_into();
        bytes.extend(value.to_vec());
    }
}

#[wasm_bindgen_test]
async fn sign_in_ping_and_failures() {
    let anonymous = client().ping().await.expect("ping answers without a token");
    assert!(anonymous.is_object() || anonymous.is_string());
    let curator = curator().await;
    let me = curator.identity().await.unwrap();
    assert_eq!(
        (me.display_name(), me.has_role("expert")),
        ("curator", true)
    );
    let machine = signed_in(Credentials::client("enhancer", "enhancer-demo")).await;
    assert!(machine.identity().await.unwrap().has_role("agent"));
    match client()
        .sign_in(Credentials::user("curator", "wrong"))
        .await
    {
        Err(ApiError::Authentication { status, .. }) => assert_eq!(status, Some(401)),
        other => panic!("{other:?}"),
    }
    curator.sign_out().await;
    assert!(!curator.is_signed_in().await);
}

#[wasm_bindgen_test]
async fn articles_list_crud_search_and_enhance() {
    let client = curator().await;
    let listed = client.list(&ARTICLES, 5, 0).await.unwrap();
    assert!(!listed.is_empty() && listed.iter().all(|e| e.identifier().is_some()));
    let word = unique("zinc").replace('-', "");
    let new = Article {
        urn: Some(unique("zinc")),
        title: format!("Zinc {word} and immunity"),
        content: "Zinc supported immune function.".into(),
        venue: "Web Test Journal".into(),
        authors: vec!["W. Asm".into()],
        publication_year: Some(2020.into()),
        language: Some("en".into()),
        ..Article::default()
    };
    let created = client.create(&new).await.unwrap();
    let urn = created.urn.clone().unwrap();
    assert!(urn.starts_with("urn:article:"));
    let read: Article = client.get(&urn).await.unwrap();
    let mut changed = read.clone();
    changed.tags = vec!["minerals".into()];
    let updated = client.update(&urn, &read, &changed).await.unwrap();
    assert_eq!(updated.tags, ["minerals"]);

    let query = SearchQuery::new(&word)
        .facet("publication_year")
        .highlight(["title"])
        .page(5, 0);
    let page = client.search_typed::<Article>(&query).await.unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.results[0].urn.as_deref(), Some(urn.as_str()));
    assert!(page.results[0].highlight.is_some());
    assert!(!page.facet("publication_year").is_empty());
    let old_form = client.search_articles(&word, 5).await.unwrap();
    assert_eq!(old_form.results.len(), 1);

    let agent = signed_in(Credentials::client("enhancer", "enhancer-demo")).await;
    let run = agent
        .enhance(
            &ARTICLES,
            &urn,
            "extractive",
            record(json!({"ai_category": "minerals"})),
        )
        .await
        .unwrap();
    assert!(run.field_names().contains(&"ai_category".to_string()));
    let enhanced: Article = client.get(&urn).await.unwrap();
    assert_eq!(enhanced.ai_category.as_deref(), Some("minerals"));

    client.delete::<Article>(&urn).await.unwrap();
    let gone = client.get::<Article>(&urn).await.unwrap_err();
    assert!(gone.is_kind(ErrorKind::NotFound), "{gone:?}");
    let window = client
        .search_records(&ARTICLES, &SearchQuery::new("").page(1000, 9500))
        .await
        .unwrap_err();
    assert!(window.is_kind(ErrorKind::Invalid), "{window:?}");
}

#[wasm_bindgen_test]
async fn guides_and_their_guidelines() {
    let client = curator().await;
    let guide = client
        .create(&Guide {
            urn: Some(unique("guide")),
            title: "Eat well".into(),
            region: Some("DE".into()),
            description: Some("A guide of the browser tests.".into()),
            url: Some("https://example.org/eat-well".into()),
            license: Some("CC0".into()),
            content: "Eat well.".into(),
            status: "draft".into(),
            ..Guide::default()
        })
        .await
        .unwrap();
    let guide_urn = guide.urn.clone().unwrap();
    let rule = |text: &str| Guideline {
        guide_urn: guide_urn.clone(),
        rule_text: text.into(),
        action_type: Some("eat".into()),
        ..Guideline::default()
    };
    let first = client
        .create_guideline(&rule("Eat vegetables daily."))
        .await
        .unwrap();
    assert_eq!(first.guide_region.as_deref(), Some("DE"));
    let import = client
        .import_guidelines(&guide_urn, &[rule("Drink water."), rule("Limit salt.")])
        .await
        .unwrap();
    assert_eq!(import.imported_count, 2);
    let listed = client.guidelines_of(&guide_urn, 100, 0).await.unwrap();
    let texts: Vec<_> = listed.iter().map(|g| g.rule_text.as_str()).collect();
    assert_eq!(
        texts,
        ["Eat vegetables daily.", "Drink water.", "Limit salt."]
    );
    let found = client
        .search_guidelines_of(&guide_urn, &SearchQuery::new("salt"))
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let reread: Guide = client.get(&guide_urn).await.unwrap();
    assert_eq!(
        reread.guidelines.len(),
        3,
        "wire-notes: the guide lists its guideline ids"
    );
}

#[wasm_bindgen_test]
async fn textbook_files_and_passages() {
    let client = curator().await;
    let textbook = client
        .create(&Textbook {
            urn: Some(unique("book")),
            title: "Human nutrition".into(),
            ..Textbook::default()
        })
        .await
        .unwrap();
    let urn = textbook.urn.clone().unwrap();

    let content = b"Chapter one text. Chapter two text.";
    let seen = Arc::new(Mutex::new(Vec::new()));
    let progress = seen.clone();
    let upload = ArtifactUpload::new(urn.clone(), blob(content, "text/plain"))
        .file_name("notes.txt")
        .title("Notes")
        .on_progress(move |p| progress.lock().unwrap().push(p));
    let artifact = client.upload_artifact(upload).await.unwrap();
    let artifact_id = artifact.id.clone().unwrap();
    assert_eq!(artifact.file_size, Some(content.len() as i64));
    let last = seen.lock().unwrap().last().copied();
    assert_eq!(
        last.map(|p| p.loaded),
        Some(last.and_then(|p| p.total).unwrap_or(0))
    );

    // A textbook holds one file (production): a second is refused.
    let second = client
        .create_artifact(&NewArtifact {
            parent_urn: urn.clone(),
            title: "Publisher page".into(),
            file_url: "https://example.org/book".into(),
            file_type: "text/html".into(),
            file_size: Some(10),
            ..NewArtifact::default()
        })
        .await
        .unwrap_err();
    assert!(second.is_kind(ErrorKind::Data), "{second:?}");
    let attached = client.artifacts_of(&urn, 10, 0).await.unwrap();
    let ids: Vec<_> = attached.iter().filter_map(|a| a.id.clone()).collect();
    assert_eq!(ids, std::slice::from_ref(&artifact_id));

    let download = client.download_artifact(&artifact_id, None).await.unwrap();
    assert_eq!(download.content_length, Some(content.len() as u64));
    // The title has no extension: production names the file `<id>.<file type>`.
    assert_eq!(download.file_name, Some(format!("{artifact_id}.txt")));
    assert_eq!(read_stream(download.stream).await, content);

    let node = |id: &str, title: &str, start, end| Node {
        id: id.into(),
        title: title.into(),
        kind: "chapter".into(),
        page_start: Some(start),
        page_end: Some(end),
        ..Node::default()
    };
    let passage = |page_no, text: &str| PassageInput {
        page_no,
        text: text.into(),
        char_start: 0,
        char_end: text.len() as i64,
        sequence_no: None,
    };
    let replacement = ReplacePassages {
        artifact_id: artifact_id.clone(),
        page_count: Some(4),
        structure_tree: Some(StructureTree {
            roots: vec![
                node("c1", "Chapter one", 1, 2),
                node("c2", "Chapter two", 3, 4),
            ],
            ..StructureTree::default()
        }),
        extractor_name: Some("test".into()),
        passages: Some(vec![
            passage(1, "Chapter one text."),
            passage(3, "Chapter two text."),
            passage(3, "More of chapter two."),
        ]),
        ..ReplacePassages::default()
    };
    let replaced = client.replace_passages(&urn, &replacement).await.unwrap();
    assert_eq!(replaced.replaced_count, 3);
    let all = client.passages_of(&urn, 100, 0).await.unwrap();
    assert_eq!(all.len(), 3);
    let page_three = client.passages_on_page(&urn, 3, 50).await.unwrap();
    let texts: Vec<_> = page_three.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, ["Chapter two text.", "More of chapter two."]);
    assert_eq!(page_three[0].structure_path, ["Chapter two"]);
    let found = client
        .search_passages_of(&urn, &SearchQuery::new("more"))
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let reread: Textbook = client.get(&urn).await.unwrap();
    assert_eq!(
        reread
            .structure_tree
            .and_then(|t| t.find("c2").map(|n| n.title.clone())),
        Some("Chapter two".into())
    );
}

#[wasm_bindgen_test]
async fn fctables_for_any_signed_in_user() {
    let olivia = signed_in(Credentials::user("olivia", "olivia-demo")).await;
    let table = olivia
        .create(&FcTable {
            urn: Some(unique("table")),
            title: "Test table".into(),
            database_name: "Test DB".into(),
            compiling_institution: "Test Institute".into(),
            completeness_percent: Some(50.5),
            ..FcTable::default()
        })
        .await
        .unwrap();
    let urn = table.urn.clone().unwrap();
    let listed = olivia.list(&FCTABLES, 1000, 0).await.unwrap();
    assert!(listed.contains(&Listed::Identifier(urn.clone())));
    let read: FcTable = olivia.get(&urn).await.unwrap();
    assert_eq!(read.completeness_percent, Some(50.5));
    olivia.delete::<FcTable>(&urn).await.unwrap();
}

#[wasm_bindgen_test]
async fn households_members_and_profiles() {
    let noah = signed_in(Credentials::user("noah", "noah-demo")).await;
    // A failed earlier run may have left noah's household behind.
    if let Some(old) = noah.own_household().await.unwrap() {
        noah.delete_household(&old.id).await.unwrap();
    }
    let household = noah
        .create_household(&NewHousehold {
            name: "Noah's".into(),
            region: Some("EU".into()),
            members: vec![NewMember::new("Noah", "adult")],
            ..NewHousehold::default()
        })
        .await
        .unwrap();
    let id = household.id.clone();
    assert_eq!(
        noah.own_household().await.unwrap().map(|h| h.id),
        Some(id.clone())
    );
    let mut renamed = noah.household(&id).await.unwrap();
    let before = renamed.clone();
    renamed.name = "The Noahs".into();
    let updated = noah
        .update_household(&id, &HouseholdChanges::between(&before, &renamed))
        .await
        .unwrap();
    assert_eq!(updated.name, "The Noahs");
    let forbidden = noah.households(100, 0).await.unwrap_err();
    assert!(forbidden.is_kind(ErrorKind::Authorization), "{forbidden:?}");
    assert!(noah.is_signed_in().await, "a 403 keeps the session");
    let admin = signed_in(Credentials::user("admin", "admin-demo")).await;
    assert!(admin
        .households(100, 0)
        .await
        .unwrap()
        .iter()
        .any(|h| h.id == id));

    let vegan = ProfileInput {
        dietary_groups: vec!["vegan".into()],
        ..ProfileInput::default()
    };
    let child = noah
        .create_member(&id, &NewMember::new("Mia", "child"), Some(&vegan))
        .await
        .unwrap();
    assert_eq!(noah.members(&id, 100, 0).await.unwrap().len(), 2);
    let read = noah.member(&child.id).await.unwrap();
    assert_eq!(
        read.profile.map(|p| p.dietary_groups),
        Some(vec!["vegan".to_string()])
    );
    let older = MemberChanges {
        age_group: Some("teen".into()),
        ..MemberChanges::default()
    };
    assert_eq!(
        noah.update_member(&child.id, &older)
            .await
            .unwrap()
            .age_group,
        "teen"
    );
    let halal = ProfileChanges {
        dietary_groups: Some(vec!["halal".into()]),
        ..ProfileChanges::default()
    };
    let profile = noah.update_profile(&child.id, &halal).await.unwrap();
    assert_eq!(profile.dietary_groups, ["halal"]);
    noah.delete_profile(&child.id).await.unwrap();
    assert_eq!(noah.profile(&child.id).await.unwrap(), None);
    let saved = noah.save_profile(&child.id, &vegan).await.unwrap();
    assert_eq!(saved.dietary_groups, ["vegan"]);
    assert!(noah.profile(&child.id).await.unwrap().is_some());
    // POST is an upsert (production): a second one updates the profile there is.
    let again = noah.create_profile(&child.id, &vegan).await.unwrap();
    assert_eq!(again.id, saved.id);
    noah.delete_member(&child.id).await.unwrap();
    let gone = noah.member(&child.id).await.unwrap_err();
    assert!(gone.is_kind(ErrorKind::NotFound), "{gone:?}");

    noah.delete_household(&id).await.unwrap();
    assert_eq!(noah.own_household().await.unwrap(), None);
}
