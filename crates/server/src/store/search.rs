//! Search over the in-memory index: matching, filters, facets and ordering in the index; only
//! the page's documents are read from the database.

use std::cmp::Ordering;
use std::collections::HashMap;

use larder_contract::Collection;
use rusqlite::params_from_iter;
use serde_json::Value;

use super::index::{Doc, FacetKey, Index, Scalar};
use super::{Store, Viewer};

/// One `fq` filter, already parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Filter {
    /// `field:value`: the field (or one element of it, for lists) equals the value.
    Equals {
        /// A dotted field name.
        field: String,
        /// The value as text.
        value: String,
    },
    /// `field:*`: the field is present and not null.
    Exists {
        /// A dotted field name.
        field: String,
    },
    /// `field:[low TO high]`, `*` leaving a side open.
    Range {
        /// A dotted field name.
        field: String,
        /// Inclusive lower bound.
        low: Option<String>,
        /// Inclusive upper bound.
        high: Option<String>,
    },
}

/// One key of `sort`.
#[derive(Clone, Debug, PartialEq)]
pub enum SortKey {
    /// Relevance, best first.
    Score,
    /// A field, missing values last.
    Field {
        /// The field name.
        field: String,
        /// Descending when true.
        descending: bool,
    },
}

/// The order of hits when neither text nor `sort` gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaturalOrder {
    /// Oldest first.
    Insertion,
    /// By `sequence_no`, missing numbers last.
    Sequence,
    /// By `page_no`, then `sequence_no`.
    Page,
}

/// A validated search.
#[derive(Clone, Debug)]
pub struct SearchQuery {
    /// Where to search.
    pub collection: &'static Collection,
    /// Who is asking.
    pub viewer: Viewer,
    /// Only children of this URN (guidelines of a guide, passages of a textbook).
    pub parent: Option<String>,
    /// The words of `q`; empty matches everything.
    pub terms: Vec<String>,
    /// `fq`.
    pub filters: Vec<Filter>,
    /// `sort`; empty means relevance with text, else the natural order.
    pub sort: Vec<SortKey>,
    /// The order used when `sort` is empty and there is no text.
    pub natural_order: NaturalOrder,
    /// Page size.
    pub limit: u32,
    /// Hits skipped.
    pub offset: u32,
    /// Facet fields.
    pub facets: Vec<String>,
    /// Values per facet.
    pub facet_limit: u32,
}

/// One facet value and how many hits carry it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FacetValue {
    /// The value, with its JSON type.
    pub value: Value,
    /// Hits carrying it.
    pub count: u64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchHits {
    /// The page of hits with their scores (present when there was text).
    pub results: Vec<(Value, Option<f64>)>,
    /// Hits in all.
    pub total: u64,
    /// Facet values per requested field, in request order.
    pub facets: Vec<(String, Vec<FacetValue>)>,
}

fn year_of(text: &str) -> Option<f64> {
    let year = text.get(..4)?;
    (year.chars().all(|c| c.is_ascii_digit()) && text[4..].starts_with('-'))
        .then(|| year.parse().ok())
        .flatten()
}

/// A filter with its field resolved and its bounds parsed, once per search rather than once
/// per record.
enum Compiled<'q> {
    Equals {
        id: Option<u16>,
        value: &'q str,
        number: Option<f64>,
    },
    Exists {
        field: &'q str,
    },
    /// Numeric bounds (open sides infinite): a date compares by its year.
    NumericRange {
        id: Option<u16>,
        low: f64,
        high: f64,
    },
    TextRange {
        id: Option<u16>,
        low: Option<&'q str>,
        high: Option<&'q str>,
    },
}

