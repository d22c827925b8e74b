//! larder-api: the typed client of the Nutrition Data & Household API.
//!
//! The rules of the contract (tokens, retries, errors) are plain Rust over a [`Transport`], so
//! they are tested natively with a virtual clock; in the browser the transport is gloo-net.
//!
//! ```no_run
//! # async fn example() -> Result<(), larder_api::ApiError> {
//! use larder_api::{Client, ClientConfig, Credentials, collections};
//! # let transport = larder_api::transport::fake::FakeTransport::scripted(0, vec![]);
//! let client = Client::new(transport, ClientConfig::new("https://api.example.org"));
//! let me = client.sign_in(Credentials::user("curator", "secret")).await?;
//! println!("signed in as {}", me.display_name());
//! let page = client.list(&collections::ARTICLES, 20, 0).await?;
//! # Ok(()) }
//! ```

pub mod auth;
pub mod client;
pub mod config;
pub mod error;
pub mod records;
pub mod request;
pub mod retry;
pub mod transport;

pub use auth::{Credentials, Identity, IdentitySource};
pub use client::{CancelToken, Client, Notice};
pub use config::{Api, ClientConfig};
pub use error::{ApiError, ApiFailure};
pub use larder_contract::{collections, enums, Collection, ErrorKind};
pub use records::{Listed, Record};
pub use request::{Method, Request};
pub use transport::Transport;

/// The client over the browser's fetch.
#[cfg(target_arch = "wasm32")]
pub type BrowserClient = Client<transport::gloo::GlooTransport>;
