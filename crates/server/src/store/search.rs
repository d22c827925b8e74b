//! Search over the in-memory index: matching, filters, facets and ordering in the index; only
//! the page's documents are read from the database.

use std::cmp::Ordering;
use std::collections::HashMap;

use larder_contract::Collection;
use rusqlite::params_from_iter;
use serde_json::Value;

use super::index::{Column, Index, Scalar};
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

/// What a filter asks of one value, its bounds parsed once per search.
enum Test<'q> {
    Equals {
        value: &'q str,
        number: Option<f64>,
    },
    /// Numeric bounds (open sides infinite): a date compares by its year.
    NumericRange {
        low: f64,
        high: f64,
    },
    TextRange {
        low: Option<&'q str>,
        high: Option<&'q str>,
    },
}

impl Test<'_> {
    fn accepts(&self, value: &Scalar) -> bool {
        match self {
            Test::Equals {
                value: wanted,
                number,
            } => value.as_text() == *wanted || number.is_some_and(|n| value.as_number() == Some(n)),
            // `publication_year:[2000 TO 2010]` over production's `YYYY-MM-DD` years.
            Test::NumericRange { low, high } => {
                let n = match value {
                    Scalar::Str(s) => year_of(s),
                    other => other.as_number(),
                };
                n.is_some_and(|n| n >= *low && n <= *high)
            }
            Test::TextRange { low, high } => {
                let Scalar::Str(s) = value else {
                    return false;
                };
                low.is_none_or(|l| s.as_ref() >= l) && high.is_none_or(|h| s.as_ref() <= h)
            }
        }
    }
}

const UNDECIDED: u8 = 0;
const ACCEPTED: u8 = 1;
const REFUSED: u8 = 2;

/// A filter with its column resolved once per search. Each distinct value is tested once and
/// the answer remembered by value id, so records sharing a value cost one array read.
enum Compiled<'i, 'q> {
    Values {
        column: Option<&'i Column>,
        test: Test<'q>,
        decided: Vec<u8>,
    },
    Exists {
        columns: Vec<&'i Column>,
    },
}

impl<'i, 'q> Compiled<'i, 'q> {
    fn new(index: &'i Index, filter: &'q Filter) -> Compiled<'i, 'q> {
        let (field, test) = match filter {
            Filter::Equals { field, value } => (
                field,
                Test::Equals {
                    value,
                    number: value.parse::<f64>().ok(),
                },
            ),
            Filter::Exists { field } => {
                return Compiled::Exists {
                    columns: index.columns_under(field),
                }
            }
            Filter::Range { field, low, high } => {
                let parse = |bound: &Option<String>, open: f64| match bound {
                    None => Some(open),
                    Some(text) => text.parse::<f64>().ok(),
                };
                let test = match (parse(low, f64::NEG_INFINITY), parse(high, f64::INFINITY)) {
                    (Some(low), Some(high)) => Test::NumericRange { low, high },
                    _ => Test::TextRange {
                        low: low.as_deref(),
                        high: high.as_deref(),
                    },
                };
                (field, test)
            }
        };
        let column = index.column(field);
        Compiled::Values {
            column,
            test,
            decided: vec![UNDECIDED; column.map_or(0, Column::ids_len)],
        }
    }

    fn matches(&mut self, rid: u32) -> bool {
        match self {
            Compiled::Values { column: None, .. } => false,
            Compiled::Values {
                column: Some(column),
                test,
                decided,
            } => column.ids(rid).any(|id| {
                let answer = &mut decided[id as usize];
                if *answer == UNDECIDED {
                    *answer = if test.accepts(column.value(id)) {
                        ACCEPTED
                    } else {
                        REFUSED
                    };
                }
                *answer == ACCEPTED
            }),
            Compiled::Exists { columns } => columns.iter().any(|c| c.first(rid).is_some()),
        }
    }
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

impl Store {
    /// Runs a search: the page of hits, the total and the facets.
    pub fn search(&self, query: &SearchQuery) -> rusqlite::Result<SearchHits> {
        let guard = self.index();
        let index: &Index = &guard;
        let candidates = index
            .matching(&query.terms)
            .unwrap_or_else(|| index.all_of(query.collection));
        let parent = query.parent.as_deref();
        let number = Index::number(query.collection);
        let mut filters: Vec<Compiled> = query
            .filters
            .iter()
            .map(|f| Compiled::new(index, f))
            .collect();
        let mut hits: Vec<u32> = Vec::new();
        'hits: for rid in candidates {
            if !index.is_in(rid, number) {
                continue;
            }
            if parent.is_some() || query.viewer != Viewer::Curator {
                let Some(doc) = index.doc(rid) else {
                    continue;
                };
                if parent.is_some_and(|p| doc.parent.as_deref() != Some(p))
                    || (query.viewer != Viewer::Curator && !index.publicly_visible(doc))
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
                let values = index
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
                SortKey::Field { field, .. } => index.column(field),
            })
            .collect();
        let natural: Vec<Option<&Column>> = match query.natural_order {
            NaturalOrder::Insertion => vec![],
            NaturalOrder::Sequence => vec![index.column("sequence_no")],
            NaturalOrder::Page => vec![index.column("page_no"), index.column("sequence_no")],
        };
        // Relevance is computed for every hit only when it orders them; otherwise for the page.
        let ranks_by_score = sort.contains(&SortKey::Score);
        let scores = if ranks_by_score {
            index.scores(&hits, &query.terms)
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
