//! Pieces shared by the pages.

pub mod confirm;
pub mod display_prefs;
pub mod download;
pub mod error_view;
pub mod export_status;
pub mod file_text;
pub mod header;
pub mod loading;
pub mod maintenance;
pub mod modal;
pub mod not_allowed;
pub mod pager;
pub mod reauth;
pub mod sign_in_form;
pub mod toast;
pub mod unsaved;
