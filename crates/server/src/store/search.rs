//! Search: the in-memory index (crate `larder-search`) finds, filters, counts and orders; only
//! the page's documents are read from the database.

use std::collections::HashMap;

use larder_contract::limits::MAX_PAGE_BYTES;
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
            let mut found = index.search(query);
            let fitting = within_page_budget(conn, &found.page)?;
            found.page.truncate(fitting);
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

/// How many of the page's first rows fit in [`MAX_PAGE_BYTES`] of stored documents (at least
/// one), from their sizes alone: no document past the budget is read.
fn within_page_budget(conn: &Connection, page: &[(u32, f64)]) -> rusqlite::Result<usize> {
    let mut sizes: HashMap<u32, usize> = HashMap::with_capacity(page.len());
    let rowids: Vec<i64> = page.iter().map(|(rid, _)| i64::from(*rid)).collect();
    for chunk in rowids.chunks(500) {
        let placeholders = vec!["?"; chunk.len()].join(",");
        let mut statement = conn.prepare_cached(&format!(
            "SELECT rowid, octet_length(doc) FROM records WHERE rowid IN ({placeholders})"
        ))?;
        let mut rows = statement.query(params_from_iter(chunk.iter()))?;
        while let Some(row) = rows.next()? {
            sizes.insert(row.get::<_, i64>(0)? as u32, row.get::<_, i64>(1)? as usize);
        }
    }
    let mut bytes = 0;
    for (taken, (rid, _)) in page.iter().enumerate() {
        bytes += sizes.get(rid).copied().unwrap_or(0);
        if taken > 0 && bytes > MAX_PAGE_BYTES {
            return Ok(taken);
        }
    }
    Ok(page.len())
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

#[cfg(test)]
mod tests {
    use larder_contract::collections::{ARTICLES, GUIDELINES};
    use larder_contract::limits::MAX_PAGE_BYTES;
    use serde_json::json;

    use super::super::{ChildOrder, NaturalOrder, SearchQuery, Store, Viewer};

    /// 12 records of 3 MiB: a page of up to 1,000 ends after 10 (30 MiB), at the budget.
    #[test]
    fn a_page_of_large_records_stops_at_its_byte_budget() {
        let store = Store::open(":memory:").unwrap();
        let blob = "z".repeat(3 << 20);
        for n in 0..12 {
            let article = json!({"id": format!("a-{n}"), "urn": format!("urn:article:a{n}"),
                "title": "large", "content": blob});
            store.records().insert(&ARTICLES, &article).unwrap();
            let guideline = json!({"id": format!("g-{n}"), "guide_urn": "urn:guide:g",
                "sequence_no": n, "title": "large", "rule_text": blob});
            store.records().insert(&GUIDELINES, &guideline).unwrap();
        }
        let mut query = SearchQuery {
            collection: &ARTICLES,
            viewer: Viewer::Curator,
            parent: None,
            terms: Vec::new(),
            filters: Vec::new(),
            sort: Vec::new(),
            natural_order: NaturalOrder::Insertion,
            limit: 1000,
            offset: 0,
            facets: Vec::new(),
            facet_limit: 1,
        };
        let hits = store.search(&query).unwrap();
        assert_eq!(hits.total, 12);
        assert_eq!(hits.results.len(), 10);
        let bytes: usize = hits.results.iter().map(|(d, _)| d.to_string().len()).sum();
        assert!(bytes <= MAX_PAGE_BYTES, "{bytes}");
        query.offset = 10;
        assert_eq!(store.search(&query).unwrap().results.len(), 2);
        let records = store.records();
        let page = records
            .children(
                &GUIDELINES,
                "urn:guide:g",
                Viewer::Curator,
                ChildOrder::Sequence,
                1000,
                0,
            )
            .unwrap();
        assert_eq!(page.len(), 10);
        assert_eq!(page[9]["sequence_no"], 9);
        // One record over the budget alone still makes a page of one.
        query.limit = 1;
        assert_eq!(store.search(&query).unwrap().results.len(), 1);
    }
}
