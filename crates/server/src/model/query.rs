//! The query language of searches, as pure functions: full-text terms, `fq` filters, `sort`
//! keys, and highlighting of matches.

use larder_contract::Collection;

use crate::store::{Filter, SortKey};

/// Whether `field` is a dotted field name (`title`, `geographic_context.country`).
pub fn valid_field(field: &str) -> bool {
    field.len() <= 100
        && field.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// The words of `q`, lower-cased; operators and punctuation are only separators.
pub fn terms(q: &str) -> Vec<String> {
    q.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .take(32)
        .map(str::to_lowercase)
        .collect()
}

/// Parses one `fq` entry: `field:value`, `field:"quoted value"`, `field:*`, `field:[a TO b]`,
/// `field:prefix*` (a word of the field begins with `prefix`, as production's query-string
/// filter reads a trailing wildcard on its analysed text fields: a picker's fallback search
/// finds "Mediterranean" from `title:medit*` there and here).
pub fn parse_filter(entry: &str) -> Result<Filter, String> {
    let (field, value) = entry
        .split_once(':')
        .ok_or_else(|| format!("{entry:?} is not field:value"))?;
    let field = field.trim().to_string();
    if !valid_field(&field) {
        return Err(format!("{field:?} is not a field name"));
    }
    let value = value.trim();
    if value == "*" {
        return Ok(Filter::Exists { field });
    }
    if let Some(range) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        let (low, high) = range
            .split_once(" TO ")
            .ok_or_else(|| format!("{value:?} is not a range [low TO high]"))?;
        let bound = |b: &str| {
            let b = b.trim().trim_matches('"');
            (b != "*").then(|| b.to_string())
        };
        return Ok(Filter::Range {
            field,
            low: bound(low),
            high: bound(high),
        });
    }
    if let Some(prefix) = value.strip_suffix('*') {
        if !prefix.is_empty() && !prefix.starts_with('"') && !prefix.contains(['*', '?']) {
            return Ok(Filter::Prefix {
                field,
                prefix: prefix.to_string(),
            });
        }
    }
    let value = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(quoted) => quoted.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => value.to_string(),
    };
    Ok(Filter::Equals { field, value })
}

/// Parses `sort` against the collection's sortable fields.
pub fn parse_sort(collection: &Collection, sort: &str) -> Result<Vec<SortKey>, String> {
    let mut keys = Vec::new();
    for part in sort.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mut words = part.split_whitespace();
        let field = words.next().unwrap_or_default();
        let descending = match words.next().map(str::to_ascii_lowercase).as_deref() {
            None => matches!(field, "relevance" | "score" | "_score"),
            Some("asc") => false,
            Some("desc") => true,
            Some(other) => return Err(format!("{other:?} is not asc or desc")),
        };
        if words.next().is_some() {
            return Err(format!("{part:?} is not `field asc|desc`"));
        }
        if matches!(field, "relevance" | "score" | "_score") {
            keys.push(SortKey::Score);
            continue;
        }
        let sortable = matches!(field, "urn" | "id")
            || collection.field(field).is_some_and(|f| f.ty.is_scalar());
        if !sortable {
            return Err(format!(
                "{:?} can't be sorted on {field:?}",
                collection.path
            ));
        }
        keys.push(SortKey::Field {
            field: field.to_string(),
            descending,
        });
    }
    Ok(keys)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The field's text with every word starting with a query term wrapped in the tags, cut to a
