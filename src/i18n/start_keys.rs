//! The texts the start-up module shows (crates/start): the start-up catalog's keys.
//!
//! `cargo xtask dist` writes these keys of every language's catalog into the built index.html
//! (and `locales/start.json`), so the form is in the chosen language as soon as it works,
//! without waiting for that language's whole catalog, and says what a press lacks or what the
//! service refused without waiting for the console. One list for both sides: the larder crate
//! has it here, and xtask compiles this very file (`#[path]` in xtask/src/dist.rs) because it
//! cannot depend on the larder crate (its browser-only dependencies). tests/start_catalog.rs
//! checks that every `data-i18n` key of index.html and every text the start-up module shows is
//! here, and nothing else.
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
    // What a press lacks (`larder_start::login::missing`), or what the service refused.
    "Invalid credentials",
    "Give a username and password.",
    "The username is missing.",
    "The password is missing.",
    "Give a client ID and secret.",
    "The client ID is missing.",
    "The client secret is missing.",
    "Sign-in failed",
    // Under a refused sign-in (crates/start/src/correlation.rs), as under the console's errors.
    "Request id:",
    // The start-up module's own (crates/start): the console's module did not arrive.
    "The console could not be loaded",
    "Try again",
    // ... and "My household" shown before the console arrives (crates/start/src/web/preview.rs).
    "Members",
    "Loading the console…",
    // The identity provider (crates/start/src/web/oidc.rs): its button, and each way a sign-in
    // there fails (`larder_start::oidc::Failure::text`).
    "Sign in with {provider}",
    "This sign-in was not started in this tab, or took too long. Please sign in again.",
    "The identity provider's answer did not match this sign-in. Please sign in again.",
    "The identity provider did not sign you in.",
    "The identity provider refused this sign-in or your session has ended. Please sign in again.",
    "The identity provider is not answering. Try again in a moment.",
    "The identity provider's answer could not be read.",
    "The identity provider's answer failed its checks. Please sign in again.",
    "Sign in to continue.",
];
