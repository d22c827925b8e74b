//! The start-up catalog covers the sign-in form: every text src/boot.rs shows before "Sign in"
//! is pressed, every text the start-up module (crates/start/src/web.rs) shows and every
//! `data-i18n` key of index.html is in `START_KEYS` (so none falls back to English while the
//! whole catalog is on its way), nothing else is, every language has them, and what boot.rs
//! shows after the press waits for the whole catalog first.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::PathBuf;

use larder::i18n::start_keys::START_KEYS;
use larder::i18n::{Catalog, Entry, Lang};

/// boot.rs's functions that run before the press, or at it before any answer: their texts
/// must be in the start-up catalog.
const BEFORE_THE_PRESS: &[&str] = &[
    "start",
    "translate_shell",
    "wire_kind_switch",
    "update_labels",
    "enable_sign_in",
    "attempt",
];
/// boot.rs's functions that show texts only after waiting for the whole catalog.
const AFTER_THE_WHOLE_CATALOG: &[&str] = &["submit", "open_console"];
/// The wait they start with.
const WAIT: &str = "crate::i18n::choose::ready().await";
/// boot.rs's functions that show texts and are called only after a wait in their caller: the
/// one above, or loading the whole catalog at once (`choose::start`, when config.json is bad).
const CALLED_AFTER_A_WAIT: &[&str] = &["show_error", "show_console_missing", "show_config_problem"];
const WAITS: &[&str] = &[WAIT, "crate::i18n::choose::start("];
/// The calls that give translated text: the i18n functions, and error_text's.
const TEXT_CALLS: &[&str] = &[
    "t(",
    "tf(",
    "tn(",
    "error_title(",
    "error_detail(",
    "missing_credentials(",
];

fn read(path: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// boot.rs's top-level functions: name and body (comments left out), in order.
fn functions(source: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for line in source.lines() {
        let header = ["pub async fn ", "pub fn ", "async fn ", "fn "]
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
fn every_text_shown_before_the_press_is_in_the_start_up_catalog() {
    let boot = functions(&read("src/boot.rs"));
    let names: Vec<&str> = boot.iter().map(|(name, _)| name.as_str()).collect();
    let lists = [
        BEFORE_THE_PRESS,
        AFTER_THE_WHOLE_CATALOG,
        CALLED_AFTER_A_WAIT,
    ];
    for listed in lists.concat() {
        assert!(
            names.contains(&listed),
            "boot.rs has no fn {listed}: update the lists"
        );
    }
    let start: BTreeSet<String> = START_KEYS.iter().map(|k| k.to_string()).collect();
    let mut needed = shell_keys();
    for key in &needed {
        assert!(
            start.contains(key),
            "index.html's data-i18n \"{key}\" is not in START_KEYS"
        );
    }
    for (name, body) in &boot {
        let shows_text = TEXT_CALLS.iter().any(|call| !calls(body, call).is_empty());
        if BEFORE_THE_PRESS.contains(&name.as_str()) {
            let (keys, dynamic) = literal_keys(body);
            for key in &keys {
                assert!(
                    start.contains(key),
                    "boot.rs {name} shows \"{key}\" before the press: add it to START_KEYS"
                );
            }
            needed.extend(keys);
            // The one text whose key is not written here: index.html's data-i18n, checked above.
            assert!(
                !dynamic || name == "translate_shell",
                "boot.rs {name} translates a key that is not a literal"
            );
            for call in ["tf(", "tn(", "error_title(", "error_detail("] {
                assert!(
                    calls(body, call).is_empty(),
                    "boot.rs {name} calls {call} before the press: wait for the whole catalog"
                );
            }
            // Only asked whether something is missing; the words come after the wait.
            for after in calls(body, "missing_credentials(") {
                let call_end = after.find(')').unwrap();
                assert!(
                    after[call_end..].starts_with(").is_some()"),
                    "boot.rs {name} shows missing_credentials' words before the whole catalog"
                );
            }
        } else if AFTER_THE_WHOLE_CATALOG.contains(&name.as_str()) {
            let wait = body
                .find(WAIT)
                .unwrap_or_else(|| panic!("boot.rs {name} does not start with {WAIT}"));
            let first_text = TEXT_CALLS
                .iter()
                .flat_map(|call| calls(body, call))
                .map(|after| body.len() - after.len())
                .min();
            assert!(
                first_text.is_none_or(|at| at > wait),
                "boot.rs {name} shows a text before {WAIT}"
            );
        } else if CALLED_AFTER_A_WAIT.contains(&name.as_str()) {
            for (caller, body) in &boot {
                for after in calls(body, &format!("{name}(")) {
                    let at = body.len() - after.len();
                    let waited = WAITS.iter().filter_map(|w| body.find(w)).any(|w| w < at);
                    assert!(
                        waited,
                        "boot.rs {caller} calls {name} before waiting for the whole catalog"
                    );
                }
            }
        } else {
            assert!(
                !shows_text,
                "boot.rs {name} shows texts: list it in one of the lists above"
            );
        }
    }
    needed.extend(start_up_module_keys());
    assert_eq!(start, needed, "START_KEYS holds exactly the form's texts");
}

/// The start-up module (crates/start) shows only start-up texts: every key it translates is a
/// literal in `START_KEYS`, but index.html's `data-i18n` ones (checked above); its keys.
fn start_up_module_keys() -> BTreeSet<String> {
    let start: BTreeSet<String> = START_KEYS.iter().map(|k| k.to_string()).collect();
    let mut all = BTreeSet::new();
    let web = read("crates/start/src/web.rs")
        + &read("crates/start/src/web/reading.rs")
        + &read("crates/start/src/web/preview.rs");
    for (name, body) in functions(&web) {
        let (keys, dynamic) = literal_keys(&body);
        for key in &keys {
            assert!(
                start.contains(key),
                "crates/start/src/web.rs {name} shows \"{key}\": add it to START_KEYS"
            );
        }
        assert!(
            !dynamic || name == "translate" || name == "t",
            "crates/start/src/web.rs {name} translates a key that is not a literal"
        );
        all.extend(keys);
    }
    for key in ["Sign in", "Members"] {
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
fn the_reading_of_boot_rs_finds_calls_by_whole_name() {
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
