//! "Changes as they happen, without a push channel" (issue 40 item 3): while a list or a record
//! is open, the console asks now and then which records in view changed, comparing each one's
//! `updated_at` with the one it shows. One search per ask, whatever is in view: the records
//! updated since a while before the list was read (a margin for clocks that disagree), their
//! identifiers and stamps only.

use larder_api::{Record, SearchQuery};
use serde_json::Value;

use super::Schema;

/// How often an open list or form asks, while the tab is visible.
pub const ASK_EVERY_MS: f64 = 30_000.0;
/// How often while the tab is hidden.
pub const ASK_EVERY_HIDDEN_MS: f64 = 120_000.0;
/// How far before the page's read the search looks back: the service's clock and the
/// browser's may disagree by this much.
pub const CLOCK_MARGIN_MS: f64 = 120_000.0;
/// The most changed records one ask reads.
pub const MOST_READ: u32 = 200;

/// Whether it is time to ask again, `since_ms` after the last ask.
pub fn due(since_ms: f64, hidden: bool) -> bool {
    since_ms
        >= if hidden {
            ASK_EVERY_HIDDEN_MS
        } else {
            ASK_EVERY_MS
        }
}

/// A record's identifier and `updated_at`, when it has both.
pub fn stamp_of(schema: &Schema, record: &Record) -> Option<(String, String)> {
    let id = schema.identifier_of(record)?;
    let at = record.get("updated_at").and_then(Value::as_str)?;
    Some((id, at.to_string()))
}

/// The search of the records of `schema` updated since `since` (ISO 8601): identifiers and
/// stamps only.
pub fn query(schema: &Schema, since: &str) -> SearchQuery {
    SearchQuery {
        q: String::new(),
        fq: vec![format!("updated_at:[{since} TO *]")],
        fl: vec![
            schema.collection.identifier_field().to_string(),
            "updated_at".to_string(),
        ],
        limit: Some(MOST_READ),
        ..SearchQuery::default()
    }
}

/// The records in view (`shown`, identifier and stamp) whose stamp the service now gives
/// otherwise (`now`), each once, in view order.
pub fn changed(shown: &[(String, String)], now: &[(String, String)]) -> Vec<String> {
    shown
        .iter()
        .filter(|(id, at)| now.iter().any(|(other, later)| other == id && later != at))
        .map(|(id, _)| id.clone())
        .fold(Vec::new(), |mut ids, id| {
            if !ids.contains(&id) {
                ids.push(id);
            }
            ids
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::schema::SCHEMAS;
    use serde_json::json;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn only_records_in_view_with_another_stamp_changed() {
        let shown = pairs(&[("a", "1"), ("b", "1"), ("c", "1"), ("a", "1")]);
        let now = pairs(&[("b", "2"), ("c", "1"), ("z", "9"), ("a", "3")]);
        assert_eq!(changed(&shown, &now), ["a", "b"]);
        assert!(changed(&shown, &[]).is_empty());
    }

    #[test]
    fn the_ask_reads_stamps_of_records_updated_since() {
        let articles = &SCHEMAS[0];
        let asked = query(articles, "2026-11-28T08:00:00.000Z");
        assert_eq!(asked.fq, ["updated_at:[2026-11-28T08:00:00.000Z TO *]"]);
        assert_eq!(asked.fl, ["urn", "updated_at"]);
        let record = json!({"urn": "urn:article:x", "updated_at": "t"});
        assert_eq!(
            stamp_of(articles, record.as_object().unwrap()),
            Some(("urn:article:x".into(), "t".into()))
        );
        assert!(due(30_000.0, false));
        assert!(!due(30_000.0, true));
        assert!(due(120_000.0, true));
    }
}
