//! Reading for "Download my data": the household, its members and their saved things as the
//! service answered them (raw JSON, unknown keys and `null`s kept), a page at a time.

use serde_json::Value;

use super::households::list_from_result;
use super::records::path_segment;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

impl<T: Transport> Client<T> {
    /// `GET households/{id}` as answered (production and larder-server leave `members` empty
    /// here; the members are read with [`Client::member_values`]).
    pub async fn household_value(&self, id: &str) -> Result<Value, ApiError> {
        let path = format!("households/{}", path_segment(id));
        self.execute(Request::new(Api::System, Method::Get, path))
            .await
    }

    /// `GET members?household_id&limit&offset` as answered: each member with its `profile`.
    pub async fn member_values(
        &self,
        household_id: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Value>, ApiError> {
        let request = Request::new(Api::System, Method::Get, "members")
            .query("household_id", household_id)
            .query("limit", limit)
            .query("offset", offset);
        list_from_result(self.execute(request).await?)
    }

    /// `GET members/{id}/{what}` (production's `meal-plans`, `saved-items`, `favorites`): the
    /// list, or `None` when the service does not offer the route (404 or 405).
    pub async fn member_items(
        &self,
        member_id: &str,
        what: &str,
    ) -> Result<Option<Vec<Value>>, ApiError> {
        let path = format!("members/{}/{what}", path_segment(member_id));
        match self
            .execute(Request::new(Api::System, Method::Get, path))
            .await
        {
            Ok(Value::Null) => Ok(Some(Vec::new())),
            Ok(answer) => list_from_result(answer).map(Some),
            // The member was just listed, so any 404 here is the route's absence.
            Err(error)
                if error
                    .failure()
                    .is_some_and(|f| matches!(f.status, 404 | 405)) =>
            {
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }
}
