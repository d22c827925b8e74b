//! How a request travels and how its answer is read: the machinery under every operation. It
//! knows no collection and no record type (those are [`crate::operations`] and [`crate::wire`]),
//! and uses nothing outside this folder.
//!
//! A call is a [`request::Request`] (method, API, path, query, body; GET and DELETE carry no body
//! by construction) addressed by [`config`] (the two APIs' base URLs, timeouts). The
//! [`client::Client`] adds the token ([`auth`]: sign-in, token and identity rules), waits for a
//! slot ([`limit`]: 3 open requests to the data API, 10 to the systemic one), hands it to
//! [`exchange`] (read whole, with progress, as a stream, or an upload) over a
//! [`transport::Transport`] (the one place the network and the clock are touched: gloo-net in
//! the browser, a scripted fake in tests), repeats what [`retry`] says may be repeated, and reads
//! every failure into one [`error::ApiError`]; [`standing`] reads the failures that stand at once
//! (maintenance, a guest's used-up budget).

pub mod auth;
pub mod client;
pub mod config;
pub mod error;
pub(crate) mod exchange;
pub mod limit;
pub mod request;
pub mod retry;
pub mod standing;
pub mod transport;
