//! `POST {collection}/search`, the older `GET articles/search`, and the searches of a guide's
//! guidelines and a textbook's passages.

use axum::extract::State;
use larder_contract::collections::{ARTICLES, GUIDELINES, GUIDES, TEXTBOOKS, TEXTBOOK_PASSAGES};
use larder_contract::limits::{
    DEFAULT_FACET_LIMIT, DEFAULT_SEARCH_LIMIT, INVALID_PAGINATION, MAX_FACET_FIELDS, MAX_FILTERS,
    MAX_HIGHLIGHT_BYTES_PER_HIT, MAX_HIGHLIGHT_FIELDS, MAX_HIGHLIGHT_TAG_LEN, MAX_PAGE_SIZE,
    MAX_SEARCH_WINDOW, MAX_SORT_KEYS,
};
use larder_contract::Collection;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::guidelines::full_urn_only;
use super::{blocking, find, viewer};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Envelope, JsonBody, PathParams, QueryParams};
use crate::model::query::{highlight, parse_filter, parse_sort, terms, valid_field};
use crate::store::{NaturalOrder, SearchQuery, Viewer};
use crate::SharedState;

/// The deepest page a search reaches: `offset + limit` may not pass it.
pub const MAX_WINDOW: i64 = MAX_SEARCH_WINDOW as i64;
const DEFAULT_HIGHLIGHT_FIELDS: &[&str] = &[
    "title",
    "abstract",
    "content",
    "description",
    "rule_text",
    "text",
];

/// A string or a list of strings (`fq`, `fields`, `fl` and `highlight_fields` come both ways).
#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
pub enum OneOrMany {
    /// One string; for `fl`, `fields` and `highlight_fields` it may be comma-separated.
    One(String),
    /// A list.
    Many(Vec<String>),
}

impl OneOrMany {
    fn items(&self, split_commas: bool) -> Vec<String> {
        let items = match self {
            OneOrMany::One(one) if split_commas => one.split(',').map(str::to_string).collect(),
            OneOrMany::One(one) => vec![one.clone()],
            OneOrMany::Many(many) => many.clone(),
        };
        items
            .into_iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// The body of a search.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SearchBody {
    /// Full-text query; empty or `*` matches everything.
    pub q: Option<String>,
    /// Page size, 1..=1000 (10).
    pub limit: Option<i64>,
    /// Hits skipped (0).
    pub offset: Option<i64>,
    /// Fields to return.
    pub fl: Option<OneOrMany>,
    /// `field:value` filters.
    pub fq: Option<OneOrMany>,
    /// `field asc, other desc`; `relevance` or `score` for relevance.
    pub sort: Option<String>,
    /// Facet fields.
    pub fields: Option<OneOrMany>,
    /// Values per facet, 1..=1000 (50).
    pub facet_limit: Option<i64>,
    /// Whether hits carry `_highlight`.
    pub highlight: Option<bool>,
    /// Fields highlighted.
    pub highlight_fields: Option<OneOrMany>,
    /// Put before a match (`<em>`).
    pub highlight_pre_tag: Option<String>,
    /// Put after a match (`</em>`).
    pub highlight_post_tag: Option<String>,
}

fn invalid(field: &str, message: String) -> ApiError {
    ApiError::invalid(format!("{field}: {message}"))
        .with_errors(json!([{ "loc": ["body", field], "msg": message }]))
}

/// What `highlight_fields` and the tags ask for, bounded: each tag is copied once per marked
/// word, so its length, the number of fields and the bytes per hit are all capped.
struct Highlight<'b> {
    fields: Vec<String>,
    pre: &'b str,
    post: &'b str,
}

