//! "What WiseFood remembers": every `memory_log` entry with the app that learned it, when, and
//! the member's own words; *Correct* and *Forget* as production's front end does them (see
//! `owners::memories`), each saved at once by the profile form; and the standing dishes.

use larder_contract::profile::{self, entry, Editor, MemoryKind, GOALS};
use leptos::prelude::*;
use serde_json::Value;

use crate::components::confirm::ConfirmButton;
use crate::household::allergy_picker::allergy_words;
use crate::household::profile_fields::goal_label;
use crate::household::rules::memories::{self, Memory};
use crate::i18n::{format, t, tf, value_label};

/// What the member asked for; the profile form saves it.
#[derive(Clone, Debug, PartialEq)]
pub enum MemoryChange {
    /// Forget this entry (as [`memories::list`] gives it).
    Forget(Value),
    /// Correct this entry to `kind` and `value`.
    Correct {
        memory: Value,
        kind: String,
        value: String,
    },
}

/// What a kind of memory is called.
fn kind_label(kind: &str) -> String {
    match kind {
        "like" => t("Likes"),
        "cuisine" => t("Cuisine they like"),
        "dislike" => t("Dislikes"),
        "standing_seed" => t("Standing dish"),
        "goal" | "dietary_goal" => t("Goal"),
        "allergy_hint" => t("Allergy"),
        "dietary_pattern" => t("Dietary pattern"),
        "constraint" => t("Constraint"),
        other => profile::humanised(other),
    }
}

/// A memory's value as words.
fn value_words(kind: &str, value: &str) -> String {
    match MemoryKind::of(kind) {
        MemoryKind::Goal => goal_label(&larder_contract::text::lowercase(value)),
        MemoryKind::AllergyHint => allergy_words(&Value::String(value.into())),
        MemoryKind::DietaryPattern => value_label("dietary_group", value),
        _ => value.to_string(),
    }
}

