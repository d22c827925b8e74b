//! Households, members and profiles on the systemic API (routes as wire-notes gives them).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::records::path_segment;
use crate::machinery::client::decode;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::{HttpRequest, HttpResponse, Transport};
use crate::wire::{
    Household, HouseholdChanges, Member, MemberChanges, Message, NewHousehold, NewMember, Profile,
    ProfileChanges, ProfileInput,
};
use larder_contract::ErrorKind;

/// The contract's default page of a household listing.
pub const DEFAULT_LIMIT: u32 = 100;

fn body(value: &impl Serialize) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(|e| ApiError::Caller(e.to_string()))
}

/// A list answer: a bare list, or an object holding the one list (`results`, `items`, ...).
pub(crate) fn list_from_result<R: DeserializeOwned>(result: Value) -> Result<Vec<R>, ApiError> {
    match result {
        Value::Object(mut object) => {
            let key = ["results", "items", "data", "households", "members"]
                .into_iter()
                .find(|key| object.get(*key).is_some_and(Value::is_array));
            match key.and_then(|key| object.remove(key)) {
                Some(list) => decode(list),
                None => decode(Value::Object(object)),
            }
        }
        other => decode(other),
    }
}

/// `None` for a 404, so "has none" is not an error.
fn none_if_missing<R>(result: Result<R, ApiError>) -> Result<Option<R>, ApiError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(error) if error.is_kind(ErrorKind::NotFound) => Ok(None),
        Err(error) => Err(error),
    }
}

/// `households/me`'s answer when someone else sent the request (the start-up module, the
/// moment its sign-in's token arrived): read as [`Client::own_household_answer`] reads its own.
/// `None` for an answer the client would have tried again (no answer, a 401 before renewal, a
/// 5xx, a throttle): the caller sends the read itself then, with the client's retries.
pub fn own_household_answered(response: HttpResponse) -> Option<Result<Option<Value>, ApiError>> {
    match response.status {
        200 | 404 => Some(none_if_missing(crate::machinery::client::interpret(
            response,
        ))),
        _ => None,
    }
}

/// The household in an answer of [`Client::own_household_answer`].
pub fn own_household_from(answer: Option<Value>) -> Result<Option<Household>, ApiError> {
    answer.map(decode).transpose()
}

fn household_path(id: &str) -> String {
    format!("households/{}", path_segment(id))
}

fn member_path(id: &str) -> String {
    format!("members/{}", path_segment(id))
}

impl<T: Transport> Client<T> {
    /// `GET households/me`: the caller's household, `None` when they own none.
    pub async fn own_household(&self) -> Result<Option<Household>, ApiError> {
        own_household_from(self.own_household_answer().await?)
    }

    /// The request [`Client::own_household_answer`] sends, without its token: the start-up
    /// module sends the same one (`larder_start::household`, held equal by its tests).
    pub fn own_household_request(&self) -> HttpRequest {
        self.http_request(
            &Request::new(Api::System, Method::Get, "households/me"),
            None,
        )
    }

    /// [`Client::own_household`]'s answer, not yet decoded (`None` when they own none): a
    /// caller that starts the read early keeps the decoding (and its code) with the page that
    /// shows it; [`own_household_from`] decodes it.
    pub async fn own_household_answer(&self) -> Result<Option<Value>, ApiError> {
        none_if_missing(
            self.execute(Request::new(Api::System, Method::Get, "households/me"))
                .await,
        )
    }

    /// `GET households/{id}` (owner, or role admin or agent).
    pub async fn household(&self, id: &str) -> Result<Household, ApiError> {
        self.call(Request::new(Api::System, Method::Get, household_path(id)))
            .await
    }

    /// `POST households`, members included; the caller becomes the owner (409 if they own one).
    pub async fn create_household(&self, household: &NewHousehold) -> Result<Household, ApiError> {
        let request = Request::new(Api::System, Method::Post(body(household)?), "households");
        self.call(request).await
    }

    /// `GET households?limit&offset`: every household (role admin only).
    pub async fn households(&self, limit: u32, offset: u32) -> Result<Vec<Household>, ApiError> {
        let request = Request::new(Api::System, Method::Get, "households")
            .query("limit", limit)
            .query("offset", offset);
        list_from_result(self.execute(request).await?)
    }

    /// `PATCH households/{id}` with the fields that are set.
    pub async fn update_household(
        &self,
        id: &str,
        changes: &HouseholdChanges,
    ) -> Result<Household, ApiError> {
        let request = Request::new(
            Api::System,
            Method::Patch(body(changes)?),
            household_path(id),
        );
        self.call(request).await
    }

    /// `DELETE households/{id}`.
    pub async fn delete_household(&self, id: &str) -> Result<Message, ApiError> {
        let request = Request::new(Api::System, Method::Delete, household_path(id));
        Message::from_result(self.execute(request).await?)
    }

