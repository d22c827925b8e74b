//! Rules over a whole record that production checks beyond its field types (production.md §3,
//! "Editorial rules", and §2.2-2.3's workflow). Production answers the editorial ones with a 500
//! (its handler cannot encode them); this service answers them with the 422 they mean. The
//! editorial rules themselves are the contract's (`record_rules`), which a console checks too;
//! the workflow's, which need the stored guidelines, are here.

use larder_contract::collections::GUIDES;
use serde_json::{Map, Value};

use crate::error::ApiError;

fn text<'a>(record: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    record.get(field).and_then(Value::as_str)
}

/// Whether a guide is published (the contract's frozen state: active and public). Nothing may
/// change it then.
pub fn is_published(guide: &Value) -> bool {
    guide.as_object().is_some_and(|g| GUIDES.is_frozen(g))
}

/// The editorial rules over a merged record: the contract's, which a console checks too.
pub use larder_contract::collections::record_rules as editorial;

fn conflict(detail: impl Into<String>) -> ApiError {
    ApiError::conflict(detail)
}

/// A guide may be `active` only when verified, and only when every guideline that is not
/// deleted is active and verified (and public, when the guide is public).
pub fn guide_activation(guide: &Map<String, Value>, guidelines: &[Value]) -> Result<(), ApiError> {
    if text(guide, "status") != Some("active") {
        return Ok(());
    }
    if text(guide, "review_status") != Some("verified") {
        return Err(conflict(
            "An active guide must be verified: send status draft, or review_status verified.",
        ));
    }
    let public = text(guide, "visibility") == Some("public");
    let stray = guidelines
        .iter()
        .filter(|g| g["status"] != "deleted")
        .find(|g| {
            g["status"] != "active"
                || g["review_status"] != "verified"
                || (public && g["visibility"] != "public")
        });
    if let Some(stray) = stray {
        return Err(conflict(format!(
            "Guideline {} must be active and verified{} before its guide is active.",
            stray["id"].as_str().unwrap_or_default(),
            if public { " and public" } else { "" }
        )));
    }
    Ok(())
}

/// A published guide (active and public) can't be changed or deleted.
pub fn guide_unfrozen(guide: &Value) -> Result<(), ApiError> {
    if is_published(guide) {
        return Err(conflict(
            "Published guides cannot be modified: the guide is active and public.",
        ));
    }
    Ok(())
}

/// A guideline under an active guide must be active and verified, and public under an active
/// and public one.
pub fn guideline_under(guide: &Value, guideline: &Map<String, Value>) -> Result<(), ApiError> {
    if guide["status"] != "active" || text(guideline, "status") == Some("deleted") {
        return Ok(());
    }
    if text(guideline, "status") != Some("active")
        || text(guideline, "review_status") != Some("verified")
    {
        return Err(conflict(
            "A guideline of an active guide must be active and verified.",
        ));
    }
    if guide["visibility"] == "public" && text(guideline, "visibility") != Some("public") {
        return Err(conflict("A guideline of a published guide must be public."));
    }
    Ok(())
}

/// The action a rule's first verb names (production's default `action_type`), else `do`.
pub fn action_type_of(rule_text: &str) -> &'static str {
    const VERBS: &[(&[&str], &str)] = &[
        (&["eat", "consume", "include"], "eat"),
        (&["drink"], "drink"),
        (&["use"], "use"),
        (&["do", "follow"], "do"),
        (&["avoid", "prevent"], "avoid"),
        (&["prepare", "cook"], "prepare"),
        (&["limit", "restrict"], "limit"),
        (&["choose", "select"], "choose"),
        (&["increase", "boost"], "increase"),
        (&["reduce", "decrease", "lower"], "reduce"),
    ];
    for word in rule_text
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
    {
        if let Some((_, action)) = VERBS
            .iter()
            .find(|(verbs, _)| verbs.contains(&word.as_str()))
        {
            return action;
        }
    }
    "do"
}

/// A guideline's default title: the first 2000 characters of its rule.
pub fn default_title(rule_text: &str) -> String {
    rule_text.trim().chars().take(2000).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_from_verbs() {
        assert_eq!(action_type_of("Limit salt to 5 g a day"), "limit");
        assert_eq!(action_type_of("Eat more vegetables"), "eat");
        assert_eq!(
            action_type_of("Breakfast matters; choose whole grains"),
            "choose"
        );
        assert_eq!(action_type_of("Sleep well"), "do");
    }

    #[test]
    fn guide_workflow() {
        let guide = json!({"status": "active", "review_status": "unreviewed"});
        assert!(guide_activation(guide.as_object().unwrap(), &[]).is_err());
        let guide =
            json!({"status": "active", "review_status": "verified", "visibility": "public"});
        let draft = json!({"id": "g1", "status": "draft", "review_status": "verified"});
        assert!(guide_activation(guide.as_object().unwrap(), &[draft]).is_err());
        assert!(guide_unfrozen(&guide).is_err());
        assert!(guide_unfrozen(&json!({"status": "draft", "visibility": "public"})).is_ok());
        let line =
            json!({"status": "active", "review_status": "verified", "visibility": "internal"});
        assert!(guideline_under(&guide, line.as_object().unwrap()).is_err());
    }
}
