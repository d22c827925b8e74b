//! A member's meal plans for the week from today (issue 38, item 4; production.md §10.3): each
//! day's plan or "No meal plan for this day", its three meals (ingredients and directions on
//! demand), the other members it is for by name; adding a member to it, and revoking it for this
//! member or for everyone, after asking. What the service refuses (a 409, a 422, a plan revoked
//! meanwhile) is shown in its own words, and the plan stays on screen as it was.
//!
//! Production answers one day at a time, so the week is seven reads. A service without meal
//! plans (a bare 404 or 405) shows nothing here.

use std::collections::HashMap;

use larder_api::types::{Meal, MealPlan};
use larder_api::{ApiError, PlanOfDay};
use leptos::prelude::*;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::toast::Toasts;
use crate::export::browser::today_local;
use crate::household::rules::plans::{joinable, lines, names_of, unknown, week_from};
use crate::i18n::format::day as day_label;
use crate::i18n::{k, t, tf};
use crate::ApiClient;

/// Names of the household's members by id, filled as plans name them.
#[derive(Clone, Copy)]
struct Names(RwSignal<HashMap<String, String>>);

impl Names {
    /// Reads the names of `ids` not known yet, one member at a time.
    fn learn(self, client: ApiClient, ids: Vec<String>) {
        let missing = self.0.with_untracked(|known| unknown(&ids, known));
        if missing.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            for id in missing {
                if let Ok(member) = client.member(&id).await {
                    self.0.update(|known| {
                        known.insert(id, member.name);
                    });
                }
            }
        });
    }
}

async fn read_week(
    client: ApiClient,
    member_id: String,
) -> Vec<(String, Result<PlanOfDay<MealPlan>, ApiError>)> {
    let days = week_from(&today_local());
    let reads = days.iter().map(|day| client.meal_plan(&member_id, day));
    let answers = futures::future::join_all(reads).await;
    days.into_iter().zip(answers).collect()
}

