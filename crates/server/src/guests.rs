//! Guests' daily budget (production.md §8 row 2). This server keeps no budget of its own: under
//! `--fault-injection`, `POST /__faults/guest-budget` with `{"spent": true}` makes every
//! token-gated request of a caller with the role `guest` answer production's 429 ("Create a free
//! account to continue") with `Retry-After` counting the seconds to the next UTC midnight, when
//! production's budget resets; `{"spent": false}` lifts it. Other callers are not affected.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use larder_contract::ErrorKind;

use crate::error::ApiError;

/// Production's sentence.
pub const DETAIL: &str = "Create a free account to continue";

const DAY: u64 = 24 * 60 * 60;

/// Whether guests' budget for today is spent.
#[derive(Default)]
pub struct Budget(AtomicBool);

impl Budget {
    /// Whether it is spent.
    pub fn is_spent(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Spends it, or gives it back.
    pub fn set(&self, spent: bool) {
        self.0.store(spent, Ordering::Relaxed);
    }
}

/// Seconds from `unix_now` to the next UTC midnight (a whole day at midnight itself).
pub fn until_midnight(unix_now: u64) -> u64 {
    DAY - unix_now % DAY
}

/// The 429 a guest gets once the budget is spent: not worth retrying before the next UTC day.
pub fn answer(unix_now: u64) -> Response {
    let mut response = ApiError::new(ErrorKind::RateLimit, DETAIL)
        .retry_after(until_midnight(unix_now))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_runs_to_the_next_utc_midnight() {
        // 2026-11-26T23:59:00Z
        assert_eq!(until_midnight(1_795_737_540), 60);
        assert_eq!(until_midnight(1_795_737_600), DAY);
    }
}
