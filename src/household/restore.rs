//! "Restore from a household file" (issue 41 item 4): an owner without a household chooses a
//! file of "Download my data"; the console checks it whole (`crate::export::restore::plan`),
//! shows what it will create and what it cannot, creates it three requests at a time (what a
//! browser keeps open to one service, and what production's connection pool takes without
//! queueing), and ends with a field-by-field comparison of the file and a fresh read.
//!
//! A restore that stops part-way says what exists and offers to continue: it starts again from
//! what the service holds (the owner's household, its members matched by name and age group),
//! so nothing is created twice and there is never a second household (production answers 409).
//! Its code is a module of its own in the split build (`household_restore`), fetched when the
//! panel is shown: the household page's bookmark does not wait for it.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use futures::stream::{self, StreamExt, TryStreamExt};
use larder_api::types::{MealPlan, NewHousehold, NewMember, ProfileChanges, ProfileInput};
use larder_api::{ApiError, PlanOfDay};
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::components::error_view::ErrorView;
use crate::components::file_text::read_chosen;
use crate::export::browser::today_utc;
use crate::export::restore::{
    differences, match_members, member_is_whole, plan, plan_differences, Difference, MemberPlan,
    Plan, Refusal, MAX_RESTORE_BYTES,
};
use crate::i18n::format::number;
use crate::i18n::{t, tf, tn};
use crate::lazy::Later;
use crate::ApiClient;

/// Requests in flight at once.
const AT_ONCE: usize = 3;
/// Members read per request (as "Download my data" reads them).
const MEMBER_PAGE: u32 = 25;

/// The panel, from its own module; `restored` once the owner opens what was restored.
#[component]
pub fn RestorePanel(restored: Callback<()>) -> impl IntoView {
    view! { <Later data=restored entry=draw_restore/> }
}

crate::split_entry!(household_restore, draw_restore, Callback<()> => |restored| view! { <RestoreHousehold restored/> });

/// What exists so far, for a restore that stopped.
#[derive(Clone, Copy, Default, PartialEq)]
struct Made {
    household: bool,
    members: usize,
    meal_plans: usize,
}

#[derive(Clone)]
enum Stage {
    Ready,
    Running(String),
    Stopped(Made, ApiError),
    Done(Arc<Vec<Difference>>),
}

