//! How a knowledge-base value reads in the console's language: the guideline facets' closed
//! vocabularies by label (`<field>:<value>` in the catalogs) and the age bounds in months below
//! two years, else in years, as production's own front end shows them. Pure: the views ask it
//! which words to use and fill them from the catalog.

use larder_contract::collections::guidelines::{AGE_BOUNDS, ENGLISH_FACET_LABELS, LABELLED_FACETS};

/// Months from which an age reads in years.
pub const YEARS_FROM_MONTHS: i64 = 24;

/// The vocabulary of `field` when the console labels its values.
pub fn labelled_values(field: &str) -> Option<&'static [&'static str]> {
    LABELLED_FACETS
        .iter()
        .find(|(name, _)| *name == field)
        .map(|(_, values)| *values)
}

/// The catalog key of `value` of `field`, when the console labels it (a value outside the
/// vocabulary reads as stored).
pub fn label_key(field: &str, value: &str) -> Option<String> {
    labelled_values(field)
        .filter(|values| values.contains(&value))
        .map(|_| format!("{field}:{value}"))
}

/// An age bound's reading: how many of which unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Age {
    Months(i64),
    Years(i64),
    /// Years and the months beyond them (30 months: 2 years 6 months).
    YearsAndMonths(i64, i64),
}

/// `months` as production's front end says it, when `field` is an age bound.
pub fn age(field: &str, months: i64) -> Option<Age> {
    if !AGE_BOUNDS.contains(&field) || months < 0 {
        return None;
    }
    Some(if months < YEARS_FROM_MONTHS {
        Age::Months(months)
    } else if months % 12 == 0 {
        Age::Years(months / 12)
    } else {
        Age::YearsAndMonths(months / 12, months % 12)
    })
}

/// The English label of `value` of `field`: production's own where it has one, else the value
/// in words, capitalised.
fn english_facet_value(field: &str, value: &str) -> String {
    ENGLISH_FACET_LABELS
        .iter()
        .find(|(name, known, _)| *name == field && *known == value)
        .map_or_else(
            || crate::i18n::capitalized(&value.replace('_', " ")),
            |(_, _, label)| label.to_string(),
        )
}

/// `value` of `field` in the console's language: a facet value by its label (English:
/// `english_facet_value`), anything else as stored.
pub fn facet_value(field: &str, value: &str) -> String {
    match label_key(field, value) {
        Some(key) => {
            let text = crate::i18n::t(&key);
            if text != key {
                text
            } else {
                english_facet_value(field, value)
            }
        }
        None => value.to_string(),
    }
}

/// An age bound (`months` of `field`) in words, when `field` is one.
pub fn age_text(field: &str, months: i64) -> Option<String> {
    use crate::i18n::{tf, tn};
    Some(match age(field, months)? {
        Age::Months(n) => tn("{count} months", n, &[]),
        Age::Years(n) => tn("{count} years", n, &[]),
        Age::YearsAndMonths(years, months) => tf(
            "{years} {months}",
            &[
                ("years", &tn("{count} years", years, &[])),
                ("months", &tn("{count} months", months, &[])),
            ],
        ),
    })
}

/// `value` of `field` as one line of text (a list's cell): facet values by label, an age bound
/// in words, anything else as [`super::value::display`] writes it.
pub fn reading(field: &str, value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Number(n) => match n.as_i64().and_then(|months| age_text(field, months)) {
            Some(text) => text,
            None => super::value::display(value),
        },
        Value::String(text) if labelled_values(field).is_some() => facet_value(field, text),
        Value::Array(items)
            if labelled_values(field).is_some() && items.iter().all(Value::is_string) =>
        {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(|item| facet_value(field, item))
                .collect::<Vec<_>>()
                .join(", ")
        }
        _ => super::value::display(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facet_values_are_labelled_and_others_read_as_stored() {
        assert_eq!(
            label_key("life_stage", "early_childhood").as_deref(),
            Some("life_stage:early_childhood")
        );
        assert_eq!(
            label_key("audience", "caregiver").as_deref(),
            Some("audience:caregiver")
        );
        // Outside the vocabulary, or a field without one.
        assert_eq!(label_key("life_stage", "toddlerhood"), None);
        assert_eq!(label_key("topic", "iron"), None);
        assert!(labelled_values("setting").unwrap().contains(&"school"));
    }

    #[test]
    fn every_english_label_is_of_a_labelled_value() {
        for (field, value, _) in ENGLISH_FACET_LABELS {
            assert!(label_key(field, value).is_some(), "{field}:{value}");
        }
    }

    #[test]
    fn ages_read_in_months_below_two_years_else_in_years() {
        assert_eq!(age("age_min_months", 0), Some(Age::Months(0)));
        assert_eq!(age("age_min_months", 23), Some(Age::Months(23)));
        assert_eq!(age("age_max_months", 24), Some(Age::Years(2)));
        assert_eq!(age("age_max_months", 30), Some(Age::YearsAndMonths(2, 6)));
        assert_eq!(age("age_max_months", 216), Some(Age::Years(18)));
        assert_eq!(age("sequence_no", 30), None);
        assert_eq!(age("age_min_months", -1), None);
    }

    #[test]
    fn a_cell_reads_labels_and_ages_and_everything_else_as_before() {
        use serde_json::json;
        assert_eq!(
            reading("life_stage", &json!(["infancy", "school_age"])),
            "Infancy, School age"
        );
        assert_eq!(
            reading("guideline_type", &json!("food_based")),
            "Food-based"
        );
        assert_eq!(reading("age_max_months", &json!(36)), "3 years");
        assert_eq!(
            reading("topic", &json!(["iron", "b12"])),
            super::super::value::display(&json!(["iron", "b12"]))
        );
        assert_eq!(reading("sequence_no", &json!(36)), "36");
    }

    #[test]
    fn readings_in_english() {
        assert_eq!(
            facet_value("life_stage", "early_childhood"),
            "Early childhood"
        );
        assert_eq!(facet_value("life_stage", "toddlerhood"), "toddlerhood");
        // Production's own labels where they are not the words (wisefood-ui).
        assert_eq!(facet_value("life_stage", "lactation"), "Breastfeeding");
        assert_eq!(facet_value("audience", "caregiver"), "Carers");
        assert_eq!(facet_value("guideline_type", "behavioral"), "Behavioural");
        assert_eq!(facet_value("setting", "workplace"), "Workplace");
        assert_eq!(age_text("age_min_months", 6).as_deref(), Some("6 months"));
        assert_eq!(age_text("age_min_months", 1).as_deref(), Some("1 month"));
        assert_eq!(age_text("age_max_months", 216).as_deref(), Some("18 years"));
        assert_eq!(
            age_text("age_max_months", 30).as_deref(),
            Some("2 years 6 months")
        );
    }
}