/// The list, the standing dishes, and their actions.
#[component]
pub fn Remembered(
    /// `memory_log` and `standing_seeds` as saved.
    log: RwSignal<Vec<Value>>,
    seeds: RwSignal<Vec<Value>>,
    /// The saved allergies, to say which of them forgetting an allergy removes.
    #[prop(into)]
    allergies: Signal<Vec<Value>>,
    #[prop(into)] pending: Signal<bool>,
    change: Callback<MemoryChange>,
) -> impl IntoView {
    let editing = RwSignal::new(None::<usize>);
    // A saved correction or forgetting changes the log: no line stays open for editing.
    Effect::new(move |seen: Option<()>| {
        log.track();
        if seen.is_some() {
            editing.set(None);
        }
    });
    view! {
        <section class="stack" aria-labelledby="remembered-title">
            <h3 id="remembered-title">{move || t("What WiseFood remembers")}</h3>
            <p class="hint">{move || t("What FoodChat and FoodScholar learned about this member, and where it steers meal plans. Correcting or forgetting saves at once.")}</p>
            {move || {
                let list = memories::list(&log.get(), &seeds.get());
                if list.is_empty() {
                    return view! { <p class="empty">{move || t("Nothing remembered.")}</p> }.into_any();
                }
                view! {
                    <ul class="memory-list">
                        {list.into_iter().enumerate().map(|(index, memory)| match memory {
                            Memory::AsStored(value) => view! {
                                <li><code>{value.to_string()}</code>" "<span class="hint">{move || t("(kept as stored)")}</span></li>
                            }.into_any(),
                            Memory::Readable { stored, kind, value } => view! {
                                <MemoryLine index stored kind value editing allergies pending change/>
                            }.into_any(),
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
            {move || {
                let dishes = seeds.get();
                (!dishes.is_empty()).then(|| view! {
                    <h4>{move || t("Standing dishes")}</h4>
                    <ul class="allergy-notes" aria-label=move || t("Standing dishes")>
                        {dishes.into_iter().map(|seed| match seed.get("name").and_then(Value::as_str) {
                            Some(name) => view! { <li>{name.to_string()}</li> }.into_any(),
                            None => view! { <li><code>{seed.to_string()}</code></li> }.into_any(),
                        }).collect_view()}
                    </ul>
                })
            }}
        </section>
    }
}

/// One memory, with its actions and, while it is corrected, its editor.
#[component]
fn MemoryLine(
    index: usize,
    stored: Value,
    kind: String,
    value: String,
    editing: RwSignal<Option<usize>>,
    allergies: Signal<Vec<Value>>,
    pending: Signal<bool>,
    change: Callback<MemoryChange>,
) -> impl IntoView {
    let text_of = |key: &str| stored.get(key).and_then(Value::as_str).map(str::to_string);
    let app = profile::source_app(stored.get(entry::SOURCE).and_then(Value::as_str));
    let learned = text_of(entry::RECORDED_AT);
    let corrected = text_of(entry::EDITED_AT);
    let words = text_of(entry::EVIDENCE)
        .or_else(|| text_of(entry::SOURCE_TEXT))
        .filter(|w| !w.trim().is_empty());
    let editor = MemoryKind::of(&kind).editor();
    let shown = value_words(&kind, &value);
    let (kind_shown, what) = (kind_label(&kind), shown.clone());
    let question = {
        let (kind, value, shown) = (kind.clone(), value.clone(), shown.clone());
        move || {
            if MemoryKind::of(&kind) == MemoryKind::AllergyHint {
                let removed = memories::allergies_removed(&allergies.get(), &value);
                let names: Vec<String> = removed.iter().map(allergy_words).collect();
                if names.is_empty() {
                    tf("Forget the allergy “{value}”? It is not among the allergies now, so only the memory goes.", &[("value", &shown)])
                } else {
                    tf("Forget the allergy “{value}”? This also removes {allergies} from the allergies, so the meal planner will no longer leave it out.",
                        &[("value", &shown), ("allergies", &names.join(", "))])
                }
            } else {
                tf(
                    "Forget “{value}”? It is also taken out of the profile field it steers.",
                    &[("value", &shown)],
                )
            }
        }
    };
    let forget_memory = stored.clone();
    let draft_kind = RwSignal::new(kind.clone());
    let draft_value = RwSignal::new(value.clone());
    let (original_kind, original_value) = (kind.clone(), value.clone());
    let changed = Signal::derive(move || {
        let v = draft_value.get();
        !v.trim().is_empty() && (v.trim() != original_value || draft_kind.get() != original_kind)
    });
    let start_editing = {
        let (kind, value) = (kind.clone(), value.clone());
        move |_| {
            draft_kind.set(kind.clone());
            draft_value.set(value.clone());
            editing.set(Some(index));
        }
    };
    let save = {
        let memory = stored.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            change.run(MemoryChange::Correct {
                memory: memory.clone(),
                kind: draft_kind.get_untracked(),
                value: draft_value.get_untracked().trim().to_string(),
            });
        }
    };
    let input_id = format!("memory-{index}-value");
    view! {
        <li data-memory=kind.clone()>
            <div><strong>{kind_shown}</strong>": "{shown.clone()}</div>
            <div class="memory-meta">
                {app}
                {learned.map(|at| view! { " · " {move || tf("learned {date}", &[("date", &format::date(&at))])} })}
                {corrected.map(|at| view! { " · " {move || tf("corrected {date}", &[("date", &format::date(&at))])} })}
            </div>
            {words.map(|w| view! { <div class="memory-words">{format!("“{}”", w.trim())}</div> })}
            <Show when=move || editing.get() == Some(index) fallback={
                let (what, question, forget_memory, start_editing) = (what.clone(), question.clone(), forget_memory.clone(), start_editing.clone());
                move || {
                    let (what, question, memory) = (what.clone(), question.clone(), forget_memory.clone());
                    let what_forget = what.clone();
                    view! {
                        <div class="actions">
                            {(editor != Editor::None).then(|| {
                                let what = what.clone();
                                view! {
                                    <button type="button" disabled=move || pending.get() on:click=start_editing.clone()
                                        aria-label=move || tf("Correct “{value}”", &[("value", &what)])>{move || t("Correct")}</button>
                                }
                            })}
                            <ConfirmButton label=Signal::derive(move || t("Forget"))
                                question=Signal::derive(question.clone())
                                confirm_label=Signal::derive(move || t("Forget"))
                                disabled=pending
                                aria_label=Signal::derive(move || tf("Forget “{value}”", &[("value", &what_forget)]))
                                on_confirm=Callback::new(move |_| change.run(MemoryChange::Forget(memory.clone())))/>
                        </div>
                    }
                }
            }>
                <form class="inline-form" on:submit=save.clone()>
                    {(editor == Editor::TextOrFlip).then(|| view! {
                        <label for=format!("memory-{index}-kind")>{move || t("Kind")}</label>
                        <select id=format!("memory-{index}-kind") on:change=move |ev| draft_kind.set(event_target_value(&ev))>
                            <option value="like" selected=move || draft_kind.get() == "like">{move || t("Likes")}</option>
                            <option value="dislike" selected=move || draft_kind.get() == "dislike">{move || t("Dislikes")}</option>
                        </select>
                    })}
                    {if editor == Editor::GoalSlug {
                        view! {
                            <label for=input_id.clone()>{move || t("Goal")}</label>
                            <select id=input_id.clone() on:change=move |ev| draft_value.set(event_target_value(&ev))>
                                // A slug the planner does not list stays offered, so it is not changed unseen.
                                {(!GOALS.iter().any(|(s, _)| *s == larder_contract::text::lowercase(&value))).then(|| {
                                    let v = value.clone();
                                    view! { <option value=v.clone() selected=true>{profile::humanised(&v)}</option> }
                                })}
                                {GOALS.iter().map(|(slug, _)| view! {
                                    <option value=*slug selected=move || larder_contract::text::lowercase(&draft_value.get()) == *slug>{move || goal_label(slug)}</option>
                                }).collect_view()}
                            </select>
                        }.into_any()
                    } else {
                        view! {
                            <label for=input_id.clone()>{move || t("New value")}</label>
                            <input id=input_id.clone() type="text" prop:value=move || draft_value.get() on:input=move |ev| draft_value.set(event_target_value(&ev))/>
                        }.into_any()
                    }}
                    <div class="actions">
                        <button type="button" on:click=move |_| editing.set(None)>{move || t("Cancel")}</button>
                        <button type="submit" class="primary" disabled=move || pending.get() || !changed.get()>{move || t("Save correction")}</button>
                    </div>
                </form>
            </Show>
        </li>
    }
}
