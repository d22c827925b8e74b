//! Pieces shared by the pages.

pub mod error_view;
pub mod header;
