//! How often a long transfer's progress reaches the screen: at most once per interval, however
//! many chunks arrive. Pure: tested natively.
//!
//! A 1 GiB download arrives in thousands of chunks (7,000 of about 150 KB each in Chromium on
//! loopback). Showing each one rebuilt the progress row and formatted its text thousands of
//! times, which grew wasm memory by 1 to 5 MB per download (the target is under 1 MB whatever
//! the size); a person cannot read more than a few updates a second anyway, and a
//! `role="status"` text is read aloud when it changes.

/// Milliseconds between two progress updates on screen: five a second.
pub const PROGRESS_EVERY_MS: f64 = 200.0;

/// Decides, chunk by chunk, whether the running count is shown now.
#[derive(Clone, Debug)]
pub struct Pace {
    every_ms: f64,
    last_shown_ms: Option<f64>,
}

impl Pace {
    /// A pace that lets one update through per `every_ms`; the first is always let through.
    pub fn new(every_ms: f64) -> Pace {
        Pace {
            every_ms,
            last_shown_ms: None,
        }
    }

    /// Whether an update at `now_ms` is shown. A clock that goes back (a changed system time)
    /// lets the update through and starts counting again from it, rather than freezing the bar.
    pub fn due(&mut self, now_ms: f64) -> bool {
        let due = match self.last_shown_ms {
            None => true,
            Some(last) => now_ms - last >= self.every_ms || now_ms < last,
        };
        if due {
            self.last_shown_ms = Some(now_ms);
        }
        due
    }
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::new(PROGRESS_EVERY_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_update_is_shown_at_once() {
        let mut pace = Pace::new(200.0);
        assert!(pace.due(5_000.0));
    }

    #[test]
    fn updates_within_the_interval_are_held_back() {
        let mut pace = Pace::new(200.0);
        assert!(pace.due(1_000.0));
        assert!(!pace.due(1_001.0));
        assert!(!pace.due(1_199.9));
        assert!(pace.due(1_200.0));
        assert!(!pace.due(1_300.0));
        assert!(pace.due(1_400.0));
    }

    #[test]
    fn sixteen_thousand_chunks_in_ten_seconds_make_about_fifty_updates() {
        let mut pace = Pace::default();
        let chunks = 16_384;
        let shown = (0..chunks)
            .filter(|i| pace.due(*i as f64 * 10_000.0 / chunks as f64))
            .count();
        assert!((50..=51).contains(&shown), "{shown} updates");
    }

    #[test]
    fn a_clock_that_goes_back_does_not_freeze_the_bar() {
        let mut pace = Pace::new(200.0);
        assert!(pace.due(10_000.0));
        assert!(pace.due(3_000.0));
        assert!(!pace.due(3_100.0));
        assert!(pace.due(3_200.0));
    }
}
