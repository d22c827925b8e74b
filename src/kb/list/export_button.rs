//! "Export" on every list and search: every match (not only the page shown), or only the chosen
//! rows, as CSV or JSON, read page after page within the service's limits (never more requests
//! at once than the client's connection limit), into a Blob, with progress and Cancel.
//! Data-driven: columns and labels come from the contract (`crate::export::list`).

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::stream::{self, StreamExt};
use larder_api::{Record, SearchQuery};
use larder_contract::limits::DATA_CONNECTIONS;
use larder_contract::Browsing;
use leptos::prelude::*;

use crate::components::export_status::{check, rows_counted, ExportControl, ExportStatus, Stop};
use crate::export::browser::{now_utc, offer, BlobFile};
use crate::export::list::{file_name, pages, ListWriter, EXPORT_PAGE, MOST_FOUND};
use crate::i18n::format::number;
use crate::i18n::{t, tf, tn};
use crate::kb::schema::search::SearchState;
use crate::kb::schema::Schema;
use crate::lazy::ChunkFailed;
use crate::ApiClient;

/// The file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// RFC 4180, a header of field labels.
    Csv,
    /// An array of records, one per line.
    Json,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    fn mime(self) -> &'static str {
        match self {
            Format::Csv => "text/csv;charset=utf-8",
            Format::Json => "application/json",
        }
    }
}

/// Which rows an export takes.
#[derive(Clone, Debug)]
pub enum Rows {
    /// The list or search the page shows: `state`, under `parent` for a per-parent collection.
    Matches {
        state: SearchState,
        parent: Option<String>,
    },
    /// Only these records (a selection), read again by identifier so the file is current.
    Only(Vec<String>),
}

/// One file being written in one format.
struct Sink {
    writer: ListWriter,
    file: BlobFile,
    format: Format,
}

impl Sink {
    fn new(schema: &Schema, format: Format) -> Sink {
        let (writer, head) = ListWriter::new(schema);
        let mut sink = Sink {
            writer,
            file: BlobFile::new(),
            format,
        };
        sink.take(head);
        sink
    }

    fn take(&mut self, chunk: crate::export::list::Chunk) {
        self.file.push(match self.format {
            Format::Csv => &chunk.csv,
            Format::Json => &chunk.json,
        });
    }

    fn rows(&mut self, records: &[Record]) -> Result<(), Stop> {
        let chunk = self.writer.rows(records).map_err(Stop::Failed)?;
        self.take(chunk);
        Ok(())
    }
}

/// One export: what [`export`] is given.
struct Job {
    client: ApiClient,
    schema: &'static Schema,
    rows: Rows,
    format: Format,
    control: ExportControl,
}

/// The export's reading and writing, started. In the split build this and all it calls (the
/// list's CSV and JSON writers, the file) are a module of their own, fetched when an export
/// starts (issue 37: a curator's bookmark to a list no longer waits for it).
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(
    list_export, fallible, wasm_split_path = ::leptos::wasm_split
))]
fn begin(job: Job) -> Result<LocalBoxFuture<'static, Result<String, Stop>>, ChunkFailed> {
    Ok(Box::pin(export(
        job.client,
        job.schema,
        job.rows,
        job.format,
        job.control,
    )))
}

/// [`export`], once its module is here; a module that cannot be fetched is a failure to show
/// (with "Try again"), not a panic.
async fn run(job: Job) -> Result<String, Stop> {
    #[cfg(feature = "split")]
    let started = begin(job).await;
    #[cfg(not(feature = "split"))]
    let started = begin(job);
    match started {
        Ok(export) => export.await,
        Err(ChunkFailed) => Err(Stop::Failed(t(
            "Its module did not arrive: the connection may be down, or a newer version was published meanwhile.",
        ))),
    }
}

