//! "Reading policy for N selected": sets who reads the chosen records (`reader_visibility`) and
//! their indexing tier, for chosen rows or a whole search, where the contract gives the
//! collection a reading policy and the service offers it (a 404/405 hides the action). Every
//! run is previewed by a dry run first (how many match, whether the service caps the change,
//! a sample of titles), and the real run asks once more.

use larder_api::{PolicyChange, PolicyOutcome, PolicySelection};
use larder_contract::collections::policy::{INDEXING_TIER, READER_VISIBILITY};
use leptos::prelude::*;

use crate::components::modal::Modal;
use crate::error_text::error_detail;
use crate::i18n::{t, tf, tn};
use crate::kb::gates::holds;
use crate::kb::list::selection::Selection;
use crate::kb::schema::{label, Schema};
use crate::lazy::Later;
use crate::ApiClient;

/// The words for a reader visibility.
fn visibility_text(value: &str) -> String {
    match value {
        "public" => t("Everyone"),
        "expert_only" => t("Experts only"),
        "hidden" => t("Nobody (hidden)"),
        other => other.to_string(),
    }
}

/// The words for an indexing tier.
fn tier_text(value: &str) -> String {
    match value {
        "prime" => t("Prime"),
        "core" => t("Core"),
        "do_not_index" => t("Do not index"),
        other => other.to_string(),
    }
}

/// Where the dialog is.
#[derive(Clone, PartialEq)]
enum Step {
    Choosing,
    Previewing,
    Previewed(PolicyOutcome),
    Confirming(PolicyOutcome),
    Running,
    Done(PolicyOutcome),
    Failed(String),
}

/// The button, shown to the roles the contract's policy names while the service offers it.
#[component]
pub fn PolicyButton(
    schema: &'static Schema,
    running: Signal<bool>,
    changed: Callback<()>,
) -> impl IntoView {
    let Some(policy) = schema.collection.reading_policy() else {
        return ().into_any();
    };
    let allowed = holds(policy.roles);
    let offered = RwSignal::new(true);
    let open = RwSignal::new(false);
    let selection = expect_context::<Selection>();
    view! {
        <Show when=move || allowed.get() && offered.get()>
            <button type="button" disabled=move || running.get() on:click=move |_| open.set(true)>
                {move || tn("Reading policy for {count} selected", selection.count() as i64, &[])}
            </button>
        </Show>
        <Show when=move || open.get()>
            <Later data=DialogData { schema, offered, close: Callback::new(move |ran: bool| { open.set(false); if ran { changed.run(()); } }) }
                entry=policy_dialog/>
        </Show>
    }
    .into_any()
}

/// What the dialog is given.
#[derive(Clone)]
struct DialogData {
    schema: &'static Schema,
    offered: RwSignal<bool>,
    close: Callback<bool>,
}

// In a module of its own (issue 37): the list a curator's bookmark opens does not wait for it.
crate::split_entry!(list_tools, policy_dialog, DialogData => |d: DialogData| view! {
    <PolicyDialog schema=d.schema offered=d.offered close=d.close/>
});

