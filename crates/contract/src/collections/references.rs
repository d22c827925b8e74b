//! Fields that hold another record's URN, and the collections the URN may name: the console's
//! reference pickers find those records by title, and the URN is what is stored.

use super::{Collection, FCTABLES, GUIDES, ORGANIZATIONS, TEXTBOOKS};

/// Each reference field, with the collections its URN may name.
pub const REFERENCES: [(&str, &[&Collection]); 4] = [
    ("guide_urn", &[&GUIDES]),
    ("organization_urn", &[&ORGANIZATIONS]),
    ("textbook_urn", &[&TEXTBOOKS]),
    // An artifact's parent: a guide, a textbook or a food composition table.
    ("parent_urn", &[&GUIDES, &TEXTBOOKS, &FCTABLES]),
];

/// The collections `field`'s URN may name, when it is a reference.
pub fn targets(field: &str) -> Option<&'static [&'static Collection]> {
    REFERENCES
        .iter()
        .find(|(name, _)| *name == field)
        .map(|(_, targets)| *targets)
}

/// The most words a typed title is searched by.
pub const MAX_TITLE_WORDS: usize = 6;
/// The most characters of a word kept.
pub const MAX_WORD_CHARS: usize = 40;

/// Search filters (`fq`) that find titles with a word beginning with each typed word: `medit`
/// finds "Mediterranean diet". Production's autocomplete and search `q` are a full-text match
/// that a partial word never meets (production.md §10.7); its `fq` is a query string, where a
/// trailing `*` is a prefix, as larder-search's `Filter::Prefix` reads it too. Only letters and
/// digits of a word are kept, so nothing typed is query-string syntax. Empty when nothing typed
/// is a word.
pub fn title_prefix_filters(typed: &str) -> Vec<String> {
    typed
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .take(MAX_TITLE_WORDS)
        .map(|word| {
            let word: String = word.chars().take(MAX_WORD_CHARS).collect();
            format!("title:{}*", word.to_lowercase())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_fields_name_their_collections() {
        assert_eq!(targets("guide_urn").unwrap()[0].path, "guides");
        assert_eq!(targets("parent_urn").unwrap().len(), 3);
        assert!(targets("title").is_none());
        // Every reference field is a field of some collection, and where its type names the
        // URN's kind, the targets are that kind's collection.
        for (name, targets) in REFERENCES {
            let typed: Vec<_> = crate::COLLECTIONS
                .iter()
                .flat_map(|c| c.fields())
                .filter(|f| f.name == name)
                .collect();
            assert!(!typed.is_empty(), "{name}");
            for field in typed {
                if let crate::Type::Urn(Some(prefix)) = field.ty {
                    let kinds: Vec<_> = targets.iter().filter_map(|c| c.urn_prefix()).collect();
                    assert_eq!(kinds, [prefix.to_string()], "{name}");
                }
            }
        }
    }

    #[test]
    fn typed_words_become_prefix_filters_with_nothing_of_the_query_syntax() {
        assert_eq!(title_prefix_filters("medit"), ["title:medit*"]);
        assert_eq!(
            title_prefix_filters("  Medit  DIET "),
            ["title:medit*", "title:diet*"]
        );
        assert_eq!(
            title_prefix_filters("a:b* OR (c) \"d\""),
            ["title:a*", "title:b*", "title:or*", "title:c*", "title:d*"]
        );
        assert_eq!(title_prefix_filters("Ελλάδα"), ["title:ελλάδα*"]);
        assert!(title_prefix_filters(" :*() ").is_empty());
        assert_eq!(
            title_prefix_filters("a b c d e f g h").len(),
            MAX_TITLE_WORDS
        );
        let long = "x".repeat(100);
        assert_eq!(
            title_prefix_filters(&long)[0].len(),
            "title:*".len() + MAX_WORD_CHARS
        );
    }
}
