//! The restore's run (see `super::restore` for the panel): the household, its members with
//! their profiles and libraries, the meal plans, three requests at a time (what a browser keeps
//! open to one service, and what production's connection pool takes without queueing), then
//! the comparison with a fresh read. It starts from what the service holds, so a second try
//! after a stop creates nothing twice and never a second household (production answers 409).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use futures::stream::{self, StreamExt, TryStreamExt};
use larder_api::types::{MealPlan, NewHousehold, NewMember, ProfileChanges, ProfileInput};
use larder_api::{ApiError, PlanOfDay};
use serde_json::{Map, Value};

use crate::export::restore::{
    differences, match_members, member_is_whole, plan_differences, Difference, MemberPlan, Plan,
};
use crate::export::restore_library::{library_differences, plan_is_saved, Library, ReadLibrary};
use crate::i18n::format::number;
use crate::i18n::{t, tf};
use crate::ApiClient;

/// Requests in flight at once.
const AT_ONCE: usize = 3;
/// Members read per request (as "Download my data" reads them).
const MEMBER_PAGE: u32 = 25;

/// What exists so far, for a restore that stopped.
#[derive(Clone, Copy, Default, PartialEq)]
pub(super) struct Made {
    pub household: bool,
    pub members: usize,
    pub meal_plans: usize,
    pub library: usize,
}