impl<'b> Highlight<'b> {
    fn of(body: &'b SearchBody) -> ApiResult<Highlight<'b>> {
        let fields = body
            .highlight_fields
            .as_ref()
            .map(|f| f.items(true))
            .unwrap_or_else(|| {
                DEFAULT_HIGHLIGHT_FIELDS
                    .iter()
                    .map(|f| f.to_string())
                    .collect()
            });
        if fields.len() > MAX_HIGHLIGHT_FIELDS {
            return Err(invalid(
                "highlight_fields",
                format!(
                    "at most {MAX_HIGHLIGHT_FIELDS} fields, not {}",
                    fields.len()
                ),
            ));
        }
        if let Some(bad) = fields.iter().find(|f| !valid_field(f)) {
            let shown: String = bad.chars().take(100).collect();
            return Err(invalid(
                "highlight_fields",
                format!("{shown:?} is not a field name"),
            ));
        }
        let tag = |name: &str, tag: Option<&'b str>, default: &'b str| match tag {
            Some(tag) if tag.len() > MAX_HIGHLIGHT_TAG_LEN => Err(invalid(
                name,
                format!("at most {MAX_HIGHLIGHT_TAG_LEN} bytes, not {}", tag.len()),
            )),
            tag => Ok(tag.unwrap_or(default)),
        };
        Ok(Highlight {
            fields,
            pre: tag(
                "highlight_pre_tag",
                body.highlight_pre_tag.as_deref(),
                "<em>",
            )?,
            post: tag(
                "highlight_post_tag",
                body.highlight_post_tag.as_deref(),
                "</em>",
            )?,
        })
    }

    /// The fragments of one hit, in field order, until [`MAX_HIGHLIGHT_BYTES_PER_HIT`].
    fn marks(&self, doc: &Value, terms: &[String]) -> Map<String, Value> {
        let mut left = MAX_HIGHLIGHT_BYTES_PER_HIT;
        let mut marks = Map::new();
        for field in &self.fields {
            let Some(text) = doc.get(field).and_then(Value::as_str) else {
                continue;
            };
            let Some(fragment) = highlight(text, terms, self.pre, self.post) else {
                continue;
            };
            if fragment.len() <= left {
                left -= fragment.len();
                marks.insert(field.clone(), json!([fragment]));
            }
        }
        marks
    }
}

/// Runs a search of `collection` (under `parent` when given) and shapes the answer.
pub fn run(
    state: &SharedState,
    collection: &'static Collection,
    viewer: Viewer,
    parent: Option<String>,
    body: SearchBody,
) -> ApiResult<Value> {
    let limit = body.limit.unwrap_or(DEFAULT_SEARCH_LIMIT.into());
    let offset = body.offset.unwrap_or(0);
    let pagination = |detail: String| ApiError::invalid(detail).titled(INVALID_PAGINATION);
    if !(1..=i64::from(MAX_PAGE_SIZE)).contains(&limit) {
        return Err(pagination(format!(
            "limit must be between 1 and 1000, not {limit}."
        )));
    }
    if offset < 0 {
        return Err(pagination(format!(
            "offset must not be negative, not {offset}."
        )));
    }
    if offset.saturating_add(limit) > MAX_WINDOW {
        return Err(pagination(format!(
            "offset + limit must not exceed {MAX_WINDOW}; got {}.",
            offset.saturating_add(limit)
        )));
    }
    let facet_limit = body.facet_limit.unwrap_or(DEFAULT_FACET_LIMIT.into());
    if !(1..=i64::from(MAX_PAGE_SIZE)).contains(&facet_limit) {
        return Err(invalid("facet_limit", "must be between 1 and 1000".into()));
    }
    let terms = terms(body.q.as_deref().unwrap_or_default());
    let entries = body.fq.as_ref().map(|f| f.items(false)).unwrap_or_default();
    if entries.len() > MAX_FILTERS {
        return Err(invalid(
            "fq",
            format!("at most {MAX_FILTERS} filters, not {}", entries.len()),
        ));
    }
    let mut filters = Vec::new();
    for entry in entries {
        filters.push(parse_filter(&entry).map_err(|m| invalid("fq", m))?);
    }
    let sort = parse_sort(collection, body.sort.as_deref().unwrap_or_default())
        .map_err(|m| invalid("sort", m))?;
    if sort.len() > MAX_SORT_KEYS {
        return Err(invalid(
            "sort",
            format!("at most {MAX_SORT_KEYS} sort keys, not {}", sort.len()),
        ));
    }
    let facets = body
        .fields
        .as_ref()
        .map(|f| f.items(true))
        .unwrap_or_default();
    if let Some(bad) = facets.iter().find(|f| !valid_field(f)) {
        return Err(invalid("fields", format!("{bad:?} is not a field name")));
    }
    if facets.len() > MAX_FACET_FIELDS {
        return Err(invalid(
            "fields",
            format!("at most {MAX_FACET_FIELDS} facet fields"),
        ));
    }
    let natural_order = if collection.path == GUIDELINES.path {
        NaturalOrder::Sequence
    } else if collection.path == TEXTBOOK_PASSAGES.path {
        NaturalOrder::Page
    } else {
        NaturalOrder::Insertion
    };
    let query = SearchQuery {
        collection,
        viewer,
        parent,
        terms: terms.clone(),
        prefix: false,
        filters,
        sort,
        natural_order,
        limit: limit as u32,
        offset: offset as u32,
        facets,
        facet_limit: facet_limit as u32,
    };
    let highlight = Highlight::of(&body)?;
    let hits = state.store.search(&query)?;
    let fl = body.fl.as_ref().map(|f| f.items(true));
    let leaves_out_a_required_field = |fl: &Vec<String>| {
        collection
            .create
            .iter()
            .any(|field| field.required && !fl.iter().any(|f| f == field.name))
    };
    if state.dialect.narrow_whole_hits_fail
        && !collection.routes.search_narrows
        && !hits.results.is_empty()
        && fl.as_ref().is_some_and(leaves_out_a_required_field)
    {
        return Err(ApiError::failing_as_production());
    }
    let results: Vec<Value> = hits
        .results
        .into_iter()
        .map(|(doc, score)| {
            let marks = (body.highlight.unwrap_or(false) && !terms.is_empty())
                .then(|| highlight.marks(&doc, &terms));
            let mut out = match (&fl, doc) {
                (Some(fl), Value::Object(map)) => Value::Object(
                    map.into_iter()
                        .filter(|(k, _)| k == "urn" || k == "id" || fl.contains(k))
                        .collect(),
                ),
                (_, doc) => doc,
            };
            if let Some(score) = score {
                out["_score"] = json!(score);
            }
            if let Some(marks) = marks {
                out["_highlight"] = Value::Object(marks);
            }
            out
        })
        .collect();
    let facets: Map<String, Value> = hits
        .facets
        .into_iter()
        .map(|(field, values)| (field, json!(values)))
        .collect();
    Ok(json!({ "results": results, "facets": facets, "total": hits.total }))
}

/// `POST {collection}/search`.
pub async fn search(
    collection: &'static Collection,
    State(state): State<SharedState>,
    caller: Caller,
    JsonBody(body): JsonBody<SearchBody>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    blocking(move || run(&state, collection, viewer, None, body).map(Envelope)).await
}

/// The query of `GET articles/search`.
#[derive(Debug, Deserialize)]
pub struct SimpleSearch {
    /// Full-text query.
    #[serde(default)]
    pub q: String,
    /// Page size.
    pub limit: Option<i64>,
    /// Hits skipped.
    pub offset: Option<i64>,
}

/// `GET articles/search?q&limit`: the older form of the article search.
pub async fn search_articles_get(
    State(state): State<SharedState>,
    caller: Caller,
    QueryParams(query): QueryParams<SimpleSearch>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    let body = SearchBody {
        q: Some(query.q),
        limit: query.limit,
        offset: query.offset,
        ..SearchBody::default()
    };
    blocking(move || run(&state, &ARTICLES, viewer, None, body).map(Envelope)).await
}

/// `POST guidelines/by-guide/{urn}/search`.
pub async fn by_guide(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    JsonBody(body): JsonBody<SearchBody>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    full_urn_only(&urn, "urn:guide:")?;
    blocking(move || {
        let guide = find(&state, &GUIDES, &urn, viewer)?;
        run(&state, &GUIDELINES, viewer, guide.urn, body).map(Envelope)
    })
    .await
}

/// `POST textbook-passages/by-textbook/{urn}/search`; the passages of page N are this search
/// with `fq: ["page_no:N"]`.
pub async fn by_textbook(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(urn): PathParams<String>,
    JsonBody(body): JsonBody<SearchBody>,
) -> ApiResult<Envelope<Value>> {
    let viewer = viewer(caller.require()?);
    full_urn_only(&urn, "urn:textbook:")?;
    blocking(move || {
        let textbook = find(&state, &TEXTBOOKS, &urn, viewer)?;
        run(&state, &TEXTBOOK_PASSAGES, viewer, textbook.urn, body).map(Envelope)
    })
    .await
}
