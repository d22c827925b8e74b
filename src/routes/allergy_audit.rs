//! Administrators: the allergy audit (issue 38). Across every household the administrator can
//! list, the members whose allergies the meal planner cannot enforce as stored: names that are
//! not the standard allergen ids (`dairy` for milk), names that are no standard allergen at all
//! (`kiwi`), and values that are not text. Per member, "Use the standard allergen" shows the
//! change and saves it after a look. Households are read three at a time (the service's
//! connection limit), each one's members and profiles one request after another, with progress.

use futures::StreamExt;
use larder_api::types::{Household, Member, ProfileChanges};
use larder_api::ApiError;
use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;

use crate::components::error_view::ErrorView;
use crate::components::not_allowed::NotAllowed;
use crate::components::toast::{on_answer, Toasts};
use crate::household::allergy_picker::{allergen_label, allergy_words};
use crate::household::rules::allergies::{self, Stored};
use crate::i18n::{k, t, tf, tn};
use crate::session::Session;
use crate::ApiClient;

/// Households read at once: the service's limit of connections per caller (interface.md §8).
const AT_ONCE: usize = larder_contract::limits::DATA_CONNECTIONS;
/// Households per page of the list.
const PAGE: u32 = 100;

/// A member whose allergies the audit reports.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    household: Household,
    member: Member,
    allergies: Vec<Value>,
}

/// How far the audit is.
#[derive(Clone, Debug, Default, PartialEq)]
struct Progress {
    /// Households listed (known once the list is read).
    listed: Option<usize>,
    checked: usize,
    members: usize,
    running: bool,
    /// Households that could not be read, with why.
    failed: Vec<(String, ApiError)>,
}

/// The page: the audit for administrators, "Not allowed" for anyone else.
#[component]
pub fn AllergyAudit() -> impl IntoView {
    let session = expect_context::<Session>();
    let is_admin = move || {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| i.has_role("admin")))
    };
    move || {
        if is_admin() {
            view! { <Audit/> }.into_any()
        } else {
            view! { <NotAllowed needs=k("the role admin")/> }.into_any()
        }
    }
}

/// One household's members with a finding, its profiles read where the list lacks them.
async fn check(client: &ApiClient, household: &Household) -> Result<(Vec<Row>, usize), ApiError> {
    let members = client.all_members(&household.id).await?;
    let count = members.len();
    let mut rows = Vec::new();
    for mut member in members {
        let profile = match member.profile.take() {
            Some(profile) => Some(profile),
            None => client.profile(&member.id).await?,
        };
        let allergies = profile.map(|p| p.allergies).unwrap_or_default();
        if !allergies::findings(&allergies).is_empty() {
            rows.push(Row {
                household: household.clone(),
                member,
                allergies,
            });
        }
    }
    Ok((rows, count))
}

