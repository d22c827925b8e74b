//! A collection's list: the table, facets, saved views, selection and what acts on the
//! chosen rows (bulk edits and replacements, the reading and editorial policies, imports,
//! exports).

pub mod backfill;
pub mod bulk;
pub mod bulk_replace;
pub mod editorial;
pub mod enrich;
pub mod export_button;
pub mod facets;
pub mod guideline_import;
pub mod guideline_tool;
pub mod key_sheet;
pub mod list_views;
pub mod policy;
pub mod records_table;
pub mod search_rows;
pub mod selection;
