//! Enhancement of a record by an AI agent: `PATCH {collection}/{urn}/enhance`.

use larder_contract::{Collection, IdentifierKind};
use serde_json::json;

use super::records::path_segment;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::EnhanceResult;
use crate::wire::Record;

impl<T: Transport> Client<T> {
    /// Sends `{agent, fields: {values}}` to `PATCH {collection}/{urn}/enhance`: the values an
    /// agent derived for `ai_tags`, `ai_category` and `ai_key_takeaways` (production stores them
    /// as given). Production offers it for articles only (elsewhere a bare 404) and answers
    /// `{urn, run_id, enhanced_fields, agent}`, so re-read the record afterwards. Never retried
    /// (PATCH).
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
        if !larder_contract::slug::is_valid_slug(agent.trim()) {
            return Err(ApiError::Caller(
                "An enhancement needs an agent name of lower-case letters and digits (e.g. extractive).".into(),
            ));
        }
        if fields.as_object().is_some_and(|f| f.is_empty()) {
            return Err(ApiError::Caller(
                "Give a value for at least one of AI tags, AI category and AI key takeaways."
                    .into(),
            ));
        }
        let body = json!({ "agent": agent.trim(), "fields": fields });
        let path = format!("{}/{}/enhance", collection.path, path_segment(urn));
        self.call(Request::new(Api::Data, Method::Patch(body), path))
            .await
    }
}
