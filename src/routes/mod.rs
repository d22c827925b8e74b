//! One module per page.

pub mod articles;
pub mod not_found;
pub mod sign_in;
