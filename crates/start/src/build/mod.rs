//! The start's pieces the build makes (feature `build`, called by `cargo xtask dist`'s
//! pipeline, xtask/src/split.rs): the start-up set inside index.html ([`page`]), a bundle of
//! parts per landing and the loader that reads it ([`bundle`], `js/boot.js`,
//! `js/read_bundle.js`). Where each stands in the whole path and what it buys: the map in
//! `src/lib.rs`.

pub mod bundle;
pub mod page;

/// The start-up module's output name: `start.js` and `start_bg.wasm` (this crate's binary).
pub const START_OUT_NAME: &str = "start";
/// The global the start inside the page ([`page`]) sets once its module runs; `boot.js`
/// ([`bundle`]) starts the module from its files without it.
pub const STARTED: &str = "larderStartedInPage";
