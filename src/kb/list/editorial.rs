//! "Editorial policy for N selected" (issue 39 item 3, guidelines, administrators): the
//! lifecycle status, review status, visibility and applicability of chosen rows or a whole
//! search, in one `POST guidelines/editorial-policy`. A dry run previews it (how many match,
//! whether the service caps the run, a sample); the run asks once more; the report is the
//! service's own answer: "Updated 118 of 120", each refused row with the service's reason, and
//! writes lost to a concurrent change.

use larder_api::curation::{EditorialOutcome, EditorialPolicy};
use larder_contract::collections::guidelines::{EDITORIAL_FIELDS, EDITORIAL_POLICY};
use larder_contract::collections::GUIDELINES;
use larder_contract::Type;
use leptos::prelude::*;
use serde_json::Value;

use crate::components::modal::Modal;
use crate::error_text::error_detail;
use crate::i18n::{capitalized, t, tf, tn, value_label};
use crate::kb::list::guideline_tool::GuidelineTool;
use crate::kb::list::selection::Selection;
use crate::kb::schema::{label, Schema};
use crate::lazy::Later;
use crate::ApiClient;

/// The values a field of the editorial state takes, from the contract's guideline fields.
fn values_of(field: &str) -> &'static [&'static str] {
    GUIDELINES
        .fields()
        .into_iter()
        .find(|f| f.name == field)
        .and_then(|f| match f.ty {
            Type::Enum(values) | Type::EnumFolded(values) => Some(values),
            _ => None,
        })
        .unwrap_or(&[])
}

#[derive(Clone, PartialEq)]
enum Step {
    Choosing,
    Previewing,
    Previewed(EditorialOutcome),
    Confirming(EditorialOutcome),
    Running,
    Done(EditorialOutcome),
    Failed(String),
}

/// The button, for guidelines and the roles the contract's route names.
#[component]
pub fn EditorialButton(
    schema: &'static Schema,
    running: Signal<bool>,
    changed: Callback<()>,
) -> impl IntoView {
    view! {
        <GuidelineTool schema roles=EDITORIAL_POLICY.roles label="Editorial policy for {count} selected" running changed
            dialog=|close| view! { <Later data=EditorialData { close } entry=editorial_dialog/> }.into_any()/>
    }
}

#[derive(Clone)]
struct EditorialData {
    close: Callback<bool>,
}

crate::split_entry!(list_tools, editorial_dialog, EditorialData => |d: EditorialData| view! {
    <EditorialDialog close=d.close/>
});

