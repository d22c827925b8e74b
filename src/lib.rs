//! Larder, the browser console of the Nutrition Data & Household API.
//!
//! Pure logic (configuration parsing, resource schemas) builds everywhere and is tested natively; the UI
//! (Leptos, client-side rendered) builds for the browser only.

pub mod config;
pub mod error_text;
pub mod export;
pub mod i18n;
pub mod kv;
pub mod lru;
pub mod paths;
pub mod progress_pace;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod hosting;
pub mod household;
pub mod kb;
#[cfg(target_arch = "wasm32")]
pub mod lazy;
#[cfg(target_arch = "wasm32")]
mod routes;
#[cfg(target_arch = "wasm32")]
mod session;
#[cfg(target_arch = "wasm32")]
pub mod start;

#[cfg(target_arch = "wasm32")]
pub use app::App;

/// The client as the console uses it: over the browser's fetch.
#[cfg(target_arch = "wasm32")]
pub type ApiClient = larder_api::BrowserClient;
