//! The texts the sign-in form shows before "Sign in" is pressed: the start-up catalog's keys.
//!
//! `cargo xtask dist` writes `locales/start.json`, these keys of every language's catalog, and
//! index.html preloads it beside config.json, so the form is in the chosen language as soon as
//! it works, without waiting for that language's whole catalog (which comes in the background;
//! see `choose::ready`). One list for both sides: the larder crate has it here, and xtask
//! compiles this very file (`#[path]` in xtask/src/dist.rs) because it cannot depend on the
//! larder crate (its browser-only dependencies) and a file of data it parsed would be a second
//! format to keep. tests/start_catalog.rs checks that every `data-i18n` key of index.html, every
//! text src/boot.rs shows before the press and every text the start-up module
//! (crates/start/src/web.rs) shows is here, and nothing else.
//!
//! "Starting…", the button's text until the start-up module runs, is not here: it is shown
//! only before any catalog can be read, and no code translates it.

/// The keys (English texts, as in every catalog), in the order of the form.
pub const START_KEYS: &[&str] = &[
    "Sign in",
    "Sign in as",
    "A person",
    "A machine client",
    "Username",
    "Password",
    "Client ID",
    "Client secret",
    "Signing in…",
    // The start-up module's own (crates/start): the console's module did not arrive.
    "The console could not be loaded",
    "Try again",
    // ... and "My household" shown before the console arrives (crates/start/src/web/preview.rs).
    "Members",
    "Loading the console…",
];
