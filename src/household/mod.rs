//! A household and its members: the pages' shared pieces (views, wasm only) beside the pure
//! rules they follow (`rules`: production's profile keys, allergens, goals, memories, meal
//! plans, pictures; built everywhere and tested natively).

pub mod rules;

#[cfg(target_arch = "wasm32")]
pub mod account;
#[cfg(target_arch = "wasm32")]
pub mod allergy_picker;
#[cfg(target_arch = "wasm32")]
pub mod chip_select;
#[cfg(target_arch = "wasm32")]
pub mod create;
#[cfg(target_arch = "wasm32")]
pub mod download_my_data;
#[cfg(target_arch = "wasm32")]
pub mod earlier_keys;
#[cfg(target_arch = "wasm32")]
pub mod erase;
#[cfg(target_arch = "wasm32")]
pub mod first_run;
#[cfg(target_arch = "wasm32")]
pub mod kv_editor;
#[cfg(target_arch = "wasm32")]
pub mod library;
#[cfg(target_arch = "wasm32")]
pub mod meal_plans;
#[cfg(target_arch = "wasm32")]
pub mod member;
#[cfg(target_arch = "wasm32")]
pub mod memories;
#[cfg(target_arch = "wasm32")]
pub mod panel;
#[cfg(target_arch = "wasm32")]
pub mod picture;
#[cfg(target_arch = "wasm32")]
pub mod profile_fields;
#[cfg(target_arch = "wasm32")]
pub mod profile_form;
#[cfg(target_arch = "wasm32")]
pub mod restore;
#[cfg(target_arch = "wasm32")]
mod restore_run;
#[cfg(target_arch = "wasm32")]
pub mod shares;

#[cfg(target_arch = "wasm32")]
mod common;
#[cfg(target_arch = "wasm32")]
pub use common::*;
