//! A member's library (issue 38, item 6; production.md §10.3): saved items, favourite recipes,
//! adapted recipes and saved meal plans, each listed with *Remove* (after asking). A kind the
//! service does not offer (a bare 404 or 405: production's households service at the commit
//! CI runs has none of them) is not shown; when it offers none, neither is the section.

use larder_api::types::{AdaptedRecipe, Favorite, SavedItem, SavedMealPlan};
use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::toast::Toasts;
use crate::i18n::format::date;
use crate::i18n::{k, t, tf};
use crate::ApiClient;

/// How an entry is removed.
#[derive(Clone, Debug, PartialEq)]
enum Removal {
    SavedItem(SavedItem),
    Favorite(String),
    Adapted(String),
    SavedPlan(String),
}

/// An entry of any kind, as the list shows it.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    title: String,
    detail: String,
    when: Option<String>,
    removal: Removal,
}

/// A saved item's type in words.
fn type_label(item_type: &str) -> String {
    match item_type {
        "recipe" => t("Recipe"),
        "article" => t("Article"),
        "guide" => t("Guide"),
        "textbook" => t("Textbook"),
        other => other.to_string(),
    }
}

fn saved_item(item: SavedItem) -> Entry {
    Entry {
        title: item.item_ref.clone(),
        detail: type_label(&item.item_type),
        when: item.created_at.clone(),
        removal: Removal::SavedItem(item),
    }
}

fn favorite(item: Favorite) -> Entry {
    Entry {
        title: item.recipe_id.clone(),
        detail: t("Recipe"),
        when: item.created_at,
        removal: Removal::Favorite(item.recipe_id),
    }
}

fn adapted(item: AdaptedRecipe) -> Entry {
    let action = item
        .payload
        .get("action")
        .and_then(|a| a.as_str())
        .unwrap_or_default();
    let detail = match action {
        "swap" => t("An ingredient swapped"),
        "reduce" => t("An ingredient reduced"),
        _ => String::new(),
    };
    Entry {
        title: item
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| item.recipe_id.clone()),
        detail: [tf("Recipe {id}", &[("id", &item.recipe_id)]), detail]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" · "),
        when: item.updated_at.or(item.created_at),
        removal: Removal::Adapted(item.recipe_id),
    }
}

