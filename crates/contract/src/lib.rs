//! The contract of the Nutrition Data & Household API, written down once.
//!
//! Both the client (`larder-api`) and the reference service (`larder-server`) read these
//! tables, so a collection, an enumeration or an error code is described in one place.
//! This crate does no I/O.

pub mod collections;
pub mod enums;
pub mod envelope;
pub mod errors;
pub mod limits;
pub mod slug;

pub use collections::{Collection, IdentifierKind, COLLECTIONS};
pub use envelope::{ErrorBody, ErrorEnvelope, SuccessEnvelope};
pub use errors::ErrorKind;

/// The path prefix under every base URL.
pub const API_PREFIX: &str = "/api/v1";

/// The roles the service knows.
pub mod roles {
    /// Full access, including the list of every household.
    pub const ADMIN: &str = "admin";
    /// A curator of the knowledge base.
    pub const EXPERT: &str = "expert";
    /// A machine client that enhances records.
    pub const AGENT: &str = "agent";
    /// Every role, in display order.
    pub const ALL: [&str; 3] = [ADMIN, EXPERT, AGENT];
}
