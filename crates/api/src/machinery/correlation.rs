//! Correlation headers (production.md §10.7): every request carries an `X-Request-Id` that
//! production's later services adopt, log and echo (`^[A-Za-z0-9._:-]{1,64}$`), and
//! `X-Client: larder/<version>`. An id is this client's random session part and a counter, so
//! ids are unique within a tab and unlikely to meet another tab's; each attempt of a retried
//! call gets its own, as each is its own line in the service's log.

use std::sync::atomic::{AtomicU64, Ordering};

/// `X-Request-Id`.
pub const REQUEST_ID: &str = "X-Request-Id";
/// `X-Client`.
pub const CLIENT: &str = "X-Client";
/// What `X-Client` says: this crate's name in production's label form.
pub const CLIENT_LABEL: &str = concat!("larder/", env!("CARGO_PKG_VERSION"));

/// Mints request ids.
#[derive(Debug)]
pub struct RequestIds {
    session: u64,
    next: AtomicU64,
}

impl Default for RequestIds {
    fn default() -> Self {
        RequestIds {
            session: random_seed(),
            next: AtomicU64::new(1),
        }
    }
}

impl RequestIds {
    /// The next id: 12 hex digits of session, a dash, the request's number in hex.
    pub fn next(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{:012x}-{n:x}", self.session & 0xffff_ffff_ffff)
    }
}

/// Whether production would honour `value` as a request id.
pub fn is_valid_request_id(value: &str) -> bool {
    (1..=64).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(&b))
}

#[cfg(target_arch = "wasm32")]
fn random_seed() -> u64 {
    // Two draws: Math.random carries 52 bits at most.
    let draw = || (js_sys::Math::random() * f64::from(u32::MAX)) as u64;
    (draw() << 32) | draw()
}

#[cfg(not(target_arch = "wasm32"))]
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    // RandomState is seeded from the operating system once per process, and advanced per value.
    RandomState::new().hash_one(std::process::id())
}
