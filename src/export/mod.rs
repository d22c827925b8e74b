//! Exports of lists and of a household's data: CSV (RFC 4180), JSON written as a stream, and a
//! zip of stored files, each produced a page of rows at a time so a browser can gather the parts
//! into a Blob without the whole file in wasm memory. Pure: tested natively.

pub mod csv;
pub mod difference;
pub mod household;
pub mod json;
pub mod list;
pub mod restore;
pub mod restore_library;
pub mod zip;

#[cfg(target_arch = "wasm32")]
pub mod browser;
