//! Reading for "Download my data": the household, its members and their saved things as the
//! service answered them (raw JSON, unknown keys and `null`s kept), a page at a time; meal plans
//! a day at a time (see [`super::member_data`] for whether a service offers them).

use futures::StreamExt;
use larder_contract::member_data::{LibraryKind, MEAL_PLANS};
use larder_contract::ErrorKind;
use serde_json::Value;

use super::households::list_from_result;
use super::member_data::library_list;
use super::records::path_segment;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

/// Requests for one member's plans and lists open at once: the three connections a caller
/// keeps to a service (interface.md §8), so an export of many members and days never floods it.
pub const READS_AT_ONCE: usize = 3;

/// One member's meal plans (one per day that has one, in date order) and library lists (in the
/// order asked), as answered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberExtras {
    /// The day's plans.
    pub plans: Vec<Value>,
    /// Each kind's list.
    pub lists: Vec<(&'static LibraryKind, Vec<Value>)>,
}

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

    /// The member's meal plans on each of `days` (`YYYY-MM-DD`), in that order, as answered:
    /// production answers one day at a time, and a day without a plan is a 404 in the envelope,
    /// left out here. A route the service does not have (a bare 404 or a 405) is an error here:
    /// ask [`Client::meal_plan_value`] first.
    pub async fn member_meal_plans(
        &self,
        member_id: &str,
        days: &[String],
    ) -> Result<Vec<Value>, ApiError> {
        Ok(self.member_extras(member_id, days, &[]).await?.plans)
    }

    /// Everything [`MemberExtras`] holds for one member: the meal plans of `days` and the lists
    /// of `kinds`, [`READS_AT_ONCE`] requests at a time, in one queue.
    pub async fn member_extras(
        &self,
        member_id: &str,
        days: &[String],
        kinds: &[&'static LibraryKind],
    ) -> Result<MemberExtras, ApiError> {
        let member = path_segment(member_id);
        let plans_path = format!("members/{member}/{MEAL_PLANS}");
        let day_reads = days.iter().map(|day| {
            let request =
                Request::new(Api::System, Method::Get, plans_path.clone()).query("date", day);
            (None, request)
        });
        let kind_reads = kinds.iter().map(|kind| {
            let request = Request::new(
                Api::System,
                Method::Get,
                format!("members/{member}/{}", kind.path),
            );
            (Some(*kind), request)
        });
        let reads = day_reads
            .chain(kind_reads)
            .map(|(kind, request)| async move { (kind, self.execute(request).await) });
        let mut answers = futures::stream::iter(reads).buffered(READS_AT_ONCE);
        let mut extras = MemberExtras::default();
        while let Some((kind, answer)) = answers.next().await {
            match (kind, answer) {
                (None, Ok(plan)) => extras.plans.push(plan),
                (None, Err(error))
                    if error.is_kind(ErrorKind::NotFound) && !error.is_not_offered() => {}
                (Some(kind), Ok(list)) => extras.lists.push((kind, library_list(kind, list)?)),
                (_, Err(error)) => return Err(error),
            }
        }
        Ok(extras)
    }
}
