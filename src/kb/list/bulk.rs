//! Bulk actions of a list page over its [`Selection`]: "Select all N matches" for a search,
//! "Delete N selected" (asked once, naming how many; then at most the client's connection limit
//! of deletes at once, with progress, and a report of each row that failed and why), and the
//! reading and editorial policies and enrichment where the contract and the service offer them
//! (`kb::list::policy`, `editorial`, `enrich`).
//!
//! Nothing is retried blindly: the client repeats a DELETE only on 429 and 503 (see
//! `larder_api::retry`), and a failed row stays chosen so that trying it again is a decision.

use futures::StreamExt;

use larder_contract::limits::DATA_CONNECTIONS;
use leptos::prelude::*;

use crate::components::modal::Modal;
use crate::error_text::error_detail;
use crate::i18n::{t, tn};
use crate::kb::gates::can_delete;
use crate::kb::list::backfill::BackfillButton;
use crate::kb::list::editorial::EditorialButton;
use crate::kb::list::enrich::EnrichButton;
use crate::kb::list::policy::PolicyButton;
use crate::kb::list::search_rows::rows_of_search;
use crate::kb::list::selection::{Selection, WholeSearch};
use crate::kb::schema::bulk::{Chosen, DeleteReport};
use crate::kb::schema::search::SearchState;
use crate::kb::schema::Schema;
use crate::ApiClient;

/// Deletes `rows`, at most [`DATA_CONNECTIONS`] at once, telling `report` each answer.
async fn delete_all(
    client: ApiClient,
    session: crate::session::Session,
    schema: &'static Schema,
    rows: Vec<Chosen>,
    report: RwSignal<Option<DeleteReport>>,
) {
    report.set(Some(DeleteReport::of(rows.len())));
    let path = schema.collection.path;
    let mut answers = futures::stream::iter(rows.into_iter().map(|row| {
        let client = client.clone();
        async move {
            let answer = client.delete_record(schema.collection, &row.id).await;
            (row, answer)
        }
    }))
    .buffer_unordered(DATA_CONNECTIONS);
    while let Some((row, answer)) = answers.next().await {
        if answer.is_ok() {
            session.forget_record(path, &row.id);
        }
        let failure = answer.err().map(|e| error_detail(&e));
        report.update(|r| {
            if let Some(r) = r {
                r.record(&row, failure);
            }
        });
    }
}

