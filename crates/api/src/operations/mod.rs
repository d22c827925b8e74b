//! What a console asks the service: one family of calls per module, each an `impl Client` block
//! over the [`crate::machinery`], answering [`crate::wire`] types. A call's own small request and
//! answer types live beside it (a search's [`search::SearchQuery`], an upload's
//! [`artifacts::ArtifactUpload`], a policy call's selection and outcome, an erasure's answer);
//! the records and the shapes several calls share are in [`crate::wire`].
//!
//! - [`records`]: list, read, create, PATCH (only what changed), PUT and delete any collection's
//!   records, driven by the contract's descriptors; `resources` (private) the same, typed
//!   (`Client::get::<Article>`, `create`, `update`, `put`, `delete`).
//! - [`search`]: `POST {collection}/search` (filters, facets, sorting, highlights, paging) and
//!   the older `GET articles/search`.
//! - [`enhance`], [`policy`]: an agent's enhancement of one record; a reading policy over a
//!   selection, with a dry run.
//! - [`curation`]: guidelines' enrichment (one or in batches), editorial policy, embeddings
//!   backfill, and any collection's autocomplete for reference pickers.
//! - [`artifacts`]: files by parent, created, uploaded with progress, downloaded as a stream.
//! - [`guidelines`], [`passages`]: a guide's guidelines and a textbook's passages: listed,
//!   searched, imported or replaced in bulk.
//! - [`member_data`]: a member's meal plans (one day at a time) and library.
//! - [`households`], [`exports`], [`erasure`]: households, members and profiles on the systemic
//!   API; reading them raw for "Download my data"; erasing one's account.
//! - [`household_search`]: an administrator's household listing searched, sorted, filtered.
//! - [`account`], [`shares`]: a user's consent, a guest's claim of their account, share links.
//! - [`status`]: the administrator's status page (health, indices, embeddings, backfill).
//! - [`references`]: reference pickers' finds by title and a stored URN's title.

pub mod account;
pub mod artifacts;
pub mod curation;
pub mod enhance;
pub mod erasure;
pub mod exports;
pub mod guidelines;
pub mod household_search;
pub mod households;
pub mod member_data;
pub mod passages;
pub mod policy;
pub mod records;
pub mod references;
mod resources;
pub mod search;
pub mod shares;
pub mod status;
