//! A validation problem in the console's language: the common kinds in its own words, others
//! in the words the service would use.

use crate::i18n::{t, tf};

/// A problem in the console's language: the common kinds in its own words, others in the
/// words the service would use.
pub fn problem_message(problem: &larder_contract::validate::Problem) -> String {
    let ctx = |key: &str| {
        problem
            .ctx
            .as_ref()
            .and_then(|c| c.get(key))
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string())
            })
            .unwrap_or_default()
    };
    match problem.kind {
        "missing" => t("Required."),
        "string_too_short" if ctx("min_length") == "1" => t("Required."),
        "string_too_short" => tf("At least {min} characters.", &[("min", &ctx("min_length"))]),
        "string_too_long" => tf("At most {max} characters.", &[("max", &ctx("max_length"))]),
        "too_long" => tf("At most {max} items.", &[("max", &ctx("max_length"))]),
        "too_short" => tf("At least {min} items.", &[("min", &ctx("min_length"))]),
        "int_parsing" | "int_type" => t("A whole number."),
        "float_type" => t("A number."),
        "bool_type" | "bool_parsing" => t("Yes or no."),
        "url_parsing" | "url_too_long" => t("A web address (https://…)."),
        "date_from_datetime_parsing" => t("A date: YYYY-MM-DD."),
        "datetime_from_date_parsing" => t("A date and time."),
        "uuid_parsing" | "uuid_type" => t("A UUID."),
        "enum" => tf("One of: {values}.", &[("values", &ctx("expected"))]),
        "extra_forbidden" => t("The service does not take this field."),
        _ => problem.msg.clone(),
    }
}
