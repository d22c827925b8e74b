//! "Enrich N selected" (issue 39 item 3, guidelines, curators and administrators): the same
//! facet values (life stage, setting, audience, guideline type) for every chosen guideline, as
//! an agent, in `POST guidelines/enrich-batch` calls of at most 200 (`kb::schema::enrich`).
//! A dry run over every call comes first (what would be written, what a person's value keeps,
//! what the service refuses); "overwrite edited fields" sends `force_fields`; the report sums
//! the service's own answers.

use larder_api::ApiError;
use larder_contract::collections::guidelines::{ENRICH_BATCH, LABELLED_FACETS};
use larder_contract::collections::GUIDELINES;
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::components::modal::Modal;
use crate::error_text::error_detail;
use crate::i18n::{t, tf, tn};
use crate::kb::list::guideline_tool::GuidelineTool;
use crate::kb::list::search_rows::{each_selected, rows_of_search};
use crate::kb::list::selection::Selection;
use crate::kb::schema::enrich::{batches, carries, Tally};
use crate::kb::schema::labels::facet_value;
use crate::kb::schema::{label, Schema};
use crate::lazy::Later;
use crate::ApiClient;

/// The agent name the console enriches under unless another is typed.
const CONSOLE_AGENT: &str = "larder-console";

#[derive(Clone, PartialEq)]
enum Step {
    Choosing,
    Working {
        done: usize,
        of: usize,
        dry_run: bool,
    },
    Previewed(Tally),
    Confirming(Tally),
    Done(Tally),
    Failed(String),
}

/// The button, for guidelines and the roles the contract's route names.
#[component]
pub fn EnrichButton(
    schema: &'static Schema,
    running: Signal<bool>,
    changed: Callback<()>,
) -> impl IntoView {
    view! {
        <GuidelineTool schema roles=ENRICH_BATCH.roles label="Enrich {count} selected" running changed
            dialog=move |close| view! { <Later data=EnrichData { schema, close } entry=enrich_dialog/> }.into_any()/>
    }
}

#[derive(Clone)]
struct EnrichData {
    schema: &'static Schema,
    close: Callback<bool>,
}

crate::split_entry!(list_tools, enrich_dialog, EnrichData => |d: EnrichData| view! {
    <EnrichDialog schema=d.schema close=d.close/>
});