    /// `GET members?household_id&limit&offset`.
    pub async fn members(
        &self,
        household_id: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Member>, ApiError> {
        let request = Request::new(Api::System, Method::Get, "members")
            .query("household_id", household_id)
            .query("limit", limit)
            .query("offset", offset);
        list_from_result(self.execute(request).await?)
    }

    /// Every member of a household, reading page after page of [`DEFAULT_LIMIT`] (the service
    /// answers at most that many at once), newest first as the service orders them.
    pub async fn all_members(&self, household_id: &str) -> Result<Vec<Member>, ApiError> {
        let mut all: Vec<Member> = Vec::new();
        loop {
            let page = self
                .members(household_id, DEFAULT_LIMIT, all.len() as u32)
                .await?;
            let last = (page.len() as u32) < DEFAULT_LIMIT;
            // A service that ignored `offset` would answer the same page again: stop there
            // rather than read it for ever.
            let repeated = page
                .first()
                .is_some_and(|first| all.iter().any(|m| m.id == first.id));
            if repeated {
                return Ok(all);
            }
            all.extend(page);
            if last || all.len() >= larder_contract::limits::MAX_MEMBERS_PER_HOUSEHOLD {
                return Ok(all);
            }
        }
    }

    /// `POST members`: a member of `household_id`, with a profile when given.
    pub async fn create_member(
        &self,
        household_id: &str,
        member: &NewMember,
        profile: Option<&ProfileInput>,
    ) -> Result<Member, ApiError> {
        let mut fields: Map<String, Value> = match body(member)? {
            Value::Object(fields) => fields,
            _ => Map::new(),
        };
        fields.insert("household_id".into(), Value::from(household_id));
        if let Some(profile) = profile {
            fields.insert("profile".into(), body(profile)?);
        }
        let request = Request::new(Api::System, Method::Post(Value::Object(fields)), "members");
        self.call(request).await
    }

    /// `GET members/{id}`: the member, with its profile when one exists.
    pub async fn member(&self, id: &str) -> Result<Member, ApiError> {
        self.call(Request::new(Api::System, Method::Get, member_path(id)))
            .await
    }

    /// `PATCH members/{id}` with the fields that are set.
    pub async fn update_member(
        &self,
        id: &str,
        changes: &MemberChanges,
    ) -> Result<Member, ApiError> {
        let request = Request::new(Api::System, Method::Patch(body(changes)?), member_path(id));
        self.call(request).await
    }

    /// `DELETE members/{id}`.
    pub async fn delete_member(&self, id: &str) -> Result<Message, ApiError> {
        let request = Request::new(Api::System, Method::Delete, member_path(id));
        Message::from_result(self.execute(request).await?)
    }

    /// `GET members/{id}/profile`: `None` when the member has none.
    pub async fn profile(&self, member_id: &str) -> Result<Option<Profile>, ApiError> {
        let path = format!("{}/profile", member_path(member_id));
        none_if_missing(
            self.call(Request::new(Api::System, Method::Get, path))
                .await,
        )
    }

    /// `POST members/{id}/profile`.
    pub async fn create_profile(
        &self,
        member_id: &str,
        profile: &ProfileInput,
    ) -> Result<Profile, ApiError> {
        let path = format!("{}/profile", member_path(member_id));
        let request = Request::new(Api::System, Method::Post(body(profile)?), path);
        self.call(request).await
    }

    /// `PATCH members/{id}/profile` with the fields that are set (404 when there is none).
    pub async fn update_profile(
        &self,
        member_id: &str,
        changes: &ProfileChanges,
    ) -> Result<Profile, ApiError> {
        let path = format!("{}/profile", member_path(member_id));
        let request = Request::new(Api::System, Method::Patch(body(changes)?), path);
        self.call(request).await
    }

    /// Updates the member's profile, or creates it when the service says there is none.
    pub async fn save_profile(
        &self,
        member_id: &str,
        profile: &ProfileInput,
    ) -> Result<Profile, ApiError> {
        let changes = ProfileChanges {
            dietary_groups: Some(profile.dietary_groups.clone()),
            nutritional_preferences: Some(profile.nutritional_preferences.clone()),
            allergies: profile.allergies.clone(),
            properties: profile.properties.clone(),
        };
        match self.update_profile(member_id, &changes).await {
            Err(error) if error.is_kind(ErrorKind::NotFound) => {
                self.create_profile(member_id, profile).await
            }
            other => other,
        }
    }

    /// `DELETE members/{id}/profile`.
    pub async fn delete_profile(&self, member_id: &str) -> Result<Message, ApiError> {
        let path = format!("{}/profile", member_path(member_id));
        Message::from_result(
            self.execute(Request::new(Api::System, Method::Delete, path))
                .await?,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_answer_handed_over_is_read_as_the_clients_own() {
        let household =
            json!({"id": "h-1", "name": "The Parkers", "members": [{"id": "m-1", "name": "Ann"}]});
        // Wrapped (the reference service) or bare (production): the household either way.
        for body in [
            json!({"success": true, "result": household}),
            household.clone(),
        ] {
            let answer = own_household_answered(HttpResponse::json(200, &body));
            let read = own_household_from(answer.expect("used").expect("read"));
            assert_eq!(
                read.expect("decoded").expect("a household").name,
                "The Parkers"
            );
        }
        // No household is not an error.
        let none = HttpResponse::json(404, &json!({"detail": "User does not own a household"}));
        assert!(matches!(own_household_answered(none), Some(Ok(None))));
        // A malformed 200 is the page's error to show (with its "Try again").
        let broken = own_household_answered(HttpResponse::text(200, "{not json"));
        assert!(matches!(broken, Some(Err(ApiError::Decode { .. }))));
    }

    #[test]
    fn answers_the_client_would_retry_are_read_again() {
        for status in [0, 401, 403, 429, 500, 502, 503] {
            let answer = HttpResponse::json(status, &json!({"detail": "no"}));
            assert!(own_household_answered(answer).is_none(), "{status}");
        }
    }
}
