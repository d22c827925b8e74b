//! Text as the index reads it: which fields make the body, how text splits into tokens
//! (SQLite's `unicode61 remove_diacritics 2` and Snowball English stems), and which records
//! callers without a curator's role may see by their own fields.

use larder_contract::collections::ReadRule;
use rust_stemmers::Stemmer;
use serde_json::Value;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Fields whose text is the body column (after the title).
pub const BODY_FIELDS: &[&str] = &[
    "abstract",
    "content",
    "description",
    "rule_text",
    "text",
    "notes",
    "short_title",
    "subtitle",
    "keywords",
    "tags",
    "topics",
    "authors",
    "ai_tags",
    // A guideline's extraction context and open vocabularies (production.md §10.5).
    "page_summary",
    "section_label",
    "topic",
    "nutrients",
    "health_conditions",
];

/// Splits `text` into search tokens: runs of letters and digits, lower-cased, without accents,
/// stemmed.
pub fn tokens<'a>(stemmer: &'a Stemmer, text: &'a str) -> impl Iterator<Item = String> + 'a {
    folded_words(text).map(move |folded| stemmer.stem(&folded).into_owned())
}

/// Splits `text` into its words as typed: runs of letters and digits, lower-cased, without
/// accents, not stemmed (what a word-prefix match compares: "medit" is no word's stem).
pub fn folded_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|word| {
            word.nfd()
                .filter(|c| !is_combining_mark(*c))
                .flat_map(char::to_lowercase)
                .collect()
        })
}

pub(crate) fn text_of(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push(' ');
            out.push_str(s);
        }
        Value::Array(items) => items.iter().for_each(|item| text_of(item, out)),
        Value::Number(n) => {
            out.push(' ');
            out.push_str(&n.to_string());
        }
        _ => {}
    }
}

/// Whether a record is visible to callers without `admin` or `expert` by its own fields.
pub fn own_visibility(rule: ReadRule, doc: &Value) -> bool {
    let active_or_verified = doc["status"] == "active"
        || (doc["review_status"] == "verified" && doc["status"] != "deleted");
    match rule {
        ReadRule::Always | ReadRule::AsParent => true,
        ReadRule::ActiveOrVerified => active_or_verified,
        ReadRule::PublicAndActiveOrVerified => doc["visibility"] == "public" && active_or_verified,
        ReadRule::ReaderVisibility => {
            larder_contract::collections::policy::readable_by_all(doc["reader_visibility"].as_str())
        }
    }
}
