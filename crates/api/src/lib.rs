//! larder-api: the typed client of the Nutrition Data & Household API.
//!
//! The rules of the contract (tokens, retries, errors) are plain Rust over a [`Transport`], so
//! they are tested natively with a virtual clock; in the browser the transport is gloo-net
//! (fetch with an AbortController timeout) and XMLHttpRequest for uploads with progress.
//!
//! ```no_run
//! # async fn example() -> Result<(), larder_api::ApiError> {
//! use larder_api::{collections, Article, Client, ClientConfig, Credentials, SearchQuery};
//! # let transport = larder_api::transport::fake::FakeTransport::scripted(0, vec![]);
//! let client = Client::new(transport, ClientConfig::new("https://api.example.org"));
//! let me = client.sign_in(Credentials::user("curator", "secret")).await?;
//! println!("signed in as {}", me.display_name());
//!
//! // Schema-driven screens work on plain records...
//! let page = client.list(&collections::ARTICLES, 20, 0).await?;
//! // ...typed screens on the wire types, which keep the fields they do not know.
//! let before: Article = client.get("urn:article:vit-d").await?;
//! let mut after = before.clone();
//! after.tags.push("bones".into());
//! client.update("urn:article:vit-d", &before, &after).await?; // PATCH {"tags": [...]}
//!
//! let query = SearchQuery::new("vitamin d").facet("language").page(10, 0);
//! let hits = client.search_typed::<Article>(&query).await?;
//! println!("{} of {} hits", hits.results.len(), hits.total);
//!
//! let download = client.download_artifact("0b6f0c2e-uuid", None).await?;
//! println!("{:?}, {:?} bytes", download.file_name, download.content_length);
//! # Ok(()) }
//! ```
//!
//! Operations by family: [`records`] and the typed [`Client::get`], [`Client::create`],
//! [`Client::update`], [`Client::put`], [`Client::delete`]; [`search`]; [`enhance`];
//! [`artifacts`] (by parent, create, upload, streamed download); [`guidelines`]; [`passages`];
//! [`households`] (households, members, profiles); [`member_data`] (a member's meal plans and
//! library). Wire types are in [`types`].

#![warn(missing_docs)]

pub mod artifacts;
pub mod auth;
pub mod client;
pub mod config;
pub mod enhance;
pub mod erasure;
pub mod error;
mod exchange;
pub mod exports;
pub mod guidelines;
pub mod households;
pub mod limit;
pub mod member_data;
pub mod passages;
pub mod policy;
pub mod records;
pub mod request;
mod resources;
pub mod retry;
pub mod search;
pub mod standing;
pub mod transport;
pub mod types;

pub use artifacts::{ArtifactUpload, Download};
pub use auth::{Credentials, Identity, IdentitySource};
pub use client::{CancelToken, Client, Notice};
pub use config::{Api, ClientConfig};
pub use erasure::Erasure;
pub use error::{ApiError, ApiFailure};
pub use larder_contract::{collections, enums, Collection, ErrorKind};
pub use member_data::PlanOfDay;
pub use policy::{PolicyChange, PolicyOutcome, PolicySelection};
pub use records::{Listed, Record};
pub use request::{Method, Request};
pub use search::SearchQuery;
pub use standing::{DailyBudget, Maintenance};
pub use transport::{Progress, Transport};
pub use types::{
    Article, Artifact, FcTable, Guide, Guideline, Household, Member, Passage, Profile, Resource,
    SearchResults, Textbook,
};

/// The client over the browser's fetch.
#[cfg(target_arch = "wasm32")]
pub type BrowserClient = Client<transport::gloo::GlooTransport>;