#[component]
fn RestoreHousehold(restored: Callback<()>) -> impl IntoView {
    // Kept by the panel's owner, so `start` is `Copy` for both of its buttons.
    let client = StoredValue::new_local(expect_context::<ApiClient>());
    let chosen = RwSignal::new(None::<Result<Arc<Plan>, String>>);
    let stage = RwSignal::new(Stage::Ready);
    // The household this panel's restore of the chosen file made: only that one is continued.
    let ours = StoredValue::new(None::<String>);
    // Which choice of file is the latest: a large file read late does not replace a later one.
    let choices = StoredValue::new(0u64);
    let choose = move |ev: leptos::ev::Event| {
        stage.set(Stage::Ready);
        // Another file is never continued into the household an earlier one made.
        ours.set_value(None);
        choices.update_value(|n| *n += 1);
        let choice = choices.get_value();
        read_chosen(&ev, MAX_RESTORE_BYTES, move |read| {
            if choices.try_get_value() != Some(choice) {
                return;
            }
            let checked = read.and_then(|text| {
                // The service's today decides which plans it takes.
                plan(&text, &today_utc())
                    .map(Arc::new)
                    .map_err(|refusal| refusal_text(&refusal))
            });
            // The panel may be gone by the time a large file is read.
            let _ = chosen.try_set(Some(checked));
        });
    };
    let start = move || {
        let Some(Some(Ok(plan))) = chosen.try_get_untracked() else {
            return;
        };
        let Some(client) = client.try_get_value() else {
            return;
        };
        stage.set(Stage::Running(t("Starting…")));
        // Not scoped: the button pressed (and its owner) goes as the stage changes; the task
        // holds nothing reactive but the panel's `stage`, set only while it is there.
        let made_before = ours.get_value();
        leptos::task::spawn_local(async move {
            let made = Rc::new(Cell::new(Made::default()));
            let household = Rc::new(RefCell::new(made_before));
            let outcome = restore(&client, &plan, stage, &made, &household).await;
            let _ = ours.try_update_value(|o| *o = household.borrow().clone());
            let next = match outcome {
                Ok(found) => Stage::Done(Arc::new(found)),
                Err(error) => Stage::Stopped(recount(&client, made.get()).await, error),
            };
            let _ = stage.try_set(next);
        });
    };
    let running = move || matches!(stage.get(), Stage::Running(_));
    view! {
        <section class="card stack" aria-labelledby="restore-title">
            <h2 id="restore-title">{move || t("Restore from a household file")}</h2>
            <p class="hint">{move || t("Downloaded your household with “Download my data” before? Choose that file (JSON) to put it back: it is checked whole before anything is created.")}</p>
            <label for="restore-file">{move || t("Household file")}</label>
            <input id="restore-file" type="file" accept=".json,application/json" disabled=running on:change=choose/>
            {move || chosen.get().map(|checked| match checked {
                Err(refusal) => view! { <p class="field-error" role="alert">{refusal}</p> }.into_any(),
                Ok(plan) => view! { <Preview plan/> }.into_any(),
            })}
            {move || match stage.get() {
                Stage::Ready => chosen.get().and_then(Result::ok).map(|_| view! {
                    <button type="button" class="primary" on:click=move |_| start()>{move || t("Restore")}</button>
                }.into_any()),
                Stage::Running(doing) => Some(view! { <p role="status" class="loading">{doing}</p> }.into_any()),
                Stage::Stopped(made, error) => Some(view! {
                    <div>
                        // The error below is the alert; this says what is kept.
                        <p data-testid="restore-stopped">{made_text(made)}</p>
                        <ErrorView error/>
                        <button type="button" class="primary" on:click=move |_| start()>{move || t("Continue the restore")}</button>
                    </div>
                }.into_any()),
                Stage::Done(found) => Some(view! {
                    <Compared found/>
                    <button type="button" class="primary" on:click=move |_| restored.run(())>{move || t("Open the household")}</button>
                }.into_any()),
            }}
        </section>
    }
}

/// What the file creates, and what it cannot.
#[component]
fn Preview(plan: Arc<Plan>) -> impl IntoView {
    let name = plan
        .household
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let members = plan.members.len();
    let profiles = plan.members.iter().filter(|m| m.profile.is_some()).count();
    let plans = plan.meal_plans.len();
    let (past, lacking, library) = (plan.past_meal_plans, plan.lacking_meal, plan.library_items);
    view! {
        <div data-testid="restore-preview">
            <p>{move || t("This file creates:")}</p>
            <ul>
                <li>{move || tf("the household {name}", &[("name", &name)])}</li>
                <li>{move || tn("{count} members", members as i64, &[])}", " {move || tn("{count} with a dietary profile", profiles as i64, &[])}</li>
                <li>{move || tn("{count} meal plans for today or later", plans as i64, &[])}</li>
            </ul>
            <Show when=move || past + lacking + library != 0>
                <p>{move || t("Not restored:")}</p>
                <ul>
                    <Show when=move || past != 0><li>{move || tn("{count} meal plans of days gone by: the service takes plans for today or later only", past as i64, &[])}</li></Show>
                    <Show when=move || lacking != 0><li>{move || tn("{count} meal plans with a meal lacking its recipe, title, ingredients or directions, which the service refuses", lacking as i64, &[])}</li></Show>
                    <Show when=move || library != 0><li>{move || tn("{count} saved items, favourites, adapted recipes and saved meal plans: this console does not restore the library", library as i64, &[])}</li></Show>
                </ul>
            </Show>
        </div>
    }
}