/// Reads every row `rows` names and writes them to one file; the sentence to show when saved.
async fn export(
    client: ApiClient,
    schema: &'static Schema,
    rows: Rows,
    format: Format,
    control: ExportControl,
) -> Result<String, Stop> {
    let cancelled = control.begin(None);
    let started = now_utc();
    let mut sink = Sink::new(schema, format);
    let mut capped = None;
    match rows {
        Rows::Only(ids) => {
            let total = Some(ids.len() as u64);
            control.progress(0, total);
            by_identifier(&client, schema, ids, &mut sink, &cancelled, control, total).await?;
        }
        Rows::Matches { parent, .. }
            if matches!(schema.collection.browsing(), Browsing::ByParent(_)) =>
        {
            let parent = parent.ok_or_else(|| Stop::Failed(t("Choose a parent record first.")))?;
            let mut offset = 0u32;
            loop {
                check(&cancelled)?;
                let page = client
                    .list_children(schema.collection, &parent, EXPORT_PAGE, offset)
                    .await?;
                sink.rows(&page)?;
                offset += page.len() as u32;
                control.progress(offset as u64, None);
                if page.len() < EXPORT_PAGE as usize {
                    break;
                }
            }
        }
        Rows::Matches { state, .. } if schema.collection.routes.search.by_reference() => {
            let mut base = SearchQuery::new(state.q.clone().unwrap_or_default());
            base.fq = state.fq.clone();
            if !state.sort.is_empty() {
                base = base.sort(state.sort.clone());
            }
            capped = search(&client, schema, base, &mut sink, &cancelled, control).await?;
        }
        Rows::Matches { .. } => {
            // No search: the listing names the records, each is read by identifier.
            let mut offset = 0u32;
            loop {
                check(&cancelled)?;
                let listed = client.list(schema.collection, EXPORT_PAGE, offset).await?;
                let ids: Vec<String> = listed
                    .iter()
                    .filter_map(|l| l.identifier().map(str::to_string))
                    .collect();
                let short = listed.len() < EXPORT_PAGE as usize;
                offset += listed.len() as u32;
                by_identifier(&client, schema, ids, &mut sink, &cancelled, control, None).await?;
                if short {
                    break;
                }
            }
        }
    }
    check(&cancelled)?;
    let end = sink.writer.finish();
    sink.take(end);
    let count = sink.writer.count();
    let name = file_name(schema.collection.path, &started, format.extension());
    let blob = sink
        .file
        .blob(format.mime())
        .map_err(|_| Stop::Failed(t("the browser stopped the download")))?;
    offer(&blob, &name).map_err(Stop::Failed)?;
    let saved = tn(
        "Saved {count} rows as {name}.",
        count as i64,
        &[("name", &name)],
    );
    Ok(match capped {
        Some(total) => format!(
            "{saved} {}",
            tf(
                "The service gives at most {most} matches of one search; {total} matched.",
                &[
                    ("most", &number(MOST_FOUND as f64)),
                    ("total", &number(total as f64))
                ],
            )
        ),
        None => saved,
    })
}

/// Every match of `base`, page after page, up to the service's search window; `Some(total)`
/// when there were more matches than the window holds.
async fn search(
    client: &ApiClient,
    schema: &'static Schema,
    base: SearchQuery,
    sink: &mut Sink,
    cancelled: &Rc<Cell<bool>>,
    control: ExportControl,
) -> Result<Option<u64>, Stop> {
    let first = client
        .search_records(schema.collection, &base.clone().page(EXPORT_PAGE, 0))
        .await?;
    let total = first.total;
    let wanted = total.min(MOST_FOUND);
    let mut done = first.results.len() as u64;
    let records: Vec<Record> = first.results.into_iter().map(|hit| hit.record).collect();
    sink.rows(&records)?;
    drop(records);
    control.progress(done, Some(wanted));
    check(cancelled)?;
    if done < EXPORT_PAGE as u64 {
        return Ok(None);
    }
    // The rest in order, up to the connection limit at once; Cancel stops before the next one.
    let rest = pages(wanted).into_iter().skip(1).map(|(limit, offset)| {
        let (client, query) = (client.clone(), base.clone().page(limit, offset));
        let cancelled = cancelled.clone();
        async move {
            check(&cancelled)?;
            Ok::<_, Stop>(client.search_records(schema.collection, &query).await?)
        }
    });
    let mut answers = stream::iter(rest).buffered(DATA_CONNECTIONS);
    while let Some(answer) = answers.next().await {
        let page = answer?;
        check(cancelled)?;
        let short = (page.results.len() as u32) < EXPORT_PAGE;
        let records: Vec<Record> = page.results.into_iter().map(|hit| hit.record).collect();
        done += records.len() as u64;
        sink.rows(&records)?;
        control.progress(done, Some(wanted));
        if short {
            break;
        }
    }
    Ok((total > MOST_FOUND).then_some(total))
}