/// How a restore ended.
pub(super) struct Outcome {
    /// The comparison's differences.
    pub differences: Vec<Difference>,
    /// Library entries of kinds the service does not keep (production's households service
    /// keeps none): not restored.
    pub library_not_kept: usize,
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
pub(super) async fn recount(client: &ApiClient, counted: Made) -> Made {
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

/// The member created with its profile. Production's `POST members` keeps the profile's dietary
/// groups, preferences and allergies but never its properties: they follow in a `PATCH` (which
/// sends the allergies again, harmless).
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

/// The restore, from wherever an earlier try stopped, and its comparison; `say` tells how far
/// it is.
pub(super) async fn restore(
    client: &ApiClient,
    plan: &Plan,
    say: &dyn Fn(String),
    made: &Cell<Made>,
    ours: &RefCell<Option<String>>,
    stopped_at: &RefCell<Option<String>>,
) -> Result<Outcome, ApiError> {
    // What a failing request was for, so a stop can name it (the first failure is kept).
    let at = |what: String| {
        let mut stopped = stopped_at.borrow_mut();
        if stopped.is_none() {
            *stopped = Some(what);
        }
    };
    let at = &at;
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
                let made = match read {
                    Some(existing) => {
                        let id = str_of(existing, "id");
                        if !member_is_whole(member, existing) {
                            complete_member(client, &id, member).await?;
                        }
                        Ok::<_, ApiError>(id)
                    }
                    None => create_member(client, household_id, member, &created).await,
                };
                made.inspect_err(|_| at(member.name().to_string()))
            }
        })
        .buffered(AT_ONCE)
        .try_collect()
        .await?;
    let kept = Kept::default();
    let library_total = plan.library_entries();
    if library_total != 0 {
        let stored = || {
            made.set(Made {
                library: made.get().library + 1,
                ..made.get()
            });
            say(tf(
                "Restoring the library: {done} of {total}…",
                &[
                    ("done", &number(made.get().library as f64)),
                    ("total", &number(library_total as f64)),
                ],
            ));
        };
        stream::iter(plan.members.iter().zip(&ids).zip(&matched))
            .filter(|((member, _), _)| std::future::ready(!member.library.is_empty()))
            .map(|((member, id), found)| {
                let (kept, stored) = (&kept, &stored);
                async move {
                    restore_library(client, id, &member.library, found.is_some(), kept, stored)
                        .await
                        .inspect_err(|_| at(tf("{name}'s library", &[("name", member.name())])))
                }
            })
            .buffered(AT_ONCE)
            .try_collect::<Vec<()>>()
            .await?;
    }
    let plans_total = plan.meal_plans.len();
    stream::iter(&plan.meal_plans)
        .map(|stored| {
            let members: Vec<String> = stored.members.iter().map(|&m| ids[m].clone()).collect();
            async move {
                client
                    .share_meal_plan(&members[0], &stored.plan, &members)
                    .await
                    .inspect_err(|_| {
                        at(tf(
                            "the meal plan of {date}",
                            &[("date", &stored.plan.date)],
                        ))
                    })
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
    let libraries: Vec<Vec<Difference>> = stream::iter(plan.members.iter().zip(&ids))
        .filter(|(member, _)| std::future::ready(!member.library.is_empty()))
        .map(|(member, id)| {
            let kept = &kept;
            async move {
                let read = read_library(client, id, kept).await?;
                Ok::<_, ApiError>(library_differences(member.name(), &member.library, &read))
            }
        })
        .buffered(AT_ONCE)
        .try_collect()
        .await?;
    found.extend(libraries.into_iter().flatten());
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
    Ok(Outcome {
        differences: found,
        library_not_kept: kept.not_kept(plan),
    })
}

/// What is known of a kind of library at the service: nothing yet, kept (an entry of it was
/// stored), or absent (its route answered a bare 404 or 405 before any was stored).
#[derive(Clone, Copy, Default, PartialEq)]
enum Known {
    #[default]
    Unknown,
    Kept,
    Absent,
}

/// The kinds of library the service keeps, as its answers show: an absent kind gets no more
/// requests, and its entries are counted as not restored.
#[derive(Default)]
struct Kept {
    saved_items: Cell<Known>,
    favorites: Cell<Known>,
    adapted_recipes: Cell<Known>,
    saved_meal_plans: Cell<Known>,
}

impl Kept {
    /// Whether the service keeps `kind` as far as anyone knows (until it answers otherwise).
    fn keeps(kind: &Cell<Known>) -> bool {
        kind.get() != Known::Absent
    }

    /// The entries of the file of kinds the service does not keep.
    fn not_kept(&self, plan: &Plan) -> usize {
        plan.members
            .iter()
            .map(|m| {
                let l = &m.library;
                [
                    (self.saved_items.get(), l.saved_items.len()),
                    (self.favorites.get(), l.favorites.len()),
                    (self.adapted_recipes.get(), l.adapted_recipes.len()),
                    (self.saved_meal_plans.get(), l.saved_meal_plans.len()),
                ]
                .iter()
                .filter(|(known, _)| *known == Known::Absent)
                .map(|(_, n)| n)
                .sum::<usize>()
            })
            .sum()
    }
}

/// Whether `error` refuses one entry only (a 4xx other than authentication, throttling and a
/// timeout: a value the service will not store, a member's list full): that entry stays
/// unstored, the comparison lists it, and the restore goes on. Anything else stops it.
fn refused_alone(error: &ApiError) -> bool {
    matches!(error.status(), Some(status) if (400..500).contains(&status)
        && ![401, 403, 408, 429].contains(&status))
}

/// Notes one write's answer: stored; the route absent (the kind is, unless an entry of it was
/// stored already: then only this entry is left for the comparison); refused alone; or the
/// error that stops the restore.
fn noted(
    answer: Result<Option<Value>, ApiError>,
    kind: &Cell<Known>,
    stored: &dyn Fn(),
) -> Result<(), ApiError> {
    match answer {
        Ok(Some(_)) => {
            kind.set(Known::Kept);
            stored();
            Ok(())
        }
        Ok(None) => {
            if kind.get() != Known::Kept {
                kind.set(Known::Absent);
            }
            Ok(())
        }
        Err(error) if refused_alone(&error) => Ok(()),
        Err(error) => Err(error),
    }
}

/// A member's library stored, one entry after another (writes a second try may repeat: see
/// `restore_library`). `continuing`: the member existed before this try, so its saved plans
/// are read first and the ones already there are not saved again.
async fn restore_library(
    client: &ApiClient,
    member_id: &str,
    library: &Library,
    continuing: bool,
    kept: &Kept,
    stored: &dyn Fn(),
) -> Result<(), ApiError> {
    for item in &library.saved_items {
        if Kept::keeps(&kept.saved_items) {
            let answer = client
                .save_item(member_id, &item.item_type, &item.item_ref)
                .await;
            noted(answer, &kept.saved_items, stored)?;
        }
    }
    for favorite in &library.favorites {
        if Kept::keeps(&kept.favorites) {
            let answer = client.add_favorite(member_id, &favorite.recipe_id).await;
            noted(answer, &kept.favorites, stored)?;
        }
    }
    for recipe in &library.adapted_recipes {
        if Kept::keeps(&kept.adapted_recipes) {
            let answer = client.put_adapted_recipe(member_id, recipe).await;
            noted(answer, &kept.adapted_recipes, stored)?;
        }
    }
    if library.saved_meal_plans.is_empty() || !Kept::keeps(&kept.saved_meal_plans) {
        return Ok(());
    }
    let there = if continuing {
        match client.saved_meal_plans(member_id).await? {
            Some(there) => there,
            None => {
                kept.saved_meal_plans.set(Known::Absent);
                return Ok(());
            }
        }
    } else {
        Vec::new()
    };
    for saved in &library.saved_meal_plans {
        if plan_is_saved(saved, &there) {
            continue;
        }
        if Kept::keeps(&kept.saved_meal_plans) {
            let answer = client.save_meal_plan_copy(member_id, saved).await;
            noted(answer, &kept.saved_meal_plans, stored)?;
        }
    }
    Ok(())
}

/// A member's library as the service answers it, for the kinds it keeps.
async fn read_library(
    client: &ApiClient,
    member_id: &str,
    kept: &Kept,
) -> Result<ReadLibrary, ApiError> {
    let mut read = ReadLibrary::default();
    if Kept::keeps(&kept.saved_items) {
        read.saved_items = client.saved_items(member_id).await?;
    }
    if Kept::keeps(&kept.favorites) {
        read.favorites = client.favorites(member_id).await?;
    }
    if Kept::keeps(&kept.adapted_recipes) {
        read.adapted_recipes = client.adapted_recipes(member_id).await?;
    }
    if Kept::keeps(&kept.saved_meal_plans) {
        read.saved_meal_plans = client.saved_meal_plans(member_id).await?;
    }
    Ok(read)
}
