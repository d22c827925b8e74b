//! Search over the in-memory index: matching, filters, facets and ordering in the index; only
//! the page's documents are read from the database.

use std::cmp::Ordering;
use std::collections::HashMap;

use larder_contract::Collection;
use rusqlite::params_from_iter;
use serde_json::Value;

use super::index::{Doc, Index, Scalar};
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

fn matches(index: &Index, doc: &Doc, filter: &Filter) -> bool {
    match filter {
        Filter::Equals { field, value } => {
            let number = value.parse::<f64>().ok();
            index
                .values_of(doc, field)
                .any(|v| v.as_text() == *value || number.is_some_and(|n| v.as_number() == Some(n)))
        }
        Filter::Exists { field } => index.has_field(doc, field),
        Filter::Range { field, low, high } => {
            let bounds = [low, high];
            let numeric = bounds
                .iter()
                .all(|b| b.as_ref().is_none_or(|v| v.parse::<f64>().is_ok()));
            index.values_of(doc, field).any(|v| {
                if numeric {
                    // A date compares by its year with numeric bounds (`publication_year:[2000 TO 2010]`
                    // over production's `YYYY-MM-DD` years).
                    let n = match v {
                        Scalar::Str(s) => year_of(s),
                        other => other.as_number(),
                    };
                    let Some(n) = n else {
                        return false;
                    };
                    low.as_ref()
                        .is_none_or(|l| n >= l.parse::<f64>().unwrap_or(f64::MIN))
                        && high
                            .as_ref()
                            .is_none_or(|h| n <= h.parse::<f64>().unwrap_or(f64::MAX))
                } else {
                    let Scalar::Str(s) = v else {
                        return false;
                    };
                    low.as_ref().is_none_or(|l| s.as_ref() >= l.as_str())
                        && high.as_ref().is_none_or(|h| s.as_ref() <= h.as_str())
                }
            })
        }
    }
}

fn first<'a>(index: &'a Index, doc: &'a Doc, field: &str) -> Option<&'a Scalar> {
    index.values_of(doc, field).next()
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

impl Store {
    /// Runs a search: the page of hits, the total and the facets.
    pub fn search(&self, query: &SearchQuery) -> rusqlite::Result<SearchHits> {
        let index = self.index();
        let candidates = index
            .matching(&query.terms)
            .unwrap_or_else(|| index.all_of(query.collection));
        let parent = query.parent.as_deref();
        let hits: Vec<u32> = candidates
            .into_iter()
            .filter(|rid| {
                let Some(doc) = index.doc(*rid) else {
                    return false;
                };
                doc.collection.path == query.collection.path
                    && parent.is_none_or(|p| doc.parent.as_deref() == Some(p))
                    && (query.viewer == Viewer::Curator || index.publicly_visible(doc))
                    && query.filters.iter().all(|f| matches(&index, doc, f))
            })
            .collect();
        let total = hits.len() as u64;

        let mut facets = Vec::with_capacity(query.facets.len());
        for field in &query.facets {
            let mut counts: HashMap<(u8, String), (Scalar, u64)> = HashMap::new();
            for rid in &hits {
                let Some(doc) = index.doc(*rid) else { continue };
                let mut seen: Vec<(u8, String)> = Vec::new();
                for value in index.values_of(doc, field) {
                    let key = value.key();
                    if seen.contains(&key) {
                        continue;
                    }
                    seen.push(key.clone());
                    counts.entry(key).or_insert_with(|| (value.clone(), 0)).1 += 1;
                }
            }
            let mut values: Vec<(Scalar, u64)> = counts.into_values().collect();
            values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.order(&b.0)));
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
        let scores = if scored {
            index.scores(&hits, &query.terms)
        } else {
            vec![0.0; hits.len()]
        };
        let mut ranked: Vec<(u32, f64)> = hits.iter().copied().zip(scores).collect();
        let natural: &[&str] = match query.natural_order {
            NaturalOrder::Insertion => &[],
            NaturalOrder::Sequence => &["sequence_no"],
            NaturalOrder::Page => &["page_no", "sequence_no"],
        };
        let compare = |a: &(u32, f64), b: &(u32, f64)| -> Ordering {
            let (da, db) = (index.doc(a.0), index.doc(b.0));
            let (Some(da), Some(db)) = (da, db) else {
                return a.0.cmp(&b.0);
            };
            let mut order = Ordering::Equal;
            for key in &sort {
                order = order.then_with(|| match key {
                    SortKey::Score => b.1.total_cmp(&a.1),
                    SortKey::Field { field, descending } => by_value(
                        first(&index, da, field),
                        first(&index, db, field),
                        *descending,
                    ),
                });
            }
            if sort.is_empty() {
                for field in natural {
                    order = order.then_with(|| {
                        by_value(first(&index, da, field), first(&index, db, field), false)
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
        let page: Vec<(u32, f64)> = ranked.get(start..end).unwrap_or_default().to_vec();
        drop(index);

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