/// The records `ids`, read up to the connection limit at once, written in order.
async fn by_identifier(
    client: &ApiClient,
    schema: &'static Schema,
    ids: Vec<String>,
    sink: &mut Sink,
    cancelled: &Rc<Cell<bool>>,
    control: ExportControl,
    total: Option<u64>,
) -> Result<(), Stop> {
    let reads = ids.into_iter().map(|id| {
        let client = client.clone();
        let cancelled = cancelled.clone();
        async move {
            check(&cancelled)?;
            Ok::<_, Stop>(client.get_record(schema.collection, &id).await?)
        }
    });
    let mut answers = stream::iter(reads).buffered(DATA_CONNECTIONS);
    let mut done = match control.state.get_untracked() {
        crate::components::export_status::ExportState::Running { done, .. } => done,
        _ => 0,
    };
    while let Some(answer) = answers.next().await {
        let record = answer?;
        sink.rows(std::slice::from_ref(&record))?;
        done += 1;
        control.progress(done, total);
    }
    Ok(())
}

/// The "Export" button of a list: it opens a small panel to pick CSV or JSON; the export reads
/// what the page's URL describes (`state`, `parent`), or only `selected` when given and not
/// empty (the selection of the bulk actions, when they are wired to it).
#[component]
pub fn ExportButton(
    schema: &'static Schema,
    #[prop(into)] state: Signal<SearchState>,
    #[prop(into)] parent: Signal<Option<String>>,
    /// Identifiers of chosen rows; when some are chosen, only they are exported.
    #[prop(optional, into)]
    selected: Option<Signal<Vec<String>>>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let open = RwSignal::new(false);
    let control = ExportControl::new();
    let last = StoredValue::new(Format::Csv);
    let chosen = move || selected.map(|s| s.get()).unwrap_or_default();
    let run = move |format: Format| {
        last.set_value(format);
        let rows = match selected.map(|s| s.get_untracked()) {
            Some(ids) if !ids.is_empty() => Rows::Only(ids),
            _ => Rows::Matches {
                state: state.get_untracked(),
                parent: parent.get_untracked(),
            },
        };
        let job = Job {
            client: client.clone(),
            schema,
            rows,
            format,
            control,
        };
        leptos::task::spawn_local(async move {
            let outcome = run(job).await;
            control.end(outcome);
        });
    };
    let retry_run = run.clone();
    let retry = Callback::new(move |_| retry_run(last.get_value()));
    let (csv_run, json_run) = (run.clone(), run);
    view! {
        <div class="export">
            <button type="button" aria-expanded=move || open.get().to_string() aria-controls="export-panel"
                on:click=move |_| open.update(|o| *o = !*o)>{move || t("Export")}</button>
            <Show when=move || open.get()>
                <div id="export-panel" class="export-panel card" role="group" aria-label=move || t("Export")>
                    <p class="hint">{move || {
                        let ids = chosen();
                        if ids.is_empty() {
                            t("Every match of this list or search, not only the page shown.")
                        } else {
                            tn("Only the {count} selected rows.", ids.len() as i64, &[])
                        }
                    }}</p>
                    <div class="actions">
                        <button type="button" disabled=move || control.running() on:click={let run = csv_run.clone(); move |_| run(Format::Csv)}>{move || t("Download CSV")}</button>
                        <button type="button" disabled=move || control.running() on:click={let run = json_run.clone(); move |_| run(Format::Json)}>{move || t("Download JSON")}</button>
                    </div>
                    <ExportStatus control counted=rows_counted retry/>
                </div>
            </Show>
        </div>
    }
}