fn saved_plan(item: SavedMealPlan) -> Entry {
    let meals = [&item.breakfast, &item.lunch, &item.dinner]
        .iter()
        .map(|meal| meal.title.trim())
        .filter(|title| !title.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    Entry {
        title: if item.name.trim().is_empty() {
            item.id.clone()
        } else {
            item.name.clone()
        },
        detail: meals,
        when: item.created_at,
        removal: Removal::SavedPlan(item.id),
    }
}

/// One kind's list: `None` when the service does not offer it.
type Listed = Result<Option<Vec<Entry>>, ApiError>;

fn entries<T>(answer: Result<Option<Vec<T>>, ApiError>, into: fn(T) -> Entry) -> Listed {
    answer.map(|items| items.map(|items| items.into_iter().map(into).collect()))
}

async fn read_library(client: ApiClient, member_id: String) -> [(&'static str, Listed); 4] {
    let (items, favorites, adapted_recipes, plans) = futures::join!(
        client.saved_items(&member_id),
        client.favorites(&member_id),
        client.adapted_recipes(&member_id),
        client.saved_meal_plans(&member_id),
    );
    [
        (k("Saved items"), entries(items, saved_item)),
        (k("Favourite recipes"), entries(favorites, favorite)),
        (k("Adapted recipes"), entries(adapted_recipes, adapted)),
        (k("Saved meal plans"), entries(plans, saved_plan)),
    ]
}

async fn remove(client: ApiClient, member_id: String, removal: Removal) -> Result<(), ApiError> {
    match removal {
        Removal::SavedItem(item) => client.remove_saved_item(&member_id, &item).await,
        Removal::Favorite(id) => client.remove_favorite(&member_id, &id).await,
        Removal::Adapted(id) => client.remove_adapted_recipe(&member_id, &id).await,
        Removal::SavedPlan(id) => client.delete_saved_meal_plan(&member_id, &id).await,
    }
    .map(|_| ())
}

/// The section: each kind the service offers, or nothing.
#[component]
pub fn MemberLibrary(member_id: String) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let member = StoredValue::new(member_id);
    let library = LocalResource::new(move || read_library(client.clone(), member.get_value()));
    view! {
        <Transition fallback=|| view! {
            <section class="card library" aria-labelledby="library-title">
                <h2 id="library-title">{move || t("Library")}</h2>
                <Loading what=k("Loading the library…")/>
            </section>
        }>
            {move || library.get().map(|kinds| {
                let shown: Vec<_> = kinds.into_iter().filter(|(_, listed)| !matches!(listed, Ok(None))).collect();
                (!shown.is_empty()).then(|| view! {
                    <section class="card library" aria-labelledby="library-title">
                        <h2 id="library-title">{move || t("Library")}</h2>
                        {shown.into_iter().map(|(heading, listed)| view! {
                            <KindList heading listed member retry=Callback::new(move |_| library.refetch())/>
                        }).collect_view()}
                    </section>
                })
            })}
        </Transition>
    }
}

/// One kind: its entries with *Remove*, empty, or why it could not be read.
#[component]
fn KindList(
    heading: &'static str,
    listed: Listed,
    member: StoredValue<String>,
    retry: Callback<()>,
) -> impl IntoView {
    let body = match listed {
        Err(error) => view! { <ErrorView error retry/> }.into_any(),
        Ok(items) => {
            let items = RwSignal::new(items.unwrap_or_default());
            view! { <Entries items member/> }.into_any()
        }
    };
    view! {
        <div class="library-kind">
            <h3>{move || t(heading)}</h3>
            {body}
        </div>
    }
}

#[component]
fn Entries(items: RwSignal<Vec<Entry>>, member: StoredValue<String>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let error = RwSignal::new(None::<ApiError>);
    let removing = Action::new_local(move |entry: &Entry| {
        let (client, entry) = (client.clone(), entry.clone());
        let member = member.get_value();
        async move {
            remove(client, member, entry.removal.clone())
                .await
                .map(|_| entry)
        }
    });
    Effect::new(move || match removing.value().get() {
        Some(Ok(entry)) => {
            error.set(None);
            items.update(|list| list.retain(|e| *e != entry));
            toasts.success(tf("{title} removed", &[("title", &entry.title)]));
        }
        Some(Err(failure)) => error.set(Some(failure)),
        None => {}
    });
    view! {
        {move || error.get().map(|error| view! { <ErrorView error/> })}
        <Show when=move || items.with(|list| !list.is_empty()) fallback=|| view! { <p class="muted">{move || t("None saved.")}</p> }>
            <ul class="library-list">
                <For each=move || items.get() key=|entry| format!("{:?}", entry.removal) let:entry>
                    {
                        let title = entry.title.clone();
                        let question_title = title.clone();
                        view! {
                            <li>
                                <div>
                                    <strong class="entry-title">{title}</strong>
                                    {(!entry.detail.is_empty()).then(|| view! { <span class="muted">" · " {entry.detail.clone()}</span> })}
                                    {entry.when.clone().map(|when| view! { <span class="muted stamp">" · " {date(&when)}</span> })}
                                </div>
                                <ConfirmButton label=move || t("Remove")
                                    question=move || tf("Remove {title} from the library?", &[("title", &question_title)])
                                    confirm_label=move || t("Remove") disabled=removing.pending()
                                    on_confirm=Callback::new(move |_| { removing.dispatch(entry.clone()); })/>
                            </li>
                        }
                    }
                </For>
            </ul>
        </Show>
    }
}
