//! The knowledge base: its lists (`list`), its record pages' panels and forms, and the pure
//! logic they follow (`schema`: field schemas, forms, search state, paging windows, imports;
//! built everywhere and tested natively).

pub mod schema;

#[cfg(target_arch = "wasm32")]
pub mod ai_mark;
#[cfg(target_arch = "wasm32")]
pub mod artifacts;
#[cfg(target_arch = "wasm32")]
pub mod conflict;
#[cfg(target_arch = "wasm32")]
pub mod edit;
#[cfg(target_arch = "wasm32")]
pub mod enhance;
#[cfg(target_arch = "wasm32")]
pub mod field_editor;
#[cfg(target_arch = "wasm32")]
pub mod gates;
#[cfg(target_arch = "wasm32")]
pub mod guidelines;
#[cfg(target_arch = "wasm32")]
pub mod highlight;
#[cfg(target_arch = "wasm32")]
pub mod history;
#[cfg(target_arch = "wasm32")]
pub mod list;
#[cfg(target_arch = "wasm32")]
pub mod record_form;
#[cfg(target_arch = "wasm32")]
pub mod reference_picker;
#[cfg(target_arch = "wasm32")]
pub mod structure;
#[cfg(target_arch = "wasm32")]
pub mod value_view;
#[cfg(target_arch = "wasm32")]
pub mod watch;

#[cfg(target_arch = "wasm32")]
mod common;
#[cfg(target_arch = "wasm32")]
pub use common::*;
