//! "Backfill embeddings for N selected" (issue 39 item 3, guidelines, administrators).
//! Production's guideline backfill selects by guide, not by rows (production.md §10.5), so the
//! dialog first reads which guides the chosen guidelines belong to, says that a backfill covers
//! every guideline of those guides, previews one dry-run call per guide, and applies them after a
//! confirmation. The report sums the service's own answers (`kb::schema::backfill`), then reads
//! the service's embedding coverage again (`system/embeddings`) and shows it.

use larder_api::status::Coverage;
use larder_api::ApiError;
use larder_contract::collections::guidelines::EMBEDDINGS_BACKFILL;
use leptos::prelude::*;

use crate::components::modal::Modal;
use crate::error_text::error_detail;
use crate::i18n::{t, tf, tn};
use crate::kb::list::guideline_tool::GuidelineTool;
use crate::kb::list::search_rows::each_selected;
use crate::kb::list::selection::Selection;
use crate::kb::schema::backfill::{BackfillTally, Guides};
use crate::kb::schema::Schema;
use crate::lazy::Later;
use crate::ApiClient;

/// The guidelines' coverage as `system/embeddings` says it after the apply (`None`: the service
/// does not report it), or why it could not be read.
type CoverageRead = Result<Option<Coverage>, String>;

#[derive(Clone, PartialEq)]
enum Step {
    Reading,
    Ready(Guides),
    Working {
        done: usize,
        of: usize,
        dry_run: bool,
    },
    Previewed(Guides, BackfillTally),
    Confirming(Guides, BackfillTally),
    Done(BackfillTally),
    Failed(String),
}

/// The button, for guidelines (the collection whose backfill names a guide) and the roles the
/// contract's route names. A backfill changes no field the list shows: nothing to read again.
#[component]
pub fn BackfillButton(schema: &'static Schema, running: Signal<bool>) -> impl IntoView {
    view! {
        <GuidelineTool schema roles=EMBEDDINGS_BACKFILL.roles label="Backfill embeddings for {count} selected" running
            dialog=move |close| view! { <Later data=BackfillData { schema, close } entry=backfill_dialog/> }.into_any()/>
    }
}

#[derive(Clone)]
struct BackfillData {
    schema: &'static Schema,
    close: Callback<bool>,
}

crate::split_entry!(list_tools, backfill_dialog, BackfillData => |d: BackfillData| view! {
    <BackfillDialog schema=d.schema close=d.close/>
});

/// The guides of the selection, from its guidelines' guide field.
async fn guides_of_selection(
    client: &ApiClient,
    schema: &'static Schema,
    selection: Selection,
) -> Result<Guides, ApiError> {
    let mut guides = Guides::default();
    if let Some(field) = schema.collection.parent.map(|p| p.field) {
        each_selected(client, schema, selection, &[field], |record| {
            guides.add(record, field)
        })
        .await?;
    }
    Ok(guides)
}

