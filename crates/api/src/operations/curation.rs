//! Curators' work at production's scale (production.md §10.5, §10.7): a guideline's enrichment,
//! one or in batches, an editorial policy over a selection, the embeddings backfill, and a
//! collection's autocomplete for reference pickers. Every bulk call takes a dry run; none is
//! retried (PATCH and POST).

use larder_contract::collections::guidelines::{ENRICHABLE_NAMES, MAX_ENRICH_BATCH};
use larder_contract::limits::{DEFAULT_AUTOCOMPLETE_LIMIT, MAX_PAGE_SIZE};
use larder_contract::Collection;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::records::path_segment;
use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;
use crate::wire::Record;

/// The most guidelines one editorial policy selects (production's `max_docs` ceiling).
pub const MAX_EDITORIAL_DOCS: u32 = 10_000;

/// One guideline's machine values: `{id, fields, force_fields?}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Enrichment {
    /// The guideline's UUID.
    pub id: String,
    /// Enrichable field → value.
    pub fields: Record,
    /// Fields to write even where a person set them ("overwrite edited fields").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub force_fields: Vec<String>,
}

/// `PATCH guidelines/{id}/enrich`'s answer, and an applied batch item's.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct EnrichOutcome {
    /// The guideline.
    pub id: String,
    /// The run, when applied.
    pub run_id: Option<String>,
    /// Who ran it.
    pub agent: Option<String>,
    /// What was written.
    pub enriched_fields: Vec<String>,
    /// What was left alone (human-owned, not forced).
    pub skipped_fields: Vec<String>,
    /// A dry run's would-be writes.
    pub would_enrich_fields: Vec<String>,
    /// Whether the item went through (batches only; a single enrich is always `true`).
    pub ok: Option<bool>,
    /// The service's reason for refusing this item.
    pub error: Option<String>,
}

/// `POST guidelines/enrich-batch`'s answer: counts from the service, and one result per item.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct EnrichBatchOutcome {
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Who ran it.
    pub agent: String,
    /// Items sent.
    pub total: u64,
    /// Items that went (or would go) through.
    pub succeeded: u64,
    /// Items refused, each with its reason in `results`.
    pub failed: u64,
    /// Per item, in the order sent.
    pub results: Vec<EnrichOutcome>,
}

/// What an editorial policy selects and changes. At least one selector and one change.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EditorialPolicy {
    /// Guideline UUIDs (≤ 10,000).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
    /// Words that must all match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// Query-string filters such as `guide_urn:"urn:guide:x"`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fq: Vec<String>,
    /// New lifecycle status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// New review status (`verified` records the caller as verifier).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_status: Option<String>,
    /// New visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// New applicability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applicability_status: Option<String>,
    /// Cap on the guidelines changed (1-10,000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_docs: Option<u32>,
}

impl EditorialPolicy {
    /// The same selection and change, narrowed to the guidelines that already carry every value
    /// of the change: its dry run's `matched` is the service's own count of how many hold the
    /// change after an apply (the reconciliation the console reads again).
    pub fn already_applied(&self) -> EditorialPolicy {
        let mut check = self.clone();
        let changes = [
            ("status", &self.status),
            ("review_status", &self.review_status),
            ("visibility", &self.visibility),
            ("applicability_status", &self.applicability_status),
        ];
        for (field, value) in changes {
            if let Some(value) = value {
                check
                    .fq
                    .push(format!("{field}:\"{}\"", value.replace(['"', '\\'], "")));
            }
        }
        check
    }
}

/// `POST guidelines/editorial-policy`'s answer, as the service counts it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct EditorialOutcome {
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Guidelines selected.
    pub matched: u64,
    /// Guidelines changed (0 on a dry run).
    pub updated: u64,
    /// Whether `max_docs` cut the selection.
    pub capped: bool,
    /// The cap applied.
    pub max_docs: Option<u64>,
    /// The change as the service read it.
    pub changes: Map<String, Value>,
    /// Writes lost to a concurrent change.
    pub version_conflicts: u64,
    /// Per-row refusals (`{id, error}` and the like, as the service words them).
    pub failures: Vec<Value>,
    /// Up to 25 selected rows as they were.
    pub sample: Vec<Record>,
}

