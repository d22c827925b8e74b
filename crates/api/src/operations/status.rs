//! The administrator's status page (issue 40, production.md §10.6): the service's health, its
//! indices' drift, embedding coverage, and the article and guideline backfills. All on the data
//! API; each call answers `Ok(None)` where the service lacks the route.

use larder_contract::status::embedded;
use larder_contract::Collection;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::account::unless_absent;
use crate::machinery::client::{decode, Client};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

/// The search engine (production's `Cluster`): reachable with its state, or not with an error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Whether it answered.
    #[serde(default)]
    pub reachable: bool,
    /// Its name.
    #[serde(default)]
    pub cluster_name: Option<String>,
    /// `green`, `yellow` or `red`.
    #[serde(default)]
    pub status: Option<String>,
    /// Nodes.
    #[serde(default)]
    pub number_of_nodes: Option<u64>,
    /// Shards in service.
    #[serde(default)]
    pub active_shards: Option<u64>,
    /// Shards out of service.
    #[serde(default)]
    pub unassigned_shards: Option<u64>,
    /// Why it is not reachable.
    #[serde(default)]
    pub error: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A part that is healthy or not (the cache, storage).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The cache's word for it.
    #[serde(default)]
    pub reachable: Option<bool>,
    /// Storage's word for it.
    #[serde(default)]
    pub healthy: Option<bool>,
    /// What is wrong.
    #[serde(default)]
    pub error: Option<String>,
    /// Keys this client does not know (storage's details), kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Part {
    /// Whether the part says it works.
    pub fn is_up(&self) -> bool {
        self.reachable.or(self.healthy).unwrap_or(false) && self.error.is_none()
    }
}

/// `GET system/health`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Health {
    /// All three parts up.
    pub healthy: bool,
    /// The search engine.
    #[serde(default)]
    pub elasticsearch: Cluster,
    /// The cache.
    #[serde(default)]
    pub redis: Part,
    /// Storage.
    #[serde(default)]
    pub storage: Part,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One search index (production's `Index`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IndexState {
    /// Its name (`articles`, `guidelines`, ...).
    pub index: String,
    /// Whether it exists.
    #[serde(default)]
    pub exists: bool,
    /// Documents.
    #[serde(default)]
    pub doc_count: Option<u64>,
    /// Deleted documents not yet purged.
    #[serde(default)]
    pub deleted_docs: Option<u64>,
    /// Bytes on disk.
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// Fields mapped.
    #[serde(default)]
    pub mapped_fields: Option<u64>,
    /// Fields the records carry and the index does not: drift.
    #[serde(default)]
    pub missing_fields: Vec<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `GET system/indices`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Indices {
    /// The search engine.
    #[serde(default)]
    pub cluster: Cluster,
    /// Each index.
    #[serde(default)]
    pub indices: Vec<IndexState>,
    /// The names of those with missing fields.
    #[serde(default)]
    pub drifted: Vec<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One collection's embedding coverage (production's `Embedding`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// The index (`articles`, `guidelines`, ...).
    pub index: String,
    /// Whether the index exists.
    #[serde(default)]
    pub exists: bool,
    /// Documents.
    #[serde(default)]
    pub total: u64,
    /// Documents with a vector.
    #[serde(default)]
    pub embedded: u64,
    /// Documents without one.
    #[serde(default)]
    pub missing: u64,
    /// `embedded / total` (0–1); `None` when there are none.
    #[serde(default)]
    pub coverage: Option<f64>,
    /// Vectors older than their text; `None` = not measured by this service.
    #[serde(default)]
    pub stale: Option<u64>,
    /// Vectors up to date; `None` = not measured.
    #[serde(default)]
    pub current: Option<u64>,
    /// What went wrong counting.
    #[serde(default)]
    pub error: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Coverage {
    /// The collection a backfill of this index goes to, where the service has one.
    pub fn backfill_collection(&self) -> Option<&'static Collection> {
        larder_contract::status::EMBEDDED
            .iter()
            .find(|e| e.index == self.index)
            .map(|e| e.collection)
    }

    /// Whether there is anything to backfill (missing or outdated vectors).
    pub fn wants_backfill(&self) -> bool {
        self.missing > 0 || self.stale.unwrap_or(0) > 0
    }
}

/// The embedding queue.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Queue {
    /// Its key.
    #[serde(default)]
    pub key: Option<String>,
    /// Jobs waiting; `None` when the queue could not be read.
    #[serde(default)]
    pub pending: Option<u64>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `GET system/embeddings`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Embeddings {
    /// The queue.
    #[serde(default)]
    pub queue: Queue,
    /// Each embedded collection.
    #[serde(default)]
    pub indices: Vec<Coverage>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a backfill did, or with `dry_run` would do.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Backfill {
    /// Whether nothing was changed.
    #[serde(default)]
    pub dry_run: bool,
    /// Whether documents with a vector were passed over.
    #[serde(default)]
    pub only_missing: bool,
    /// Documents queued (or, in a dry run, that would be).
    #[serde(default)]
    pub queued: u64,
    /// Documents that failed.
    #[serde(default)]
    pub failed: u64,
    /// Documents passed over because they have a vector.
    #[serde(default)]
    pub skipped_already_embedded: u64,
    /// Documents looked at.
    #[serde(default)]
    pub scanned: u64,
    /// The bound it ran with.
    #[serde(default)]
    pub max_docs: Option<u64>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<T: Transport> Client<T> {
    async fn status_read<R: serde::de::DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<Option<R>, ApiError> {
        match unless_absent(self.execute(request).await)? {
            Some(result) => decode(result).map(Some),
            None => Ok(None),
        }
    }

    /// `GET system/health` (no token needed).
    pub async fn system_health(&self) -> Result<Option<Health>, ApiError> {
        self.status_read(Request::new(Api::Data, Method::Get, "system/health"))
            .await
    }

    /// `GET system/indices` (administrators).
    pub async fn system_indices(&self) -> Result<Option<Indices>, ApiError> {
        self.status_read(Request::new(Api::Data, Method::Get, "system/indices"))
            .await
    }

    /// `GET system/embeddings` (administrators).
    pub async fn system_embeddings(&self) -> Result<Option<Embeddings>, ApiError> {
        self.status_read(Request::new(Api::Data, Method::Get, "system/embeddings"))
            .await
    }

    /// `POST {collection}/embeddings/backfill?dry_run=` (administrators), with no other
    /// parameter, as production's own page sends it: `dry_run` previews what the apply would
    /// queue. A collection without a backfill route is the caller's error, nothing sent.
    pub async fn backfill_embeddings(
        &self,
        collection: &Collection,
        dry_run: bool,
    ) -> Result<Option<Backfill>, ApiError> {
        let embedded = embedded(collection.path).ok_or_else(|| {
            ApiError::Caller(format!("{} has no embedding backfill", collection.path))
        })?;
        let request = Request::new(
            Api::Data,
            Method::Post(Value::Object(Map::new())),
            embedded.backfill_path(),
        )
        .query("dry_run", dry_run);
        self.status_read(request).await
    }
}
