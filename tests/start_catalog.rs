//! The start-up catalog covers what the start-up module shows: every text it translates
//! (crates/start/src/web.rs and web/), what a press may lack (`larder_start::login::missing`)
//! and every `data-i18n` key of index.html is in `START_KEYS` (so none falls back to English
//! while the whole catalog is on its way), nothing else is, and every language has them.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use larder::i18n::start_keys::START_KEYS;
use larder::i18n::{Catalog, Entry, Lang};

mod source_files;
use source_files::{root, sources};

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// A source file's top-level functions: name and body (comments left out), in order.
fn functions(source: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for line in source.lines() {
        let header = [
            "pub async fn ",
            "pub fn ",
            "pub(super) async fn ",
            "pub(super) fn ",
            "async fn ",
            "fn ",
        ]
        .iter()
        .find_map(|start| line.strip_prefix(start));
        if let Some(rest) = header {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((name, String::new()));
        } else if let Some((_, body)) = found.last_mut() {
            if !line.trim_start().starts_with("//") {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    found
}

/// Where `body` calls `call` (a whole name: `t(` is not the end of `start(`).
fn calls<'a>(body: &'a str, call: &str) -> Vec<&'a str> {
    body.match_indices(call)
        .filter(|(at, _)| {
            !body[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| &body[at + call.len()..])
        .collect()
}

/// The literal keys of `t("…")` calls in `body`, and whether any call's key is not a literal.
fn literal_keys(body: &str) -> (BTreeSet<String>, bool) {
    let mut keys = BTreeSet::new();
    let mut dynamic = false;
    for after in calls(body, "t(") {
        match after
            .strip_prefix('"')
            .and_then(|rest| rest.split_once('"'))
        {
            Some((key, _)) => {
                keys.insert(key.to_string());
            }
            None => dynamic = true,
        }
    }
    (keys, dynamic)
}

/// The `data-i18n` keys of index.html.
fn shell_keys() -> BTreeSet<String> {
    let html = read("index.html");
    html.split("data-i18n=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_text_the_start_up_module_shows_is_in_the_start_up_catalog() {
    let start: BTreeSet<String> = START_KEYS.iter().map(|k| k.to_string()).collect();
    let mut needed = shell_keys();
    for key in &needed {
        assert!(
            start.contains(key),
            "index.html's data-i18n \"{key}\" is not in START_KEYS"
        );
    }
    for machine in [false, true] {
        for (name, secret) in [("", ""), ("a", ""), ("", "b"), ("a", "b")] {
            if let Some(key) = larder_start::login::missing(machine, name, secret) {
                assert!(
                    start.contains(key),
                    "login::missing's \"{key}\" is not in START_KEYS"
                );
                needed.insert(key.to_string());
            }
        }
    }
    // `said` (web/oidc.rs) says each way a sign-in at the identity provider fails.
    use larder_start::oidc::{Claim, Failure};
    let text = String::new;
    for failure in [
        Failure::Discovery("x"),
        Failure::NotPending,
        Failure::StateMismatch,
        Failure::Expired,
        Failure::IssuerMismatch,
        Failure::MissingCode,
        Failure::SessionRequired,
        Failure::Denied {
            error: text(),
            description: text(),
        },
        Failure::Refused {
            error: text(),
            description: text(),
        },
        Failure::Unavailable(503),
        Failure::Malformed("x"),
        Failure::TooLarge,
        Failure::IdToken(Claim::Nonce),
    ] {
        needed.insert(failure.text().to_string());
    }
    needed.extend(start_up_module_keys());
    assert_eq!(
        start, needed,
        "START_KEYS holds exactly the start-up module's texts"
    );
}

/// The start-up module (crates/start) shows only start-up texts: every key it translates is a
/// literal in `START_KEYS`, but index.html's `data-i18n` ones (checked above); its keys.
fn start_up_module_keys() -> BTreeSet<String> {
    let start: BTreeSet<String> = START_KEYS.iter().map(|k| k.to_string()).collect();
    let mut all = BTreeSet::new();
    // web.rs and every file under web/, however the module is split.
    let mut files = vec![root().join("crates/start/src/web.rs")];
    sources(&root().join("crates/start/src/web"), &mut files);
    files.sort();
    assert!(files.len() > 4, "the start-up module's files: {files:?}");
    let web: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    for (name, body) in functions(&web) {
        let (keys, dynamic) = literal_keys(&body);
        for key in &keys {
            assert!(
                start.contains(key),
                "crates/start/src/web.rs {name} shows \"{key}\": add it to START_KEYS"
            );
        }
        // `translate` reads index.html's data-i18n keys, `press` login::missing's: both
        // checked above.
        assert!(
            !dynamic || ["translate", "t", "press", "said"].contains(&name.as_str()),
            "crates/start/src/web.rs {name} translates a key that is not a literal"
        );
        all.extend(keys);
    }
    for key in ["Sign in", "Members", "Request id:"] {
        assert!(all.contains(key), "the reading of web.rs found its texts");
    }
    all
}

#[test]
fn every_language_has_the_start_up_texts() {
    for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
        let catalog = Catalog::parse(&read(&format!("locales/{}.json", lang.code()))).unwrap();
        for key in START_KEYS {
            assert!(
                matches!(catalog.entries.get(*key), Some(Entry::Text(text)) if !text.is_empty()),
                "locales/{}.json lacks the sign-in form's \"{key}\"",
                lang.code()
            );
        }
    }
}

#[test]
fn the_reading_of_the_sources_finds_calls_by_whole_name() {
    let body =
        "start(x); set_button(&t(\"Sign in\"), false); node.set_text_content(Some(&t(&key)));";
    let (keys, dynamic) = literal_keys(body);
    assert_eq!(keys, BTreeSet::from(["Sign in".to_string()]));
    assert!(dynamic);
    assert_eq!(calls("restart(); t(\"a\")", "t(").len(), 1);
    let fns = functions("fn a() {\n    // t(\"no\")\n    t(\"yes\");\n}\nasync fn b() {}\n");
    assert_eq!(fns.len(), 2);
    assert_eq!(
        literal_keys(&fns[0].1).0,
        BTreeSet::from(["yes".to_string()])
    );
}
