//! Guidelines of a guide: the ordered listing and the bulk import.

use axum::extract::State;
use larder_contract::collections::{GUIDELINES, GUIDELINE_IMPORT, GUIDES};
use larder_contract::validate::{Extra, Loc, Problems};
use serde::Deserialize;
use serde_json::{json, Value};

use super::children::{guide_of, taken_sequences};
use super::{blocking, find, require, viewer, Page};
use crate::auth::Caller;
use crate::bounded_json::BoundedJson;
use crate::error::{ApiError, ApiResult, Envelope, PathParams, QueryParams};
use crate::model::{self, rules};
use crate::store::{now, ChildOrder};
use crate::SharedState;

/// `limit` and `offset` of a by-parent listing (1000 by default, as production).
#[derive(Debug, Deserialize)]
pub struct ChildPage {
    /// Page size, 1..=1000.
    #[serde(default = "thousand")]
    pub limit: u32,
    /// Records skipped.
    #[serde(default)]
    pub offset: u32,
}

fn thousand() -> u32 {
    1000
}

impl ChildPage {
    /// As a checked page.
    pub fn checked(&self) -> ApiResult<Page> {
        let page = Page {
            limit: self.limit,
            offset: self.offset,
        };
        page.validate()?;
        Ok(page)
    }
}

/// The parent of a by-parent route: production takes the full URN only (a slug is a 404).
pub fn full_urn_only(urn: &str, prefix: &str) -> ApiResult<()> {
    if urn.starts_with(prefix) {
        Ok(())
    } else {
        Err(ApiError::not_found(format!(
            "{urn:?} was not found: by-parent routes take a full URN ({prefix}...)."
        )))
    }
}

/// `GET guidelines/by-guide/{urn}?limit&offset`: full guidelines by `sequence_no`.
pub async fn by_guide(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    QueryParams(page): QueryParams<ChildPage>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let page = page.checked()?;
    full_urn_only(&urn, "urn:guide:")?;
    blocking(move || {
        let guide = find(&state, &GUIDES, &urn, viewer)?;
        let guidelines = state.store.records().children(
            &GUIDELINES,
            guide.urn.as_deref().unwrap_or_default(),
            viewer,
            ChildOrder::Sequence,
            page.limit,
            page.offset,
        )?;
        Ok(Envelope(Value::Array(guidelines)))
    })
    .await
}

/// Memory an import's parsed body may take: four times its 8 MiB body limit, where 1,000 real
/// guidelines take their text and about a kilobyte each (see [`crate::bounded_json`]).
pub const IMPORT_MEMORY_MIB: usize = 32;

/// `POST guidelines/by-guide/{urn}/import` with `{guidelines: [...]}` (1 to 1000 items, each the
/// guideline create schema without `guide_urn`): every item is checked before anything is
/// stored, then all are stored at once. Missing sequence numbers continue after the guide's last;
/// an explicit number may not repeat within the batch (422) nor be one the guide holds (409).
pub async fn import(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    BoundedJson(body): BoundedJson<IMPORT_MEMORY_MIB>,
) -> ApiResult<Envelope<Value>> {
    let identity = require(&caller, GUIDELINES.roles.create, "importing guidelines")?.clone();
    full_urn_only(&urn, "urn:guide:")?;
    blocking(move || {
        let body = model::object(body)?;
        let body = model::validated(GUIDELINE_IMPORT, Extra::Forbid, &body)?;
        let guide = guide_of(&state, &urn)?;
        let urn = guide.urn.clone().unwrap_or_default();
        let items = body["guidelines"].as_array().cloned().unwrap_or_default();
        let mut problems = Problems::new();
        let mut explicit = std::collections::HashSet::new();
        for (index, item) in items.iter().enumerate() {
            if let Some(sequence) = item["sequence_no"].as_i64() {
                if !explicit.insert(sequence) {
                    problems.within(Loc::Key("guidelines".into()), |p| {
                        p.add(
                            Some(Loc::Index(index)),
                            "value_error",
                            format!(
                                "Value error, sequence_no {sequence} appears twice in this import"
                            ),
                            None,
                            None,
                        )
                    });
                }
            }
        }
        model::finish(&problems)?;
        // As a single create answers 409 for a number the guide holds (production.md §2.3), so
        // does an import. Production's import does not check explicit numbers against the
        // guide's guidelines (production.md §5.1); the reference service keeps one rule on both
        // paths, stricter than production there.
        let held = taken_sequences(&state, &urn, "")?;
        let mut clashes: Vec<i64> = explicit.intersection(&held).copied().collect();
        if !clashes.is_empty() {
            clashes.sort_unstable();
            let shown: Vec<String> = clashes.iter().take(20).map(i64::to_string).collect();
            return Err(ApiError::conflict(format!(
                "sequence_no {} {} taken in {urn}{}.",
                shown.join(", "),
                if clashes.len() == 1 { "is" } else { "are" },
                if clashes.len() > 20 {
                    format!(" ({} more)", clashes.len() - 20)
                } else {
                    String::new()
                }
            )));
        }
        let mut next = state
            .store
            .records()
            .max_sequence(&GUIDELINES, &urn, None)?;
        let timestamp = now();
        let mut docs = Vec::with_capacity(items.len());
        for (index, item) in items.into_iter().enumerate() {
            let mut record = item.as_object().cloned().unwrap_or_default();
            record.insert("guide_urn".into(), json!(urn));
            let rule = record["rule_text"].as_str().unwrap_or_default().to_string();
            record.insert(
                "guide_region".into(),
                guide.doc.get("region").cloned().unwrap_or(Value::Null),
            );
            if record.get("title").is_none_or(Value::is_null) {
                record.insert("title".into(), json!(rules::default_title(&rule)));
            }
            if record.get("action_type").is_none_or(Value::is_null) {
                record.insert("action_type".into(), json!(rules::action_type_of(&rule)));
            }
            if record.get("sequence_no").is_none_or(Value::is_null) {
                next = next.saturating_add(1);
                while explicit.contains(&next) {
                    next = next.saturating_add(1);
                }
                record.insert("sequence_no".into(), json!(next));
            }
            match model::new_record(&GUIDELINES, record, &identity.name, &timestamp) {
                Ok(doc) => {
                    rules::guideline_under(&guide.doc, &doc)?;
                    docs.push(Value::Object(doc));
                }
                Err(error) => problems.within(Loc::Key("guidelines".into()), |p| {
                    p.add(
                        Some(Loc::Index(index)),
                        "value_error",
                        error.detail,
                        None,
                        None,
                    )
                }),
            }
        }
        model::finish(&problems)?;
        state.store.records().insert_many(&GUIDELINES, &docs)?;
        Ok(Envelope(
            json!({ "guide_urn": urn, "imported_count": docs.len() }),
        ))
    })
    .await
}
