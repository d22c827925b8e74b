//! The administrator's search over households (issue 40 item 5): by name and owner, filtered by
//! region, ordered by name, member count or creation, a page at a time with the total.
//!
//! Ordering and the region filter are served by indexes (migration 10): the name, region and
//! creation stamp are generated columns over the stored document, and `member_count` a column
//! the members table's triggers keep. `q` is a substring of the name or the owner, folded to
//! lower case by Unicode's rules ([`fold`], registered on every connection as `larder_fold`):
//! no index serves a substring, so it reads the two short columns of every household that the
//! other filters leave, never their documents.

use rusqlite::functions::FunctionFlags;
use rusqlite::types::Value as SqlValue;
use rusqlite::{params_from_iter, Connection};
use serde_json::Value;

use super::households::compose_page;
use super::Store;

/// The columns and indexes (migration 10).
pub(super) const COLUMNS: &str = r#"
    ALTER TABLE households ADD COLUMN name TEXT GENERATED ALWAYS AS (json_extract(doc, '$.name')) VIRTUAL;
    ALTER TABLE households ADD COLUMN region TEXT GENERATED ALWAYS AS (json_extract(doc, '$.region')) VIRTUAL;
    ALTER TABLE households ADD COLUMN created_at TEXT GENERATED ALWAYS AS (json_extract(doc, '$.created_at')) VIRTUAL;
    ALTER TABLE households ADD COLUMN member_count INTEGER NOT NULL DEFAULT 0;
    UPDATE households SET member_count = (SELECT count(*) FROM members WHERE household_id = households.id);
    CREATE TRIGGER members_counted AFTER INSERT ON members BEGIN
        UPDATE households SET member_count = member_count + 1 WHERE id = new.household_id;
    END;
    CREATE TRIGGER members_uncounted AFTER DELETE ON members BEGIN
        UPDATE households SET member_count = member_count - 1 WHERE id = old.household_id;
    END;
    CREATE INDEX households_by_name ON households (name COLLATE NOCASE);
    CREATE INDEX households_by_region ON households (region COLLATE NOCASE);
    CREATE INDEX households_by_members ON households (member_count);
    CREATE INDEX households_by_created ON households (created_at);
"#;

/// Lower case by Unicode's rules: what `q` and the names and owners it is matched against become.
pub fn fold(text: &str) -> String {
    text.to_lowercase()
}

/// Registers [`fold`] as `larder_fold(text)` on `conn` (every connection, at open).
pub(super) fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "larder_fold",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| Ok(ctx.get_raw(0).as_str_or_null()?.map(fold)),
    )
}

/// What a listing is ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseholdSort {
    /// The name, letter case aside.
    Name,
    /// How many members.
    MemberCount,
    /// When created.
    CreatedAt,
}

impl HouseholdSort {
    /// The sort named as the query names it (`name`, `member_count`, `created_at`).
    pub fn parse(name: &str) -> Option<HouseholdSort> {
        match name {
            "name" => Some(HouseholdSort::Name),
            "member_count" => Some(HouseholdSort::MemberCount),
            "created_at" => Some(HouseholdSort::CreatedAt),
            _ => None,
        }
    }

    fn column(self) -> &'static str {
        match self {
            HouseholdSort::Name => "name COLLATE NOCASE",
            HouseholdSort::MemberCount => "member_count",
            HouseholdSort::CreatedAt => "created_at",
        }
    }
}

/// The households an administrator asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HouseholdFilter {
    /// A piece of the name or the owner (already folded, see [`fold`]).
    pub q: Option<String>,
    /// The region, letter case aside.
    pub region: Option<String>,
    /// The order; insertion order when `None`.
    pub sort: Option<HouseholdSort>,
    /// Largest first.
    pub descending: bool,
}

impl HouseholdFilter {
    /// The `WHERE` clause and its values.
    fn clause(&self) -> (String, Vec<SqlValue>) {
        let mut conditions = Vec::new();
        let mut values = Vec::new();
        if let Some(q) = &self.q {
            values.push(SqlValue::Text(q.clone()));
            let at = values.len();
            conditions.push(format!(
                "(instr(larder_fold(name), ?{at}) > 0 OR instr(larder_fold(owner), ?{at}) > 0)"
            ));
        }
        if let Some(region) = &self.region {
            values.push(SqlValue::Text(region.clone()));
            conditions.push(format!("region = ?{} COLLATE NOCASE", values.len()));
        }
        let clause = if conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conditions.join(" AND "))
        };
        (clause, values)
    }

    /// The `ORDER BY` clause: the sort, then insertion order to break ties the same way.
    fn order(&self) -> String {
        let direction = if self.descending { "DESC" } else { "ASC" };
        match self.sort {
            Some(sort) => format!("ORDER BY {} {direction}, rowid {direction}", sort.column()),
            None => format!("ORDER BY rowid {direction}"),
        }
    }

    /// The page's query (ids in order), for tests of its plan.
    pub fn page_sql(&self) -> String {
        let (clause, values) = self.clause();
        format!(
            "SELECT doc FROM households {clause} {} LIMIT ?{} OFFSET ?{}",
            self.order(),
            values.len() + 1,
            values.len() + 2
        )
    }
}

/// A page of a search and how many households match in all.
#[derive(Debug, PartialEq)]
pub struct HouseholdHits {
    /// The page, composed as the listing composes households.
    pub households: Vec<Value>,
    /// Households matching the filter.
    pub total: u64,
}

impl Store {
    /// A page of the households `filter` matches, with their members when `with_members`, the
    /// page ending early past `budget` bytes as [`super::Households::list`] does.
    pub fn search_households(
        &self,
        filter: &HouseholdFilter,
        limit: u32,
        offset: u32,
        with_members: bool,
        budget: usize,
    ) -> rusqlite::Result<HouseholdHits> {
        self.read(|conn| {
            let (clause, values) = filter.clause();
            let total: u64 = conn.query_row(
                &format!("SELECT count(*) FROM households {clause}"),
                params_from_iter(values.iter()),
                |row| row.get(0),
            )?;
            let mut page_values = values;
            page_values.push(SqlValue::Integer(i64::from(limit)));
            page_values.push(SqlValue::Integer(i64::from(offset)));
            let docs = conn
                .prepare(&filter.page_sql())?
                .query_map(params_from_iter(page_values.iter()), |row| {
                    row.get::<_, String>(0)
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let households = compose_page(conn, docs, with_members, budget)?;
            Ok(HouseholdHits { households, total })
        })
    }

    /// How SQLite means to run `sql` (`EXPLAIN QUERY PLAN`), one step per line: tests hold the
    /// listing's orders to their indexes.
    pub fn query_plan(&self, sql: &str, values: &[SqlValue]) -> rusqlite::Result<Vec<String>> {
        self.read(|conn| {
            conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?
                .query_map(params_from_iter(values.iter()), |row| {
                    row.get::<_, String>(3)
                })?
                .collect()
        })
    }
}
