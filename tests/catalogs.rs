//! The translations are complete: every key the console uses is in every language's catalog,
//! none is left over, placeholders agree, plural forms cover the language's categories, and
//! no Hungarian, Slovenian or Greek text was left in English (names of things excepted).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use larder::i18n::{placeholders, Catalog, Entry, Lang};

mod source_files;
use source_files::{root, sources};

/// Texts that are the same in every language: names and notations, not words.
const SAME_EVERYWHERE: &[&str] = &[
    "JSON",
    "…",
    // An age of years and months: two counts side by side in every language.
    "{years} {months}",
    // A count beside a review state's name.
    "{count} {state}",
    "field:doi",
    "field:id",
    "field:urn",
    "field:url",
    "field:isbn10",
    "field:isbn13",
];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Use {
    Text,
    Plural,
}

/// A Rust string literal starting at `text` (just after the opening quote), unescaped.
fn literal(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '\\' => out.push('\\'),
                '"' => out.push('"'),
                '\'' => out.push('\''),
                '\n' => {
                    // A line continuation: the next line's leading spaces go too.
                    let rest: String = chars.clone().collect();
                    let skipped = rest.len() - rest.trim_start().len();
                    for _ in 0..skipped {
                        chars.next();
                    }
                }
                'u' => {
                    let rest: String = chars.clone().collect();
                    let close = rest.find('}')?;
                    let code = u32::from_str_radix(&rest[1..close], 16).ok()?;
                    out.push(char::from_u32(code)?);
                    for _ in 0..=close {
                        chars.next();
                    }
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The keys the sources hand to `t`, `tf`, `k` (texts) and `tn` (plurals), outside tests.
fn used_keys() -> BTreeMap<String, Use> {
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let mut keys = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (at, _) in text.match_indices('(') {
            let before = &text[..at];
            let name_start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map(|i| i + 1)
                .unwrap_or(0);
            let function = &before[name_start..];
            let kind = match function {
                "t" | "tf" | "k" => Use::Text,
                "tn" => Use::Plural,
                _ => continue,
            };
            // A path such as `crate::i18n::t(` counts; a method such as `.t(` does not exist here.
            let after = text[at + 1..].trim_start();
            let Some(rest) = after.strip_prefix('"') else {
                continue;
            };
            let key = literal(rest).unwrap_or_else(|| panic!("{}: unreadable key", file.display()));
            keys.insert(key, kind);
        }
    }
    // The start-up module's texts (crates/start; tests/start_catalog.rs holds the list to it).
    for key in larder::i18n::start_keys::START_KEYS {
        keys.insert(key.to_string(), Use::Text);
    }
    let html = std::fs::read_to_string(root().join("index.html")).unwrap();
    for part in html.split("data-i18n=\"").skip(1) {
        keys.insert(part[..part.find('"').unwrap()].to_string(), Use::Text);
    }
    // Names the console builds keys for: fields, collections, enumeration values.
    for collection in larder_contract::COLLECTIONS {
        keys.insert(format!("collections:{}", collection.path), Use::Text);
        keys.insert(format!("collection:{}", collection.path), Use::Text);
        for field in collection.fields() {
            keys.insert(format!("field:{}", field.name), Use::Text);
        }
    }
    for value in larder_contract::enums::AGE_GROUP {
        keys.insert(format!("age_group:{value}"), Use::Text);
    }
    for value in larder_contract::enums::DIETARY_GROUPS {
        keys.insert(format!("dietary_group:{value}"), Use::Text);
    }
    // The guideline facets the knowledge base labels (`kb::schema::labels`).
    for (field, values) in larder_contract::collections::guidelines::LABELLED_FACETS {
        for value in values {
            keys.insert(format!("{field}:{value}"), Use::Text);
        }
    }
    // Member pictures' colours, the profile's gender values, what an erasure keeps.
    for preset in &larder::household::rules::avatar::PRESETS {
        keys.insert(format!("avatar:{}", preset.colour), Use::Text);
    }
    // Production's profile vocabulary: English is its own labels, the rest the catalogs'.
    for (value, _) in larder_contract::profile::GENDERS {
        keys.insert(format!("gender:{value}"), Use::Text);
    }
    for (slug, _) in larder_contract::profile::GOALS {
        keys.insert(format!("goal:{slug}"), Use::Text);
    }
    for allergen in &larder_contract::allergens::ALL {
        keys.insert(format!("allergen:{}", allergen.id), Use::Text);
    }
    for value in larder::household::rules::RETAINED {
        keys.insert(format!("retained:{value}"), Use::Text);
    }
    for value in larder_contract::shares::SHARE_KINDS {
        keys.insert(format!("share_kind:{value}"), Use::Text);
    }
    keys
}

fn catalog(lang: Lang) -> Catalog {
    let path = root().join(format!("locales/{}.json", lang.code()));
    Catalog::parse(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The plural categories each language's `Intl.PluralRules` gives for whole numbers.
fn categories(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Sl => &["one", "two", "few", "other"],
        _ => &["one", "other"],
    }
}

/// The English text a key stands for (a generated key's English is built by the code).
fn english_placeholders(key: &str) -> BTreeSet<String> {
    if key.contains(':') && !key.contains(' ') {
        BTreeSet::new()
    } else {
        placeholders(key)
    }
}

#[test]
fn every_language_has_every_key_and_nothing_else() {
    let used = used_keys();
    assert!(used.len() > 300, "the key scan found only {}", used.len());
    let mut problems = Vec::new();
    let english = catalog(Lang::En);
    for (key, entry) in &english.entries {
        match (used.get(key), entry) {
            (Some(Use::Plural), Entry::Plural(_)) => {}
            _ => problems.push(format!("en: {key:?} is not a plural the console uses")),
        }
    }
    for (key, kind) in &used {
        if *kind == Use::Plural && !english.entries.contains_key(key) {
            problems.push(format!("en: the plural {key:?} has no English forms"));
        }
    }
    for lang in [Lang::Hu, Lang::Sl, Lang::El] {
        let code = lang.code();
        let catalog = catalog(lang);
        for key in catalog.entries.keys() {
            if !used.contains_key(key) {
                problems.push(format!("{code}: {key:?} is not used"));
            }
        }
        for (key, kind) in &used {
            let wanted = english_placeholders(key);
            match (kind, catalog.entries.get(key)) {
                (_, None) => problems.push(format!("{code}: {key:?} is missing")),
                (Use::Text, Some(Entry::Text(text))) => {
                    if placeholders(text) != wanted {
                        problems.push(format!("{code}: {key:?}: placeholders of {text:?} differ"));
                    }
                    let english_text = key.as_str();
                    if text == english_text && !SAME_EVERYWHERE.contains(&key.as_str()) {
                        problems.push(format!("{code}: {key:?} is left in English"));
                    }
                }
                (Use::Plural, Some(Entry::Plural(forms))) => {
                    for category in categories(lang) {
                        match forms.iter().find(|(c, _)| c == category) {
                            None => {
                                problems.push(format!("{code}: {key:?} lacks the {category} form"))
                            }
                            Some((_, text)) => {
                                if placeholders(text) != wanted {
                                    problems.push(format!(
                                        "{code}: {key:?} ({category}): placeholders of {text:?} differ"
                                    ));
                                }
                                if text == key {
                                    problems.push(format!("{code}: {key:?} is left in English"));
                                }
                            }
                        }
                    }
                }
                (Use::Text, Some(Entry::Plural(_))) => {
                    problems.push(format!("{code}: {key:?} is a text, not plural forms"))
                }
                (Use::Plural, Some(Entry::Text(_))) => {
                    problems.push(format!("{code}: {key:?} needs plural forms"))
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_scan_reads_keys_as_the_compiler_does() {
    assert_eq!(
        literal(r#"a \"b\" \u{201c}c\u{201d}" rest"#).as_deref(),
        Some("a \"b\" \u{201c}c\u{201d}")
    );
    let used = used_keys();
    assert_eq!(used.get("Sign in"), Some(&Use::Text));
    assert_eq!(used.get("{count} found"), Some(&Use::Plural));
    assert_eq!(used.get("field:publication_year"), Some(&Use::Text));
    assert_eq!(used.get("dietary_group:vegan"), Some(&Use::Text));
}
