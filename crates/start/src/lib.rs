//! What Larder's start-up module and the console share, as pure rules tested natively.
//!
//! The start-up module (this crate's binary, `src/main.rs`, built for the browser with the
//! feature `web`) makes index.html's sign-in form work before the console's own module has
//! arrived: it chooses the form's language, shows its texts, and sends the sign-in. The console
//! (the `larder` crate) takes over from there. Both must choose the same language and send the
//! same request and fetch the same page's module ahead, so those rules live here, once: the
//! console calls [`language::pick`] and [`landing::landing`], and `tests/request.rs` holds
//! [`login::request`] and [`household`]'s read of the owner's household (shown before the
//! console arrives) equal to the API client's own.

pub mod config;
pub mod form;
pub mod household;
pub mod json;
pub mod landing;
pub mod language;
pub mod login;
pub mod oidc;
