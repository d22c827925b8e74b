//! Knowledge base › Overview from search totals and facets alone (issue 40 item 1): per
//! collection the total, the lifecycle status and editorial review status as bars, articles by
//! reading visibility, and the guidelines awaiting review. Every number links to the list that
//! shows exactly that many rows (the same empty search with the value's filter). Pure: the page
//! draws what this computes.

use larder_api::types::FacetCount;
use larder_api::SearchQuery;
use larder_contract::collections::GUIDELINES;
use larder_contract::Collection;
use serde_json::Value;

use super::search::SearchState;

/// The breakdowns an overview may draw, by facet field.
pub const BREAKDOWNS: [&str; 3] = ["status", "review_status", "reader_visibility"];

/// The review states that mean "awaiting review".
pub const AWAITING_REVIEW: [&str; 2] = ["pending_review", "in_review"];

/// Rows per page of the lists the overview links to.
pub const LIST_LIMIT: u32 = 25;

/// The facet fields `collection` has among [`BREAKDOWNS`].
pub fn breakdowns_of(collection: &Collection) -> Vec<&'static str> {
    let fields = collection.fields();
    BREAKDOWNS
        .into_iter()
        .filter(|name| fields.iter().any(|f| f.name == *name))
        .collect()
}

/// The one search an overview card asks: no text, no rows beyond one, its breakdowns' facets
/// with every value.
pub fn query(collection: &Collection) -> SearchQuery {
    SearchQuery {
        q: String::new(),
        fields: breakdowns_of(collection)
            .into_iter()
            .map(str::to_string)
            .collect(),
        facet_limit: Some(100),
        limit: Some(1),
        fl: vec![collection.identifier_field().to_string()],
        ..SearchQuery::default()
    }
}

/// The list of `collection` that shows the records with `field` = `value` (every record when
/// `None`): an empty search with that filter.
pub fn list_href(collection: &Collection, filter: Option<(&str, &str)>) -> String {
    let state = SearchState {
        q: Some(String::new()),
        fq: filter
            .map(|(field, value)| vec![format!("{field}:{value}")])
            .unwrap_or_default(),
        sort: String::new(),
    };
    format!("/records/{}{}", collection.path, state.href(LIST_LIMIT))
}

/// One part of a bar: a value, its count, and where it lies (in parts of the whole, 0–1).
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub value: String,
    pub count: u64,
    pub start: f64,
    pub width: f64,
}

/// The facet's values as consecutive parts of one bar, largest first (ties by value), each as
/// wide as its share of `total` (the parts of values the facet left out are not drawn). A value
/// that is not text or a number (a list, an object) is left out, as no filter names it.
pub fn segments(counts: &[FacetCount], total: u64) -> Vec<Segment> {
    let mut values: Vec<(String, u64)> = counts
        .iter()
        .filter(|c| c.count > 0)
        .filter_map(|c| match &c.value {
            Value::String(text) if !text.is_empty() => Some((text.clone(), c.count)),
            Value::Number(n) => Some((n.to_string(), c.count)),
            Value::Bool(b) => Some((b.to_string(), c.count)),
            _ => None,
        })
        .collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let whole = total.max(values.iter().map(|(_, n)| n).sum::<u64>()).max(1) as f64;
    let mut start = 0.0;
    values
        .into_iter()
        .map(|(value, count)| {
            let width = count as f64 / whole;
            let segment = Segment {
                value,
                count,
                start,
                width,
            };
            start += width;
            segment
        })
        .collect()
}

/// The guidelines awaiting review, by state, from a guidelines card's review facet.
pub fn awaiting_review(collection: &Collection, counts: &[FacetCount]) -> Vec<(&'static str, u64)> {
    if collection.path != GUIDELINES.path {
        return Vec::new();
    }
    AWAITING_REVIEW
        .into_iter()
        .map(|state| {
            let count = counts
                .iter()
                .filter(|c| c.value.as_str() == Some(state))
                .map(|c| c.count)
                .sum();
            (state, count)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::{ARTICLES, GUIDES, ORGANIZATIONS};
    use serde_json::json;

    fn counts(pairs: &[(Value, u64)]) -> Vec<FacetCount> {
        pairs
            .iter()
            .map(|(value, count)| FacetCount {
                value: value.clone(),
                count: *count,
            })
            .collect()
    }

    #[test]
    fn each_collection_breaks_down_by_the_facets_it_has() {
        assert_eq!(breakdowns_of(&GUIDES), ["status", "review_status"]);
        assert!(breakdowns_of(&ARTICLES).contains(&"reader_visibility"));
        assert!(!breakdowns_of(&ARTICLES).contains(&"review_status"));
        let asked = query(&GUIDELINES);
        assert_eq!(asked.limit, Some(1));
        assert_eq!(asked.fields, ["status", "review_status"]);
        assert!(breakdowns_of(&ORGANIZATIONS).len() <= 1);
    }

    #[test]
    fn bars_are_shares_of_the_total_largest_first() {
        let parts = segments(
            &counts(&[
                (json!("draft"), 1),
                (json!("active"), 3),
                (json!(""), 2),
                (json!(["x"]), 5),
                (json!("archived"), 0),
            ]),
            8,
        );
        let values: Vec<_> = parts.iter().map(|s| s.value.as_str()).collect();
        assert_eq!(values, ["active", "draft"]);
        assert_eq!(parts[0].start, 0.0);
        assert!((parts[0].width - 3.0 / 8.0).abs() < 1e-9);
        assert!((parts[1].start - 3.0 / 8.0).abs() < 1e-9);
        // Counts above a stale total never overflow the bar.
        let over = segments(&counts(&[(json!("a"), 6), (json!("b"), 6)]), 10);
        assert!((over[1].start + over[1].width - 1.0).abs() < 1e-9);
        assert!(segments(&[], 0).is_empty());
    }

    #[test]
    fn every_number_links_to_the_list_of_exactly_those_rows() {
        assert_eq!(
            list_href(&GUIDES, Some(("status", "active"))),
            "/records/guides?q=&fq=status%3Aactive&limit=25"
        );
        assert_eq!(list_href(&GUIDES, None), "/records/guides?q=&limit=25");
        let waiting = awaiting_review(
            &GUIDELINES,
            &counts(&[(json!("in_review"), 2), (json!("verified"), 9)]),
        );
        assert_eq!(waiting, [("pending_review", 0), ("in_review", 2)]);
        assert!(awaiting_review(&GUIDES, &counts(&[(json!("in_review"), 2)])).is_empty());
    }
}
