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
use std::rc::Rc;
use std::sync::Arc;

use larder_api::ApiError;
use leptos::prelude::*;
use serde_json::Value;

use super::restore_run::{recount, restore, Made, Outcome};
use crate::components::error_view::ErrorView;
use crate::components::file_text::read_chosen;
use crate::export::browser::today_utc;
use crate::export::restore::{plan, Plan, Refusal, MAX_RESTORE_BYTES};
use crate::i18n::format::number;
use crate::i18n::{t, tf, tn};
use crate::lazy::Later;
use crate::ApiClient;

/// The panel, from its own module; `restored` once the owner opens what was restored.
#[component]
pub fn RestorePanel(restored: Callback<()>) -> impl IntoView {
    view! { <Later data=restored entry=draw_restore/> }
}

crate::split_entry!(household_restore, draw_restore, Callback<()> => |restored| view! { <RestoreHousehold restored/> });

#[derive(Clone)]
enum Stage {
    Ready,
    Running(String),
    /// What exists, what the failing request was for (when known), and its error.
    Stopped(Made, Option<String>, ApiError),
    Done(Arc<Outcome>),
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
            let say = |text: String| {
                let _ = stage.try_set(Stage::Running(text));
            };
            let stopped_at = RefCell::new(None);
            let outcome = restore(&client, &plan, &say, &made, &household, &stopped_at).await;
            let _ = ours.try_update_value(|o| *o = household.borrow().clone());
            let next = match outcome {
                Ok(found) => Stage::Done(Arc::new(found)),
                Err(error) => {
                    Stage::Stopped(recount(&client, made.get()).await, stopped_at.take(), error)
                }
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
                Stage::Stopped(made, at, error) => Some(view! {
                    <div>
                        // The error below is the alert; this says what is kept.
                        <p data-testid="restore-stopped">{made_text(made, at)}</p>
                        <ErrorView error/>
                        <button type="button" class="primary" on:click=move |_| start()>{move || t("Continue the restore")}</button>
                    </div>
                }.into_any()),
                Stage::Done(outcome) => Some(view! {
                    <Compared outcome/>
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
    let library = plan.library_entries();
    let (past, lacking, unnamed) = (
        plan.past_meal_plans,
        plan.lacking_meal,
        plan.library_unnamed,
    );
    view! {
        <div data-testid="restore-preview">
            <p>{move || t("This file creates:")}</p>
            <ul>
                <li>{move || tf("the household {name}", &[("name", &name)])}</li>
                <li>{move || tn("{count} members", members as i64, &[])}", " {move || tn("{count} with a dietary profile", profiles as i64, &[])}</li>
                <li>{move || tn("{count} meal plans for today or later", plans as i64, &[])}</li>
                <Show when=move || library != 0><li>{move || tn("{count} saved items, favourites, adapted recipes and saved meal plans, where the service keeps them", library as i64, &[])}</li></Show>
            </ul>
            <Show when=move || past + lacking + unnamed != 0>
                <p>{move || t("Not restored:")}</p>
                <ul>
                    <Show when=move || past != 0><li>{move || tn("{count} meal plans of days gone by: the service takes plans for today or later only", past as i64, &[])}</li></Show>
                    <Show when=move || lacking != 0><li>{move || tn("{count} meal plans with a meal lacking its recipe, title, ingredients or directions, which the service refuses", lacking as i64, &[])}</li></Show>
                    <Show when=move || unnamed != 0><li>{move || tn("{count} library entries lacking what names them (a reference, a recipe, a name), which the service cannot store", unnamed as i64, &[])}</li></Show>
                </ul>
            </Show>
        </div>
    }
}

/// The comparison's result, and the library entries the service does not keep.
#[component]
fn Compared(outcome: Arc<Outcome>) -> impl IntoView {
    let not_kept = outcome.library_not_kept;
    let not_kept = (not_kept != 0).then(|| view! {
        <p data-testid="restore-not-kept">{move || tn("{count} library entries were not restored: this service does not keep saved items, favourites, adapted recipes or saved meal plans.", not_kept as i64, &[])}</p>
    });
    let found = &outcome.differences;
    if found.is_empty() {
        return view! {
            <p role="status" data-testid="restore-result">{move || t("Restored. The service now holds what the file holds: no differences, ids and times excepted.")}</p>
            {not_kept}
        }.into_any();
    }
    let count = found.len() as i64;
    let rows = found
        .iter()
        .map(|d| view! { <tr><td>{d.whose.clone()}</td><td><code>{d.field.clone()}</code></td><td>{d.in_file.clone()}</td><td>{d.answered.clone()}</td></tr> })
        .collect_view();
    view! {
        <p role="status" data-testid="restore-result">{move || tn("Restored, with {count} differences between the file and the service:", count, &[])}</p>
        {not_kept}
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

/// What a stop left, and what it stopped at.
fn made_text(made: Made, at: Option<String>) -> String {
    let at = at
        .map(|what| format!(" {}", tf("It stopped at {what}.", &[("what", &what)])))
        .unwrap_or_default();
    if !made.household {
        return t("The restore stopped before anything was created.") + &at;
    }
    tf(
        "The restore stopped. The household is there, with {members} and {plans}; continuing goes on from there and creates nothing twice.",
        &[
            ("members", &tn("{count} members", made.members as i64, &[])),
            ("plans", &tn("{count} meal plans", made.meal_plans as i64, &[])),
        ],
    ) + &at
}
