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
//! # The crate, by folder
//!
//! | folder | what it holds | uses |
//! |---|---|---|
//! | [`machinery`] | how a request travels and its answer is read: [`Client`], config, requests, transport, retries, limits, tokens, errors | nothing of the crate outside it |
//! | [`wire`] | what the service sends and takes: the typed records ([`Article`], [`Household`], …), the untyped [`Record`], shared answers ([`SearchResults`]) | `machinery`'s error and decoding |
//! | [`operations`] | what a console asks: one family of `impl Client` calls per module (records, search, enhance, curation, policy, artifacts, guidelines, passages, households, a member's meal plans and library, exports, erasure), each with its own small request and answer types | both |
//!
//! Each folder's `mod.rs` maps it. The modules keep their earlier paths too
//! (`larder_api::client`, `larder_api::records`, `larder_api::types` for [`wire`], …), re-exported
//! below, so code written against them needs no change. What the records are is the contract's
//! (`larder_contract`): `tests/contract_fields.rs` and `tests/contract_types.rs` hold every typed
//! record to its collection's fields, by name, JSON type and optionality.

#![warn(missing_docs)]

pub mod machinery;
pub mod operations;
pub mod wire;

pub use machinery::{auth, client, config, error, limit, request, retry, standing, transport};
pub use operations::{
    account, artifacts, curation, enhance, erasure, exports, guidelines, household_search,
    households, member_data, passages, policy, records, references, search, shares, status,
};
/// The wire types under their earlier name (see [`wire`]).
pub use wire as types;

pub use artifacts::{ArtifactUpload, Download};
pub use auth::{Credentials, Identity, IdentitySource, ProviderGrant, ProviderLogout};
pub use client::{CancelToken, Client, Notice};
pub use config::{Api, ClientConfig};
pub use curation::{
    BackfillOutcome, EditorialOutcome, EditorialPolicy, EnrichBatchOutcome, EnrichOutcome,
    Enrichment, Refusal,
};
pub use erasure::Erasure;
pub use error::{ApiError, ApiFailure};
pub use larder_contract::{collections, enums, Collection, ErrorKind};
pub use member_data::PlanOfDay;
pub use policy::{PolicyChange, PolicyOutcome, PolicySelection};
pub use request::{Method, Request};
pub use search::SearchQuery;
pub use standing::{DailyBudget, Maintenance};
pub use transport::{Progress, Transport};
pub use wire::{
    Article, Artifact, FcTable, Guide, Guideline, Household, Listed, Member, Organization, Passage,
    Profile, RCollection, Record, Resource, SearchResults, Textbook,
};

/// The client over the browser's fetch.
#[cfg(target_arch = "wasm32")]
pub type BrowserClient = Client<transport::gloo::GlooTransport>;