#[component]
fn Audit() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let progress = RwSignal::new(Progress::default());
    let rows = RwSignal::new(Vec::<Row>::new());
    let list_error = RwSignal::new(None::<ApiError>);
    // Each run has a number; a run that is not the latest (cancelled, or run again) stops.
    let generation = StoredValue::new(0u64);
    let run = move || {
        let client = client.clone();
        let this = generation.get_value() + 1;
        generation.set_value(this);
        rows.set(Vec::new());
        list_error.set(None);
        progress.set(Progress {
            running: true,
            ..Progress::default()
        });
        let current = move || generation.try_get_value() == Some(this);
        leptos::task::spawn_local(async move {
            let mut households: Vec<Household> = Vec::new();
            loop {
                match client.households(PAGE, households.len() as u32).await {
                    Ok(page) => {
                        let last = (page.len() as u32) < PAGE;
                        households.extend(page);
                        if last {
                            break;
                        }
                    }
                    Err(error) => {
                        let _ = list_error.try_set(Some(error));
                        let _ = progress.try_update(|p| p.running = false);
                        return;
                    }
                }
                if !current() {
                    return;
                }
            }
            let _ = progress.try_update(|p| p.listed = Some(households.len()));
            let mut checks = futures::stream::iter(households.iter())
                .map(|household| {
                    let client = client.clone();
                    async move { (household, check(&client, household).await) }
                })
                .buffer_unordered(AT_ONCE);
            while let Some((household, outcome)) = checks.next().await {
                if !current() {
                    return;
                }
                match outcome {
                    Ok((found, members)) => {
                        let _ = rows.try_update(|r| r.extend(found));
                        let _ = progress.try_update(|p| p.members += members);
                    }
                    Err(error) => {
                        let _ =
                            progress.try_update(|p| p.failed.push((household.name.clone(), error)));
                    }
                }
                let _ = progress.try_update(|p| p.checked += 1);
            }
            let _ = progress.try_update(|p| p.running = false);
        });
    };
    let first_run = run.clone();
    Effect::new(move |started: Option<()>| {
        if started.is_none() {
            first_run();
        }
    });
    let cancel = move |_| {
        generation.update_value(|g| *g += 1);
        progress.update(|p| p.running = false);
    };
    view! {
        <p><A href=crate::hosting::link("/households")>{move || t("← Households")}</A></p>
        <h1>{move || t("Allergy audit")}</h1>
        <p>{move || t("Members whose allergies the meal planner cannot enforce as stored: it matches the EU's standard allergen names exactly, so “dairy” excludes nothing where “milk” would.")}</p>
        <p class="hint">{move || t("Every household this account can list is checked. Production lists only the households the administrator owns, so there the audit covers those alone.")}</p>
        {move || list_error.get().map(|error| view! { <ErrorView error/> })}
        <div class="stack" role="status" aria-live="polite">
            {move || {
                let p = progress.get();
                let line = match p.listed {
                    None if p.running => t("Listing the households…"),
                    None => String::new(),
                    Some(total) => tn("Checked {count} of {total} households", p.checked as i64, &[("total", &crate::i18n::format::number(total as f64))]),
                };
                let members = tn("{count} members checked", p.members as i64, &[]);
                view! {
                    <p>{line}" · "{members}</p>
                    {p.listed.map(|total| view! { <progress class="audit-progress" max=total.max(1).to_string() value=p.checked.to_string()></progress> })}
                }
            }}
        </div>
        <div class="actions">
            <Show when=move || progress.with(|p| p.running) fallback={
                let run = run.clone();
                move || { let run = run.clone(); view! { <button type="button" on:click=move |_| run()>{move || t("Check again")}</button> } }
            }>
                <button type="button" on:click=cancel>{move || t("Stop")}</button>
            </Show>
        </div>
        {move || progress.with(|p| p.failed.clone()).into_iter().map(|(name, error)| view! {
            <div class="card"><p>{tf("{household} could not be read:", &[("household", &name)])}</p><ErrorView error/></div>
        }).collect_view()}
        {move || {
            let list = rows.get();
            let done = progress.with(|p| !p.running && p.listed.is_some());
            if list.is_empty() {
                return done.then(|| view! { <p class="empty">{move || t("Every allergy checked is a standard allergen the meal planner can enforce.")}</p> }.into_any());
            }
            Some(view! {
                <table class="records audit">
                    <thead><tr>
                        <th scope="col">{move || t("Household")}</th>
                        <th scope="col">{move || t("Member")}</th>
                        <th scope="col">{move || t("Allergies")}</th>
                        <th scope="col">{move || t("Action")}</th>
                    </tr></thead>
                    <tbody>
                        {list.into_iter().map(|row| view! { <AuditRow row/> }).collect_view()}
                    </tbody>
                </table>
            }.into_any())
        }}
    }
}

