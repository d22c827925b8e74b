//! "Backfill embeddings" for chosen guidelines (issue 39 item 3, administrators), the part a
//! native test reaches: production's guideline backfill selects by guide (`guide_urn`), not by
//! rows (production.md §10.5), so a selection becomes the guides its guidelines belong to, one
//! backfill call each; the report sums what the service answered to those calls.

use std::collections::BTreeMap;

use larder_api::curation::BackfillOutcome;
use larder_api::Record;
use serde_json::Value;

/// The guides of a selection of guidelines, each with how many chosen guidelines it holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Guides {
    /// Guide URN → chosen guidelines of it.
    pub chosen: BTreeMap<String, u64>,
    /// Chosen guidelines without a guide: no backfill call can name them.
    pub without: u64,
}

impl Guides {
    /// Counts one chosen guideline by its `field` (the collection's parent field).
    pub fn add(&mut self, record: &Record, field: &str) {
        match record.get(field).and_then(Value::as_str).map(str::trim) {
            Some(urn) if !urn.is_empty() => *self.chosen.entry(urn.to_string()).or_default() += 1,
            _ => self.without += 1,
        }
    }

    /// The guides, in order.
    pub fn urns(&self) -> Vec<String> {
        self.chosen.keys().cloned().collect()
    }
}

/// The service's answers to the calls of one run, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BackfillTally {
    /// Calls answered.
    pub calls: u64,
    /// Guidelines the service looked at.
    pub scanned: u64,
    /// Queued (or, in a dry run, that would be).
    pub queued: u64,
    /// The service could not queue.
    pub failed: u64,
    /// Passed over because they already carry an embedding.
    pub skipped: u64,
    /// Each guide whose call failed, with the reason.
    pub refused: Vec<(String, String)>,
}

impl BackfillTally {
    /// Adds one guide's answer.
    pub fn add(&mut self, answer: &BackfillOutcome) {
        self.calls += 1;
        self.scanned += answer.scanned;
        self.queued += answer.queued;
        self.failed += answer.failed;
        self.skipped += answer.skipped_already_embedded;
    }

    /// Records a guide whose call failed.
    pub fn refuse(&mut self, guide: &str, reason: String) {
        self.refused.push((guide.to_string(), reason));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn a_selection_becomes_its_guides_counted_and_the_guideless_apart() {
        let mut guides = Guides::default();
        for r in [
            json!({"id": "1", "guide_urn": "urn:guide:b"}),
            json!({"id": "2", "guide_urn": "urn:guide:a"}),
            json!({"id": "3", "guide_urn": "urn:guide:b"}),
            json!({"id": "4", "guide_urn": " "}),
            json!({"id": "5"}),
            json!({"id": "6", "guide_urn": 7}),
        ] {
            guides.add(&record(r), "guide_urn");
        }
        assert_eq!(guides.urns(), vec!["urn:guide:a", "urn:guide:b"]);
        assert_eq!(guides.chosen["urn:guide:b"], 2);
        assert_eq!(guides.without, 3);
    }

    #[test]
    fn the_tally_is_the_sum_of_the_answers_and_keeps_each_refusal() {
        let mut tally = BackfillTally::default();
        for (scanned, queued, failed, skipped) in [(10, 7, 1, 2), (5, 0, 0, 5)] {
            tally.add(&BackfillOutcome {
                scanned,
                queued,
                failed,
                skipped_already_embedded: skipped,
                ..BackfillOutcome::default()
            });
        }
        tally.refuse("urn:guide:c", "Forbidden".into());
        assert_eq!(
            (
                tally.calls,
                tally.scanned,
                tally.queued,
                tally.failed,
                tally.skipped
            ),
            (2, 15, 7, 1, 7)
        );
        assert_eq!(
            tally.refused,
            vec![("urn:guide:c".to_string(), "Forbidden".to_string())]
        );
    }
}