/// One row an editorial policy run refused, as its answer's `failures` name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The guideline's id, where the failure names one.
    pub id: Option<String>,
    /// The service's reason, in its words.
    pub reason: String,
}

impl EditorialOutcome {
    /// Each refused row with the service's reason. Production's run is one update-by-query,
    /// whose `failures` are its search engine's bulk failures (`{index, id, cause: {type,
    /// reason}, status}`); `{id, error}`, `{id, reason}` and a bare text are read too, and
    /// anything else is shown as the JSON it is, so no refusal goes unsaid.
    pub fn refusals(&self) -> Vec<Refusal> {
        self.failures
            .iter()
            .map(|failure| {
                let text = |v: &Value| v.as_str().map(str::to_string);
                let id = failure.get("id").and_then(text);
                let cause = failure.get("cause");
                let reason = cause
                    .and_then(|c| c.get("reason"))
                    .and_then(text)
                    .or_else(|| cause.and_then(text))
                    .or_else(|| failure.get("error").and_then(text))
                    .or_else(|| {
                        failure
                            .get("error")
                            .and_then(|e| e.get("reason"))
                            .and_then(text)
                    })
                    .or_else(|| failure.get("reason").and_then(text))
                    // A shard's search failure (production passes the engine's list on as it
                    // is, wisefood-data-api's `update_by_query`): its reason is an object.
                    .or_else(|| {
                        failure
                            .get("reason")
                            .and_then(|r| r.get("reason"))
                            .and_then(text)
                    })
                    .or_else(|| text(failure))
                    .unwrap_or_else(|| failure.to_string());
                Refusal { id, reason }
            })
            .collect()
    }
}

/// `POST guidelines/embeddings/backfill`'s answer.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct BackfillOutcome {
    /// Whether nothing was queued.
    pub dry_run: bool,
    /// The guide it was limited to.
    pub guide_urn: Option<String>,
    /// Whether embedded guidelines were skipped.
    pub only_missing: bool,
    /// Queued for embedding.
    pub queued: u64,
    /// Could not be queued.
    pub failed: u64,
    /// Already embedded, left alone.
    pub skipped_already_embedded: u64,
    /// Looked at.
    pub scanned: u64,
    /// The cap applied.
    pub max_docs: Option<u64>,
}

fn check_enrichment(item: &Enrichment) -> Result<(), ApiError> {
    if item.fields.is_empty() {
        return Err(ApiError::Caller(format!(
            "Guideline {}: give at least one value to enrich.",
            item.id
        )));
    }
    let unknown = item
        .fields
        .keys()
        .chain(&item.force_fields)
        .find(|name| !ENRICHABLE_NAMES.contains(&name.as_str()));
    match unknown {
        Some(name) => Err(ApiError::Caller(format!(
            "{name} cannot be enriched; only the guideline's facets and enrichment metadata can."
        ))),
        None => Ok(()),
    }
}

fn check_agent(agent: &str) -> Result<&str, ApiError> {
    let agent = agent.trim();
    if larder_contract::slug::is_valid_slug(agent) {
        Ok(agent)
    } else {
        Err(ApiError::Caller(
            "An enrichment needs an agent name of lower-case letters and digits.".into(),
        ))
    }
}

impl<T: Transport> Client<T> {
    /// `PATCH guidelines/{id}/enrich` with `{agent, fields, force_fields?}`.
    pub async fn enrich_guideline(
        &self,
        agent: &str,
        item: &Enrichment,
    ) -> Result<EnrichOutcome, ApiError> {
        let agent = check_agent(agent)?;
        check_enrichment(item)?;
        let mut body = json!({"agent": agent, "fields": item.fields});
        if !item.force_fields.is_empty() {
            body["force_fields"] = json!(item.force_fields);
        }
        let path = format!("guidelines/{}/enrich", path_segment(&item.id));
        self.call(Request::new(Api::Data, Method::Patch(body), path))
            .await
    }

