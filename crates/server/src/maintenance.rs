//! Maintenance mode (production.md §8 row 1): `--maintenance` at start, or switched at run time
//! through `/__faults/maintenance` under `--fault-injection` (so browser journeys can open and
//! close it).
//!
//! While it is on, every request to a route that needs a token answers 503
//! `platform/maintenance` with `Retry-After: 300` and `Cache-Control: no-store`, unless the
//! caller's token carries the role `admin`; anonymous callers and invalid tokens get the same
//! 503 (production's check comes before its token check). `system/ping` and sign-in stay open:
//! an administrator needs a token to pass, and sign-in is how they get one; a non-admin signed
//! in during maintenance meets the 503 on their next request.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::auth::Identity;
use crate::error::ApiError;
use crate::SharedState;

/// Seconds a client is asked to wait before trying again.
pub const RETRY_AFTER: u64 = 300;

/// Production's sentence.
pub const DETAIL: &str = "WiseFood is briefly closed for maintenance. Please try again shortly.";

/// Whether the service is closed for maintenance.
#[derive(Default)]
pub struct Maintenance(AtomicBool);

impl Maintenance {
    /// Starts open or closed.
    pub fn new(on: bool) -> Maintenance {
        Maintenance(AtomicBool::new(on))
    }

    /// Whether it is on.
    pub fn is_on(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Switches it.
    pub fn set(&self, on: bool) {
        self.0.store(on, Ordering::Relaxed);
    }
}

/// Production's answer to a non-admin while maintenance is on.
pub fn answer() -> Response {
    let error = ApiError {
        code: "platform/maintenance",
        ..ApiError::new(larder_contract::ErrorKind::ServiceUnavailable, DETAIL)
    }
    .titled("Maintenance")
    .retry_after(RETRY_AFTER);
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What a token-gated request gets instead of its answer, if anything: the maintenance 503 for
/// anyone but an administrator while maintenance is on, and a guest's 429 once guests' budget
/// is spent (see `guests`). `identity` is `None` without a valid token.
pub fn gate(state: &SharedState, identity: Option<&Identity>) -> Option<Response> {
    let has = |role| identity.is_some_and(|i| i.has_role(role));
    if state.maintenance.is_on() && !has(larder_contract::roles::ADMIN) {
        return Some(answer());
    }
    if state.guest_budget.is_spent() && has(larder_contract::roles::GUEST) {
        return Some(crate::guests::answer(crate::auth::unix_now()));
    }
    None
}
