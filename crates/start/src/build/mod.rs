//! The start's pieces the build makes (feature `build`, called by `cargo xtask dist`'s
//! pipeline, xtask/src/split.rs): the start-up set inside index.html ([`page`]), a bundle of
//! parts per landing and the loader that reads it ([`bundle`], `js/boot.js`,
//! `js/read_bundle.js`). Where each stands in the whole path and what it buys: the map in
//! `src/lib.rs`.

pub mod bundle;
pub mod page;

/// The start-up module's output name: `start.js` and `start_bg.wasm` (this crate's binary).
pub const START_OUT_NAME: &str = "start";
/// The start-up module built with the identity provider's sign-in (feature `provider`):
/// `start_oidc.js` and `start_oidc_bg.wasm`, fetched by `boot.js`'s `startProvider` only for a
/// console whose config.json names a provider.
pub const START_PROVIDER_OUT_NAME: &str = "start_oidc";
/// The global the start inside the page ([`page`]) sets once its module runs; `boot.js`
/// ([`bundle`]) starts the module from its files without it.
pub const STARTED: &str = "larderStartedInPage";

/// The file beside index.html that carries a sign-in at the identity provider across its
/// redirect (issue 42): a service worker holding the sign-in's `state`, `nonce` and PKCE
/// verifier in memory only (`js/oidc-worker.js`; `larder_start::oidc::pending`).
pub const OIDC_WORKER: (&str, &str) = ("oidc-worker.js", include_str!("../../js/oidc-worker.js"));
