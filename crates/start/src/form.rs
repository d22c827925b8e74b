//! index.html's sign-in form: the ids both modules find it by, and the mark of the hand-over.

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

/// The attribute the start-up module sets on the shell once it runs the form: the console's
/// module then leaves the form to it and waits to be handed each press.
pub const TAKEN: &str = "data-start";

/// The start-up module's view of the owner's household, shown between the sign-in and the
/// console (`crates/start/src/web/preview.rs`): the console's module removes it with the shell,
/// or, when the sign-in ends in an error, removes it and shows the form again.
pub const PREVIEW: &str = "boot-preview";
