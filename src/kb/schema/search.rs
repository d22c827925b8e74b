//! The search part of a list page's URL: text, filters (one per line in one parameter, so they
//! survive the pager's rewriting of the query) and sort.

/// Fields the search highlights, most telling first.
pub const HIGHLIGHTED: [&str; 6] = [
    "title",
    "abstract",
    "rule_text",
    "description",
    "content",
    "text",
];

/// The search part of the URL.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchState {
    /// The text; `None` when not searching.
    pub q: Option<String>,
    /// Filters, `field:value`.
    pub fq: Vec<String>,
    /// Sort expression; empty for relevance.
    pub sort: String,
}

impl SearchState {
    /// The state the URL's `q`, `fq` and `sort` parameters hold.
    pub fn from_query(q: Option<String>, fq: Option<String>, sort: Option<String>) -> SearchState {
        SearchState {
            q,
            fq: fq
                .map(|f| {
                    f.lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            sort: sort.unwrap_or_default(),
        }
    }

    pub fn active(&self) -> bool {
        self.q.is_some() || !self.fq.is_empty() || !self.sort.is_empty()
    }

    /// The query string of this state on the first page of `limit`. Filters travel as one
    /// parameter, one per line, so they survive the pager's rewriting of the query.
    pub fn href(&self, limit: u32) -> String {
        let enc = larder_api::config::encode_component;
        let mut parts = Vec::new();
        if let Some(q) = &self.q {
            parts.push(format!("q={}", enc(q)));
        }
        if !self.fq.is_empty() {
            parts.push(format!("fq={}", enc(&self.fq.join("\n"))));
        }
        if !self.sort.is_empty() {
            parts.push(format!("sort={}", enc(&self.sort)));
        }
        parts.push(format!("limit={limit}"));
        format!("?{}", parts.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_travel_one_per_line_and_come_back() {
        let state = SearchState {
            q: Some("iron & zinc".into()),
            fq: vec!["status:active".into(), "title:\"a b\"".into()],
            sort: "title asc".into(),
        };
        let href = state.href(25);
        assert_eq!(
            href,
            "?q=iron%20%26%20zinc&fq=status%3Aactive%0Atitle%3A%22a%20b%22&sort=title%20asc&limit=25"
        );
        let back = SearchState::from_query(
            Some("iron & zinc".into()),
            Some("status:active\n\n  \ntitle:\"a b\"".into()),
            Some("title asc".into()),
        );
        assert_eq!(back, state);
        assert!(back.active());
        assert!(!SearchState::from_query(None, None, None).active());
    }
}
