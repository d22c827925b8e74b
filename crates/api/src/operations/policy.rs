//! Bulk reading policy (production.md §8 row 4): `POST {collection}/policy` sets
//! `reader_visibility` and/or `indexing_tier` on every record of a selection, with a dry run
//! that counts and samples first. Which collections offer it is the contract's
//! (`Collection::reading_policy`).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::machinery::client::decode;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::Record;
use larder_contract::Collection;

/// Which records a policy call changes: these URNs, and/or a search (`q`, `fq`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolicySelection {
    /// Full URNs.
    pub urns: Vec<String>,
    /// Full-text query.
    pub q: Option<String>,
    /// `field:value` filters.
    pub fq: Vec<String>,
}

impl PolicySelection {
    /// Whether it selects nothing in particular (the service refuses that: it means every record).
    pub fn is_everything(&self) -> bool {
        self.urns.is_empty()
            && self
                .q
                .as_deref()
                .is_none_or(|q| q.trim().is_empty() || q.trim() == "*")
            && self.fq.is_empty()
    }
}

/// What a policy call sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolicyChange {
    /// `public`, `expert_only` or `hidden`.
    pub reader_visibility: Option<String>,
    /// An indexing tier (`prime` ...).
    pub indexing_tier: Option<String>,
    /// Removes the editor's tier (the agent's `ai_indexing_tier` applies again).
    pub clear_indexing_tier: bool,
}

impl PolicyChange {
    /// Whether it changes anything.
    pub fn is_empty(&self) -> bool {
        self.reader_visibility.is_none()
            && self.indexing_tier.is_none()
            && !self.clear_indexing_tier
    }
}

/// The answer of a policy call.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PolicyOutcome {
    /// Whether nothing was written.
    #[serde(default)]
    pub dry_run: bool,
    /// Records the selection matched.
    pub matched: u64,
    /// Records changed (0 on a dry run).
    #[serde(default)]
    pub updated: u64,
    /// Whether more matched than one call changes.
    #[serde(default)]
    pub capped: bool,
    /// The most records one call changes.
    #[serde(default)]
    pub max_docs: Option<u64>,
    /// The first matches (`urn`, `title` and their policy fields).
    #[serde(default)]
    pub sample: Vec<Record>,
    /// Records the service could not change because they changed meanwhile.
    #[serde(default)]
    pub version_conflicts: u64,
    /// Per-record failures as the service reported them.
    #[serde(default)]
    pub failures: Vec<Value>,
    /// Keys this client does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The body of a policy call: only what is set, as production refuses unknown keys.
pub fn policy_body(selection: &PolicySelection, change: &PolicyChange, dry_run: bool) -> Value {
    let mut body = Map::new();
    if !selection.urns.is_empty() {
        body.insert("urns".into(), json!(selection.urns));
    }
    if let Some(q) = selection.q.as_deref().filter(|q| !q.trim().is_empty()) {
        body.insert("q".into(), json!(q));
    }
    if !selection.fq.is_empty() {
        body.insert("fq".into(), json!(selection.fq));
    }
    if let Some(v) = &change.reader_visibility {
        body.insert("reader_visibility".into(), json!(v));
    }
    if change.clear_indexing_tier {
        body.insert("clear_indexing_tier".into(), json!(true));
    } else if let Some(t) = &change.indexing_tier {
        body.insert("indexing_tier".into(), json!(t));
    }
    body.insert("dry_run".into(), json!(dry_run));
    Value::Object(body)
}

impl<T: Transport> Client<T> {
    /// `POST {collection}/policy`. `Ok(None)` when the service does not offer it (404 without
    /// the envelope, or 405) or the contract gives the collection no policy: the console then
    /// offers no reading-policy action. A selection of everything or no change is refused here,
    /// before sending. Never retried (POST).
    pub async fn set_reading_policy(
        &self,
        collection: &Collection,
        selection: &PolicySelection,
        change: &PolicyChange,
        dry_run: bool,
    ) -> Result<Option<PolicyOutcome>, ApiError> {
        let Some(policy) = collection.reading_policy() else {
            return Ok(None);
        };
        if selection.is_everything() {
            return Err(ApiError::Caller(
                "A reading policy needs a selection: records, a query or filters.".into(),
            ));
        }
        if change.is_empty() {
            return Err(ApiError::Caller(
                "Choose a reader visibility or an indexing tier.".into(),
            ));
        }
        let body = policy_body(selection, change, dry_run);
        let path = format!("{}/{}", collection.path, policy.route);
        match self
            .execute(Request::new(Api::Data, Method::Post(body), path))
            .await
        {
            Ok(result) => decode(result).map(Some),
            Err(error) if error.is_not_offered() => Ok(None),
            Err(error) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_carries_only_what_is_set() {
        let selection = PolicySelection {
            urns: vec!["urn:article:a".into()],
            ..Default::default()
        };
        let change = PolicyChange {
            reader_visibility: Some("hidden".into()),
            ..Default::default()
        };
        assert_eq!(
            policy_body(&selection, &change, true),
            json!({"urns": ["urn:article:a"], "reader_visibility": "hidden", "dry_run": true})
        );
        let search = PolicySelection {
            q: Some("iron".into()),
            fq: vec!["study_type:RCT".into()],
            ..Default::default()
        };
        let clear = PolicyChange {
            indexing_tier: Some("prime".into()),
            clear_indexing_tier: true,
            ..Default::default()
        };
        assert_eq!(
            policy_body(&search, &clear, false),
            json!({"q": "iron", "fq": ["study_type:RCT"], "clear_indexing_tier": true, "dry_run": false})
        );
    }

    #[test]
    fn everything_is_not_a_selection() {
        assert!(PolicySelection::default().is_everything());
        let star = PolicySelection {
            q: Some(" * ".into()),
            ..Default::default()
        };
        assert!(star.is_everything());
        assert!(PolicyChange::default().is_empty());
    }
}
