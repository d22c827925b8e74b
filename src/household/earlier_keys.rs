//! The offer to move a profile's keys from Larder's earlier names to production's (see
//! `owners::earlier`): shown while the profile has them, once per visit to the page.

use larder_api::types::Profile;
use larder_contract::profile::{earlier, DIETARY_GOALS, GENDER, MEMORY_LOG};
use leptos::prelude::*;

use crate::household::rules::earlier::offer;
use crate::i18n::{t, tf, tn};

/// The offer for `profile` (the saved one); `on_move` moves the keys, saving at once.
#[component]
pub fn MoveEarlierKeys(
    #[prop(into)] profile: Signal<Option<Profile>>,
    #[prop(into)] pending: Signal<bool>,
    on_move: Callback<()>,
) -> impl IntoView {
    let dismissed = RwSignal::new(false);
    move || {
        let offer = profile.with(|p| p.as_ref().and_then(offer))?;
        if dismissed.get() {
            return None;
        }
        let old = |key: &str| format!("properties.{key}");
        let mut moves: Vec<String> = Vec::new();
        if offer.gender {
            moves.push(tf(
                "gender: {from} → {to}",
                &[
                    ("from", &old(earlier::GENDER)),
                    ("to", &format!("nutritional_preferences.{GENDER}")),
                ],
            ));
        }
        if let Some(count) = offer.goals {
            moves.push(tn(
                "{count} goals: {from} → {to}",
                count as i64,
                &[("from", &old(earlier::GOALS)), ("to", &old(DIETARY_GOALS))],
            ));
        }
        if let Some(count) = offer.memories {
            moves.push(tn(
                "{count} memories: {from} → {to}",
                count as i64,
                &[("from", &old(earlier::MEMORIES)), ("to", &old(MEMORY_LOG))],
            ));
        }
        let staying: Vec<String> = offer
            .staying
            .iter()
            .map(|key| {
                tf(
                    "{key} stays where it is: its new place already holds something else.",
                    &[("key", &old(key))],
                )
            })
            .collect();
        Some(view! {
            <div class="move-offer stack" role="region" aria-labelledby="move-offer-title">
                <h3 id="move-offer-title">{move || t("Move to production's names")}</h3>
                <p>{move || t("This profile keeps some of its details under names Larder used before production's were known. WiseFood's own app and meal planner read only production's names.")}</p>
                <ul>
                    {moves.into_iter().map(|m| view! { <li><code>{m}</code></li> }).collect_view()}
                    {staying.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}
                </ul>
                <p class="hint">{move || t("Nothing else changes: memories become log entries of kind “note”, and goals the planner does not list are kept as they are.")}</p>
                <div class="actions">
                    <button type="button" on:click=move |_| dismissed.set(true)>{move || t("Not now")}</button>
                    <button type="button" class="primary" disabled=move || pending.get() on:click=move |_| on_move.run(())>
                        {move || t("Move them")}
                    </button>
                </div>
            </div>
        })
    }
}
