//! The rules production checks over a whole record (a public record verified and not a draft,
//! dates in order, a publication year that is its date's, a guideline's age range:
//! `larder_contract::collections::record_rules`), checked by a form before it sends. Production
//! answers them with a 500, often without CORS headers, so a browser would see no answer at all;
//! a form says them beside their fields instead.

use larder_api::Record;
use larder_contract::validate::Problems;
use serde_json::Value;

use super::Schema;

/// What the rules find in `record`, as the service would hold it.
pub fn problems(schema: &Schema, record: &Record) -> Problems {
    let mut problems = Problems::new();
    larder_contract::collections::record_rules(schema.collection, record, &mut problems);
    problems
}

/// A create's body as the service will hold it: the collection's defaults, then what was sent.
pub fn with_defaults(schema: &Schema, body: &Record) -> Record {
    let mut record: Record = schema
        .collection
        .defaults
        .iter()
        .map(|(field, value)| (field.to_string(), Value::String((*value).into())))
        .collect();
    record.extend(body.clone());
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::schema::schema_of;
    use larder_contract::collections::GUIDES;
    use serde_json::json;

    #[test]
    fn a_create_is_checked_with_the_collections_defaults() {
        // A public guide is unreviewed by default, which production refuses.
        let guides = schema_of(&GUIDES);
        let body = json!({"visibility": "public", "status": "draft"});
        let found = problems(guides, &with_defaults(guides, body.as_object().unwrap()));
        assert!(found.shown().iter().any(|p| p.dotted() == "visibility"));
        assert!(problems(guides, &with_defaults(guides, &Record::new())).is_empty());
    }
}
