//! index.html's sign-in form: the ids the start-up module finds it by, and the marks it sets.

/// The start-up shell: the form, its heading and the kind switch.
pub const SHELL: &str = "boot-shell";
/// The username or client ID field.
pub const NAME: &str = "boot-name";
/// The password or client secret field.
pub const SECRET: &str = "boot-secret";
/// The radio button for a machine client's credentials.
pub const MACHINE: &str = "boot-client";
/// The radio button for a person's credentials.
pub const PERSON: &str = "boot-person";
/// What went wrong, shown above the form's button.
pub const ERROR: &str = "boot-error";

/// The attribute the start-up module sets on the shell once it runs the form: the console's
/// module then leaves the form to it and waits to be handed each press. Without it (no start-up
/// module, or one that could not read what it needs) the console removes the shell and shows
/// its own sign-in page.
pub const TAKEN: &str = "data-start";

/// The start-up module's view of the owner's household, shown between the sign-in and the
/// console (`crates/start/src/web/preview.rs`): it goes with the shell when the console mounts,
/// or, when the sign-in ends in an error, the form comes back in its place.
pub const PREVIEW: &str = "boot-preview";
