//! One module per page.

pub mod allergy_audit;
pub mod home;
pub mod household;
pub mod household_view;
pub mod households;
pub mod member;
pub mod not_found;
pub mod overview;
pub mod record;
pub mod record_new;
pub mod records;
pub mod sign_in;
pub mod status;