/// The facet values chosen so far, as the batch's `fields`.
fn chosen_fields(chosen: &[(&'static str, bool, RwSignal<Vec<String>>)]) -> Map<String, Value> {
    chosen
        .iter()
        .filter_map(|(field, many, values)| {
            let values = values.get_untracked();
            if values.is_empty() {
                return None;
            }
            let value = if *many {
                Value::Array(values.into_iter().map(Value::String).collect())
            } else {
                Value::String(values[0].clone())
            };
            Some((field.to_string(), value))
        })
        .collect()
}

#[component]
fn EnrichDialog(schema: &'static Schema, close: Callback<bool>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let selection = expect_context::<Selection>();
    let agent = RwSignal::new(CONSOLE_AGENT.to_string());
    let overwrite = RwSignal::new(false);
    // Each labelled facet: whether it holds a list, and the values chosen.
    let chosen: Vec<(&'static str, bool, RwSignal<Vec<String>>)> = LABELLED_FACETS
        .iter()
        .map(|(field, _)| {
            let many = GUIDELINES
                .fields()
                .into_iter()
                .any(|f| f.name == *field && matches!(f.ty, larder_contract::Type::List { .. }));
            (*field, many, RwSignal::new(Vec::new()))
        })
        .collect();
    let chosen = StoredValue::new(chosen);
    let step = RwSignal::new(Step::Choosing);
    let count = selection.count();
    let reread = RwSignal::new(None::<Result<(u64, u64), String>>);
    let run = move |dry_run: bool| {
        let client = client.clone();
        let fields = chosen.with_value(|c| chosen_fields(c));
        let agent = agent.get_untracked();
        let force = overwrite.get_untracked();
        leptos::task::spawn_local(async move {
            let ids: Result<Vec<String>, ApiError> = match selection.search.get_untracked() {
                Some(search) => rows_of_search(&client, schema, &search)
                    .await
                    .map(|rows| rows.into_iter().map(|r| r.id).collect()),
                None => Ok(selection.ids()),
            };
            let ids = match ids {
                Ok(ids) => ids,
                Err(error) => return step.set(Step::Failed(error_detail(&error))),
            };
            let calls = batches(&ids, &fields, force);
            let mut tally = Tally::default();
            for (done, items) in calls.iter().enumerate() {
                step.set(Step::Working {
                    done,
                    of: calls.len(),
                    dry_run,
                });
                match client.enrich_guidelines(&agent, items, dry_run).await {
                    Ok(answer) => tally.add(&answer),
                    // What earlier calls wrote stays written: the report says how far it got.
                    Err(error) if tally.total > 0 && !dry_run => {
                        tally.refused.push((String::new(), error_detail(&error)));
                        break;
                    }
                    Err(error) => return step.set(Step::Failed(error_detail(&error))),
                }
            }
            if dry_run {
                return step.set(Step::Previewed(tally));
            }
            step.set(Step::Done(tally));
            // Read again from the service: how many of the selection now carry every value.
            reread.set(None);
            let names: Vec<&str> = fields.keys().map(String::as_str).collect();
            let (mut read, mut carrying) = (0u64, 0u64);
            let answer = each_selected(&client, schema, selection, &names, |record| {
                read += 1;
                carrying += u64::from(carries(record, &fields));
            })
            .await;
            reread.set(Some(
                answer
                    .map(|()| (carrying, read))
                    .map_err(|e| error_detail(&e)),
            ));
        });
    };
    let preview = run.clone();
    let apply = run;
    let rechoose = move || {
        if !matches!(step.get_untracked(), Step::Working { .. }) {
            step.set(Step::Choosing);
        }
    };
    let ran = move || matches!(step.get(), Step::Done(_));
    let busy = move || matches!(step.get(), Step::Working { .. });
    let nothing_chosen = move || {
        chosen.with_value(|all| all.iter().all(|(_, _, values)| values.with(Vec::is_empty)))
            || agent.with(|a| a.trim().is_empty())
    };
    view! {
        <Modal role="dialog" labelled_by="enrich-title" on_escape=Callback::new(move |_| if !busy() { close.run(ran()) })>
            <h2 id="enrich-title">{tn("Enrich {count} selected", count as i64, &[])}</h2>
            <div class="field">
                <label for="enrich-agent">{move || t("Agent")}</label>
                <input id="enrich-agent" type="text" disabled=busy prop:value=move || agent.get()
                    on:input=move |ev| { agent.set(event_target_value(&ev)); rechoose(); }/>
            </div>
            {chosen.get_value().into_iter().map(|(field, many, values)| {
                let options = LABELLED_FACETS.iter().find(|(f, _)| *f == field).map(|(_, v)| *v).unwrap_or(&[]);
                view! {
                    <fieldset class="choices enrich-facet">
                        <legend>{move || label(field)}</legend>
                        {options.iter().map(|value| {
                            let value = *value;
                            let toggle = move |on: bool| {
                                values.update(|all| {
                                    all.retain(|v| v != value);
                                    if on {
                                        if !many { all.clear(); }
                                        all.push(value.to_string());
                                    }
                                });
                                rechoose();
                            };
                            view! {
                                <label class="choice">
                                    <input type=if many { "checkbox" } else { "radio" } name=format!("enrich-{field}") disabled=busy
                                        prop:checked=move || values.with(|all| all.iter().any(|v| v == value))
                                        on:change=move |ev| toggle(event_target_checked(&ev))/>
                                    " " {move || facet_value(field, value)}
                                </label>
                            }
                        }).collect_view()}
                    </fieldset>
                }
            }).collect_view()}
            <label class="choice">
                <input type="checkbox" disabled=busy prop:checked=move || overwrite.get()
                    on:change=move |ev| { overwrite.set(event_target_checked(&ev)); rechoose(); }/>
                " " {move || t("Overwrite values a curator set")}
            </label>
            {move || match step.get() {
                Step::Choosing => ().into_any(),
                Step::Working { done, of, dry_run } => view! {
                    <p role="status">{if dry_run { t("Previewing…") } else { t("Applying…") }} " "
                        {tf("Batch {done} of {of}", &[("done", &(done + 1).to_string()), ("of", &of.to_string())])}</p>
                }.into_any(),
                Step::Failed(message) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
                Step::Previewed(tally) | Step::Confirming(tally) => view! { <Counted tally dry_run=true/> }.into_any(),
                Step::Done(tally) => view! { <Counted tally dry_run=false/> <ReadAgain reread/> }.into_any(),
            }}
            <div class="actions">
                <button type="button" disabled=busy on:click=move |_| close.run(ran())>{move || if ran() { t("Close") } else { t("Cancel") }}</button>
                {move || match step.get() {
                    Step::Choosing | Step::Failed(_) => {
                        let preview = preview.clone();
                        view! { <button type="button" class="primary" disabled=nothing_chosen on:click=move |_| preview(true)>{move || t("Preview")}</button> }.into_any()
                    }
                    Step::Previewed(tally) if tally.succeeded > 0 => view! {
                        <button type="button" class="primary" on:click=move |_| step.set(Step::Confirming(tally.clone()))>
                            {tn("Enrich {count} guidelines", tally.succeeded as i64, &[])}
                        </button>
                    }.into_any(),
                    Step::Confirming(tally) => {
                        let apply = apply.clone();
                        view! {
                            <span class="confirm-question">{tn("Write these values into {count} guidelines?", tally.succeeded as i64, &[])}</span>
                            <button type="button" class="danger" data-initial-focus on:click=move |_| apply(false)>{move || t("Yes, apply")}</button>
                        }.into_any()
                    }
                    _ => ().into_any(),
                }}
            </div>
        </Modal>
    }
}

/// The service's answers, summed: what went (or would go) through, what a person's value kept,
/// what was refused and why.
#[component]
fn Counted(tally: Tally, dry_run: bool) -> impl IntoView {
    let counts = [
        ("succeeded", tally.succeeded.to_string()),
        ("total", tally.total.to_string()),
    ];
    let counts: Vec<(&str, &str)> = counts.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let through = if dry_run {
        tf("{succeeded} of {total} would be enriched.", &counts)
    } else {
        tf("Enriched {succeeded} of {total}.", &counts)
    };
    view! {
        <div role="status" data-testid=if dry_run { "enrich-preview" } else { "enrich-report" }>
            <p>{through}</p>
            {(tally.left_alone > 0).then(|| view! {
                <p>{tn("{count} values kept where a curator set them.", tally.left_alone as i64, &[])}</p>
            })}
            {(!tally.refused.is_empty()).then(|| view! {
                <p>{tn("{count} refused:", tally.refused.len() as i64, &[])}</p>
                <ul class="refused">{tally.refused.iter().map(|(id, why)| view! { <li>{format!("{id}: {why}")}</li> }).collect_view()}</ul>
            })}
        </div>
    }
}

/// The selection read again from the service after the apply: how many carry every value sent.
#[component]
fn ReadAgain(reread: RwSignal<Option<Result<(u64, u64), String>>>) -> impl IntoView {
    move || {
        match reread.get() {
        None => view! { <p role="status">{move || t("Counting again…")}</p> }.into_any(),
        Some(Ok((carrying, read))) => view! {
            <p role="status" data-testid="enrich-reread">{tf("Read again from the service: {carrying} of {read} carry every value sent.", &[
                ("carrying", &carrying.to_string()),
                ("read", &read.to_string()),
            ])}</p>
        }.into_any(),
        Some(Err(message)) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
    }
    }
}
