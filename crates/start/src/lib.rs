//! What Larder's start-up module and the console share, as pure rules tested natively.
//!
//! The start-up module (this crate's binary, `src/main.rs`, built for the browser with the
//! feature `web`) makes index.html's sign-in form work before the console's own module has
//! arrived: it chooses the form's language, shows its texts, and sends the sign-in. The console
//! (the `larder` crate) takes over from there. Both must choose the same language and send the
//! same request, so those rules live here, once: the console calls [`language::pick`], and
//! `tests/request.rs` holds [`login::request`] equal to the API client's own sign-in request.

pub mod form;
pub mod json;
pub mod language;
pub mod login;
