//! "Download my data": everything the service holds about a household (the household, every
//! member with their profile, and each member's meal plans and library where the service offers
//! them) as the versioned JSON file of `crate::export::household`, or as its CSV tables in one
//! zip. Read a page of members at a time and each member's plans a day at a time (three days at
//! once, over the days the owner chooses), each member written out at once, so a household of a
//! thousand members with large profiles and a month of plans stays within a bounded amount of
//! wasm memory. Used on the household page and inside the delete dialogs;
//! `<DownloadMyData household_id=.../>` is all a page needs.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;

use larder_api::{Household, PlanOfDay};
use larder_contract::member_data::{LibraryKind, LIBRARY, MEAL_PLANS_FILE_KEY};
use leptos::prelude::*;
use serde_json::{json, Value};

use crate::components::export_status::{check, ExportControl, ExportStatus, Stop};
use crate::export::browser::{now_utc, offer, today_local, zip_blob, BlobFile};
use crate::export::household::{plan_days, Output, PlanDaysProblem, Writer, MAX_PLAN_DAYS};
use crate::i18n::format::number;
use crate::i18n::{t, tf, tn};
use crate::lazy::{ChunkFailed, Later};
use crate::ApiClient;

/// Members read per request: with production's largest profiles and pictures a page stays
/// near half a megabyte, the most that is in wasm memory at once.
const MEMBER_PAGE: u32 = 25;

/// The file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Json,
    CsvZip,
}

/// The files being written.
struct Files {
    format: Format,
    json: BlobFile,
    tables: Vec<(String, BlobFile)>,
}

impl Files {
    fn take(&mut self, output: Output) {
        match self.format {
            Format::Json => self.json.push(&output.json),
            Format::CsvZip => {
                for (name, text) in output.csv {
                    match self.tables.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, file)) => file.push(&text),
                        None => {
                            let mut file = BlobFile::new();
                            file.push(&text);
                            self.tables.push((name, file));
                        }
                    }
                }
            }
        }
    }
}

/// One download: what [`download`] is given.
struct Job {
    client: ApiClient,
    household_id: String,
    known: Option<Household>,
    members_known: Option<u64>,
    format: Format,
    /// The days of meal plans to read, first to last.
    plan_days: Vec<String>,
    control: ExportControl,
    /// Cancel's flag, from [`ExportControl::begin`]: the export shows as running (buttons
    /// disabled, Cancel offered) from the click on, while its module arrives too.
    cancelled: Rc<Cell<bool>>,
}

/// The download's reading and writing, started. In the split build this and all it calls (the
/// export's JSON, CSV and zip writers) are a module of their own, fetched when a download
/// starts (issue 24: about 8 KB brotli the household page no longer waits for).
#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(
    household_download, fallible, wasm_split_path = ::leptos::wasm_split
))]
fn begin(job: Job) -> Result<LocalBoxFuture<'static, Result<String, Stop>>, ChunkFailed> {
    Ok(Box::pin(download(job)))
}

/// [`download`], once its module is here; a module that cannot be fetched is a failure to
/// show (with "Try again"), not a panic.
async fn run(job: Job) -> Result<String, Stop> {
    #[cfg(feature = "split")]
    let started = begin(job).await;
    #[cfg(not(feature = "split"))]
    let started = begin(job);
    match started {
        Ok(download) => download.await,
        Err(ChunkFailed) => Err(Stop::Failed(t(
            "Its module did not arrive: the connection may be down, or a newer version was published meanwhile.",
        ))),
    }
}

