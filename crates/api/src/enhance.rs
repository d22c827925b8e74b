//! Enhancement of a record by an AI agent: `PATCH {collection}/{urn}/enhance`.

use larder_contract::{Collection, IdentifierKind};
use serde_json::json;

use crate::config::Api;
use crate::error::ApiError;
use crate::records::{path_segment, Record};
use crate::request::{Method, Request};
use crate::transport::Transport;
use crate::types::EnhanceResult;
use crate::Client;

impl<T: Transport> Client<T> {
    /// Sends `{agent, fields}` to `PATCH {collection}/{urn}/enhance`. Production offers it for
    /// articles only and answers `{urn, run_id, enhanced_fields, agent}`, so re-read the record
    /// afterwards; a 405 means "not offered here". Never retried (PATCH).
    pub async fn enhance(
        &self,
        collection: &Collection,
        urn: &str,
        agent: &str,
        fields: Record,
    ) -> Result<EnhanceResult, ApiError> {
        self.send_enhance(collection, urn, agent, json!(fields))
            .await
    }

    /// Asks the agent to derive only the named fields: `{agent, fields: [names]}`. The reference
    /// server accepts this form; production documents only the object form of [`Client::enhance`],
    /// so use this one when a subset is wanted and fall back to `enhance` otherwise.
    pub async fn enhance_only(
        &self,
        collection: &Collection,
        urn: &str,
        agent: &str,
        names: &[String],
    ) -> Result<EnhanceResult, ApiError> {
        if names.is_empty() {
            return Err(ApiError::Caller(
                "Name at least one field for the agent to derive.".into(),
            ));
        }
        self.send_enhance(collection, urn, agent, json!(names))
            .await
    }

    async fn send_enhance(
        &self,
        collection: &Collection,
        urn: &str,
        agent: &str,
        fields: serde_json::Value,
    ) -> Result<EnhanceResult, ApiError> {
        if !matches!(collection.identifier, IdentifierKind::Urn { .. }) {
            return Err(ApiError::Caller(format!(
                "{} records have no URN and cannot be enhanced.",
                collection.path
            )));
        }
        if agent.trim().is_empty() {
            return Err(ApiError::Caller("An enhancement needs an agent.".into()));
        }
        let body = json!({ "agent": agent, "fields": fields });
        let path = format!("{}/{}/enhance", collection.path, path_segment(urn));
        self.call(Request::new(Api::Data, Method::Patch(body), path))
            .await
    }
}
