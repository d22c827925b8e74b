//! Enrichment of chosen guidelines in batches (issue 39 item 3): the same machine values for
//! every chosen guideline, sent as `POST guidelines/enrich-batch` calls of at most
//! [`MAX_ENRICH_BATCH`], a dry run first; what the service answered, summed over the calls
//! (never the console's own arithmetic of what it sent).

use larder_api::curation::{EnrichBatchOutcome, Enrichment};
use larder_api::Record;
use larder_contract::collections::guidelines::MAX_ENRICH_BATCH;
use serde_json::Value;

/// The calls that enrich `ids` with `fields`: each at most [`MAX_ENRICH_BATCH`] items, in
/// order; with `overwrite`, every field is also written where a person set it.
pub fn batches(ids: &[String], fields: &Record, overwrite: bool) -> Vec<Vec<Enrichment>> {
    let force: Vec<String> = if overwrite {
        fields.keys().cloned().collect()
    } else {
        Vec::new()
    };
    ids.chunks(MAX_ENRICH_BATCH)
        .map(|chunk| {
            chunk
                .iter()
                .map(|id| Enrichment {
                    id: id.clone(),
                    fields: fields.clone(),
                    force_fields: force.clone(),
                })
                .collect()
        })
        .collect()
}

/// The service's answers, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Items sent.
    pub total: u64,
    /// Items that went (or, in a dry run, would go) through.
    pub succeeded: u64,
    /// Items refused.
    pub failed: u64,
    /// Fields written (or that would be).
    pub written: usize,
    /// Fields left alone: a person set them and they were not forced.
    pub left_alone: usize,
    /// Each refused item with the service's reason.
    pub refused: Vec<(String, String)>,
}

impl Tally {
    /// Adds one call's answer.
    pub fn add(&mut self, answer: &EnrichBatchOutcome) {
        self.total += answer.total;
        self.succeeded += answer.succeeded;
        self.failed += answer.failed;
        for item in &answer.results {
            self.written += if answer.dry_run {
                item.would_enrich_fields.len()
            } else {
                item.enriched_fields.len()
            };
            self.left_alone += item.skipped_fields.len();
            if item.ok == Some(false) || item.error.is_some() {
                self.refused
                    .push((item.id.clone(), item.error.clone().unwrap_or_default()));
            }
        }
    }
}

/// Whether a guideline read after the apply carries every value sent: equal, a list as the same
/// set (the service may keep its own order). A curator's value kept by the ownership rule fails
/// it, which is what the read again is there to show.
pub fn carries(record: &Record, fields: &Record) -> bool {
    fields
        .iter()
        .all(|(name, sent)| match (record.get(name), sent) {
            (Some(Value::Array(held)), Value::Array(sent)) => {
                held.len() == sent.len() && sent.iter().all(|v| held.contains(v))
            }
            (Some(held), sent) => held == sent,
            (None, _) => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_api::curation::EnrichOutcome;
    use serde_json::json;

    #[test]
    fn calls_carry_at_most_the_services_batch_and_force_only_when_asked() {
        let ids: Vec<String> = (0..450).map(|n| format!("g{n}")).collect();
        let fields = json!({"life_stage": ["infancy"], "guideline_type": "food_based"});
        let fields = fields.as_object().unwrap().clone();
        let calls = batches(&ids, &fields, false);
        assert_eq!(
            calls.iter().map(Vec::len).collect::<Vec<_>>(),
            [200, 200, 50]
        );
        assert_eq!(calls[2][49].id, "g449");
        assert!(calls[0][0].force_fields.is_empty());
        let forced = batches(&ids[..1], &fields, true);
        assert_eq!(forced[0][0].force_fields, ["guideline_type", "life_stage"]);
        assert!(batches(&[], &fields, false).is_empty());
    }

    #[test]
    fn the_tally_is_the_services_answers_summed() {
        let item = |id: &str, ok: bool, would: &[&str], skipped: &[&str], error: Option<&str>| {
            EnrichOutcome {
                id: id.into(),
                would_enrich_fields: would.iter().map(|s| s.to_string()).collect(),
                skipped_fields: skipped.iter().map(|s| s.to_string()).collect(),
                ok: Some(ok),
                error: error.map(str::to_string),
                ..EnrichOutcome::default()
            }
        };
        let mut tally = Tally::default();
        tally.add(&EnrichBatchOutcome {
            dry_run: true,
            total: 3,
            succeeded: 2,
            failed: 1,
            results: vec![
                item("a", true, &["life_stage"], &[], None),
                item("b", true, &[], &["life_stage"], None),
                item("c", false, &[], &[], Some("Guideline not found")),
            ],
            ..EnrichBatchOutcome::default()
        });
        tally.add(&EnrichBatchOutcome {
            dry_run: true,
            total: 1,
            succeeded: 1,
            results: vec![item("d", true, &["life_stage"], &[], None)],
            ..EnrichBatchOutcome::default()
        });
        assert_eq!((tally.total, tally.succeeded, tally.failed), (4, 3, 1));
        assert_eq!((tally.written, tally.left_alone), (2, 1));
        assert_eq!(
            tally.refused,
            [("c".to_string(), "Guideline not found".to_string())]
        );
    }

    #[test]
    fn a_record_carries_what_was_sent_lists_in_any_order() {
        let sent = json!({"life_stage": ["infancy", "childhood"], "guideline_type": "food_based"});
        let sent = sent.as_object().unwrap().clone();
        let read = |v: Value| v.as_object().unwrap().clone();
        assert!(carries(
            &read(
                json!({"id": "a", "life_stage": ["childhood", "infancy"], "guideline_type": "food_based"})
            ),
            &sent
        ));
        assert!(!carries(
            &read(json!({"life_stage": ["adulthood"], "guideline_type": "food_based"})),
            &sent
        ));
        assert!(!carries(
            &read(json!({"life_stage": ["infancy"], "guideline_type": "food_based"})),
            &sent
        ));
        assert!(!carries(
            &read(json!({"life_stage": ["infancy", "childhood"]})),
            &sent
        ));
        assert!(!carries(
            &read(json!({"life_stage": ["infancy", "childhood"], "guideline_type": "other"})),
            &sent
        ));
    }
}
