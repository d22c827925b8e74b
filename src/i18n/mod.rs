//! The console's languages: English, Hungarian, Slovenian and Greek.
//!
//! Keys are the English texts themselves (`t("Sign in")`), so English needs no catalog except for
//! plural forms; the other languages' catalogs (`locales/<code>.json`, one file per language) are
//! fetched when chosen, never compiled into the module. Placeholders are `{name}`; plural entries
//! hold one text per category of `Intl.PluralRules` (`one`, `two`, `few`, `other`, ...).
//! Numbers, dates and sizes go through the browser's `Intl` (see [`format`]).
//!
//! Pure apart from [`format`]'s browser calls and the start-up in [`choose`]: tested natively.

#[cfg(target_arch = "wasm32")]
pub mod choose;
pub mod format;
pub mod start_keys;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

/// A language of the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Hu,
    Sl,
    El,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Hu, Lang::Sl, Lang::El];

    /// The BCP 47 code: `html lang`, `Intl`, the catalog's file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Hu => "hu",
            Lang::Sl => "sl",
            Lang::El => "el",
        }
    }

    /// The language's name in itself, as the language menu shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Hu => "Magyar",
            Lang::Sl => "Slovenščina",
            Lang::El => "Ελληνικά",
        }
    }

    /// The language of a tag such as `hu`, `hu-HU` or `EL_gr`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = larder_start::language::primary(tag);
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The language to start in: a remembered choice, else the browser's first language the
    /// console offers, else the configured default, else English; always one of `offered`.
    /// The rule is the start-up module's too (`larder_start::language::pick`).
    pub fn pick(
        remembered: Option<&str>,
        browser: &[String],
        default: Option<Lang>,
        offered: &[Lang],
    ) -> Lang {
        let codes: Vec<&str> = offered.iter().map(|l| l.code()).collect();
        larder_start::language::pick(remembered, browser, default.map(Lang::code), &codes)
            .and_then(|at| offered.get(at).copied())
            .unwrap_or(Lang::En)
    }
}

/// One entry of a catalog.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Text(String),
    /// Plural category (`one`, `two`, `few`, `many`, `other`) to text.
    Plural(Vec<(String, String)>),
}

/// The texts of one language, by key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Catalog {
    pub entries: HashMap<String, Entry>,
}

impl Catalog {
    /// A catalog from its JSON file: an object of key to text, or key to an object of plural
    /// category to text.
    pub fn parse(json: &str) -> Result<Catalog, String> {
        let value: Value = serde_json::from_str(json).map_err(|e| format!("not a catalog: {e}"))?;
        Catalog::from_value(value)
    }

    fn from_value(value: Value) -> Result<Catalog, String> {
        let Value::Object(object) = value else {
            return Err("a catalog is an object of texts".into());
        };
        let mut entries = HashMap::new();
        for (key, value) in object {
            let entry = match value {
                Value::String(text) => Entry::Text(text),
                Value::Object(forms) => Entry::Plural(
                    forms
                        .into_iter()
                        .map(|(category, text)| match text {
                            Value::String(text) => Ok((category, text)),
                            _ => Err(format!("{key}: plural forms are texts")),
                        })
                        .collect::<Result<_, _>>()?,
                ),
                _ => return Err(format!("{key}: a text or plural forms")),
            };
            entries.insert(key, entry);
        }
        Ok(Catalog { entries })
    }
}

/// `template` with each `{name}` replaced by its value.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// The placeholders a text holds: `{name}` gives `name`.
pub fn placeholders(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        let name = &rest[start + 1..start + len];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            found.insert(name.to_string());
        }
        rest = &rest[start + len + 1..];
    }
    found
}

/// English's own catalog: only its plural forms (every other English text is its key).
pub const ENGLISH: &str = include_str!("../../locales/en.json");

struct State {
    lang: Lang,
    catalog: Catalog,
    /// Called on every read: the console subscribes the reading view to language changes.
    on_read: Option<Box<dyn Fn()>>,
    /// Called after a change of language.
    on_change: Option<Box<dyn Fn()>>,
}

thread_local! {
    /// English's plural forms, parsed when a plural is first asked for: only [`tn`] reads them,
    /// so the catalog and its parsing stay out of the start-up module (the sign-in form has no
    /// plurals) and cost the start nothing.
    static ENGLISH_PLURALS: Catalog = Catalog::parse(ENGLISH).unwrap_or_default();
    static STATE: RefCell<State> = RefCell::new(State {
        lang: Lang::En,
        catalog: Catalog::default(),
        on_read: None,
        on_change: None,
    });
}

/// The current language.
pub fn lang() -> Lang {
    read(|s| s.lang)
}

/// Switches to `lang` with its catalog (empty for English).
pub fn set(lang: Lang, catalog: Catalog) {
    STATE.with(|s| {
        let mut state = s.borrow_mut();
        state.lang = lang;
        state.catalog = catalog;
    });
    let notify = STATE.with(|s| s.borrow_mut().on_change.take());
    if let Some(notify) = notify {
        notify();
        STATE.with(|s| s.borrow_mut().on_change = Some(notify));
    }
}

/// Hooks that make texts follow a change of language: `on_read` runs whenever a text is read,
/// `on_change` after a switch (the console passes a trigger's track and notify).
pub fn observe(on_read: impl Fn() + 'static, on_change: impl Fn() + 'static) {
    STATE.with(|s| {
        let mut state = s.borrow_mut();
        state.on_read = Some(Box::new(on_read));
        state.on_change = Some(Box::new(on_change));
    });
}

