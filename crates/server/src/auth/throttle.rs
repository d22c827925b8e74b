//! Sign-in throttling, per source and per account.
//!
//! The policy (RELIABILITY.md states it for operators):
//! - one source gets [`PER_SOURCE_ACCOUNT`] failed sign-ins per account per window,
//!   and [`PER_SOURCE`] failed sign-ins over all accounts per window; past either it gets 429;
//! - one account may fail [`PER_ACCOUNT`] times per window from all sources together; past that,
//!   sources that have already failed on it get 429, while a source with no failure on it (the
//!   owner signing in from elsewhere) still gets its attempts;
//! - an attempt counts when it starts, before the password is checked, so a burst of concurrent
//!   attempts cannot get more checks through than the limit; a success takes its count back;
//! - a source is an IPv4 address, or an IPv6 /64 (one host usually holds a whole /64, so single
//!   IPv6 addresses would give it unlimited guesses); an IPv4-mapped IPv6 address
//!   (`::ffff:a.b.c.d`, as a dual-stack listener reports IPv4 clients) is its IPv4 address.
//!
//! Hand-written rather than a rate-limiting crate (`governor`, `tower_governor`): those limit
//! requests, while this counts failures and takes a success back ("refunds"), and keeps the
//! owner's own attempts open while an account is under attack.
//!
//! An account is an opaque key (`user:NAME`), so this module needs nothing from the rest of
//! `auth`; sign-in caps names before they get here. Entries expire with their window, and the
//! tables hold at most [`MAX_ENTRIES`] keys each: at that size expired entries are swept, and a
//! key that still finds no room is not recorded (the per-source and per-account limits of
//! recorded keys still hold).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// The window failures are counted over.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Failures one source may have on one account per window.
pub const PER_SOURCE_ACCOUNT: u32 = 5;
/// Failures one source may have over all accounts per window.
pub const PER_SOURCE: u32 = 30;
/// Failures one account may have from all sources per window before failed sources are shut out.
pub const PER_ACCOUNT: u32 = 100;
/// Keys each table holds at most.
pub const MAX_ENTRIES: usize = 50_000;

type AccountKey = String;

struct Table<K> {
    entries: HashMap<K, (u32, Instant)>,
}