/// The section: the week's plans, or nothing where the service keeps none.
#[component]
pub fn MemberMealPlans(
    member_id: String,
    household_id: String,
    /// The member's name, as the page shows it.
    name: Signal<String>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let names = Names(RwSignal::new(HashMap::new()));
    let week_client = client.clone();
    let week_member = member_id.clone();
    let week = LocalResource::new(move || read_week(week_client.clone(), week_member.clone()));
    let context = StoredValue::new((member_id, household_id));
    let names_client = client.clone();
    Effect::new(move || {
        if let Some(days) = week.get() {
            let ids = days
                .iter()
                .filter_map(|(_, answer)| match answer {
                    Ok(PlanOfDay::Plan(plan)) => Some(plan.other_member_ids.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            names.learn(names_client.clone(), ids);
        }
    });
    view! {
        <Transition fallback=|| view! {
            <section class="card meal-plans" aria-labelledby="meal-plans-title">
                <h2 id="meal-plans-title">{move || t("Meal plans")}</h2>
                <Loading what=k("Loading the meal plans…")/>
            </section>
        }>
            {move || week.get().map(|days| {
                let offered = days.iter().any(|(_, a)| !matches!(a, Ok(PlanOfDay::NotOffered)));
                offered.then(|| view! {
                    <section class="card meal-plans" aria-labelledby="meal-plans-title">
                        <h2 id="meal-plans-title">{move || t("Meal plans")}</h2>
                        <p class="hint">{move || t("The week from today, as the meal planner stored it.")}</p>
                        <ol class="plan-days">
                            {days.into_iter().map(|(day, answer)| {
                                let (member_id, household_id) = context.get_value();
                                view! { <PlanDay day answer member_id household_id name names retry=Callback::new(move |_| week.refetch())/> }
                            }).collect_view()}
                        </ol>
                    </section>
                })
            })}
        </Transition>
    }
}

/// One day: its plan, none, or why it could not be read.
#[component]
fn PlanDay(
    day: String,
    answer: Result<PlanOfDay<MealPlan>, ApiError>,
    member_id: String,
    household_id: String,
    name: Signal<String>,
    names: Names,
    retry: Callback<()>,
) -> impl IntoView {
    let heading = day_label(&day);
    let body = match answer {
        Err(error) => view! { <ErrorView error retry/> }.into_any(),
        Ok(PlanOfDay::Plan(plan)) => {
            view! { <DayPlan plan member_id household_id name names/> }.into_any()
        }
        Ok(_) => view! { <p class="muted">{move || t("No meal plan for this day")}</p> }.into_any(),
    };
    view! {
        <li class="plan-day" data-day=day>
            <h3>{heading}</h3>
            {body}
        </li>
    }
}

/// A day's plan, with its actions. A failed action leaves the plan as it was and says why.
#[component]
fn DayPlan(
    plan: MealPlan,
    member_id: String,
    household_id: String,
    name: Signal<String>,
    names: Names,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let plan = RwSignal::new(Some(plan));
    let error = RwSignal::new(None::<ApiError>);
    let member = StoredValue::new(member_id);
    let revoke_client = client.clone();
    // The action's input: whether the plan goes for everyone.
    let revoke = Action::new_local(move |for_everyone: &bool| {
        let for_everyone = *for_everyone;
        let client = revoke_client.clone();
        let id = plan.with_untracked(|p| p.as_ref().map(|p| p.id.clone()).unwrap_or_default());
        let member = member.get_value();
        async move { client.revoke_meal_plan(&member, &id, for_everyone).await }
    });
    Effect::new(move || match revoke.value().get() {
        Some(Ok(revoked)) => {
            error.set(None);
            plan.set(None);
            toasts.success(if revoked.revoked_for_all_members {
                t("Meal plan revoked for everyone")
            } else {
                tf(
                    "Meal plan revoked for {name}",
                    &[("name", &name.get_untracked())],
                )
            });
        }
        Some(Err(failure)) => error.set(Some(failure)),
        None => {}
    });
    let day = plan.with_untracked(|p| p.as_ref().map(|p| p.date.clone()).unwrap_or_default());
    let shown_day = StoredValue::new(day_label(&day));
    view! {
        {move || match plan.get() {
            None => view! { <p class="muted">{move || t("No meal plan for this day")}</p> }.into_any(),
            Some(current) => {
                let others = current.other_member_ids.clone();
                let has_others = !others.is_empty();
                let shown = Signal::derive(move || names.0.with(|known| names_of(&others, known)).join(", "));
                view! {
                    <div class="meals">
                        {current.meals().into_iter().map(|(which, meal)| view! { <MealView which meal=meal.clone()/> }).collect_view()}
                    </div>
                    {current.reasoning.clone().filter(|r| !r.trim().is_empty()).map(|why| view! {
                        <p class="reasoning"><strong>{move || t("Why:")}</strong> " " {why}</p>
                    })}
                    {has_others.then(|| view! {
                        <p class="also-for"><strong>{move || t("Also for:")}</strong> " " {move || shown.get()}</p>
                    })}
                    {move || error.get().map(|error| view! { <ErrorView error/> })}
                    <div class="actions">
                        <ConfirmButton label=move || t("Revoke for this member")
                            question=move || tf("Revoke the meal plan of {day} for {name}? The other members keep it.", &[("day", &shown_day.get_value()), ("name", &name.get())])
                            confirm_label=move || t("Revoke for this member") disabled=revoke.pending()
                            on_confirm=Callback::new(move |_| { revoke.dispatch(false); })/>
                        {has_others.then(|| view! {
                            <ConfirmButton label=move || t("Revoke for everyone")
                                question=move || tf("Revoke the meal plan of {day} for everyone it is for: {name} and {others}?", &[("day", &shown_day.get_value()), ("name", &name.get()), ("others", &shown.get())])
                                confirm_label=move || t("Revoke for everyone") disabled=revoke.pending()
                                on_confirm=Callback::new(move |_| { revoke.dispatch(true); })/>
                        })}
                    </div>
                    <ShareForm plan household_id=household_id.clone() member=member names error/>
                    <crate::household::shares::ShareMealPlan plan_id=current.id.clone() member_id=member.get_value()/>
                }.into_any()
            }
        }}
    }
}

/// A meal: its title, and its ingredients and directions on demand.
#[component]
fn MealView(which: &'static str, meal: Meal) -> impl IntoView {
    let heading = match which {
        "breakfast" => k("Breakfast"),
        "lunch" => k("Lunch"),
        _ => k("Dinner"),
    };
    let ingredients: Vec<String> = lines(&meal.ingredients)
        .into_iter()
        .map(str::to_string)
        .collect();
    let title = if meal.title.trim().is_empty() {
        "—".to_string()
    } else {
        meal.title.clone()
    };
    view! {
        <div class="meal">
            <h4>{move || t(heading)}</h4>
            <p class="meal-title">{title.clone()}</p>
            <details>
                <summary>{move || t("Ingredients and directions")}<span class="sr-only">{format!(": {title}")}</span></summary>
                <h5>{move || t("Ingredients")}</h5>
                {if ingredients.is_empty() {
                    view! { <p class="muted">{move || t("none")}</p> }.into_any()
                } else {
                    view! { <ul>{ingredients.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul> }.into_any()
                }}
                <h5>{move || t("Directions")}</h5>
                <p class="directions">{meal.directions.clone()}</p>
            </details>
        </div>
    }
}

/// Adds another member of the household to the plan (the same plan, production reuses it). The
/// household's members are read when the form opens.
#[component]
fn ShareForm(
    plan: RwSignal<Option<MealPlan>>,
    household_id: String,
    member: StoredValue<String>,
    names: Names,
    error: RwSignal<Option<ApiError>>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let open = RwSignal::new(false);
    let chosen = RwSignal::new(String::new());
    let household = StoredValue::new(household_id);
    // The household's members, read when the form first opens.
    let members = RwSignal::new(None::<Result<Vec<(String, String)>, ApiError>>);
    let members_client = client.clone();
    let open_form = move |_| {
        open.set(true);
        if members.with_untracked(|m| matches!(m, Some(Ok(_)))) {
            return;
        }
        members.set(None);
        let (client, household) = (members_client.clone(), household.get_value());
        leptos::task::spawn_local(async move {
            let read = client.all_members(&household).await;
            let read = read.map(|all| all.into_iter().map(|m| (m.id, m.name)).collect::<Vec<_>>());
            if let Ok(list) = &read {
                names.0.update(|known| {
                    for (id, name) in list {
                        known.entry(id.clone()).or_insert_with(|| name.clone());
                    }
                });
            }
            members.set(Some(read));
        });
    };
    let share_client = client.clone();
    let share = Action::new_local(move |joining: &String| {
        let (client, joining) = (share_client.clone(), joining.clone());
        let current = plan.get_untracked().unwrap_or_default();
        let member = member.get_value();
        async move { client.share_meal_plan(&member, &current, &[joining]).await }
    });
    Effect::new(move || match share.value().get() {
        Some(Ok(updated)) => {
            let added = chosen.get_untracked();
            let added = names
                .0
                .with_untracked(|known| names_of(&[added], known))
                .join("");
            error.set(None);
            open.set(false);
            plan.set(Some(updated));
            toasts.success(tf("{name} added to the plan", &[("name", &added)]));
        }
        Some(Err(failure)) => error.set(Some(failure)),
        None => {}
    });
    view! {
        <Show when=move || open.get() fallback=move || view! {
            <button type="button" class="add-to-plan" on:click=open_form.clone()>{move || t("Add a member to this plan…")}</button>
        }>
            {move || match members.get() {
                None => view! { <Loading what=k("Loading the members…")/> }.into_any(),
                Some(Err(failure)) => view! { <ErrorView error=failure/> }.into_any(),
                Some(Ok(list)) => {
                    let choices = plan.with(|p| p.as_ref().map(|p| joinable(&list, p)).unwrap_or_default());
                    if choices.is_empty() {
                        return view! { <p class="muted">{move || t("Every member of the household has this plan.")}</p> }.into_any();
                    }
                    if chosen.with_untracked(|c| !choices.iter().any(|(id, _)| id == c)) {
                        chosen.set(choices[0].0.clone());
                    }
                    view! {
                        <div class="share-plan">
                            <label>{move || t("Member")} " "
                                <select on:change=move |ev| chosen.set(event_target_value(&ev))>
                                    {choices.into_iter().map(|(id, name)| {
                                        let selected = chosen.get_untracked() == id;
                                        view! { <option value=id selected=selected>{name}</option> }
                                    }).collect_view()}
                                </select>
                            </label>
                            " "
                            <button type="button" disabled=move || share.pending().get() on:click=move |_| { share.dispatch(chosen.get_untracked()); }>{move || t("Add to this plan")}</button>
                            " "
                            <button type="button" on:click=move |_| open.set(false)>{move || t("Cancel")}</button>
                        </div>
                    }.into_any()
                }
            }}
        </Show>
    }
}
