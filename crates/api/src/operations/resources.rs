//! Typed record operations over [`Resource`] types: the generic record operations, decoded.

use serde_json::Value;

use super::records::changed_fields;
use crate::machinery::client::Client;
use crate::machinery::error::ApiError;
use crate::machinery::transport::Transport;
use crate::wire::{Message, Resource};

fn typed<R: Resource>(record: crate::wire::Record) -> Result<R, ApiError> {
    crate::machinery::client::decode(Value::Object(record))
}

impl<T: Transport> Client<T> {
    /// `GET {collection}/{identifier}`, e.g. `client.get::<Article>("vit-d")`.
    pub async fn get<R: Resource>(&self, identifier: &str) -> Result<R, ApiError> {
        typed(self.get_record(&R::COLLECTION, identifier).await?)
    }

    /// `POST {collection}`; a URN record carries its slug in `urn`.
    pub async fn create<R: Resource>(&self, record: &R) -> Result<R, ApiError> {
        let fields = super::records::creatable(&R::COLLECTION, &record.to_record()?);
        typed(self.create_record(&R::COLLECTION, fields).await?)
    }

    /// `PATCH {collection}/{identifier}` with only the changed fields of `after` that the update
    /// allow-list takes; no request when nothing changed.
    pub async fn update<R: Resource + Clone>(
        &self,
        identifier: &str,
        before: &R,
        after: &R,
    ) -> Result<R, ApiError> {
        let (old, new) = (before.to_record()?, after.to_record()?);
        if changed_fields(&R::COLLECTION, &old, &new).is_empty() {
            return Ok(before.clone());
        }
        typed(
            self.update_record(&R::COLLECTION, identifier, &old, &new)
                .await?,
        )
    }

    /// `PUT {collection}/{identifier}` with every mutable field of `record`.
    pub async fn put<R: Resource>(&self, identifier: &str, record: &R) -> Result<R, ApiError> {
        typed(
            self.put_record(&R::COLLECTION, identifier, &record.to_record()?)
                .await?,
        )
    }

    /// `DELETE {collection}/{identifier}`.
    pub async fn delete<R: Resource>(&self, identifier: &str) -> Result<Message, ApiError> {
        Message::from_result(self.delete_record(&R::COLLECTION, identifier).await?)
    }
}
