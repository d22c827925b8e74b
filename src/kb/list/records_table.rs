//! The table of a list page: title (a link, with the search snippet), the schema's columns and
//! the identifier. Long pages render only the rows in view (a windowed table), so a page of
//! thousands of rows scrolls as lightly as a page of twenty.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use larder_api::Record;
use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;

use crate::i18n::{t, tn};
use crate::kb::ai_mark::AiBadge;
use crate::kb::highlight::Highlighted;
use crate::kb::list::list_views::columns_of;
use crate::kb::list::selection::{PageCheckbox, RowCheckbox, Selection};
use crate::kb::schema::bulk::Chosen;
use crate::kb::schema::highlight::best;
use crate::kb::schema::labels::reading;
use crate::kb::schema::provenance::{ai_marks, AiMark};
use crate::kb::schema::search::HIGHLIGHTED;
use crate::kb::schema::window::{row_keys, window, Window};
use crate::kb::schema::{label, Schema};
use crate::paths::record_href;
use crate::session::Session;
use crate::ApiClient;

/// From this many rows on, the table is windowed.
const VIRTUAL_FROM: usize = 100;
/// The fixed row height of a windowed table, in px (matches `.virtual-table tr` in records.css).
const ROW_HEIGHT: f64 = 44.0;
/// The height of a windowed table's viewport, in px.
const VIEWPORT: f64 = 640.0;
/// Rows rendered beyond the viewport on each side.
const OVERSCAN: usize = 8;
/// How long scrolling rests before the records of the rows in view are read, in ms.
const SETTLE_MS: u64 = 120;

/// One row as the page hands it over: identifier, record when known, search highlights.
pub type TableRow = (String, Option<Record>, Option<Value>);

#[derive(Clone)]
struct Row {
    id: String,
    title: String,
    snippet: Option<(String, Vec<String>)>,
    /// Each column's text, and who wrote it where a machine did.
    cells: Vec<(String, Option<AiMark>)>,
}

fn rows_of(schema: &'static Schema, columns: &[&'static str], rows: Vec<TableRow>) -> Vec<Row> {
    rows.into_iter()
        .map(|(id, record, highlight)| {
            let marks = record.as_ref().map(ai_marks).unwrap_or_default();
            Row {
                title: record
                    .as_ref()
                    .and_then(|r| schema.title_of(r))
                    .unwrap_or_else(|| id.clone()),
                snippet: best(highlight.as_ref(), &HIGHLIGHTED),
                cells: columns
                    .iter()
                    .map(|c| {
                        record
                            .as_ref()
                            .and_then(|r| r.get(*c))
                            .map(|value| reading(c, value))
                            .map(|text| (text, marks.get(*c).cloned()))
                            .unwrap_or_default()
                    })
                    .collect(),
                id,
            }
        })
        .collect()
}

fn row_view(path: &'static str, row: Row, with_snippet: bool, index: usize) -> impl IntoView {
    // With a selection (list pages), each row has its checkbox and may be the keyboard's row.
    let selection = use_context::<Selection>();
    let current = move || selection.is_some_and(|s| s.cursor.get() == Some(index));
    let chosen = Chosen {
        id: row.id.clone(),
        title: row.title.clone(),
    };
    view! {
        <tr class:current=current aria-current=move || current().then_some("true")>
            {selection.map(|_| view! { <td class="select"><RowCheckbox row=chosen/></td> })}
            <td>
                <A href=crate::hosting::link(record_href(path, &row.id))>{row.title}</A>
                {row.snippet.filter(|_| with_snippet).map(|(field, fragments)| view! {
                    <p class="snippet"><span class="muted">{label(&field)} ": "</span>
                        {fragments.into_iter().map(|f| view! { <Highlighted fragment=f/> " … " }).collect_view()}
                    </p>
                })}
            </td>
            {row.cells.into_iter().map(|(text, ai)| view! { <td>{text}{ai.map(|mark| view! { " " <AiBadge mark quiet=true/> })}</td> }).collect_view()}
            <td><code>{row.id}</code></td>
        </tr>
    }
}

/// Records read for rows that came as bare identifiers: only rows shown are asked for, in
/// batches, once each, so a page of 10,000 identifiers costs what its screenful costs.
#[derive(Clone, Copy)]
struct LazyRecords {
    schema: &'static Schema,
    columns: StoredValue<Vec<&'static str>>,
    read: RwSignal<HashMap<String, Record>>,
    asked: StoredValue<HashSet<String>>,
    // Taken while the table is built: `want` also runs from timers, where there is no context.
    client: StoredValue<ApiClient, LocalStorage>,
    session: Session,
}

impl LazyRecords {
    fn new(schema: &'static Schema) -> LazyRecords {
        LazyRecords {
            schema,
            columns: StoredValue::new(columns_of(schema)),
            read: RwSignal::new(HashMap::new()),
            asked: StoredValue::new(HashSet::new()),
            client: StoredValue::new_local(expect_context::<ApiClient>()),
            session: expect_context::<Session>(),
        }
    }

