//! Rules over a whole record that production checks beyond its field types (production.md §3,
//! "Editorial rules", and §2.2-2.3's workflow): a public record verified and not a draft, dates
//! in order, a publication year that is its date's, a guideline's age range. Production answers
//! the editorial ones with a 500 its handler cannot encode (often without CORS headers, so a
//! browser sees no answer at all, §1.1); the reference service answers them with the 422 they
//! mean, and a console checks them before sending, so a person reads why beside the field.

use serde_json::{Map, Value};

use super::{check_age_range, Collection, GUIDELINES, GUIDES, TEXTBOOKS};
use crate::validate::Problems;

fn text<'a>(record: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    record.get(field).and_then(Value::as_str)
}

/// Over a merged record (production.md §3, "Editorial rules"): a public guide, guideline or
/// textbook verified (a textbook also when active and unreviewed) and neither a draft nor deleted;
/// dates in order on guides and guidelines; the publication year of a guide or textbook that of
/// its publication date; a guideline's age range.
pub fn record_rules(collection: &Collection, record: &Map<String, Value>, problems: &mut Problems) {
    if collection.path == GUIDELINES.path {
        check_age_range(record, problems);
    }
    let reviewed = [GUIDES.path, GUIDELINES.path, TEXTBOOKS.path];
    if !reviewed.contains(&collection.path) {
        return;
    }
    let status = text(record, "status");
    let review = text(record, "review_status");
    if text(record, "visibility") == Some("public") {
        if matches!(status, Some("draft" | "deleted")) {
            problems.value_error("visibility", "a public record can't be draft or deleted");
        }
        let verified = review == Some("verified");
        let textbook_exception = collection.path == TEXTBOOKS.path
            && status == Some("active")
            && review == Some("unreviewed");
        if !verified && !textbook_exception {
            problems.value_error("visibility", "a public record must be verified");
        }
    }
    // Dates in order for guides and guidelines only (textbooks have no such rule, §3).
    let dated = collection.path == GUIDES.path || collection.path == GUIDELINES.path;
    if let (true, Some(start), Some(end)) = (
        dated,
        text(record, "applicability_start_date"),
        text(record, "applicability_end_date"),
    ) {
        if end < start {
            problems.value_error(
                "applicability_end_date",
                "applicability_end_date must not be before applicability_start_date",
            );
        }
    }
    if collection.path != GUIDELINES.path {
        let year = record.get("publication_year").and_then(Value::as_i64);
        let date_year = text(record, "publication_date")
            .and_then(|d| d.get(..4))
            .and_then(|y| y.parse::<i64>().ok());
        if let (Some(year), Some(date_year)) = (year, date_year) {
            if year != date_year {
                problems.value_error(
                    "publication_year",
                    "publication_year must be the year of publication_date",
                );
            }
        }
    }
}
