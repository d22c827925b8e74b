//! The rules production checks over a whole record (a public record verified and not a draft,
//! dates in order, a publication year that is its date's, a guideline's age range:
//! `larder_contract::collections::record_rules`), checked by a form before it sends. Production
//! answers them with a 500, often without CORS headers, so a browser would see no answer at all;
//! here they are said beside their fields.

use larder_api::Record;
use larder_contract::validate::Problems;
use serde_json::Value;

use super::form::{errors_of, Errors};
use super::Schema;

/// What the rules find in `record`, as the service would hold it, by field.
pub fn problems(schema: &Schema, record: &Record) -> Errors {
    let mut problems = Problems::new();
    larder_contract::collections::record_rules(schema.collection, record, &mut problems);
    errors_of(&problems)
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
    use crate::kb::schema::form::{edit_editors, edited_record};
    use crate::kb::schema::schema_of;
    use larder_contract::collections::{GUIDELINES, GUIDES};
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn a_public_unverified_record_is_said_beside_its_field_before_sending() {
        let guidelines = schema_of(&GUIDELINES);
        let original = json!({"id": "1", "guide_urn": "urn:guide:a", "rule_text": "r",
            "status": "active", "review_status": "unreviewed", "visibility": "internal"});
        let original = original.as_object().cloned().unwrap();
        let editors = edit_editors(guidelines, &original);
        let inputs = BTreeMap::from([("visibility".to_string(), "public".to_string())]);
        let errors = edited_record(guidelines, &original, &editors, &inputs).unwrap_err();
        assert!(errors["visibility"].contains("verified"), "{errors:?}");
        // A record that already breaks a rule, saved untouched: nothing to send, no error.
        let broken = json!({"id": "2", "guide_urn": "urn:guide:a", "rule_text": "r",
            "status": "active", "review_status": "unreviewed", "visibility": "public"});
        let broken = broken.as_object().cloned().unwrap();
        let editors = edit_editors(guidelines, &broken);
        assert!(edited_record(guidelines, &broken, &editors, &BTreeMap::new()).is_ok());
        // A create gets the collection's defaults first: a public guide is unreviewed by default.
        let guides = schema_of(&GUIDES);
        let body = json!({"visibility": "public", "status": "draft"});
        let errors = problems(guides, &with_defaults(guides, body.as_object().unwrap()));
        assert!(errors.contains_key("visibility"), "{errors:?}");
        assert!(problems(guides, &with_defaults(guides, &Record::new())).is_empty());
    }
}