    /// `POST guidelines/enrich-batch`: 1 to 200 items; refusals come back per item.
    pub async fn enrich_guidelines(
        &self,
        agent: &str,
        items: &[Enrichment],
        dry_run: bool,
    ) -> Result<EnrichBatchOutcome, ApiError> {
        let agent = check_agent(agent)?;
        if items.is_empty() || items.len() > MAX_ENRICH_BATCH {
            return Err(ApiError::Caller(format!(
                "An enrichment batch takes 1 to {MAX_ENRICH_BATCH} guidelines, not {}.",
                items.len()
            )));
        }
        items.iter().try_for_each(check_enrichment)?;
        let body = json!({"agent": agent, "items": items, "dry_run": dry_run});
        self.call(Request::new(
            Api::Data,
            Method::Post(body),
            "guidelines/enrich-batch",
        ))
        .await
    }

    /// `POST guidelines/editorial-policy` (administrators); run it with `dry_run` first.
    pub async fn editorial_policy(
        &self,
        policy: &EditorialPolicy,
        dry_run: bool,
    ) -> Result<EditorialOutcome, ApiError> {
        let selects = !policy.ids.is_empty() || policy.q.is_some() || !policy.fq.is_empty();
        let changes = policy.status.is_some()
            || policy.review_status.is_some()
            || policy.visibility.is_some()
            || policy.applicability_status.is_some();
        if !selects || !changes {
            return Err(ApiError::Caller(
                "An editorial policy needs a selection (ids, words or filters) and at least one change."
                    .into(),
            ));
        }
        let too_many = policy.ids.len() > MAX_EDITORIAL_DOCS as usize;
        if too_many
            || policy
                .max_docs
                .is_some_and(|m| !(1..=MAX_EDITORIAL_DOCS).contains(&m))
        {
            return Err(ApiError::Caller(format!(
                "An editorial policy changes at most {MAX_EDITORIAL_DOCS} guidelines."
            )));
        }
        let mut body = serde_json::to_value(policy)
            .map_err(|e| ApiError::Caller(format!("Unsendable policy: {e}")))?;
        body["dry_run"] = json!(dry_run);
        self.call(Request::new(
            Api::Data,
            Method::Post(body),
            "guidelines/editorial-policy",
        ))
        .await
    }

    /// `POST guidelines/embeddings/backfill?…` (administrators), with a guide, `only_missing` and
    /// `max_docs`; the status page's plain form is [`Client::backfill_embeddings`].
    pub async fn backfill_guideline_embeddings(
        &self,
        guide_urn: Option<&str>,
        only_missing: bool,
        max_docs: Option<u32>,
        dry_run: bool,
    ) -> Result<BackfillOutcome, ApiError> {
        if max_docs.is_some_and(|m| !(1..=MAX_EDITORIAL_DOCS).contains(&m)) {
            return Err(ApiError::Caller(format!(
                "A backfill looks at 1 to {MAX_EDITORIAL_DOCS} guidelines."
            )));
        }
        let mut request = Request::new(
            Api::Data,
            Method::Post(json!({})),
            "guidelines/embeddings/backfill",
        );
        if let Some(urn) = guide_urn {
            request = request.query("guide_urn", urn);
        }
        request = request.query("only_missing", only_missing);
        if let Some(max) = max_docs {
            request = request.query("max_docs", max);
        }
        self.call(request.query("dry_run", dry_run)).await
    }

    /// `GET {collection}/autocomplete?q=&limit=`: the items a reference picker offers, each as
    /// the contract's `routes.autocomplete.item` names its keys. Production matches whole words
    /// only and its guidelines route fails on any hit: see
    /// [`larder_contract::collections::Autocomplete::usable_in_production`].
    pub async fn autocomplete(
        &self,
        collection: &Collection,
        q: &str,
        limit: Option<u32>,
    ) -> Result<Vec<Record>, ApiError> {
        if !collection.routes.autocomplete.offered.by_reference() {
            return Err(ApiError::Caller(format!(
                "{} offer no autocomplete; search them instead.",
                collection.path
            )));
        }
        let limit = limit.unwrap_or(DEFAULT_AUTOCOMPLETE_LIMIT);
        if !(1..=MAX_PAGE_SIZE).contains(&limit) {
            return Err(ApiError::Caller(format!(
                "An autocomplete answers 1 to {MAX_PAGE_SIZE} items."
            )));
        }
        let request = Request::data_get(format!("{}/autocomplete", collection.path))
            .query("q", q)
            .query("limit", limit);
        self.call(request).await
    }
}