/// The bar above a list's table: how many are chosen and what can be done with them.
#[component]
pub fn BulkBar(
    schema: &'static Schema,
    state: Memo<SearchState>,
    /// The search's total, when the page shows a search.
    total: Signal<Option<u64>>,
    /// Rows on the page shown.
    shown: Signal<usize>,
    /// Runs when records changed (the list reads its page again).
    changed: Callback<()>,
) -> impl IntoView {
    let selection = expect_context::<Selection>();
    let client = StoredValue::new_local(expect_context::<ApiClient>());
    let session = expect_context::<crate::session::Session>();
    let deletable = can_delete(schema);
    let asking = RwSignal::new(false);
    let collecting = RwSignal::new(false);
    let report = RwSignal::new(None::<DeleteReport>);
    let failed_to_collect = RwSignal::new(None::<String>);
    let count = Signal::derive(move || selection.count());
    let running = Signal::derive(move || {
        collecting.get() || report.with(|r| r.as_ref().is_some_and(|r| !r.finished()))
    });
    // A different search or filter is a different selection.
    Effect::new(move |previous: Option<SearchState>| {
        let now = state.get();
        if previous.is_some_and(|p| p.q != now.q || p.fq != now.fq) {
            selection.clear();
        }
        now
    });
    let all_matches = move || {
        let page_all = shown.get() > 0 && selection.chosen.with(Vec::len) >= shown.get();
        let more = total.get().is_some_and(|t| t as usize > shown.get());
        (page_all && more && selection.search.with(Option::is_none)).then(|| total.get())
    };
    let choose_search = move |_| {
        let s = state.get_untracked();
        selection.search.set(Some(WholeSearch {
            q: s.q,
            fq: s.fq,
            total: total.get_untracked().unwrap_or_default(),
        }));
    };
    let run = move |_: leptos::ev::MouseEvent| {
        asking.set(false);
        failed_to_collect.set(None);
        let client = client.get_value();
        leptos::task::spawn_local(async move {
            let rows = match selection.search.get_untracked() {
                Some(search) => {
                    collecting.set(true);
                    let found = rows_of_search(&client, schema, &search).await;
                    collecting.set(false);
                    match found {
                        Ok(rows) => rows,
                        Err(error) => {
                            failed_to_collect.set(Some(error_detail(&error)));
                            return;
                        }
                    }
                }
                None => selection.chosen.get_untracked(),
            };
            delete_all(client, session, schema, rows, report).await;
            let left = report.with_untracked(|r| r.as_ref().map(DeleteReport::left_chosen));
            selection.clear();
            selection.chosen.set(left.unwrap_or_default());
            changed.run(());
        });
    };
    view! {
        <div class="bulk-bar" role="region" aria-label=move || t("Selection")>
            <Show when=move || all_matches().is_some()>
                <button type="button" on:click=choose_search>
                    {move || tn("Select all {count} matches", total.get().unwrap_or_default() as i64, &[])}
                </button>
            </Show>
            <Show when=move || { count.get() > 0 }>
                <span class="selected-count" role="status">{move || match selection.search.get() {
                    Some(s) => tn("All {count} matches selected", s.total as i64, &[]),
                    None => tn("{count} selected", count.get() as i64, &[]),
                }}</span>
                <Show when=move || deletable.get()>
                    <button type="button" class="danger" disabled=move || running.get() on:click=move |_| asking.set(true)>
                        {move || tn("Delete {count} selected", count.get() as i64, &[])}
                    </button>
                </Show>
                <PolicyButton schema running changed/>
                <EditorialButton schema running changed/>
                <EnrichButton schema running changed/>
                <BackfillButton schema running/>
                <button type="button" disabled=move || running.get() on:click=move |_| { selection.clear(); report.set(None); }>{move || t("Clear selection")}</button>
            </Show>
            <Show when=move || asking.get()>
                <Modal role="alertdialog" labelled_by="bulk-delete-question" on_escape=Callback::new(move |_| asking.set(false))>
                    <p id="bulk-delete-question">{move || tn("Delete {count} records? This cannot be undone.", count.get_untracked() as i64, &[])}</p>
                    <div class="actions">
                        <button type="button" data-initial-focus on:click=move |_| asking.set(false)>{move || t("Cancel")}</button>
                        <button type="button" class="danger" on:click=run>{move || tn("Delete {count}", count.get_untracked() as i64, &[])}</button>
                    </div>
                </Modal>
            </Show>
            {move || collecting.get().then(|| view! { <p role="status">{move || t("Reading the matches…")}</p> })}
            {move || failed_to_collect.get().map(|message| view! { <p class="error-text" role="alert">{message}</p> })}
            <DeleteProgress report/>
        </div>
    }
}

/// How far a bulk delete is, and at its end what failed and why.
#[component]
fn DeleteProgress(report: RwSignal<Option<DeleteReport>>) -> impl IntoView {
    move || {
        report.get().map(|r| {
            let (done, total) = (r.done(), r.total);
            view! {
                <div class="bulk-progress">
                    <progress max=total.max(1) value=done aria-label=move || t("Delete progress")></progress>
                    <p role="status">{if r.finished() {
                        tn("Deleted {count} of {total}.", r.deleted as i64, &[("total", &total.to_string())])
                    } else {
                        tn("Deleting… {count} of {total} answered", done as i64, &[("total", &total.to_string())])
                    }}</p>
                    {(!r.failed.is_empty() && r.finished()).then(|| view! {
                        <div class="bulk-failures" role="alert">
                            <p>{tn("{count} not deleted:", r.failed.len() as i64, &[])}</p>
                            <ul>{r.failed.into_iter().map(|f| view! { <li><strong>{f.title}</strong>" — "{f.reason}</li> }).collect_view()}</ul>
                        </div>
                    })}
                </div>
            }
        })
    }
}