/// A value as the audit reports it.
fn finding(stored: &Stored) -> String {
    match stored {
        Stored::Known { name, ids, .. } => tf(
            "“{name}”: stored under another name; the standard is {allergens} ({ids})",
            &[
                ("name", name),
                (
                    "allergens",
                    &ids.iter()
                        .map(|id| allergen_label(id))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                ("ids", &ids.join(", ")),
            ],
        ),
        Stored::Unknown(name) => tf(
            "“{name}”: not a standard allergen; the meal planner may not recognise it",
            &[("name", name)],
        ),
        Stored::NotText(value) => tf("{value}: not text", &[("value", &value.to_string())]),
    }
}

/// One member's findings, and the change to the standard allergens after a look.
#[component]
fn AuditRow(row: Row) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let allergies = RwSignal::new(row.allergies.clone());
    let previewing = RwSignal::new(false);
    let error = RwSignal::new(None::<ApiError>);
    let member_id = StoredValue::new(row.member.id.clone());
    let save = Action::new_local(move |after: &Vec<Value>| {
        let (client, changes) = (
            client.clone(),
            ProfileChanges {
                allergies: Some(after.clone()),
                ..ProfileChanges::default()
            },
        );
        let id = member_id.get_value();
        async move { client.update_profile(&id, &changes).await }
    });
    let name = row.member.name.clone();
    let member_name = StoredValue::new(row.member.name.clone());
    on_answer(save, Some(error), move |saved| {
        toasts.success(tf("{name}: standard allergens saved", &[("name", &name)]));
        allergies.set(saved.allergies);
        previewing.set(false);
    });
    let member_href = format!("/households/{}/members/{}", row.household.id, row.member.id);
    let household_href = format!("/households/{}", row.household.id);
    let can_standardise = move || allergies.with(|a| !allergies::renamed(a).is_empty());
    let words = |values: &[Value]| {
        values
            .iter()
            .map(|v| match v.as_str() {
                Some(s) => s.to_string(),
                None => v.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    view! {
        <tr>
            <td><A href=crate::hosting::link(household_href)>{row.household.name.clone()}</A></td>
            <td><A href=crate::hosting::link(member_href)>{row.member.name.clone()}</A></td>
            <td>
                <ul class="allergy-notes">
                    {move || {
                        let found = allergies.with(|a| allergies::findings(a));
                        if found.is_empty() {
                            return view! { <li>{move || t("Standard now: the meal planner can enforce every one.")}</li> }.into_any();
                        }
                        found.iter().map(|f| view! { <li>{finding(f)}</li> }).collect_view().into_any()
                    }}
                </ul>
            </td>
            <td>
                <Show when=move || previewing.get() fallback=move || can_standardise().then(|| view! {
                    <button type="button" aria-label=tf("Use the standard allergen for {name}", &[("name", &member_name.get_value())])
                        on:click=move |_| previewing.set(true)>{move || t("Use the standard allergen")}</button>
                })>
                    {move || {
                        let before = allergies.get();
                        let after = allergies::for_saving(&before);
                        let shown_after: Vec<String> = after.iter().map(allergy_words).collect();
                        let save_after = after.clone();
                        view! {
                            <div class="stack">
                                <p>{tf("Now: {before}", &[("before", &words(&before))])}</p>
                                <p>{tf("After: {after} ({names})", &[("after", &words(&after)), ("names", &shown_after.join("; "))])}</p>
                                {move || error.get().map(|error| view! { <ErrorView error/> })}
                                <div class="actions">
                                    <button type="button" on:click=move |_| previewing.set(false)>{move || t("Cancel")}</button>
                                    <button type="button" class="primary" disabled=move || save.pending().get()
                                        on:click=move |_| { save.dispatch(save_after.clone()); }>{move || t("Save")}</button>
                                </div>
                            </div>
                        }
                    }}
                </Show>
            </td>
        </tr>
    }
}

/// `/households/allergies`: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct AllergyAuditRoute;

impl crate::lazy::Page for AllergyAuditRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Admin;

    fn data(_: crate::session::Session) -> Self {
        AllergyAuditRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_allergy_audit(self).await
    }
}

crate::split_entry!(admin_pages, draw_allergy_audit, AllergyAuditRoute => |_| view! { <AllergyAudit/> });
