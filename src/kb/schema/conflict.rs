//! Edit conflicts: the record as the form opened it (base), as the service holds it now
//! (theirs) and as edited (mine). What changed on either side, per field, and the record a
//! per-field choice makes. Pure, tested natively; nothing here is sent anywhere.

use larder_api::Record;
use serde_json::Value;

use super::Schema;

/// Whose value a field keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The value typed in this form.
    Mine,
    /// The value saved meanwhile by someone else.
    Theirs,
}

/// One field that differs between theirs and mine, with who changed it since the form opened.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldConflict {
    /// The field's name.
    pub field: &'static str,
    /// Its value when the form opened (`None`: unset).
    pub base: Option<Value>,
    /// Its value now in the service.
    pub theirs: Option<Value>,
    /// Its value in the form.
    pub mine: Option<Value>,
    /// Someone else changed it since the form opened.
    pub theirs_changed: bool,
    /// This form changed it.
    pub mine_changed: bool,
}

impl FieldConflict {
    /// Both sides changed it, differently: a person has to choose.
    pub fn both_changed(&self) -> bool {
        self.theirs_changed && self.mine_changed
    }

    /// The side kept when nobody chooses: the one that changed it (mine when both did, as the
    /// form's user is the one looking at it).
    pub fn default_side(&self) -> Side {
        if self.mine_changed {
            Side::Mine
        } else {
            Side::Theirs
        }
    }
}

/// A value as compared: `null` and absent are the same (both mean unset).
fn value_of<'r>(record: &'r Record, field: &str) -> Option<&'r Value> {
    record.get(field).filter(|v| !v.is_null())
}

/// The record changed in the service since the form opened: its `updated_at` differs, or a
/// field an edit can change does (two saves within the stamp's precision, or a service that
/// sends no stamp, are caught too).
pub fn changed_since(schema: &Schema, base: &Record, theirs: &Record) -> bool {
    value_of(base, "updated_at") != value_of(theirs, "updated_at")
        || schema
            .fields()
            .into_iter()
            .filter(|f| schema.is_editable(f.name))
            .any(|f| value_of(base, f.name) != value_of(theirs, f.name))
}

/// Every field an edit can change whose value differs between theirs and mine, in the
/// schema's order. Empty when the two agree everywhere an edit reaches.
pub fn conflicts(
    schema: &Schema,
    base: &Record,
    theirs: &Record,
    mine: &Record,
) -> Vec<FieldConflict> {
    schema
        .fields()
        .into_iter()
        .filter(|f| schema.is_editable(f.name))
        .filter_map(|f| {
            let (b, t, m) = (
                value_of(base, f.name),
                value_of(theirs, f.name),
                value_of(mine, f.name),
            );
            (t != m).then(|| FieldConflict {
                field: f.name,
                base: b.cloned(),
                theirs: t.cloned(),
                mine: m.cloned(),
                theirs_changed: t != b,
                mine_changed: m != b,
            })
        })
        .filter(|c| c.theirs_changed || c.mine_changed)
        .collect()
}

/// The record to save: theirs, with mine's value for every field chosen [`Side::Mine`]. A
/// field chosen mine that mine leaves unset is left as theirs (an edit cannot empty a field).
pub fn merged(theirs: &Record, mine: &Record, choices: &[(&str, Side)]) -> Record {
    let mut out = theirs.clone();
    for (field, side) in choices {
        if *side == Side::Mine {
            if let Some(value) = value_of(mine, field) {
                out.insert((*field).to_string(), value.clone());
            }
        }
    }
    out
}

