//! A search over the index: candidates by words, visibility and parent, filters, facets, and
//! the ordered page of record ids with their relevance. The caller reads the page's documents.

use std::cmp::Ordering;

use larder_contract::Collection;
use serde_json::Value;

use crate::column::{Column, Scalar};
use crate::filter::{Compiled, Filter};
use crate::index::Index;
use crate::Viewer;

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
    /// Whether each word also matches the words it begins (an autocomplete's word-prefix match:
    /// "medit" finds "Mediterranean"); otherwise a word matches its stem only.
    pub prefix: bool,
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

/// What a search found in the index.
#[derive(Clone, Debug)]
pub struct Found {
    /// The page's records with their relevance (0 without text), in order.
    pub page: Vec<(u32, f64)>,
    /// Hits in all.
    pub total: u64,
    /// Facet values per requested field, in request order.
    pub facets: Vec<(String, Vec<FacetValue>)>,
}

/// How many hits carry each value of `column` (a value counted once per hit), most first.
fn facet_counts<'i>(column: &'i Column, hits: &[u32], limit: u32) -> Vec<(&'i Scalar, u64)> {
    let mut counts = vec![0u64; column.ids_len()];
    if column.has_lists() {
        let mut seen: Vec<u32> = Vec::new();
        for rid in hits {
            seen.clear();
            for id in column.ids(*rid) {
                if !seen.contains(&id) {
                    seen.push(id);
                    counts[id as usize] += 1;
                }
            }
        }
    } else {
        for id in hits.iter().filter_map(|rid| column.first(*rid)) {
            counts[id as usize] += 1;
        }
    }
    let mut values: Vec<(&Scalar, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| **count > 0)
        .map(|(id, count)| (column.value(id as u32), *count))
        .collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.order(b.0)));
    values.truncate(limit as usize);
    values
}

/// The first value of record `rid` in `column`.
fn first_value(rid: u32, column: Option<&Column>) -> Option<&Scalar> {
    column.and_then(|c| c.first(rid).map(|id| c.value(id)))
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

impl Index {
    /// Runs a search over the index: the page's record ids with their relevance, the total and
    /// the facets.
    pub fn search(&self, query: &SearchQuery) -> Found {
        let candidates = self
            .matching(&query.terms, query.prefix)
            .unwrap_or_else(|| self.all_of(query.collection));
        let parent = query.parent.as_deref();
        let number = Index::number(query.collection);
        let mut filters: Vec<Compiled> = query
            .filters
            .iter()
            .map(|f| Compiled::new(self, f))
            .collect();
        let mut hits: Vec<u32> = Vec::new();
        'hits: for rid in candidates {
            if !self.is_in(rid, number) {
                continue;
            }
            if parent.is_some() || query.viewer != Viewer::Curator {
                let Some(doc) = self.doc(rid) else {
                    continue;
                };
                if parent.is_some_and(|p| doc.parent.as_deref() != Some(p))
                    || (query.viewer != Viewer::Curator && !self.publicly_visible(doc))
                {
                    continue;
                }
            }
            for filter in &mut filters {
                if !filter.matches(rid) {
                    continue 'hits;
                }
            }
            hits.push(rid);
        }
        let total = hits.len() as u64;

        let facets = query
            .facets
            .iter()
            .map(|field| {
                let values = self
                    .column(field)
                    .map(|column| facet_counts(column, &hits, query.facet_limit))
                    .unwrap_or_default();
                let values = values
                    .into_iter()
                    .map(|(value, count)| FacetValue {
                        value: value.to_json(),
                        count,
                    })
                    .collect();
                (field.clone(), values)
            })
            .collect();

        let scored = !query.terms.is_empty();
        let sort: Vec<SortKey> = if query.sort.is_empty() && scored {
            vec![SortKey::Score]
        } else {
            query.sort.clone()
        };
        let sort_columns: Vec<Option<&Column>> = sort
            .iter()
            .map(|key| match key {
                SortKey::Score => None,
                SortKey::Field { field, .. } => self.column(field),
            })
            .collect();
        let natural: Vec<Option<&Column>> = match query.natural_order {
            NaturalOrder::Insertion => vec![],
            NaturalOrder::Sequence => vec![self.column("sequence_no")],
            NaturalOrder::Page => vec![self.column("page_no"), self.column("sequence_no")],
        };
        // Relevance is computed for every hit only when it orders them; otherwise for the page.
        let ranks_by_score = sort.contains(&SortKey::Score);
        let scores = if ranks_by_score {
            self.scores(&hits, &query.terms, query.prefix)
        } else {
            vec![0.0; hits.len()]
        };
        let first_column = match sort.first() {
            Some(SortKey::Field { .. }) => sort_columns[0],
            _ => None,
        };
        let mut ranked: Vec<Ranked> = hits
            .iter()
            .zip(scores)
            .map(|(rid, score)| (*rid, score, first_value(*rid, first_column)))
            .collect();
        let compare = |a: &Ranked, b: &Ranked| -> Ordering {
            let mut order = Ordering::Equal;
            for (at, key) in sort.iter().enumerate() {
                order = order.then_with(|| match key {
                    SortKey::Score => b.1.total_cmp(&a.1),
                    SortKey::Field { descending, .. } if at == 0 => by_value(a.2, b.2, *descending),
                    SortKey::Field { descending, .. } => by_value(
                        first_value(a.0, sort_columns[at]),
                        first_value(b.0, sort_columns[at]),
                        *descending,
                    ),
                });
            }
            if sort.is_empty() {
                for column in &natural {
                    order = order.then_with(|| {
                        by_value(first_value(a.0, *column), first_value(b.0, *column), false)
                    });
                }
            }
            order.then(a.0.cmp(&b.0))
        };
        let start = (query.offset as usize).min(ranked.len());
        let end = start.saturating_add(query.limit as usize).min(ranked.len());
        // Hits come in record order, which is the insertion order: nothing to sort then.
        let in_record_order = sort.is_empty() && natural.is_empty();
        if end > start && !in_record_order {
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
            for (hit, score) in page
                .iter_mut()
                .zip(self.scores(&rids, &query.terms, query.prefix))
            {
                hit.1 = score;
            }
        }
        Found {
            page,
            total,
            facets,
        }
    }
}
