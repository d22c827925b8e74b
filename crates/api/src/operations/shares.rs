//! Share links (issue 41, production.md §10.4): the caller's links listed, a member's meal plan
//! shared, a link revoked. The public page of a link is production's; a console lists and
//! revokes. Where the service lacks the routes (production's households service at S) each call
//! answers `Ok(None)`.

use larder_contract::shares::{MAX_SHARE_LIST, MEAL_PLAN};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::account::unless_absent;
use super::records::path_segment;
use crate::machinery::client::{decode, Client};
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

/// One of the caller's links, as `GET shares` lists it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShareLink {
    /// The unguessable token the public address ends with.
    pub token: String,
    /// `meal_plan`, `saved_meal_plan` or `weekly_meal_plan`.
    #[serde(default)]
    pub kind: String,
    /// Its title.
    #[serde(default)]
    pub title: String,
    /// When it was made.
    #[serde(default)]
    pub created_at: Option<String>,
    /// When it stops working; `None` = until revoked.
    #[serde(default)]
    pub expires_at: Option<String>,
    /// Whether its owner revoked it.
    #[serde(default)]
    pub revoked: bool,
    /// Whether it still opens (neither revoked nor expired).
    #[serde(default)]
    pub live: bool,
    /// How often it was opened.
    #[serde(default)]
    pub view_count: u64,
    /// When it was last opened.
    #[serde(default)]
    pub last_viewed_at: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `POST shares`'s body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewShare {
    /// What is shared (see `larder_contract::shares::SHARE_KINDS`).
    pub kind: String,
    /// The shared plan's id.
    pub id: String,
    /// The member it belongs to (needed for a weekly plan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    /// A title; the service names it when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Days it lives (1–365); absent = until revoked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_days: Option<i64>,
}

impl NewShare {
    /// A share of a member's day's meal plan `plan_id`.
    pub fn meal_plan(plan_id: &str, member_id: &str) -> NewShare {
        NewShare {
            kind: MEAL_PLAN.into(),
            id: plan_id.into(),
            member_id: Some(member_id.into()),
            ..NewShare::default()
        }
    }
}

/// What `POST shares` answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CreatedShare {
    /// The link's token.
    pub token: String,
    /// Its kind.
    #[serde(default)]
    pub kind: String,
    /// Its title (the service's default when none was sent).
    #[serde(default)]
    pub title: String,
    /// When it stops working; `None` = until revoked.
    #[serde(default)]
    pub expires_at: Option<String>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Deserialize)]
struct Listed {
    shares: Vec<ShareLink>,
}

impl<T: Transport> Client<T> {
    /// The address of a link: `page` (config.json's `share_page`, the page that shows a shared
    /// plan, its `{token}` filled) when there is one, else the service's own public read
    /// (`GET shares/public/{token}` on the systemic API: the plan as JSON).
    pub fn public_share_url(&self, token: &str, page: Option<&str>) -> String {
        let token = path_segment(token);
        match page {
            Some(page) => page.replacen(larder_start::config::TOKEN_PLACEHOLDER, &token, 1),
            None => {
                let path = format!("shares/public/{token}");
                self.config().url(Api::System, &path, &[])
            }
        }
    }

    /// `GET shares?limit=`: the caller's own links, newest first (`limit` clamped to 1–200).
    /// `Ok(None)` where the service lacks the route.
    pub async fn share_links(&self, limit: u32) -> Result<Option<Vec<ShareLink>>, ApiError> {
        let limit = i64::from(limit).clamp(1, MAX_SHARE_LIST);
        let request = Request::new(Api::System, Method::Get, "shares").query("limit", limit);
        match unless_absent(self.execute(request).await)? {
            Some(result) => decode::<Listed>(result).map(|listed| Some(listed.shares)),
            None => Ok(None),
        }
    }

    /// `POST shares`: a new link. `Ok(None)` where the service lacks the route; the service's
    /// own refusals ("No such meal plan", 403 for someone else's plan) are errors.
    pub async fn create_share(&self, share: &NewShare) -> Result<Option<CreatedShare>, ApiError> {
        let body = serde_json::to_value(share).map_err(|e| ApiError::Caller(e.to_string()))?;
        let request = Request::new(Api::System, Method::Post(body), "shares");
        match unless_absent(self.execute(request).await)? {
            Some(result) => decode(result).map(Some),
            None => Ok(None),
        }
    }

    /// `DELETE shares/{token}`: the link stops working (the service keeps its row).
    /// `Ok(Some(true))` when revoked; `Ok(None)` where the service lacks the route; a link that
    /// is not the caller's, unknown or already revoked is the service's 404.
    pub async fn revoke_share(&self, token: &str) -> Result<Option<bool>, ApiError> {
        let path = format!("shares/{}", path_segment(token));
        let request = Request::new(Api::System, Method::Delete, path);
        match unless_absent(self.execute(request).await)? {
            Some(result) => Ok(Some(
                result
                    .get("revoked")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| ApiError::Decode {
                        path: "result.revoked".into(),
                        message: "expected a boolean".into(),
                    })?,
            )),
            None => Ok(None),
        }
    }
}