impl<K> Default for Table<K> {
    fn default() -> Self {
        Table {
            entries: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Table<K> {
    fn count(&self, key: &K, now: Instant) -> u32 {
        match self.entries.get(key) {
            Some((count, since)) if now.duration_since(*since) < WINDOW => *count,
            _ => 0,
        }
    }

    fn retry_after(&self, key: &K, now: Instant) -> u64 {
        self.entries
            .get(key)
            .map(|(_, since)| {
                WINDOW
                    .saturating_sub(now.duration_since(*since))
                    .as_secs()
                    .max(1)
            })
            .unwrap_or(1)
    }

    fn add(&mut self, key: &K, delta: i64, now: Instant) {
        if !self.entries.contains_key(key) {
            if delta <= 0 {
                return;
            }
            if self.entries.len() >= MAX_ENTRIES {
                self.entries
                    .retain(|_, (_, since)| now.duration_since(*since) < WINDOW);
            }
            if self.entries.len() >= MAX_ENTRIES {
                return;
            }
        }
        let entry = self.entries.entry(key.clone()).or_insert((0, now));
        if now.duration_since(entry.1) >= WINDOW {
            *entry = (0, now);
        }
        entry.0 = (i64::from(entry.0) + delta).max(0) as u32;
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[derive(Default)]
struct Tables {
    source_account: Table<(Option<IpAddr>, AccountKey)>,
    source: Table<Option<IpAddr>>,
    account: Table<AccountKey>,
}

/// The key a source is counted under: IPv4 addresses as they are, IPv4-mapped IPv6 addresses as
/// their IPv4 address, other IPv6 addresses as their /64 prefix.
pub fn source_key(source: Option<IpAddr>) -> Option<IpAddr> {
    source.map(|ip| match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    })
}

/// The throttle's state.
#[derive(Default)]
pub struct Throttle {
    tables: Mutex<Tables>,
}

/// One counted attempt; say how it ended.
pub struct Attempt<'a> {
    throttle: &'a Throttle,
    source: Option<IpAddr>,
    account: AccountKey,
}

impl Attempt<'_> {
    /// The secret was right: the attempt no longer counts.
    pub fn succeeded(self) {
        let now = Instant::now();
        let mut tables = self.throttle.lock();
        let key = (self.source, self.account.clone());
        tables.source_account.add(&key, -1, now);
        tables.source.add(&self.source, -1, now);
        tables.account.add(&self.account, -1, now);
    }

    /// The secret was wrong: the attempt stays counted (as does one abandoned half-way).
    pub fn failed(self) {}
}

impl Throttle {
    fn lock(&self) -> std::sync::MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts an attempt by `source` on `account` (`user:NAME`, `client:ID`), or refuses it with
    /// 429.
    pub fn begin(&self, source: Option<IpAddr>, account: &str) -> Result<Attempt<'_>, ApiError> {
        let now = Instant::now();
        let source = source_key(source);
        let account: AccountKey = account.to_string();
        let key = (source, account.clone());
        let mut tables = self.lock();
        let mine = tables.source_account.count(&key, now);
        let refused = if mine >= PER_SOURCE_ACCOUNT {
            Some(tables.source_account.retry_after(&key, now))
        } else if tables.source.count(&source, now) >= PER_SOURCE {
            Some(tables.source.retry_after(&source, now))
        } else if mine > 0 && tables.account.count(&account, now) >= PER_ACCOUNT {
            Some(tables.account.retry_after(&account, now))
        } else {
            None
        };
        if let Some(wait) = refused {
            return Err(ApiError::new(
                larder_contract::ErrorKind::RateLimit,
                format!("Too many failed sign-ins; try again in {wait} s."),
            )
            .retry_after(wait));
        }
        tables.source_account.add(&key, 1, now);
        tables.source.add(&source, 1, now);
        tables.account.add(&account, 1, now);
        Ok(Attempt {
            throttle: self,
            source,
            account,
        })
    }

    /// How many keys the tables hold (for the bounded-memory test).
    pub fn entries(&self) -> usize {
        let tables = self.lock();
        tables.source_account.len() + tables.source.len() + tables.account.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Option<IpAddr> {
        Some(IpAddr::from([10, 0, 0, n]))
    }

    #[test]
    fn a_source_is_stopped_but_the_owner_elsewhere_is_not() {
        let throttle = Throttle::default();
        for _ in 0..PER_SOURCE_ACCOUNT {
            throttle.begin(ip(1), "admin").unwrap().failed();
        }
        assert!(throttle.begin(ip(1), "admin").is_err());
        let from_elsewhere = throttle.begin(ip(2), "admin").unwrap();
        from_elsewhere.succeeded();
        assert!(throttle.begin(ip(2), "admin").is_ok());
    }

    #[test]
    fn attempts_count_before_they_are_checked() {
        let throttle = Throttle::default();
        let open: Vec<_> = (0..PER_SOURCE_ACCOUNT)
            .map(|_| throttle.begin(ip(1), "x").unwrap())
            .collect();
        // Five checks in flight: the sixth is refused before any finishes.
        assert!(throttle.begin(ip(1), "x").is_err());
        drop(open);
    }

    #[test]
    fn a_sprayer_is_stopped_across_accounts() {
        let throttle = Throttle::default();
        for n in 0..PER_SOURCE {
            throttle.begin(ip(9), &format!("user{n}")).unwrap().failed();
        }
        assert!(throttle.begin(ip(9), "fresh").is_err());
    }

    #[test]
    fn an_account_under_attack_shuts_out_failed_sources_only() {
        let throttle = Throttle::default();
        for n in 0..PER_ACCOUNT {
            throttle
                .begin(
                    Some(IpAddr::from([10, 1, (n / 250) as u8, (n % 250) as u8])),
                    "admin",
                )
                .unwrap()
                .failed();
        }
        assert!(throttle
            .begin(ip(200).map(|_| IpAddr::from([10, 1, 0, 0])), "admin")
            .is_err());
        assert!(throttle.begin(ip(77), "admin").is_ok());
    }

    #[test]
    fn tables_stay_bounded() {
        let throttle = Throttle::default();
        for n in 0..(MAX_ENTRIES + 10) {
            let source = Some(IpAddr::from([(n >> 16) as u8, (n >> 8) as u8, n as u8, 1]));
            if let Ok(attempt) = throttle.begin(source, &format!("u{n}")) {
                attempt.failed();
            }
        }
        assert!(throttle.entries() <= 3 * MAX_ENTRIES);
    }

    #[test]
    fn an_ipv6_64_is_one_source_and_mapped_ipv4_is_its_ipv4() {
        let throttle = Throttle::default();
        let v6 = |text: &str| Some(text.parse::<IpAddr>().unwrap());
        // Each failure from another address of one /64: they add up as one source.
        for n in 0..PER_SOURCE_ACCOUNT {
            throttle
                .begin(v6(&format!("2001:db8:1:2::{:x}", n + 1)), "admin")
                .unwrap()
                .failed();
        }
        assert!(throttle
            .begin(v6("2001:db8:1:2:ffff:ffff:ffff:ffff"), "admin")
            .is_err());
        // The next /64 is another source.
        assert!(throttle.begin(v6("2001:db8:1:3::1"), "admin").is_ok());
        // An IPv4 client seen through a dual-stack listener is its IPv4 address.
        for _ in 0..PER_SOURCE_ACCOUNT {
            throttle.begin(ip(5), "ann").unwrap().failed();
        }
        assert!(throttle.begin(v6("::ffff:10.0.0.5"), "ann").is_err());
        assert_eq!(source_key(v6("::ffff:10.0.0.5")), ip(5));
        assert_eq!(source_key(ip(5)), ip(5));
        assert_eq!(source_key(None), None);
    }
}
