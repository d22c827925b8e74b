//! Full-text search with filters, facets and sorting, as one SQL statement family.
//!
//! Every piece of caller input reaches SQLite as a bound parameter: the full-text expression,
//! field paths (`$.field`), filter values and sort fields. Only fixed SQL text is formatted in.

use larder_contract::Collection;
use rusqlite::params_from_iter;
use rusqlite::types::Value as SqlValue;
use serde_json::Value;

use super::records::visibility_clause;
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

/// A validated search.
#[derive(Clone, Debug)]
pub struct SearchQuery {
    /// Where to search.
    pub collection: &'static Collection,
    /// Who is asking.
    pub viewer: Viewer,
    /// Only children of this URN (guidelines of a guide, passages of a textbook).
    pub parent: Option<String>,
    /// An FTS5 expression built from quoted terms only; `None` matches everything.
    pub text: Option<String>,
    /// `fq`.
    pub filters: Vec<Filter>,
    /// `sort`; empty means relevance with text, else the collection's natural order.
    pub sort: Vec<SortKey>,
    /// The order used when `sort` is empty and there is no text.
    pub natural_order: &'static str,
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

fn path(field: &str) -> SqlValue {
    SqlValue::Text(format!("$.{field}"))
}

fn filter_sql(filter: &Filter, params: &mut Vec<SqlValue>) -> String {
    const TEXT_OF: &str = "(CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(j.value AS TEXT) END)";
    match filter {
        Filter::Equals { field, value } => {
            params.push(path(field));
            params.push(SqlValue::Text(value.clone()));
            let mut condition = format!("{TEXT_OF} = ?");
            if let Ok(number) = value.parse::<f64>() {
                params.push(SqlValue::Real(number));
                condition.push_str(" OR (j.type IN ('integer', 'real') AND j.value = ?)");
            }
            format!("EXISTS (SELECT 1 FROM json_each(r.doc, ?) j WHERE {condition})")
        }
        Filter::Exists { field } => {
            params.push(path(field));
            "EXISTS (SELECT 1 FROM json_each(r.doc, ?) j WHERE j.type <> 'null')".into()
        }
        Filter::Range { field, low, high } => {
            params.push(path(field));
            let numeric = [low, high]
                .iter()
                .all(|b| b.as_ref().is_none_or(|v| v.parse::<f64>().is_ok()));
            let mut condition = String::from(if numeric {
                "j.type IN ('integer', 'real')"
            } else {
                "j.type = 'text'"
            });
            for (bound, op) in [(low, ">="), (high, "<=")] {
                if let Some(bound) = bound {
                    condition.push_str(&format!(" AND j.value {op} ?"));
                    params.push(match bound.parse::<f64>() {
                        Ok(n) if numeric => SqlValue::Real(n),
                        _ => SqlValue::Text(bound.clone()),
                    });
                }
            }
            format!("EXISTS (SELECT 1 FROM json_each(r.doc, ?) j WHERE {condition})")
        }
    }
}

fn facet_value(kind: &str, value: SqlValue) -> Value {
    match (kind, value) {
        ("true", _) => Value::Bool(true),
        ("false", _) => Value::Bool(false),
        (_, SqlValue::Integer(n)) => Value::from(n),
        (_, SqlValue::Real(n)) => Value::from(n),
        (_, SqlValue::Text(s)) => Value::String(s),
        _ => Value::Null,
    }
}

impl Store {
    /// Runs a search: the page of hits, the total and the facets.
    pub fn search(&self, query: &SearchQuery) -> rusqlite::Result<SearchHits> {
        let mut params = vec![SqlValue::Text(query.collection.path.into())];
        let mut conditions = vec![
            "r.collection = ?".to_string(),
            visibility_clause(query.collection, query.viewer, "r"),
        ];
        if let Some(parent) = &query.parent {
            conditions.push("r.parent = ?".into());
            params.push(SqlValue::Text(parent.clone()));
        }
        let (join, score) = match &query.text {
            Some(text) => {
                conditions.push("records_fts MATCH ?".into());
                params.push(SqlValue::Text(text.clone()));
                (
                    "JOIN records_fts ON records_fts.rowid = r.rowid",
                    "-bm25(records_fts, 2.0, 1.0)",
                )
            }
            None => ("", "NULL"),
        };
        for filter in &query.filters {
            conditions.push(format!("({})", filter_sql(filter, &mut params)));
        }
        // MATERIALIZED keeps bm25() inside the full-text query that it belongs to.
        let cte = format!(
            "WITH hits AS MATERIALIZED (SELECT r.rowid AS rid, r.doc AS doc, {score} AS score FROM records r {join} WHERE {})",
            conditions.join(" AND ")
        );

        let mut order = Vec::new();
        let mut page_params = params.clone();
        let sort: Vec<SortKey> = if query.sort.is_empty() && query.text.is_some() {
            vec![SortKey::Score]
        } else {
            query.sort.clone()
        };
        for key in &sort {
            match key {
                SortKey::Score => order.push("score DESC".to_string()),
                SortKey::Field { field, descending } => {
                    order.push(format!(
                        "json_extract(doc, ?) IS NULL, json_extract(doc, ?) {}",
                        if *descending { "DESC" } else { "ASC" }
                    ));
                    page_params.push(path(field));
                    page_params.push(path(field));
                }
            }
        }
        if sort.is_empty() {
            order.push(query.natural_order.to_string());
        }
        order.push("rid".into());
        page_params.push(SqlValue::Integer(query.limit.into()));
        page_params.push(SqlValue::Integer(query.offset.into()));
        let page_sql = format!(
            "{cte} SELECT doc, score FROM hits ORDER BY {} LIMIT ? OFFSET ?",
            order.join(", ")
        );

        self.with(|conn| {
            let total: u64 = conn.query_row(
                &format!("{cte} SELECT count(*) FROM hits"),
                params_from_iter(params.iter()),
                |row| row.get(0),
            )?;
            let mut statement = conn.prepare(&page_sql)?;
            let results = statement
                .query_map(params_from_iter(page_params.iter()), |row| {
                    let doc: String = row.get(0)?;
                    Ok((
                        serde_json::from_str(&doc).unwrap_or(Value::Null),
                        row.get::<_, Option<f64>>(1)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut facets = Vec::new();
            for field in &query.facets {
                let mut facet_params = params.clone();
                facet_params.push(path(field));
                facet_params.push(SqlValue::Integer(query.facet_limit.into()));
                let mut statement = conn.prepare(&format!(
                    "{cte} SELECT j.type, j.value, count(DISTINCT h.rid) AS n FROM hits h, json_each(h.doc, ?) j
                     WHERE j.type IN ('text', 'integer', 'real', 'true', 'false')
                     GROUP BY j.type, j.value ORDER BY n DESC, j.value LIMIT ?"
                ))?;
                let values = statement
                    .query_map(params_from_iter(facet_params.iter()), |row| {
                        let kind: String = row.get(0)?;
                        Ok(FacetValue {
                            value: facet_value(&kind, row.get(1)?),
                            count: row.get(2)?,
                        })
                    })?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                facets.push((field.clone(), values));
            }
            Ok(SearchHits {
                results,
                total,
                facets,
            })
        })
    }
}
