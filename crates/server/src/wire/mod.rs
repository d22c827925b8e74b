//! The two wires larder-server answers with, and everything that differs between them.
//!
//! `--wire` ([`Wire`]) is read once, by [`crate::prepare`], into the [`Dialect`] the server keeps
//! in its state ([`crate::AppState::dialect`]) and in each request's task-local
//! ([`crate::error::dialect`]). Handlers ask the dialect (which status a create answers, how a
//! refusal is worded, which routes exist, what shape an answer has) and never test the wire, so
//! a reader finds every difference here:
//!
//! - [`words`]: every sentence the wires word differently, the reference's and production's side
//!   by side, each production sentence citing where production's own words are recorded
//!   (production.md, or realprod's ANSWERS.md: what production's households service answered
//!   when run here). `crates/server/tests/wire_words.rs` checks each against its source.
//! - [`shapes`]: the two [`Dialect`]s, [`REFERENCE`] and [`PRODUCTION`]: statuses, answer shapes,
//!   the routes each serves, orders, headers.
//!
//! Only [`Wire::dialect`] tells the wires apart; this folder uses nothing of the server but the
//! store's [`crate::store::MemberOrder`], so every module may ask it.

pub mod shapes;
pub mod words;

pub use shapes::{Dialect, PRODUCTION, REFERENCE};
pub use words::{About, Said};

/// Which service's wire the server answers with (`--wire`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Wire {
    /// The reference service: production's rules plus what only interface.md asks for
    /// (artifact listing, enhance on every URN collection, every household for administrators).
    #[default]
    Reference,
    /// Answers as the production services do where the two differ: Keycloak's sign-in answer,
    /// `"pong"`, bare 404/405 bodies for routes production lacks, roles as client roles, enhance
    /// on articles only, artifact PATCH answering `null`, downloads without Content-Length.
    Production,
}

impl Wire {
    /// This wire's dialect: the one place the wire is chosen.
    pub fn dialect(self) -> &'static Dialect {
        match self {
            Wire::Reference => &REFERENCE,
            Wire::Production => &PRODUCTION,
        }
    }
}