#[component]
fn BackfillDialog(schema: &'static Schema, close: Callback<bool>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let selection = expect_context::<Selection>();
    let count = selection.count();
    let only_missing = RwSignal::new(true);
    let step = RwSignal::new(Step::Reading);
    let reread = RwSignal::new(None::<CoverageRead>);
    {
        let client = client.clone();
        leptos::task::spawn_local(async move {
            step.set(
                match guides_of_selection(&client, schema, selection).await {
                    Ok(guides) => Step::Ready(guides),
                    Err(error) => Step::Failed(error_detail(&error)),
                },
            );
        });
    }
    let run = move |guides: Guides, dry_run: bool| {
        let client = client.clone();
        let only_missing = only_missing.get_untracked();
        leptos::task::spawn_local(async move {
            let urns = guides.urns();
            let mut tally = BackfillTally::default();
            for (done, urn) in urns.iter().enumerate() {
                step.set(Step::Working {
                    done,
                    of: urns.len(),
                    dry_run,
                });
                match client
                    .backfill_guideline_embeddings(Some(urn), only_missing, None, dry_run)
                    .await
                {
                    Ok(answer) => tally.add(&answer),
                    Err(error) => tally.refuse(urn, error_detail(&error)),
                }
            }
            if dry_run {
                return step.set(Step::Previewed(guides, tally));
            }
            step.set(Step::Done(tally));
            let coverage = client.system_embeddings().await.map(|answer| {
                answer.and_then(|e| {
                    e.indices.into_iter().find(|c| {
                        c.backfill_collection()
                            .is_some_and(|c| c.path == schema.collection.path)
                    })
                })
            });
            reread.set(Some(coverage.map_err(|e| error_detail(&e))));
        });
    };
    let preview = run.clone();
    let apply = run;
    let busy = move || matches!(step.get(), Step::Reading | Step::Working { .. });
    let rechoose = move || {
        if let Step::Previewed(guides, _) = step.get_untracked() {
            step.set(Step::Ready(guides));
        }
    };
    view! {
        <Modal role="dialog" labelled_by="backfill-title" on_escape=Callback::new(move |_| if !busy() { close.run(false) })>
            <h2 id="backfill-title">{tn("Backfill embeddings for {count} selected", count as i64, &[])}</h2>
            <label class="choice">
                <input type="checkbox" disabled=busy prop:checked=move || only_missing.get()
                    on:change=move |ev| { only_missing.set(event_target_checked(&ev)); rechoose(); }/>
                " " {move || t("Only guidelines without an embedding")}
            </label>
            {move || match step.get() {
                Step::Reading => view! { <p role="status">{move || t("Reading the guides of the selection…")}</p> }.into_any(),
                Step::Ready(guides) => view! { <Scope guides/> }.into_any(),
                Step::Working { done, of, dry_run } => view! {
                    <p role="status">{if dry_run { t("Previewing…") } else { t("Applying…") }} " "
                        {tf("Guide {done} of {of}", &[("done", &(done + 1).to_string()), ("of", &of.to_string())])}</p>
                }.into_any(),
                Step::Previewed(guides, tally) | Step::Confirming(guides, tally) => view! {
                    <Scope guides/>
                    <Counted tally dry_run=true/>
                }.into_any(),
                Step::Done(tally) => view! { <Counted tally dry_run=false/> <Reread reread/> }.into_any(),
                Step::Failed(message) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
            }}
            <div class="actions">
                <button type="button" disabled=busy on:click=move |_| close.run(false)>
                    {move || if matches!(step.get(), Step::Done(_)) { t("Close") } else { t("Cancel") }}
                </button>
                {move || match step.get() {
                    Step::Ready(guides) if !guides.chosen.is_empty() => {
                        let preview = preview.clone();
                        view! { <button type="button" class="primary" on:click=move |_| preview(guides.clone(), true)>{move || t("Preview")}</button> }.into_any()
                    }
                    Step::Previewed(guides, tally) if tally.queued > 0 => view! {
                        <button type="button" class="primary" on:click=move |_| step.set(Step::Confirming(guides.clone(), tally.clone()))>
                            {tn("Backfill {count} guidelines", tally.queued as i64, &[])}
                        </button>
                    }.into_any(),
                    Step::Confirming(guides, tally) => {
                        let apply = apply.clone();
                        view! {
                            <span class="confirm-question">{tn("Queue {count} guidelines for embedding?", tally.queued as i64, &[])}</span>
                            <button type="button" class="danger" data-initial-focus on:click=move |_| apply(guides.clone(), false)>{move || t("Yes, apply")}</button>
                        }.into_any()
                    }
                    _ => ().into_any(),
                }}
            </div>
        </Modal>
    }
}

/// Which guides the selection covers, and that a backfill takes every guideline of them.
#[component]
fn Scope(guides: Guides) -> impl IntoView {
    let chosen: u64 = guides.chosen.values().sum();
    view! {
        <div data-testid="backfill-scope">
            <p>{tn("Chosen guidelines: {chosen}. They belong to {count} guides, and the service backfills whole guides: every guideline of them is looked at.",
                guides.chosen.len() as i64, &[("chosen", &chosen.to_string())])}</p>
            {(guides.without > 0).then(|| view! {
                <p class="warning">{tn("{count} chosen guidelines have no guide and are left out.", guides.without as i64, &[])}</p>
            })}
        </div>
    }
}

/// The service's answers, summed, and each guide whose call failed.
#[component]
fn Counted(tally: BackfillTally, dry_run: bool) -> impl IntoView {
    let counts = [
        ("queued", tally.queued.to_string()),
        ("scanned", tally.scanned.to_string()),
        ("skipped", tally.skipped.to_string()),
    ];
    let counts: Vec<(&str, &str)> = counts.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let line = if dry_run {
        tf(
            "{queued} of {scanned} would be queued; {skipped} already have an embedding.",
            &counts,
        )
    } else {
        tf(
            "Queued {queued} of {scanned}; {skipped} already had an embedding.",
            &counts,
        )
    };
    view! {
        <div role="status" data-testid=if dry_run { "backfill-preview" } else { "backfill-report" }>
            <p>{line}</p>
            {(tally.failed > 0).then(|| view! { <p class="warning">{tn("{count} could not be queued.", tally.failed as i64, &[])}</p> })}
            {(!tally.refused.is_empty()).then(|| view! {
                <p>{tn("{count} refused:", tally.refused.len() as i64, &[])}</p>
                <ul class="refused">{tally.refused.iter().map(|(guide, why)| view! { <li>{format!("{guide}: {why}")}</li> }).collect_view()}</ul>
            })}
        </div>
    }
}

/// The coverage read again from the service after the apply.
#[component]
fn Reread(reread: RwSignal<Option<CoverageRead>>) -> impl IntoView {
    move || {
        match reread.get() {
        None => view! { <p role="status">{move || t("Reading the coverage again…")}</p> }.into_any(),
        Some(Ok(Some(Coverage { missing, embedded, total, .. }))) => view! {
            <p role="status" data-testid="backfill-reread">{tf("Read again from the service: {embedded} of {total} guidelines have an embedding, {missing} are missing one.", &[
                ("embedded", &embedded.to_string()),
                ("total", &total.to_string()),
                ("missing", &missing.to_string()),
            ])}</p>
        }.into_any(),
        Some(Ok(None)) => view! { <p>{move || t("The service does not report embedding coverage.")}</p> }.into_any(),
        Some(Err(message)) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
    }
    }
}