/// window around the first match; `None` when nothing matches. Text is HTML-escaped, as the
/// tags are markup.
pub fn highlight(text: &str, terms: &[String], pre: &str, post: &str) -> Option<String> {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    let hits: Vec<(usize, usize)> = words
        .into_iter()
        .filter(|(s, e)| {
            let word = text[*s..*e].to_lowercase();
            terms.iter().any(|t| {
                // Short terms match whole words only, or a single letter would light up half the text.
                if t.chars().count() < 3 {
                    word == *t
                } else {
                    word.starts_with(t.as_str())
                }
            })
        })
        .collect();
    let first = hits.first()?.0;
    let window_start = text[..first]
        .char_indices()
        .rev()
        .nth(80)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let window_end = text[first..]
        .char_indices()
        .nth(220)
        .map(|(i, _)| first + i)
        .unwrap_or(text.len());
    let mut out = String::new();
    if window_start > 0 {
        out.push('…');
    }
    let mut at = window_start;
    for (s, e) in hits
        .into_iter()
        .filter(|(s, e)| *s >= window_start && *e <= window_end)
    {
        out.push_str(&escape(&text[at..s]));
        out.push_str(pre);
        out.push_str(&escape(&text[s..e]));
        out.push_str(post);
        at = e;
    }
    out.push_str(&escape(&text[at..window_end]));
    if window_end < text.len() {
        out.push('…');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::ARTICLES;

    #[test]
    fn filters_parse() {
        assert_eq!(
            parse_filter("status:active").unwrap(),
            Filter::Equals {
                field: "status".into(),
                value: "active".into()
            }
        );
        assert_eq!(
            parse_filter("title:\"a: b \\\"c\\\"\"").unwrap(),
            Filter::Equals {
                field: "title".into(),
                value: "a: b \"c\"".into()
            }
        );
        assert_eq!(
            parse_filter("doi:*").unwrap(),
            Filter::Exists {
                field: "doi".into()
            }
        );
        assert_eq!(
            parse_filter("publication_year:[2018 TO *]").unwrap(),
            Filter::Range {
                field: "publication_year".into(),
                low: Some("2018".into()),
                high: None
            }
        );
        assert_eq!(
            parse_filter("title:Medit*").unwrap(),
            Filter::Prefix {
                field: "title".into(),
                prefix: "Medit".into()
            }
        );
        // A quoted star is a value; a lone one is `*` (present).
        assert!(matches!(
            parse_filter("title:\"a*\"").unwrap(),
            Filter::Equals { .. }
        ));
        for bad in ["nofield", "x'; DROP TABLE records; --:1", ":v", "a..b:c"] {
            assert!(parse_filter(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sort_is_whitelisted() {
        assert_eq!(
            parse_sort(&ARTICLES, "relevance").unwrap(),
            vec![SortKey::Score]
        );
        assert_eq!(
            parse_sort(&ARTICLES, "publication_year desc, title")
                .unwrap()
                .len(),
            2
        );
        assert!(parse_sort(&ARTICLES, "title sideways").is_err());
        assert!(parse_sort(&ARTICLES, "tags asc").is_err());
        assert!(parse_sort(&ARTICLES, "(SELECT 1) asc").is_err());
    }

    /// The highlighter again, written for clarity: words as runs of characters, the window
    /// counted in characters (81 before the first hit, 220 from it), nothing shared with the
    /// byte-walking original but the matching rule.
    fn plain_highlight(text: &str, terms: &[String], pre: &str, post: &str) -> Option<String> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let byte = |at: usize| chars.get(at).map_or(text.len(), |c| c.0);
        let mut words = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].1.is_alphanumeric() {
                let start = i;
                while i < chars.len() && chars[i].1.is_alphanumeric() {
                    i += 1;
                }
                words.push((start, i));
            } else {
                i += 1;
            }
        }
        let matches = |word: &str| {
            let word = word.to_lowercase();
            terms.iter().any(|t| {
                if t.chars().count() < 3 {
                    word == *t
                } else {
                    word.starts_with(t.as_str())
                }
            })
        };
        let hits: Vec<(usize, usize)> = words
            .into_iter()
            .filter(|(s, e)| matches(&text[byte(*s)..byte(*e)]))
            .collect();
        let first = hits.first()?.0;
        let window_start = first.saturating_sub(81);
        let window_end = (first + 220).min(chars.len());
        let mut out = String::new();
        if window_start > 0 {
            out.push('…');
        }
        let mut at = window_start;
        for (s, e) in hits {
            if s >= window_start && e <= window_end {
                out += &escape(&text[byte(at)..byte(s)]);
                out += pre;
                out += &escape(&text[byte(s)..byte(e)]);
                out += post;
                at = e;
            }
        }
        out += &escape(&text[byte(at)..byte(window_end)]);
        if window_end < chars.len() {
            out.push('…');
        }
        Some(out)
    }

    proptest::proptest! {
        /// Issue 21's oracle, for the part of a search the index does not answer: the highlight
        /// equals the plain one, and its size is bounded by the window, not by the text.
        #[test]
        fn highlight_agrees_with_a_plain_one_and_stays_within_its_window(
            lead in 0usize..120,
            tail in "([a-zA-Zé0-9]{1,9}|[ ,.<>&-]{1,3}|Ω){0,120}",
            query in "[a-zA-Zé0-9 ]{0,12}",
            pick in proptest::prelude::any::<proptest::sample::Index>(),
            prefix in 1usize..5,
            pre in "[<>a-z]{0,8}",
            post in "[<>/a-z]{0,8}",
        ) {
            // Words of the text (or their beginnings) are searched for, often after a long lead,
            // so windows start and end inside the text.
            let text = format!("{}{tail}", "·w ".repeat(lead));
            let words: Vec<&str> = tail.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
            let mut query = query;
            if !words.is_empty() {
                let word = words[pick.index(words.len())];
                query.push(' ');
                query.extend(word.chars().take(prefix));
            }
            let terms = terms(&query);
            let got = highlight(&text, &terms, &pre, &post);
            proptest::prop_assert_eq!(&got, &plain_highlight(&text, &terms, &pre, &post));
            if let Some(got) = got {
                // 301 characters of at most 4 bytes, each escaped to at most 5, and the tags
                // around at most 151 words in the window.
                let bound = 301 * 4 * 5 + 151 * (pre.len() + post.len()) + 6;
                proptest::prop_assert!(got.len() <= bound);
            }
        }
    }

    #[test]
    fn highlight_wraps_and_escapes() {
        let terms = terms("vitamin D");
        assert_eq!(
            highlight("Vitamins <and> d-day", &terms, "<b>", "</b>").unwrap(),
            "<b>Vitamins</b> &lt;and&gt; <b>d</b>-day"
        );
        assert_eq!(
            highlight("nothing here", &["zinc".into()], "<b>", "</b>"),
            None
        );
    }
}
