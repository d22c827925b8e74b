//! The route handlers, one module per family.

pub mod records;
pub mod system;

use serde::Deserialize;

/// `limit` and `offset` of a listing.
#[derive(Debug, Deserialize)]
pub struct Page {
    /// Page size, 1..=1000.
    #[serde(default = "default_limit")]
    pub limit: u32,
    /// Records to skip.
    #[serde(default)]
    pub offset: u32,
}

fn default_limit() -> u32 {
    100
}

impl Page {
    /// Checks the bounds of wire-notes.
    pub fn validate(&self) -> Result<(), crate::error::ApiError> {
        if !(1..=1000).contains(&self.limit) {
            return Err(crate::error::ApiError::unprocessable(
                "limit",
                "must be between 1 and 1000",
            ));
        }
        Ok(())
    }
}