/// The choice of every conflict: `side` for all of them ("keep mine", "take theirs").
pub fn all(conflicts: &[FieldConflict], side: Side) -> Vec<(&'static str, Side)> {
    conflicts.iter().map(|c| (c.field, side)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::schema::schema_of;
    use larder_contract::collections::ARTICLES;
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_record_changed_meanwhile_is_noticed_by_its_stamp_or_its_fields() {
        let articles = schema_of(&ARTICLES);
        let base = record(json!({"title": "A", "updated_at": "2026-01-01T00:00:00Z"}));
        let same = record(json!({"title": "A", "updated_at": "2026-01-01T00:00:00Z"}));
        let later = record(json!({"title": "A", "updated_at": "2026-01-02T00:00:00Z"}));
        assert!(!changed_since(articles, &base, &same));
        assert!(changed_since(articles, &base, &later));
        let same_second = record(json!({"title": "B", "updated_at": "2026-01-01T00:00:00Z"}));
        assert!(changed_since(articles, &base, &same_second));
        // Only what the service derives changed, within the same stamp: nothing to ask about.
        let derived =
            record(json!({"title": "A", "ai_tags": ["x"], "updated_at": "2026-01-01T00:00:00Z"}));
        assert!(!changed_since(articles, &base, &derived));
        let unstamped = record(json!({"title": "A"}));
        assert!(!changed_since(articles, &unstamped, &unstamped.clone()));
        assert!(changed_since(
            articles,
            &unstamped,
            &record(json!({"title": "B"}))
        ));
    }

    #[test]
    fn conflicts_name_who_changed_what_and_a_merge_keeps_both_sides() {
        let articles = schema_of(&ARTICLES);
        let base = record(json!({"urn": "urn:article:a", "title": "Old", "venue": "V",
            "description": "d", "ai_tags": ["x"], "updated_at": "1"}));
        let theirs = record(
            json!({"urn": "urn:article:a", "title": "Theirs", "venue": "V2",
            "description": "d", "ai_tags": ["y"], "updated_at": "2"}),
        );
        let mine = record(
            json!({"urn": "urn:article:a", "title": "Mine", "venue": "V",
            "description": "mine", "ai_tags": ["x"], "updated_at": "1"}),
        );
        let found = conflicts(articles, &base, &theirs, &mine);
        let names: Vec<_> = found.iter().map(|c| c.field).collect();
        // ai_tags is not editable: not a conflict of the form's.
        assert_eq!(names, ["title", "venue", "description"]);
        let title = &found[0];
        assert!(title.both_changed());
        assert_eq!(title.theirs, Some(json!("Theirs")));
        assert_eq!(title.mine, Some(json!("Mine")));
        assert_eq!(found[1].default_side(), Side::Theirs);
        assert_eq!(found[2].default_side(), Side::Mine);

        // Merge by field: their title, my description, their venue.
        let choices = vec![
            ("title", Side::Theirs),
            ("description", Side::Mine),
            ("venue", Side::Theirs),
        ];
        let result = merged(&theirs, &mine, &choices);
        assert_eq!(result["title"], "Theirs");
        assert_eq!(result["description"], "mine");
        assert_eq!(result["venue"], "V2");
        assert_eq!(result["ai_tags"], json!(["y"]));
        // Keep mine: my edits win, their other change stays.
        let kept = merged(&theirs, &mine, &all(&found, Side::Mine));
        assert_eq!(kept["title"], "Mine");
        assert_eq!(
            kept["venue"], "V",
            "venue was only theirs, but keep mine takes every field"
        );
        // Take theirs: the record as it is now.
        assert_eq!(merged(&theirs, &mine, &all(&found, Side::Theirs)), theirs);
    }

    #[test]
    fn unset_and_null_are_one_and_mine_cannot_empty_a_field() {
        let articles = schema_of(&ARTICLES);
        let base = record(json!({"title": "T", "doi": null}));
        let theirs = record(json!({"title": "T", "doi": "10.1/x"}));
        let mine = record(json!({"title": "T"}));
        let found = conflicts(articles, &base, &theirs, &mine);
        assert_eq!(found.len(), 1);
        assert!(found[0].theirs_changed && !found[0].mine_changed);
        let result = merged(&theirs, &mine, &[("doi", Side::Mine)]);
        assert_eq!(result["doi"], "10.1/x");
        assert!(conflicts(articles, &base, &base, &base).is_empty());
    }
}
