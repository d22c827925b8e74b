//! The retry policy of interface.md part 8: which answers are repeated, and after how long.

use super::request::Method;

/// At most this many retries after the first attempt.
pub const MAX_RETRIES: u32 = 3;
/// The longest wait a `Retry-After` can ask for, in milliseconds.
pub const MAX_RETRY_AFTER_MS: u64 = 120_000;
/// Statuses that are repeated.
pub const RETRIED_STATUSES: [u16; 5] = [429, 500, 502, 503, 504];
/// The error code of production's maintenance answer (a 503 that is said at once, never retried).
pub const MAINTENANCE_CODE: &str = "platform/maintenance";

/// The wait before retry number `retries_done + 1`, or `None` when the answer stands.
///
/// `retry_after` is the raw header; `now_ms` (Unix milliseconds) turns an HTTP date into a wait.
/// A 429 or 503 asking for a longer wait than [`MAX_RETRY_AFTER_MS`] stands at once: a
/// maintenance (`Retry-After: 300`) or a guest's daily budget is said to the person now, never
/// hidden behind silent waits that cannot succeed.
pub fn next_wait_ms(
    retries_done: u32,
    method: &Method,
    status: u16,
    retry_after: Option<&str>,
    now_ms: u64,
) -> Option<u64> {
    if retries_done >= MAX_RETRIES || !method.is_idempotent() || !RETRIED_STATUSES.contains(&status)
    {
        return None;
    }
    // A DELETE is repeated only when the service said it did not act (429 throttled, 503
    // unavailable). After a 500, 502 or 504 the record may be gone already (a gateway timing
    // out on a delete that went through), and production answers a DELETE of a missing article
    // with 500, so a repeat would report a delete that happened as a failure. The answer stands
    // and the console says it per record (bulk delete lists it).
    if matches!(method, Method::Delete) && status != 429 && status != 503 {
        return None;
    }
    if status == 429 || status == 503 {
        if let Some(wait) = retry_after.and_then(|value| parse_retry_after_ms(value, now_ms)) {
            return (wait <= MAX_RETRY_AFTER_MS).then_some(wait);
        }
    }
    Some(backoff_ms(retries_done))
}

/// Back-off factor 1, doubling, first retry immediate: 0 s, 2 s, 4 s.
pub fn backoff_ms(retries_done: u32) -> u64 {
    match retries_done {
        0 => 0,
        n => 1000 * (1u64 << n.min(16)),
    }
}

/// `Retry-After` as delta-seconds or an HTTP date; a date in the past means no wait.
pub fn parse_retry_after_ms(value: &str, now_ms: u64) -> Option<u64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(seconds.saturating_mul(1000));
    }
    let at_ms = parse_http_date(value)?.checked_mul(1000)?;
    Some(at_ms.saturating_sub(now_ms))
}

/// Parses an HTTP date into Unix seconds: an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or
/// the obsolete RFC 850 and asctime forms every recipient must also accept (RFC 9110 §5.6.7).
/// `httpdate` checks the weekday against the date and takes years 1970 to 9999.
pub fn parse_http_date(value: &str) -> Option<u64> {
    let at = httpdate::parse_http_date(value).ok()?;
    at.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|since| since.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn get() -> Method {
        Method::Get
    }

    #[test]
    fn waits_are_0_2_4_then_none() {
        let waits: Vec<_> = (0..4)
            .map(|n| next_wait_ms(n, &get(), 502, None, 0))
            .collect();
        assert_eq!(waits, [Some(0), Some(2000), Some(4000), None]);
    }

    #[test]
    fn only_listed_statuses_and_idempotent_methods() {
        for status in RETRIED_STATUSES {
            assert!(
                next_wait_ms(0, &get(), status, None, 0).is_some(),
                "{status}"
            );
        }
        for status in [400, 401, 403, 404, 409, 422, 501, 505] {
            assert_eq!(next_wait_ms(0, &get(), status, None, 0), None, "{status}");
        }
        for method in [
            Method::Head,
            Method::Delete,
            Method::Options,
            Method::Put(json!({})),
        ] {
            assert!(next_wait_ms(0, &method, 503, None, 0).is_some());
        }
        for method in [Method::Post(json!({})), Method::Patch(json!({}))] {
            assert_eq!(next_wait_ms(0, &method, 503, None, 0), None);
        }
        // A DELETE after a fault may have happened: only 429 and 503 are repeated.
        for status in [500, 502, 504] {
            assert_eq!(
                next_wait_ms(0, &Method::Delete, status, None, 0),
                None,
                "{status}"
            );
        }
        assert!(next_wait_ms(0, &Method::Delete, 429, None, 0).is_some());
    }

    #[test]
    fn retry_after_overrides_on_429_and_503_only() {
        assert_eq!(next_wait_ms(0, &get(), 429, Some("7"), 0), Some(7000));
        assert_eq!(next_wait_ms(1, &get(), 503, Some("1"), 0), Some(1000));
        assert_eq!(next_wait_ms(1, &get(), 500, Some("7"), 0), Some(2000));
        assert_eq!(
            next_wait_ms(0, &get(), 429, Some("120"), 0),
            Some(MAX_RETRY_AFTER_MS)
        );
        // Longer than the policy waits: maintenance, a day budget. The answer stands.
        assert_eq!(next_wait_ms(0, &get(), 503, Some("300"), 0), None);
        assert_eq!(next_wait_ms(0, &get(), 429, Some("9999"), 0), None);
        assert_eq!(next_wait_ms(0, &get(), 429, Some("soon"), 0), Some(0));
    }

    #[test]
    fn retry_after_as_http_date() {
        let epoch = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(epoch, 784_111_777);
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_http_date("Thu, 29 Feb 2024 12:00:00 GMT"),
            Some(1_709_208_000)
        );
        assert_eq!(
            parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"),
            Some(784_111_777)
        );
        assert_eq!(
            parse_http_date("Sun Nov  6 08:49:37 1994"),
            Some(784_111_777)
        );
        let now_ms = epoch * 1000;
        assert_eq!(
            next_wait_ms(
                0,
                &get(),
                503,
                Some("Sun, 06 Nov 1994 08:50:07 GMT"),
                now_ms
            ),
            Some(30_000)
        );
        assert_eq!(
            parse_retry_after_ms("Sun, 06 Nov 1994 08:49:00 GMT", now_ms),
            Some(0)
        );
        for bad in [
            "",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "06 Nov 1994 25:00:00 GMT",
            "Wed, 29 Feb 2024 12:00:00 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad}");
        }
    }
}
