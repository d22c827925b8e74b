//! Pieces shared by the pages.

pub mod chip_select;
pub mod confirm;
pub mod download;
pub mod error_view;
pub mod facets;
pub mod field_editor;
pub mod header;
pub mod highlight;
pub mod key_sheet;
pub mod kv_editor;
pub mod loading;
pub mod modal;
pub mod not_allowed;
pub mod pager;
pub mod reauth;
pub mod record_form;
pub mod records_table;
pub mod selection;
pub mod sign_in_form;
pub mod toast;
pub mod unsaved;
pub mod value_view;