fn read<R>(f: impl FnOnce(&State) -> R) -> R {
    STATE.with(|s| {
        let state = s.borrow();
        if let Some(on_read) = &state.on_read {
            on_read();
        }
        f(&state)
    })
}

/// Marks a key that is translated where it is shown (a label handed to a component): the
/// catalog test finds it as it finds `t("…")`.
pub const fn k(key: &'static str) -> &'static str {
    key
}

/// The text of `key` in the current language (the key itself when the catalog lacks it).
pub fn t(key: &str) -> String {
    read(|s| match s.catalog.entries.get(key) {
        Some(Entry::Text(text)) => text.clone(),
        _ => key.to_string(),
    })
}

/// [`t`] with placeholders filled: `tf("{name} saved", &[("name", &name)])`.
pub fn tf(key: &str, args: &[(&str, &str)]) -> String {
    fill(&t(key), args)
}

/// The plural form of `key` for `count` (its `{count}` filled with the number formatted the
/// language's way), further placeholders from `args`.
pub fn tn(key: &str, count: i64, args: &[(&str, &str)]) -> String {
    let (lang, text) = read(|s| {
        let category = format::plural_category(s.lang, count);
        let pick = |catalog: &Catalog| match catalog.entries.get(key) {
            Some(Entry::Plural(forms)) => forms
                .iter()
                .find(|(c, _)| c == category)
                .or_else(|| forms.iter().find(|(c, _)| c == "other"))
                .map(|(_, text)| text.clone()),
            _ => None,
        };
        let text = pick(&s.catalog)
            .or_else(|| ENGLISH_PLURALS.with(pick))
            .unwrap_or_else(|| key.to_string());
        (s.lang, text)
    });
    let number = format::number_in(lang, count as f64);
    let mut all = vec![("count", number.as_str())];
    all.extend_from_slice(args);
    fill(&text, &all)
}

/// A collection's name, plural ("Articles"), translated where the catalog has `collections:<path>`.
pub fn plural_name(collection: &larder_contract::Collection) -> String {
    let key = format!("collections:{}", collection.path);
    let text = t(&key);
    if text != key {
        text
    } else {
        collection.plural.to_string()
    }
}

/// A collection's record, singular and lower-case ("article"), translated where the catalog
/// has `collection:<path>`.
pub fn singular_name(collection: &larder_contract::Collection) -> String {
    let key = format!("collection:{}", collection.path);
    let text = t(&key);
    if text != key {
        text
    } else {
        larder_contract::text::lowercase(collection.singular)
    }
}

/// `text` with its first letter in capitals ("article" → "Article").
pub fn capitalized(text: &str) -> String {
    larder_contract::text::capitalized(text)
}

/// The readable label of an enumeration value (`gluten_free` of `dietary_group`), translated
/// where the catalog has `<enumeration>:<value>`, else the value with spaces.
pub fn value_label(enumeration: &str, value: &str) -> String {
    let key = format!("{enumeration}:{value}");
    let text = t(&key);
    if text != key {
        text
    } else {
        value.replace('_', " ")
    }
}

/// The label of `value` of `enumeration` where the catalog has `<enumeration>:<value>`, else
/// `english` (production's own English label: `allergen`, `goal` and `gender` values).
pub fn label_or(enumeration: &str, value: &str, english: &str) -> String {
    let key = format!("{enumeration}:{value}");
    let text = t(&key);
    if text != key {
        text
    } else {
        english.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_follows_memory_then_browser_then_default() {
        let all = Lang::ALL;
        let browser = vec!["de-DE".to_string(), "sl-SI".to_string(), "hu".to_string()];
        assert_eq!(Lang::pick(Some("el"), &browser, None, &all), Lang::El);
        assert_eq!(Lang::pick(None, &browser, None, &all), Lang::Sl);
        assert_eq!(Lang::pick(Some("xx"), &[], Some(Lang::Hu), &all), Lang::Hu);
        assert_eq!(Lang::pick(None, &[], None, &all), Lang::En);
        // Only what is offered.
        assert_eq!(
            Lang::pick(Some("el"), &browser, None, &[Lang::En, Lang::Hu]),
            Lang::Hu
        );
        assert_eq!(Lang::from_tag("EL_gr"), Some(Lang::El));
    }

    #[test]
    fn texts_fill_and_fall_back_to_their_key() {
        let catalog = Catalog::parse(
            r#"{"{name} saved": "{name} mentve", "{count} members": {"one": "{count} tag", "other": "{count} tag"}}"#,
        )
        .unwrap();
        set(Lang::Hu, catalog);
        assert_eq!(tf("{name} saved", &[("name", "Anna")]), "Anna mentve");
        assert_eq!(t("Not in the catalog"), "Not in the catalog");
        assert_eq!(tn("{count} members", 5, &[]), "5 tag");
        set(Lang::En, Catalog::default());
        assert_eq!(tn("{count} found", 1, &[]), "1 found");
        assert_eq!(tn("{count} empty fields", 1, &[]), "1 empty field");
        assert_eq!(tn("{count} empty fields", 3, &[]), "3 empty fields");
        assert_eq!(value_label("dietary_group", "gluten_free"), "gluten free");
        assert_eq!(
            placeholders("{count} of {total}, {x y}"),
            ["count", "total"].map(String::from).into()
        );
        assert!(Catalog::parse("[1]").is_err());
    }
}
