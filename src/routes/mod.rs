//! One module per page.

pub mod artifacts;
pub mod bulk_replace;
pub mod enhance;
pub mod guide;
pub mod home;
pub mod household;
pub mod household_create;
pub mod household_view;
pub mod households;
pub mod kb;
pub mod member;
pub mod not_found;
pub mod record;
pub mod record_edit;
pub mod record_new;
pub mod records;
pub mod sign_in;
pub mod textbook;