#[component]
fn EditorialDialog(close: Callback<bool>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let selection = expect_context::<Selection>();
    let choices: Vec<(&'static str, RwSignal<String>)> = EDITORIAL_FIELDS
        .iter()
        .map(|field| (*field, RwSignal::new(String::new())))
        .collect();
    let choices = StoredValue::new(choices);
    let step = RwSignal::new(Step::Choosing);
    let count = selection.count();
    let policy = move || {
        let picked = |name: &str| {
            choices.with_value(|all| {
                all.iter()
                    .find(|(field, _)| *field == name)
                    .map(|(_, value)| value.get_untracked())
                    .filter(|v| !v.is_empty())
            })
        };
        let mut policy = EditorialPolicy {
            status: picked("status"),
            review_status: picked("review_status"),
            visibility: picked("visibility"),
            applicability_status: picked("applicability_status"),
            ..EditorialPolicy::default()
        };
        match selection.search.get_untracked() {
            Some(search) => {
                policy.q = search.q.filter(|q| !q.trim().is_empty());
                policy.fq = search.fq;
                // An empty search selects everything: said as a filter every guideline passes.
                if policy.q.is_none() && policy.fq.is_empty() {
                    policy.fq = vec!["id:*".into()];
                }
            }
            None => policy.ids = selection.ids(),
        }
        policy
    };
    // After an apply, the service's own count of the selection that now carries the change.
    let reread = RwSignal::new(None::<Result<u64, String>>);
    let send = move |dry_run: bool| {
        let client = client.clone();
        let policy = policy();
        step.set(if dry_run {
            Step::Previewing
        } else {
            Step::Running
        });
        leptos::task::spawn_local(async move {
            step.set(match client.editorial_policy(&policy, dry_run).await {
                Ok(outcome) if dry_run => Step::Previewed(outcome),
                Ok(outcome) => Step::Done(outcome),
                Err(error) => Step::Failed(error_detail(&error)),
            });
            if !dry_run && matches!(step.get_untracked(), Step::Done(_)) {
                reread.set(None);
                let count = client
                    .editorial_policy(&policy.already_applied(), true)
                    .await;
                reread.set(Some(count.map(|o| o.matched).map_err(|e| error_detail(&e))));
            }
        });
    };
    let preview = send.clone();
    let apply = send;
    let rechoose = move || {
        if !matches!(step.get_untracked(), Step::Running | Step::Previewing) {
            step.set(Step::Choosing);
        }
    };
    let ran = move || matches!(step.get(), Step::Done(_));
    let busy = move || matches!(step.get(), Step::Running | Step::Previewing);
    let nothing_chosen =
        move || choices.with_value(|all| all.iter().all(|(_, value)| value.get().is_empty()));
    view! {
        <Modal role="dialog" labelled_by="editorial-title" on_escape=Callback::new(move |_| if !busy() { close.run(ran()) })>
            <h2 id="editorial-title">{tn("Editorial policy for {count} selected", count as i64, &[])}</h2>
            {choices.get_value().into_iter().map(|(field, value)| {
                let id = format!("editorial-{field}");
                view! {
                    <div class="field">
                        <label for=id.clone()>{move || label(field)}</label>
                        <select id=id disabled=busy on:change=move |ev| { value.set(event_target_value(&ev)); rechoose(); }>
                            <option value="" selected=true>{move || t("Unchanged")}</option>
                            {values_of(field).iter().map(|v| view! {
                                <option value=*v>{move || capitalized(&value_label(field, v))}</option>
                            }).collect_view()}
                        </select>
                    </div>
                }
            }).collect_view()}
            {move || match step.get() {
                Step::Choosing => ().into_any(),
                Step::Previewing => view! { <p role="status">{move || t("Counting the matches…")}</p> }.into_any(),
                Step::Running => view! { <p role="status">{move || t("Applying…")}</p> }.into_any(),
                Step::Failed(message) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
                Step::Previewed(o) | Step::Confirming(o) => view! { <Preview outcome=o/> }.into_any(),
                Step::Done(o) => view! { <Report outcome=o/> <ReadAgain reread/> }.into_any(),
            }}
            <div class="actions">
                <button type="button" disabled=busy on:click=move |_| close.run(ran())>{move || if ran() { t("Close") } else { t("Cancel") }}</button>
                {move || match step.get() {
                    Step::Choosing | Step::Failed(_) => {
                        let preview = preview.clone();
                        view! { <button type="button" class="primary" disabled=nothing_chosen on:click=move |_| preview(true)>{move || t("Preview")}</button> }.into_any()
                    }
                    Step::Previewed(o) if o.matched > 0 => view! {
                        <button type="button" class="primary" on:click=move |_| step.set(Step::Confirming(o.clone()))>
                            {tn("Apply to {count} records", to_change(&o) as i64, &[])}
                        </button>
                    }.into_any(),
                    Step::Confirming(o) => {
                        let apply = apply.clone();
                        view! {
                            <span class="confirm-question">{tn("Change the editorial state of {count} guidelines?", to_change(&o) as i64, &[])}</span>
                            <button type="button" class="danger" data-initial-focus on:click=move |_| apply(false)>{move || t("Yes, apply")}</button>
                        }.into_any()
                    }
                    _ => ().into_any(),
                }}
            </div>
        </Modal>
    }
}

/// How many a run changes at most: the matches, or the service's cap.
fn to_change(outcome: &EditorialOutcome) -> u64 {
    outcome
        .matched
        .min(outcome.max_docs.unwrap_or(outcome.matched))
}

/// What the dry run found.
#[component]
fn Preview(outcome: EditorialOutcome) -> impl IntoView {
    let capped = outcome.capped.then(|| {
        let most = outcome.max_docs.unwrap_or_default().to_string();
        view! { <p class="warning">{tf("More match than one run changes: only the first {most} will change.", &[("most", &most)])}</p> }
    });
    view! {
        <div class="policy-preview" role="status" data-testid="editorial-preview">
            <p>{tn("{count} records match.", outcome.matched as i64, &[])}</p>
            {capped}
            {(!outcome.sample.is_empty()).then(|| view! {
                <p>{move || t("For example:")}</p>
                <ul class="policy-sample">
                    {outcome.sample.iter().map(|r| {
                        let title = r.get("title").and_then(Value::as_str)
                            .or_else(|| r.get("id").and_then(Value::as_str))
                            .unwrap_or_default().to_string();
                        view! { <li>{title}</li> }
                    }).collect_view()}
                </ul>
            })}
        </div>
    }
}

/// What the run did, in the service's own numbers and words.
#[component]
fn Report(outcome: EditorialOutcome) -> impl IntoView {
    // A refused row by its title where the sample shows it (the selection's rows as they
    // stood), else by its id; then the service's reason, in its words.
    let title_of = |id: &str| {
        outcome
            .sample
            .iter()
            .find(|row| row.get("id").and_then(Value::as_str) == Some(id))
            .and_then(|row| row.get("title").and_then(Value::as_str))
            .map(str::to_string)
    };
    let refused: Vec<String> = outcome
        .refusals()
        .into_iter()
        .map(|refusal| match refusal.id {
            Some(id) => format!("{}: {}", title_of(&id).unwrap_or(id), refusal.reason),
            None => refusal.reason,
        })
        .collect();
    view! {
        <div role="status" data-testid="editorial-report">
            <p>{tf("Updated {updated} of {matched}.", &[
                ("updated", &outcome.updated.to_string()),
                ("matched", &outcome.matched.to_string()),
            ])}</p>
            {(outcome.version_conflicts > 0).then(|| view! {
                <p class="warning">{tn("{count} lost to a change made meanwhile: run it again to apply them.", outcome.version_conflicts as i64, &[])}</p>
            })}
            {(!refused.is_empty()).then(|| view! {
                <p>{tn("{count} refused:", refused.len() as i64, &[])}</p>
                <ul class="refused">{refused.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
            })}
        </div>
    }
}

/// The selection counted again by the service after the apply: how many now carry the change.
#[component]
fn ReadAgain(reread: RwSignal<Option<Result<u64, String>>>) -> impl IntoView {
    move || {
        match reread.get() {
        None => view! { <p role="status">{move || t("Counting again…")}</p> }.into_any(),
        Some(Ok(count)) => view! {
            <p role="status" data-testid="editorial-reread">{tn("Read again from the service: {count} of the selection now carry the change.", count as i64, &[])}</p>
        }.into_any(),
        Some(Err(message)) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
    }
    }
}