impl<'q> Compiled<'q> {
    fn new(index: &Index, filter: &'q Filter) -> Compiled<'q> {
        match filter {
            Filter::Equals { field, value } => Compiled::Equals {
                id: index.known_field(field),
                value,
                number: value.parse::<f64>().ok(),
            },
            Filter::Exists { field } => Compiled::Exists { field },
            Filter::Range { field, low, high } => {
                let id = index.known_field(field);
                let parse = |bound: &Option<String>, open: f64| match bound {
                    None => Some(open),
                    Some(text) => text.parse::<f64>().ok(),
                };
                match (parse(low, f64::NEG_INFINITY), parse(high, f64::INFINITY)) {
                    (Some(low), Some(high)) => Compiled::NumericRange { id, low, high },
                    _ => Compiled::TextRange {
                        id,
                        low: low.as_deref(),
                        high: high.as_deref(),
                    },
                }
            }
        }
    }

    fn matches(&self, index: &Index, doc: &Doc) -> bool {
        match self {
            Compiled::Equals { id, value, number } => index
                .values_by_id(doc, *id)
                .any(|v| v.as_text() == *value || number.is_some_and(|n| v.as_number() == Some(n))),
            Compiled::Exists { field } => index.has_field(doc, field),
            // `publication_year:[2000 TO 2010]` over production's `YYYY-MM-DD` years.
            Compiled::NumericRange { id, low, high } => index.values_by_id(doc, *id).any(|v| {
                let n = match v {
                    Scalar::Str(s) => year_of(s),
                    other => other.as_number(),
                };
                n.is_some_and(|n| n >= *low && n <= *high)
            }),
            Compiled::TextRange { id, low, high } => index.values_by_id(doc, *id).any(|v| {
                let Scalar::Str(s) = v else {
                    return false;
                };
                low.is_none_or(|l| s.as_ref() >= l) && high.is_none_or(|h| s.as_ref() <= h)
            }),
        }
    }
}

/// Missing values last, then SQLite's order of values.
fn by_value(a: Option<&Scalar>, b: Option<&Scalar>, descending: bool) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) if descending => b.order(a),
        (Some(a), Some(b)) => a.order(b),
    }
}

/// A hit while ranking: its record, its relevance, and its value of the first sort field,
/// read once rather than at every comparison.
type Ranked<'i> = (u32, f64, Option<&'i Scalar>);