/// The comparison's result.
#[component]
fn Compared(found: Arc<Vec<Difference>>) -> impl IntoView {
    if found.is_empty() {
        return view! { <p role="status" data-testid="restore-result">{move || t("Restored. The service now holds what the file holds: no differences, ids and times excepted.")}</p> }.into_any();
    }
    let count = found.len() as i64;
    let rows = found
        .iter()
        .map(|d| view! { <tr><td>{d.whose.clone()}</td><td><code>{d.field.clone()}</code></td><td>{d.in_file.clone()}</td><td>{d.answered.clone()}</td></tr> })
        .collect_view();
    view! {
        <p role="status" data-testid="restore-result">{move || tn("Restored, with {count} differences between the file and the service:", count, &[])}</p>
        <div class="table-scroll">
            <table>
                <thead><tr><th>{move || t("Whose")}</th><th>{move || t("Field")}</th><th>{move || t("In the file")}</th><th>{move || t("The service answers")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn refusal_text(refusal: &Refusal) -> String {
    let at = |line: &usize, column: &usize| {
        [
            ("line", number(*line as f64)),
            ("column", number(*column as f64)),
        ]
    };
    match refusal {
        Refusal::TooLarge { bytes } => tf(
            "This file is {size} MB: a household file is at most {max} MB. Nothing was created.",
            &[
                ("size", &number((*bytes >> 20) as f64)),
                ("max", &number((MAX_RESTORE_BYTES >> 20) as f64)),
            ],
        ),
        Refusal::NotJson { line, column } => {
            let [(l, line), (c, column)] = at(line, column);
            tf(
                "This is not a household file: it is not JSON (line {line}, column {column}). Nothing was created.",
                &[(l, &line), (c, &column)],
            )
        }
        Refusal::Truncated { line, column } => {
            let [(l, line), (c, column)] = at(line, column);
            tf(
                "This household file is cut short: it ends at line {line}, column {column}. Download it again; nothing was created.",
                &[(l, &line), (c, &column)],
            )
        }
        Refusal::NotAHouseholdFile => t("This is not a household file of “Download my data”. Nothing was created."),
        Refusal::NewerVersion { version } => tf(
            "This household file is of version {version}, newer than this console reads. Nothing was created.",
            &[("version", &version.to_string())],
        ),
        Refusal::TooManyMembers { count } => tf(
            "This file holds {count} members, more than a household may have. Nothing was created.",
            &[("count", &number(*count as f64))],
        ),
        Refusal::MembersMissing { said, found } => tf(
            "This file says it holds {said} members but holds {found}: it is not whole. Nothing was created.",
            &[("said", &number(*said as f64)), ("found", &number(*found as f64))],
        ),
        Refusal::Household { problems } => tf(
            "The service would refuse this file's household ({problems}). Nothing was created.",
            &[("problems", &problems.join("; "))],
        ),
        Refusal::Member { number: at, name, problems } => tf(
            "The service would refuse member {number} of this file, {name} ({problems}). Nothing was created.",
            &[("number", &number(*at as f64)), ("name", name), ("problems", &problems.join("; "))],
        ),
    }
}

fn made_text(made: Made) -> String {
    if !made.household {
        return t("The restore stopped before anything was created.");
    }
    tf(
        "The restore stopped. The household is there, with {members} and {plans}; continuing goes on from there and creates nothing twice.",
        &[
            ("members", &tn("{count} members", made.members as i64, &[])),
            ("plans", &tn("{count} meal plans", made.meal_plans as i64, &[])),
        ],
    )
}

fn str_of(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// What exists after a stop, as the service says: requests still in flight when another
/// failed may have created members no answer was read for. Counted here when the service
/// cannot be asked.
async fn recount(client: &ApiClient, counted: Made) -> Made {
    match client.own_household().await {
        Ok(None) => Made::default(),
        Ok(Some(household)) => match read_members(client, &household.id).await {
            Ok(members) => Made {
                household: true,
                members: members.len(),
                ..counted
            },
            Err(_) => counted,
        },
        Err(_) => counted,
    }
}

/// Every member of the household as answered (profile inside).
async fn read_members(client: &ApiClient, household_id: &str) -> Result<Vec<Value>, ApiError> {
    let mut all: Vec<Value> = Vec::new();
    loop {
        let page = client
            .member_values(household_id, MEMBER_PAGE, all.len() as u32)
            .await?;
        let short = page.len() < MEMBER_PAGE as usize;
        // A service that ignored `offset` would answer the first page again.
        let repeated = page
            .first()
            .is_some_and(|first| all.iter().any(|m| m.get("id") == first.get("id")));
        if repeated {
            return Ok(all);
        }
        all.extend(page);
        if short || all.len() >= larder_contract::limits::MAX_MEMBERS_PER_HOUSEHOLD {
            return Ok(all);
        }
    }
}

fn field<T: serde::de::DeserializeOwned>(fields: &Map<String, Value>, key: &str) -> Option<T> {
    fields
        .get(key)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// The file's profile as the client sends it.
fn profile_input(p: &Map<String, Value>) -> ProfileInput {
    ProfileInput {
        dietary_groups: field(p, "dietary_groups").unwrap_or_default(),
        nutritional_preferences: field(p, "nutritional_preferences").unwrap_or_default(),
        allergies: field(p, "allergies"),
        properties: field(p, "properties"),
    }
}

/// The member created with its profile. Production's `POST members` keeps only the profile's
/// dietary groups and preferences: allergies and properties follow in a `PATCH`.
async fn create_member(
    client: &ApiClient,
    household_id: &str,
    member: &MemberPlan,
    counted: &dyn Fn(),
) -> Result<String, ApiError> {
    let new = NewMember {
        name: member.name().to_string(),
        age_group: member.age_group().to_string(),
        image_url: field(&member.member, "image_url"),
    };
    let profile = member.profile.as_ref().map(profile_input);
    let created = client
        .create_member(household_id, &new, profile.as_ref())
        .await?;
    counted();
    if let Some(profile) = &profile {
        if profile.allergies.is_some() || profile.properties.is_some() {
            let rest = ProfileChanges {
                allergies: profile.allergies.clone(),
                properties: profile.properties.clone(),
                ..ProfileChanges::default()
            };
            client.update_profile(&created.id, &rest).await?;
        }
    }
    Ok(created.id)
}

/// A member created by an earlier try whose profile is not whole yet: saved again.
async fn complete_member(
    client: &ApiClient,
    id: &str,
    member: &MemberPlan,
) -> Result<(), ApiError> {
    let Some(p) = &member.profile else {
        return Ok(());
    };
    let profile = profile_input(p);
    client.save_profile(id, &profile).await.map(|_| ())
}

/// The restore, from wherever an earlier try stopped; the comparison's differences.
async fn restore(
    client: &ApiClient,
    plan: &Plan,
    stage: RwSignal<Stage>,
    made: &Cell<Made>,
    ours: &RefCell<Option<String>>,
) -> Result<Vec<Difference>, ApiError> {
    let say = |text: String| {
        let _ = stage.try_set(Stage::Running(text));
    };
    let household_id = match client.own_household().await? {
        // Continuing: the household an earlier try of this panel made.
        Some(household) if ours.borrow().as_deref() == Some(household.id.as_str()) => household.id,
        // Made elsewhere meanwhile (another tab, the form above): never restored into.
        Some(_) => return Err(ApiError::Caller(t(
            "You have a household already: a file is restored only into an account without one.",
        ))),
        None => {
            say(t("Creating the household…"));
            let fields = &plan.household;
            let household = NewHousehold {
                name: str_of(&Value::Object(fields.clone()), "name"),
                region: field(fields, "region"),
                metadata: field(fields, "metadata"),
                members: Vec::new(),
            };
            let id = client.create_household(&household).await?.id;
            *ours.borrow_mut() = Some(id.clone());
            id
        }
    };
    made.set(Made {
        household: true,
        ..made.get()
    });
    let read = read_members(client, &household_id).await?;
    let matched = match_members(plan, &read);
    let total = plan.members.len();
    made.set(Made {
        members: matched.iter().flatten().count(),
        ..made.get()
    });
    let members_progress = |done: usize| {
        tf(
            "Creating the members: {done} of {total}…",
            &[
                ("done", &number(done as f64)),
                ("total", &number(total as f64)),
            ],
        )
    };
    say(members_progress(made.get().members));
    // Counted as the service answers, in any order: what a stop reports exists.
    let created = || {
        let now = Made {
            members: made.get().members + 1,
            ..made.get()
        };
        made.set(now);
        say(members_progress(now.members));
    };
    let ids: Vec<String> = stream::iter(plan.members.iter().zip(&matched))
        .map(|(member, found)| {
            let read = found.map(|at| &read[at]);
            let (household_id, created) = (household_id.as_str(), &created);
            async move {
                match read {
                    Some(existing) => {
                        let id = str_of(existing, "id");
                        if !member_is_whole(member, existing) {
                            complete_member(client, &id, member).await?;
                        }
                        Ok::<_, ApiError>((id, false))
                    }
                    None => Ok((
                        create_member(client, household_id, member, &created).await?,
                        true,
                    )),
                }
            }
        })
        .buffered(AT_ONCE)
        .map_ok(|(id, _)| id)
        .try_collect()
        .await?;
    let plans_total = plan.meal_plans.len();
    stream::iter(&plan.meal_plans)
        .map(|stored| {
            let members: Vec<String> = stored.members.iter().map(|&m| ids[m].clone()).collect();
            async move {
                client
                    .share_meal_plan(&members[0], &stored.plan, &members)
                    .await
            }
        })
        .buffered(AT_ONCE)
        .try_for_each(|_| {
            made.set(Made {
                meal_plans: made.get().meal_plans + 1,
                ..made.get()
            });
            say(tf(
                "Storing the meal plans: {done} of {total}…",
                &[
                    ("done", &number(made.get().meal_plans as f64)),
                    ("total", &number(plans_total as f64)),
                ],
            ));
            async { Ok(()) }
        })
        .await?;
    say(t("Comparing the file with what the service now holds…"));
    let household = client.household_value(&household_id).await?;
    let members = read_members(client, &household_id).await?;
    let mut found = differences(plan, &household, &members);
    let names: BTreeMap<String, String> = ids
        .iter()
        .zip(&plan.members)
        .map(|(id, member)| (id.clone(), member.name().to_string()))
        .collect();
    let reads: Vec<(usize, usize, Option<MealPlan>)> =
        stream::iter(plan.meal_plans.iter().enumerate())
            .flat_map(|(at, stored)| stream::iter(stored.members.iter().map(move |&m| (at, m))))
            .map(|(at, member)| {
                let (id, date) = (ids[member].clone(), plan.meal_plans[at].plan.date.clone());
                async move {
                    let read = client.meal_plan(&id, &date).await?;
                    Ok::<_, ApiError>((
                        at,
                        member,
                        match read {
                            PlanOfDay::Plan(plan) => Some(plan),
                            PlanOfDay::NoPlan | PlanOfDay::NotOffered => None,
                        },
                    ))
                }
            })
            .buffered(AT_ONCE)
            .try_collect()
            .await?;
    for (at, member, read) in &reads {
        found.extend(plan_differences(
            plan,
            &plan.meal_plans[*at],
            *member,
            read.as_ref(),
            &names,
        ));
    }
    Ok(found)
}
