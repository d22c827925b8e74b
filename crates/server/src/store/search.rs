//! Search: the in-memory index (crate `larder-search`) finds, filters, counts and orders; only
//! the page's documents are read from the database.

use std::collections::HashMap;

use larder_search::{FacetValue, SearchQuery};
use rusqlite::{params_from_iter, Connection};
use serde_json::Value;

use super::Store;

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

impl Store {
    /// Runs a search: the page of hits, the total and the facets.
    ///
    /// One snapshot: the index's read lock is held from the pass over the index until the
    /// page's documents are read. A write of records commits only under the index's write lock
    /// (`Store::transaction_indexed`), so no commit falls between the two, and a record hidden
    /// at the moment of the search is in none of its results, totals, facets or highlights.
    /// Re-checking the documents read instead would leave totals and facets from another moment.
    /// The reading connection is taken first: the in-memory database reads with the writer's
    /// connection, and writers take the connection before the index.
    pub fn search(&self, query: &SearchQuery) -> rusqlite::Result<SearchHits> {
        self.read(|conn| {
            let index = self.index();
            let found = index.search(query);
            let docs = docs_on(conn, found.page.iter().map(|(rid, _)| *rid))?;
            drop(index);
            let scored = !query.terms.is_empty();
            let results = found
                .page
                .into_iter()
                .filter_map(|(rid, score)| {
                    docs.get(&rid)
                        .map(|doc| (doc.clone(), scored.then_some(score)))
                })
                .collect();
            Ok(SearchHits {
                results,
                total: found.total,
                facets: found.facets,
            })
        })
    }
}

/// The stored documents of these rows, read with `conn`.
fn docs_on(
    conn: &Connection,
    rowids: impl Iterator<Item = u32>,
) -> rusqlite::Result<HashMap<u32, Value>> {
    let rowids: Vec<i64> = rowids.map(i64::from).collect();
    let mut found = HashMap::with_capacity(rowids.len());
    for chunk in rowids.chunks(500) {
        let placeholders = vec!["?"; chunk.len()].join(",");
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
    }
    Ok(found)
}