#[component]
fn PolicyDialog(
    schema: &'static Schema,
    offered: RwSignal<bool>,
    /// Closes the dialog; `true` when records changed.
    close: Callback<bool>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let selection = expect_context::<Selection>();
    let visibility = RwSignal::new(String::new());
    let tier = RwSignal::new(String::new());
    let step = RwSignal::new(Step::Choosing);
    let count = selection.count();
    let chosen = move || {
        let change = PolicyChange {
            reader_visibility: Some(visibility.get_untracked()).filter(|v| !v.is_empty()),
            indexing_tier: Some(tier.get_untracked()).filter(|v| !v.is_empty() && v != "clear"),
            clear_indexing_tier: tier.get_untracked() == "clear",
        };
        let what = match selection.search.get_untracked() {
            Some(search) => PolicySelection {
                urns: Vec::new(),
                q: search.q,
                fq: search.fq,
            },
            None => PolicySelection {
                urns: selection
                    .ids()
                    .iter()
                    .map(|id| schema.collection.full_urn(id))
                    .collect(),
                ..PolicySelection::default()
            },
        };
        (what, change)
    };
    let send = move |dry_run: bool| {
        let client = client.clone();
        let (what, change) = chosen();
        step.set(if dry_run {
            Step::Previewing
        } else {
            Step::Running
        });
        leptos::task::spawn_local(async move {
            let answer = client
                .set_reading_policy(schema.collection, &what, &change, dry_run)
                .await;
            step.set(match answer {
                Ok(Some(outcome)) if dry_run => Step::Previewed(outcome),
                Ok(Some(outcome)) => Step::Done(outcome),
                Ok(None) => {
                    offered.set(false);
                    Step::Failed(t("This service does not offer reading policies."))
                }
                Err(error) => Step::Failed(error_detail(&error)),
            });
        });
    };
    let preview = send.clone();
    let apply = send;
    // A change of choice needs a new preview.
    let rechoose = move || {
        if !matches!(step.get_untracked(), Step::Running | Step::Previewing) {
            step.set(Step::Choosing);
        }
    };
    let ran = move || matches!(step.get(), Step::Done(_));
    let busy = move || matches!(step.get(), Step::Running | Step::Previewing);
    let nothing_chosen = move || visibility.get().is_empty() && tier.get().is_empty();
    view! {
        <Modal role="dialog" labelled_by="policy-title" on_escape=Callback::new(move |_| if !busy() { close.run(ran()) })>
            <h2 id="policy-title">{tn("Reading policy for {count} selected", count as i64, &[])}</h2>
            <div class="field">
                <label for="policy-visibility">{move || label("reader_visibility")}</label>
                <select id="policy-visibility" disabled=busy on:change=move |ev| { visibility.set(event_target_value(&ev)); rechoose(); }>
                    <option value="" selected=true>{move || t("Unchanged")}</option>
                    {READER_VISIBILITY.iter().map(|v| view! { <option value=*v>{move || visibility_text(v)}</option> }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="policy-tier">{move || label("indexing_tier")}</label>
                <select id="policy-tier" disabled=busy on:change=move |ev| { tier.set(event_target_value(&ev)); rechoose(); }>
                    <option value="" selected=true>{move || t("Unchanged")}</option>
                    {INDEXING_TIER.iter().map(|v| view! { <option value=*v>{move || tier_text(v)}</option> }).collect_view()}
                    <option value="clear">{move || t("Remove (the AI tier applies)")}</option>
                </select>
            </div>
            {move || match step.get() {
                Step::Choosing => ().into_any(),
                Step::Previewing => view! { <p role="status">{move || t("Counting the matches…")}</p> }.into_any(),
                Step::Running => view! { <p role="status">{move || t("Applying…")}</p> }.into_any(),
                Step::Failed(message) => view! { <p class="error-text" role="alert">{message}</p> }.into_any(),
                Step::Previewed(o) | Step::Confirming(o) => view! { <PolicyPreview outcome=o/> }.into_any(),
                Step::Done(o) => view! {
                    <p role="status">{tn("Changed {count} records.", o.updated as i64, &[])}</p>
                }.into_any(),
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
                            {tn("Apply to {count} records", o.matched.min(o.max_docs.unwrap_or(o.matched)) as i64, &[])}
                        </button>
                    }.into_any(),
                    Step::Confirming(o) => {
                        let apply = apply.clone();
                        let n = o.matched.min(o.max_docs.unwrap_or(o.matched)) as i64;
                        view! {
                            <span class="confirm-question">{tn("Change the reading policy of {count} records?", n, &[])}</span>
                            <button type="button" class="danger" data-initial-focus on:click=move |_| apply(false)>{move || t("Yes, apply")}</button>
                        }.into_any()
                    }
                    _ => ().into_any(),
                }}
            </div>
        </Modal>
    }
}

/// What a dry run found: how many, whether capped, and a sample of titles.
#[component]
fn PolicyPreview(outcome: PolicyOutcome) -> impl IntoView {
    let capped = outcome.capped.then(|| {
        let most = outcome.max_docs.unwrap_or_default().to_string();
        view! { <p class="warning">{tf("More match than one run changes: only the first {most} will change.", &[("most", &most)])}</p> }
    });
    view! {
        <div class="policy-preview" role="status">
            <p>{tn("{count} records match.", outcome.matched as i64, &[])}</p>
            {capped}
            {(!outcome.sample.is_empty()).then(|| view! {
                <p>{move || t("For example:")}</p>
                <ul class="policy-sample">
                    {outcome.sample.iter().map(|r| {
                        let title = r.get("title").and_then(|v| v.as_str())
                            .or_else(|| r.get("urn").and_then(|v| v.as_str()))
                            .unwrap_or_default().to_string();
                        view! { <li>{title}</li> }
                    }).collect_view()}
                </ul>
            })}
        </div>
    }
}