    /// Reads the records of `rows` that are neither known nor already asked for.
    fn want(self, rows: &[TableRow]) {
        let missing: Vec<String> = self
            .asked
            .try_update_value(|asked| {
                rows.iter()
                    .filter(|(id, record, _)| record.is_none() && asked.insert(id.clone()))
                    .map(|(id, _, _)| id.clone())
                    .collect()
            })
            .unwrap_or_default();
        if missing.is_empty() {
            return;
        }
        let Some(client) = self.client.try_get_value() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let found = self
                .session
                .resolve_records(&client, self.schema, missing)
                .await;
            // The table may be gone by now (another page): then there is nothing to update.
            self.read.try_update(|read| {
                read.extend(found.into_iter().filter_map(|(id, r)| r.map(|r| (id, r))))
            });
        });
    }

    /// `rows` with the records read since, ready to show (tracking the records read).
    fn fill(self, rows: &[TableRow]) -> Vec<Row> {
        self.read.track();
        self.fill_untracked(rows)
    }

    /// [`LazyRecords::fill`] without tracking: a windowed row is rebuilt by its key instead.
    fn fill_untracked(self, rows: &[TableRow]) -> Vec<Row> {
        let filled = self.read.with_untracked(|read| {
            rows.iter()
                .map(|(id, record, highlight)| {
                    let record = record.clone().or_else(|| read.get(id).cloned());
                    (id.clone(), record, highlight.clone())
                })
                .collect()
        });
        self.columns
            .with_value(|columns| rows_of(self.schema, columns, filled))
    }
}

/// The rows of a list or a search page.
#[component]
pub fn Table(
    schema: &'static Schema,
    /// Shared, not copied: the page's resource hands the same rows to every reader.
    rows: Arc<Vec<TableRow>>,
) -> impl IntoView {
    let path = schema.collection.path;
    let lazy = LazyRecords::new(schema);
    let selectable = use_context::<Selection>().is_some();
    let ids: Vec<String> = rows.iter().map(|(id, _, _)| id.clone()).collect();
    let total = rows.len();
    let rows = StoredValue::new(rows);
    let shown = Callback::new(move |_| {
        rows.with_value(|rows| lazy.fill(rows))
            .into_iter()
            .map(|r| Chosen {
                id: r.id,
                title: r.title,
            })
            .collect()
    });
    let head = view! {
        <thead><tr>
            {selectable.then(|| view! { <th scope="col" class="select"><PageCheckbox ids rows=shown/></th> })}
            <th scope="col">{move || t("Title")}</th>
            {lazy.columns.get_value().into_iter().map(|c| view! { <th scope="col">{label(c)}</th> }).collect_view()}
            <th scope="col">{move || t("Identifier")}</th>
        </tr></thead>
    };
    if total < VIRTUAL_FROM {
        rows.with_value(|rows| lazy.want(rows));
        return view! {
            <div class="table-wrap"><table class="records">{head}<tbody>
                {move || rows.with_value(|rows| lazy.fill(rows)).into_iter().enumerate().map(|(i, r)| row_view(path, r, true, i)).collect_view()}
            </tbody></table></div>
        }
        .into_any();
    }
    let scroll_top = RwSignal::new(0.0);
    let columns = lazy.columns.with_value(Vec::len) + 2 + usize::from(selectable);
    let visible =
        Memo::new(move |_| window(scroll_top.get(), VIEWPORT, ROW_HEIGHT, total, OVERSCAN));
    let in_view = move |w: Window| {
        lazy.read.with(|read| {
            rows.with_value(|rows| {
                row_keys(w, |index| {
                    let (id, record, _) = &rows[index];
                    record.is_some() || read.contains_key(id)
                })
            })
        })
    };
    // Records for the rows in view, once scrolling rests for a moment.
    let settled = StoredValue::new(0u32);
    Effect::new(move || {
        let w = visible.get();
        let generation = settled.get_value().wrapping_add(1);
        settled.set_value(generation);
        set_timeout(
            move || {
                if settled.try_get_value() == Some(generation) {
                    rows.with_value(|rows| lazy.want(&rows[w.start..w.end]));
                }
            },
            std::time::Duration::from_millis(SETTLE_MS),
        );
    });
    view! {
        // Sizes go through the CSS object model (style:), which the Content-Security-Policy allows
        // without 'unsafe-inline'.
        <div class="virtual-table" tabindex="0" role="region" aria-label=move || tn("{count} rows, scroll to see more", total as i64, &[])
            style:max-height=format!("{VIEWPORT}px")
            on:scroll=move |ev| {
                let target: web_sys::Element = event_target(&ev);
                scroll_top.set(f64::from(target.scroll_top()));
            }>
            <table class="records" aria-rowcount=total + 1>
                {head}
                <tbody>
                    <tr class="spacer" aria-hidden="true" style:height=move || format!("{}px", visible.get().start as f64 * ROW_HEIGHT)><td colspan=columns></td></tr>
                    // Keyed by place (and whether its record is known yet): a row that stays in
                    // view while scrolling keeps its elements, so a frame builds only the few
                    // rows that come into view instead of the whole window again.
                    <For each=move || in_view(visible.get()) key=|key| *key let((index, _))>
                        {rows.with_value(|rows| lazy.fill_untracked(&rows[index..index + 1])).pop()
                            .map(|r| row_view(path, r, false, index))}
                    </For>
                    <tr class="spacer" aria-hidden="true" style:height=move || format!("{}px", (total - visible.get().end) as f64 * ROW_HEIGHT)><td colspan=columns></td></tr>
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
