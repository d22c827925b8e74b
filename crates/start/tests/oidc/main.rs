//! The OpenID Connect core (`larder_start::oidc`) against its oracles: requests and answers as
//! the protocol spells them, and ID tokens signed with keys made here by `jsonwebtoken` (the
//! crate larder-server checks the provider's tokens with), each claim and byte broken in turn.
//! The certified provider itself checks the core in `crates/server/tests/oidc_provider.rs`.
//! Native only: its oracles (Cargo.toml's native dev-dependencies) do not build for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod flow;
mod id_token;
mod keys;

use larder_start::oidc::Fields;
use serde_json::Value;

/// A JSON object read by serde_json, as the console reads the provider's answers (the feature
/// `json` gives `serde_json::Value` these members; the start-up module reads with `JSON.parse`).
#[derive(Clone, Debug)]
pub struct Json(pub Value);

impl Fields for Json {
    fn has(&self, key: &str) -> bool {
        self.0.get(key).is_some()
    }
    fn text(&self, key: &str) -> Option<String> {
        self.0.get(key)?.as_str().map(str::to_string)
    }
    fn number(&self, key: &str) -> Option<f64> {
        self.0.get(key)?.as_f64()
    }
    fn flag(&self, key: &str) -> Option<bool> {
        self.0.get(key)?.as_bool()
    }
    fn texts(&self, key: &str) -> Option<Vec<String>> {
        self.0
            .get(key)?
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect()
    }
    fn objects(&self, key: &str) -> Option<Vec<Self>> {
        Some(
            self.0
                .get(key)?
                .as_array()?
                .iter()
                .filter(|v| v.is_object())
                .map(|v| Json(v.clone()))
                .collect(),
        )
    }
}