fn id_of(member: &Value) -> String {
    member
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Reads and writes the household's data; the sentence to show when it is saved.
async fn download(job: Job) -> Result<String, Stop> {
    let Job {
        client,
        household_id,
        known,
        members_known,
        format,
        plan_days,
        control,
        cancelled,
    } = job;
    let exported_at = now_utc();
    // The page's household when it passes one: larder-server's reference wire answers
    // `households/{id}` with every member and profile inside, which would put the whole
    // household in wasm memory at once.
    let household = match known {
        Some(household) => serde_json::to_value(Household {
            members: Vec::new(),
            ..household
        })
        .map_err(|e| Stop::Failed(e.to_string()))?,
        None => client.household_value(&household_id).await?,
    };
    check(&cancelled)?;
    let total = members_known.or_else(|| {
        household
            .get("member_count")
            .and_then(Value::as_u64)
            .filter(|n| *n > 0)
    });
    let mut page = client.member_values(&household_id, MEMBER_PAGE, 0).await?;
    // Whether the service offers each kind, asked once about the first member: meal plans by
    // one day's read (a day without a plan is still "offered"), the library by its lists.
    let first = page.first().map(id_of);
    let mut offered: Vec<(&'static str, Option<bool>)> = Vec::new();
    let plans_offered = match (&first, plan_days.first()) {
        (Some(member), Some(day)) => Some(!matches!(
            client.meal_plan_value(member, day).await?,
            PlanOfDay::NotOffered
        )),
        _ => None,
    };
    offered.push((MEAL_PLANS_FILE_KEY, plans_offered));
    let mut kinds: Vec<&'static LibraryKind> = Vec::new();
    for kind in &LIBRARY {
        check(&cancelled)?;
        let offer = match &first {
            Some(member) => Some(client.library_values(member, kind).await?.is_some()),
            None => None,
        };
        if offer == Some(true) {
            kinds.push(kind);
        }
        offered.push((kind.file_key, offer));
    }
    let config = client.config();
    let service = json!({"data": config.data_base, "system": config.system_base});
    let dates = match (plans_offered, plan_days.first(), plan_days.last()) {
        (Some(true), Some(from), Some(to)) => Some((from.as_str(), to.as_str())),
        _ => None,
    };
    let (mut writer, head) = Writer::start(&exported_at, service, &household, &offered, dates);
    let mut files = Files {
        format,
        json: BlobFile::new(),
        tables: Vec::new(),
    };
    files.take(head);
    let mut done = 0u64;
    let mut first_ids: Vec<String> = Vec::new();
    loop {
        let short = page.len() < MEMBER_PAGE as usize;
        // A service that ignored `offset` would answer the first page again: stop there.
        let first = page.first().map(id_of);
        if done > 0 && first.as_ref().is_some_and(|id| first_ids.contains(id)) {
            break;
        }
        first_ids.extend(first);
        for member in &page {
            check(&cancelled)?;
            let days: &[String] = if plans_offered == Some(true) {
                &plan_days
            } else {
                &[]
            };
            // The member's days of plans and the library's lists, three requests at a time.
            let read = client.member_extras(&id_of(member), days, &kinds).await?;
            let mut extras = Vec::new();
            if plans_offered == Some(true) {
                extras.push((MEAL_PLANS_FILE_KEY, read.plans));
            }
            extras.extend(
                read.lists
                    .into_iter()
                    .map(|(kind, items)| (kind.file_key, items)),
            );
            files.take(writer.member(member, &extras).map_err(Stop::Failed)?);
            done += 1;
            control.progress(done, total.map(|t| t.max(done)));
        }
        if short {
            break;
        }
        check(&cancelled)?;
        page = client
            .member_values(&household_id, MEMBER_PAGE, done as u32)
            .await?;
    }
    check(&cancelled)?;
    let day = exported_at.get(..10).unwrap_or("export");
    let (blob, name) = match format {
        Format::Json => {
            files.json.push(&writer.finish());
            (
                files.json.blob("application/json"),
                format!("household-{day}.json"),
            )
        }
        Format::CsvZip => (
            zip_blob(files.tables, &exported_at),
            format!("household-{day}-csv.zip"),
        ),
    };
    let blob = blob.map_err(|_| Stop::Failed(t("the browser stopped the download")))?;
    offer(&blob, &name).map_err(Stop::Failed)?;
    Ok(tf(
        "Saved {members} as {name}.",
        &[
            ("members", &tn("{count} members", done as i64, &[])),
            ("name", &name),
        ],
    ))
}

fn members_counted(done: u64, total: Option<u64>) -> String {
    match total {
        Some(total) => tf(
            "{done} of {total} members",
            &[
                ("done", &number(done as f64)),
                ("total", &number(total as f64)),
            ],
        ),
        None => tn("{count} members", done as i64, &[]),
    }
}

/// "Download my data" as JSON or CSV (zip), with progress, Cancel and "Try again", from a
/// module of its own (`household_tools`): the export's code is not in the module a household
/// page's bookmark waits for (issue 37), and comes while the page is read.
#[component]
pub fn DownloadMyData(
    /// The household whose data is saved.
    #[prop(into)]
    household_id: String,
    /// How many members it has, when the page knows (for "n of N"); else the service's count.
    #[prop(optional)]
    members: Option<usize>,
    /// The household as the page holds it; without it, `households/{id}` is read.
    #[prop(optional)]
    household: Option<Household>,
) -> impl IntoView {
    let of = DownloadOf {
        household_id,
        members,
        household,
    };
    view! { <Later data=of entry=draw_download_my_data/> }
}

/// What [`DownloadMyData`] was given, for its module.
#[derive(Clone)]
struct DownloadOf {
    household_id: String,
    members: Option<usize>,
    household: Option<Household>,
}

crate::split_entry!(household_tools, draw_download_my_data, DownloadOf => |of: DownloadOf| view! {
    <DownloadMyDataHere household_id=of.household_id members=of.members household=of.household/>
});

#[component]
fn DownloadMyDataHere(
    household_id: String,
    members: Option<usize>,
    household: Option<Household>,
) -> impl IntoView {
    let known = StoredValue::new(household);
    let client = expect_context::<ApiClient>();
    let control = ExportControl::new();
    let household_id = StoredValue::new(household_id);
    let last = StoredValue::new(Format::Json);
    // The days of meal plans: by default the last 30 and the next 7, in the owner's calendar.
    let today = today_local();
    let from = RwSignal::new(larder_contract::time::add_days(&today, -30).unwrap_or_default());
    let to = RwSignal::new(larder_contract::time::add_days(&today, 7).unwrap_or_default());
    let days = Memo::new(move |_| plan_days(&from.get(), &to.get()));
    let run = move |format: Format| {
        let Ok(plan_days) = days.get_untracked() else {
            return;
        };
        last.set_value(format);
        let client = client.clone();
        leptos::task::spawn_local(async move {
            let members_known = members.map(|n| n as u64);
            let outcome = run(Job {
                client,
                household_id: household_id.get_value(),
                known: known.get_value(),
                members_known,
                format,
                plan_days,
                control,
                cancelled: control.begin(members_known),
            })
            .await;
            control.end(outcome);
        });
    };
    let retry_run = run.clone();
    let retry = Callback::new(move |_| retry_run(last.get_value()));
    let (json_run, csv_run) = (run.clone(), run);
    view! {
        <div class="download-my-data" role="group" aria-label=move || t("Download my data")>
            <p class="hint">{move || t("Download my data: the household, every member and profile, and what else the service keeps about each member.")}</p>
            <fieldset class="plan-range">
                <legend>{move || t("Meal plans of these days")}</legend>
                <label>{move || t("From")} " "
                    <input type="date" prop:value=move || from.get() on:input=move |ev| from.set(event_target_value(&ev))/>
                </label>
                " "
                <label>{move || t("To")} " "
                    <input type="date" prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev))/>
                </label>
                {move || match days.get() {
                    Ok(days) => view! {
                        <p class="hint">{tn("{count} days: one request per member and day.", days.len() as i64, &[])}</p>
                    }.into_any(),
                    Err(problem) => view! {
                        <p class="field-error" role="alert">{match problem {
                            PlanDaysProblem::NotDates => t("Choose the first and the last day."),
                            PlanDaysProblem::Backwards => t("The last day is before the first."),
                            PlanDaysProblem::TooMany => tf("At most {days} days at once.", &[("days", &MAX_PLAN_DAYS.to_string())]),
                        }}</p>
                    }.into_any(),
                }}
            </fieldset>
            <div class="actions">
                <button type="button" disabled=move || control.running() || days.with(Result::is_err) on:click=move |_| json_run(Format::Json)>{move || t("Download my data (JSON)")}</button>
                <button type="button" disabled=move || control.running() || days.with(Result::is_err) on:click=move |_| csv_run(Format::CsvZip)>{move || t("Download my data (CSV, zip)")}</button>
            </div>
            <ExportStatus control counted=members_counted retry/>
        </div>
    }
}

/// The offer inside a delete dialog: "Before you delete, download your data", then the buttons.
#[component]
pub fn BeforeYouDelete(
    #[prop(into)] household_id: String,
    /// The household as the page holds it, when it does (see [`DownloadMyData`]).
    #[prop(optional)]
    household: Option<Household>,
) -> impl IntoView {
    view! {
        <div class="before-you-delete">
            <p><strong>{move || t("Before you delete, download your data.")}</strong></p>
            {match household {
                Some(household) => view! { <DownloadMyData household_id household/> }.into_any(),
                None => view! { <DownloadMyData household_id/> }.into_any(),
            }}
        </div>
    }
}