impl Store {
    /// Runs a search: the page of hits, the total and the facets.
    pub fn search(&self, query: &SearchQuery) -> rusqlite::Result<SearchHits> {
        let guard = self.index();
        let index: &Index = &guard;
        let candidates = index
            .matching(&query.terms)
            .unwrap_or_else(|| index.all_of(query.collection));
        let parent = query.parent.as_deref();
        let filters: Vec<Compiled> = query
            .filters
            .iter()
            .map(|f| Compiled::new(index, f))
            .collect();
        let hits: Vec<u32> = candidates
            .into_iter()
            .filter(|rid| {
                let Some(doc) = index.doc(*rid) else {
                    return false;
                };
                doc.collection.path == query.collection.path
                    && parent.is_none_or(|p| doc.parent.as_deref() == Some(p))
                    && (query.viewer == Viewer::Curator || index.publicly_visible(doc))
                    && filters.iter().all(|f| f.matches(index, doc))
            })
            .collect();
        let total = hits.len() as u64;

        let mut facets = Vec::with_capacity(query.facets.len());
        for field in &query.facets {
            let id = index.known_field(field);
            let mut counts: HashMap<FacetKey, (&Scalar, u64)> = HashMap::new();
            let mut seen: Vec<FacetKey> = Vec::new();
            for rid in &hits {
                let Some(doc) = index.doc(*rid) else { continue };
                seen.clear();
                for value in index.values_by_id(doc, id) {
                    let key = value.key();
                    if seen.contains(&key) {
                        continue;
                    }
                    seen.push(key);
                    counts.entry(key).or_insert((value, 0)).1 += 1;
                }
            }
            let mut values: Vec<(&Scalar, u64)> = counts.into_values().collect();
            values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.order(b.0)));
            values.truncate(query.facet_limit as usize);
            facets.push((
                field.clone(),
                values
                    .into_iter()
                    .map(|(value, count)| FacetValue {
                        value: value.to_json(),
                        count,
                    })
                    .collect(),
            ));
        }

        let scored = !query.terms.is_empty();
        let sort: Vec<SortKey> = if query.sort.is_empty() && scored {
            vec![SortKey::Score]
        } else {
            query.sort.clone()
        };
        let sort_ids: Vec<Option<u16>> = sort
            .iter()
            .map(|key| match key {
                SortKey::Score => None,
                SortKey::Field { field, .. } => index.known_field(field),
            })
            .collect();
        let natural: Vec<Option<u16>> = match query.natural_order {
            NaturalOrder::Insertion => vec![],
            NaturalOrder::Sequence => vec![index.known_field("sequence_no")],
            NaturalOrder::Page => vec![
                index.known_field("page_no"),
                index.known_field("sequence_no"),
            ],
        };
        // Relevance is computed for every hit only when it orders them; otherwise for the page.
        let ranks_by_score = sort.contains(&SortKey::Score);
        let scores = if ranks_by_score {
            index.scores(&hits, &query.terms)
        } else {
            vec![0.0; hits.len()]
        };
        let first_value = |rid: u32, id: Option<u16>| {
            index
                .doc(rid)
                .and_then(|doc| index.values_by_id(doc, id).next())
        };
        let first_field = match sort.first() {
            Some(SortKey::Field { .. }) => Some(sort_ids[0]),
            _ => None,
        };
        let mut ranked: Vec<Ranked> = hits
            .iter()
            .zip(scores)
            .map(|(rid, score)| {
                (
                    *rid,
                    score,
                    first_field.and_then(|id| first_value(*rid, id)),
                )
            })
            .collect();
        let compare = |a: &Ranked, b: &Ranked| -> Ordering {
            if index.doc(a.0).is_none() || index.doc(b.0).is_none() {
                return a.0.cmp(&b.0);
            }
            let mut order = Ordering::Equal;
            for (at, key) in sort.iter().enumerate() {
                order = order.then_with(|| match key {
                    SortKey::Score => b.1.total_cmp(&a.1),
                    SortKey::Field { descending, .. } if at == 0 => by_value(a.2, b.2, *descending),
                    SortKey::Field { descending, .. } => by_value(
                        first_value(a.0, sort_ids[at]),
                        first_value(b.0, sort_ids[at]),
                        *descending,
                    ),
                });
            }
            if sort.is_empty() {
                for id in &natural {
                    order = order.then_with(|| {
                        by_value(first_value(a.0, *id), first_value(b.0, *id), false)
                    });
                }
            }
            order.then(a.0.cmp(&b.0))
        };
        let start = (query.offset as usize).min(ranked.len());
        let end = start.saturating_add(query.limit as usize).min(ranked.len());
        if end > start {
            if end < ranked.len() {
                ranked.select_nth_unstable_by(end, compare);
                ranked.truncate(end);
            }
            ranked.sort_unstable_by(compare);
        }
        let mut page: Vec<(u32, f64)> = ranked
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .map(|(rid, score, _)| (*rid, *score))
            .collect();
        if scored && !ranks_by_score {
            let rids: Vec<u32> = page.iter().map(|(rid, _)| *rid).collect();
            for (hit, score) in page.iter_mut().zip(index.scores(&rids, &query.terms)) {
                hit.1 = score;
            }
        }
        // The index is not held while SQLite reads the page's documents.
        drop(guard);

        let docs = self.docs_by_rowid(page.iter().map(|(rid, _)| *rid))?;
        let results = page
            .into_iter()
            .filter_map(|(rid, score)| {
                docs.get(&rid)
                    .map(|doc| (doc.clone(), scored.then_some(score)))
            })
            .collect();
        Ok(SearchHits {
            results,
            total,
            facets,
        })
    }

    /// The stored documents of these rows.
    pub fn docs_by_rowid(
        &self,
        rowids: impl Iterator<Item = u32>,
    ) -> rusqlite::Result<HashMap<u32, Value>> {
        let rowids: Vec<i64> = rowids.map(i64::from).collect();
        let mut found = HashMap::with_capacity(rowids.len());
        for chunk in rowids.chunks(500) {
            let placeholders = vec!["?"; chunk.len()].join(",");
            self.read(|conn| -> rusqlite::Result<()> {
                let mut statement = conn.prepare_cached(&format!(
                    "SELECT rowid, doc FROM records WHERE rowid IN ({placeholders})"
                ))?;
                let mut rows = statement.query(params_from_iter(chunk.iter()))?;
                while let Some(row) = rows.next()? {
                    let doc: String = row.get(1)?;
                    found.insert(
                        row.get::<_, i64>(0)? as u32,
                        serde_json::from_str(&doc).unwrap_or(Value::Null),
                    );
                }
                Ok(())
            })?;
        }
        Ok(found)
    }
}
