//! Search highlights: only the highlight tags become emphasis; everything else stays text.
//!
//! The service's fragment is split at the tags into plain and marked pieces, which the page
//! renders as text nodes (marked ones inside `<em>`): no markup from the service is ever parsed.

use serde_json::Value;

/// The tags the console asks for (the service's defaults).
pub const PRE: &str = "<em>";
/// Closing tag.
pub const POST: &str = "</em>";

/// A piece of a fragment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its text, shown as text.
    pub text: String,
    /// Whether it was between the tags.
    pub marked: bool,
}

/// Splits `fragment` at `pre`/`post`. An unclosed tag marks the rest; stray closing tags are
/// dropped; nesting is flattened.
pub fn split(fragment: &str, pre: &str, post: &str) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    let mut rest = fragment;
    let mut marked = false;
    let mut push = |text: &str, marked: bool| {
        if text.is_empty() {
            return;
        }
        match pieces.last_mut() {
            Some(last) if last.marked == marked => last.text.push_str(text),
            _ => pieces.push(Piece {
                text: text.to_string(),
                marked,
            }),
        }
    };
    while !rest.is_empty() {
        let tag = if marked { post } else { pre };
        let other = if marked { pre } else { post };
        let next = [
            rest.find(tag).map(|at| (at, tag, true)),
            rest.find(other).map(|at| (at, other, false)),
        ]
        .into_iter()
        .flatten()
        .filter(|(_, t, _)| !t.is_empty())
        .min_by_key(|(at, _, _)| *at);
        match next {
            Some((at, found, switches)) => {
                push(&rest[..at], marked);
                rest = &rest[at + found.len()..];
                if switches {
                    marked = !marked;
                }
            }
            None => {
                push(rest, marked);
                rest = "";
            }
        }
    }
    pieces
}

/// The fragments of `hit._highlight` for `field`: a list of strings or one string.
pub fn fragments(highlight: Option<&Value>, field: &str) -> Vec<String> {
    match highlight.and_then(|h| h.get(field)) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// The first highlighted field of a hit, preferring `preferred` in order.
pub fn best(highlight: Option<&Value>, preferred: &[&str]) -> Option<(String, Vec<String>)> {
    let object = highlight?.as_object()?;
    preferred
        .iter()
        .map(|f| f.to_string())
        .chain(object.keys().cloned())
        .map(|field| {
            let found = fragments(highlight, &field);
            (field, found)
        })
        .find(|(_, found)| !found.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(text: &str, marked: bool) -> Piece {
        Piece {
            text: text.into(),
            marked,
        }
    }

    #[test]
    fn only_the_tags_become_emphasis() {
        assert_eq!(
            split(
                "Vitamin <em>D</em> and <b>bone</b> <em>health</em>",
                PRE,
                POST
            ),
            [
                p("Vitamin ", false),
                p("D", true),
                p(" and <b>bone</b> ", false),
                p("health", true)
            ]
        );
        assert_eq!(
            split("<script>alert(1)</script>", PRE, POST),
            [p("<script>alert(1)</script>", false)]
        );
    }

    #[test]
    fn broken_tags_do_not_break_the_text() {
        assert_eq!(split("a <em>b", PRE, POST), [p("a ", false), p("b", true)]);
        assert_eq!(split("a</em> b", PRE, POST), [p("a b", false)]);
        assert_eq!(split("<em><em>x</em></em>", PRE, POST), [p("x", true)]);
        assert_eq!(split("", PRE, POST), []);
        assert_eq!(split("plain", "", ""), [p("plain", false)]);
    }

    #[test]
    fn fragments_in_both_shapes() {
        let h = json!({"title": ["<em>a</em>"], "content": "b", "n": 3});
        assert_eq!(fragments(Some(&h), "title"), ["<em>a</em>"]);
        assert_eq!(fragments(Some(&h), "content"), ["b"]);
        assert!(fragments(Some(&h), "n").is_empty());
        assert_eq!(
            best(Some(&h), &["abstract", "content"]).unwrap().0,
            "content"
        );
        assert!(best(None, &["title"]).is_none());
    }
}
