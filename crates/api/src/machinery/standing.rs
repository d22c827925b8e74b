//! Production's answers that stand at once (issue 22, production.md §8 rows 1 and 2):
//! maintenance and a guest's daily budget. Neither is retried by the client; both are read here
//! into what a console needs to say them (when to try again, when the budget resets).

use super::error::ApiError;
use super::retry::{MAINTENANCE_CODE, MAX_RETRY_AFTER_MS};

/// What production sends as `Retry-After` during maintenance, used when the header is missing.
pub const MAINTENANCE_RETRY_AFTER_SECS: u64 = 300;
const DAY_MS: u64 = 86_400_000;

/// The service is closed for maintenance: say so, keep the page, offer "Try again".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maintenance {
    /// How long the service asked to wait before trying again, in seconds.
    pub retry_after_secs: u64,
    /// The service's sentence.
    pub detail: String,
}

/// A guest's daily budget is used up: not retried, and said with when it resets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyBudget {
    /// When the budget resets, in Unix milliseconds: now plus `Retry-After`, or else the next
    /// UTC midnight (production resets budgets at the start of the UTC day).
    pub resets_at_ms: u64,
    /// The service's sentence ("Create a free account to continue").
    pub detail: String,
}

impl ApiError {
    /// The maintenance this answer announces: a 503 with code `platform/maintenance`, or a 503
    /// asking to wait longer than the retry policy does.
    pub fn maintenance(&self) -> Option<Maintenance> {
        let failure = self.failure()?;
        let long_wait = failure
            .retry_after_secs
            .is_some_and(|secs| secs.saturating_mul(1000) > MAX_RETRY_AFTER_MS);
        let is_maintenance =
            failure.code == MAINTENANCE_CODE || (failure.status == 503 && long_wait);
        is_maintenance.then(|| Maintenance {
            retry_after_secs: failure
                .retry_after_secs
                .unwrap_or(MAINTENANCE_RETRY_AFTER_SECS),
            detail: failure.detail.clone(),
        })
    }

    /// The used-up daily budget this answer announces: a 429 asking to wait longer than the
    /// retry policy does, or one whose code or sentence speaks of a budget or a free account.
    /// A short 429 (throttling) is not this; it is retried as before.
    pub fn daily_budget(&self, now_ms: u64) -> Option<DailyBudget> {
        let failure = self.failure().filter(|f| f.status == 429)?;
        let wait_ms = failure.retry_after_secs.map(|s| s.saturating_mul(1000));
        let said = format!("{} {}", failure.code, failure.detail).to_ascii_lowercase();
        let speaks_of_budget = said.contains("budget") || said.contains("free account");
        if !(wait_ms.is_some_and(|ms| ms > MAX_RETRY_AFTER_MS) || speaks_of_budget) {
            return None;
        }
        let resets_at_ms = match wait_ms {
            Some(ms) => now_ms.saturating_add(ms),
            None => next_utc_midnight_ms(now_ms),
        };
        Some(DailyBudget {
            resets_at_ms,
            detail: failure.detail.clone(),
        })
    }
}

/// The first instant of the next UTC day after `now_ms`.
pub fn next_utc_midnight_ms(now_ms: u64) -> u64 {
    (now_ms / DAY_MS + 1) * DAY_MS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machinery::error::failure_from_answer;

    fn answer(status: u16, body: &str, retry_after: Option<u64>) -> ApiError {
        ApiError::Api(Box::new(failure_from_answer(status, body, retry_after)))
    }

    const MAINTENANCE: &str = r#"{"success":false,"error":{"code":"platform/maintenance","title":"Maintenance","detail":"Closed"}}"#;

    #[test]
    fn maintenance_by_code_or_long_503() {
        let said = answer(503, MAINTENANCE, Some(300)).maintenance().unwrap();
        assert_eq!(said.retry_after_secs, 300);
        assert_eq!(said.detail, "Closed");
        let without_header = answer(503, MAINTENANCE, None).maintenance().unwrap();
        assert_eq!(
            without_header.retry_after_secs,
            MAINTENANCE_RETRY_AFTER_SECS
        );
        assert!(answer(503, "{}", Some(600)).maintenance().is_some());
        assert_eq!(answer(503, "{}", Some(5)).maintenance(), None);
        assert_eq!(answer(503, "{}", None).maintenance(), None);
        assert_eq!(ApiError::Cancelled.maintenance(), None);
    }

    #[test]
    fn daily_budget_resets_after_retry_after_or_at_utc_midnight() {
        let now = 1_795_714_963_000; // 2026-11-26T17:42:43Z
        let long = answer(
            429,
            r#"{"error":{"detail":"Create a free account to continue"}}"#,
            Some(22_000),
        );
        let budget = long.daily_budget(now).unwrap();
        assert_eq!(budget.resets_at_ms, now + 22_000_000);
        assert_eq!(budget.detail, "Create a free account to continue");
        let no_header = answer(
            429,
            r#"{"error":{"detail":"Create a free account to continue"}}"#,
            None,
        );
        assert_eq!(
            no_header.daily_budget(now).unwrap().resets_at_ms,
            1_795_737_600_000 // 2026-11-27T00:00:00Z
        );
        let throttled = answer(429, r#"{"error":{"code":"quota/rate_limited"}}"#, Some(7));
        assert_eq!(throttled.daily_budget(now), None);
        assert_eq!(answer(503, "{}", Some(22_000)).daily_budget(now), None);
    }

    #[test]
    fn midnight_is_strictly_after_now() {
        assert_eq!(next_utc_midnight_ms(0), DAY_MS);
        assert_eq!(next_utc_midnight_ms(DAY_MS - 1), DAY_MS);
        assert_eq!(next_utc_midnight_ms(DAY_MS), 2 * DAY_MS);
    }
}
