//! A record's page as two tabs, "Fields" (everything shown before) and "History": its
//! enhancements (agent, run, time, each field before and after) and stamps, newest first.

use std::collections::BTreeMap;

use larder_api::Record;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::{t, tf};
use crate::kb::ai_mark::AiBadge;
use crate::kb::schema::history::{history, version, Event, What};
use crate::kb::schema::label;
use crate::kb::schema::provenance::{ai_marks, AiMark};
use crate::kb::value_view::ValueView;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Fields,
    History,
}

impl Tab {
    fn id(self) -> &'static str {
        match self {
            Tab::Fields => "tab-fields",
            Tab::History => "tab-history",
        }
    }
}

/// The tabs; `children` is the Fields tab's content.
#[component]
pub fn RecordTabs(record: Record, children: Children) -> impl IntoView {
    let tab = RwSignal::new(Tab::Fields);
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowLeft" | "Home" | "End" => match tab.get_untracked() {
                Tab::Fields if ev.key() != "Home" => Tab::History,
                Tab::History if ev.key() != "End" => Tab::Fields,
                same => same,
            },
            _ => return,
        };
        ev.prevent_default();
        tab.set(next);
        // The focus follows the selection (the tabs' roving tabindex).
        if let Some(button) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(next.id()))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = button.focus();
        }
    };
    let tab_button = move |which: Tab, text: &'static str, panel: &'static str| {
        view! {
            <button type="button" role="tab" id=which.id() aria-controls=panel
                aria-selected=move || (tab.get() == which).to_string()
                tabindex=move || if tab.get() == which { "0" } else { "-1" }
                on:click=move |_| tab.set(which)>{move || t(text)}</button>
        }
    };
    view! {
        <div class="tabs" role="tablist" aria-label=move || t("Record") on:keydown=keydown>
            {tab_button(Tab::Fields, crate::i18n::k("Fields"), "panel-fields")}
            {tab_button(Tab::History, crate::i18n::k("History"), "panel-history")}
        </div>
        <div id="panel-fields" role="tabpanel" aria-labelledby="tab-fields" hidden=move || tab.get() != Tab::Fields>
            {children()}
        </div>
        <div id="panel-history" role="tabpanel" aria-labelledby="tab-history" hidden=move || tab.get() != Tab::History>
            {move || (tab.get() == Tab::History).then(|| view! { <History record=record.clone()/> })}
        </div>
    }
}

/// `2026-02-01T10:00:00.123456Z` as `2026-02-01 10:00:00 UTC`: the time matters in a history,
/// and the full stamp stays in the element's `datetime`.
fn when(at: &Option<String>) -> String {
    let Some(at) = at.as_deref() else {
        return t("Time not recorded");
    };
    let (date, time) = at.split_once('T').unwrap_or((at, ""));
    let utc = time.ends_with('Z') || time.ends_with("+00:00");
    let time: String = time.chars().take(8).collect();
    format!("{date} {time}{}", if utc { " UTC" } else { "" })
        .trim()
        .to_string()
}

fn entry(event: Event, marks: &BTreeMap<String, AiMark>) -> impl IntoView {
    let at = when(&event.at);
    let stamp = event.at.clone().unwrap_or_default();
    match event.what {
        What::Created { creator } => view! {
            <li class="history-entry"><time datetime=stamp>{at}</time> " "
                {match creator {
                    Some(creator) => tf("Created by {who}", &[("who", &creator)]),
                    None => t("Created"),
                }}
            </li>
        }
        .into_any(),
        What::Updated => view! {
            <li class="history-entry"><time datetime=stamp>{at}</time> " " {move || t("Last changed")}</li>
        }
        .into_any(),
        What::Enhanced { agent, run_id, fields } => view! {
            <li class="history-entry">
                <time datetime=stamp>{at}</time> " "
                {tf("Enhanced by the {agent} agent", &[("agent", agent.as_deref().unwrap_or("?"))])}
                {run_id.map(|run| view! { " " <span class="muted">{tf("run {run}", &[("run", &run)])}</span> })}
                <table class="history-fields">
                    <thead><tr>
                        <th scope="col">{move || t("Field")}</th>
                        <th scope="col">{move || t("Before")}</th>
                        <th scope="col">{move || t("After")}</th>
                    </tr></thead>
                    <tbody>
                        {fields.into_iter().map(|f| {
                            // Marked while the machine's value stands (no curator took it over).
                            let ai = marks.get(&f.field).cloned();
                            view! {
                            <tr>
                                <th scope="row">{label(&f.field)}{ai.map(|mark| view! { " " <AiBadge mark/> })}</th>
                                <td>{match f.before { Some(v) if !v.is_null() => view! { <ValueView value=v/> }.into_any(), Some(_) => t("(none)").into_any(), None => t("not recorded").into_any() }}</td>
                                <td>{match f.after { Some(v) if !v.is_null() => view! { <ValueView value=v/> }.into_any(), Some(_) => t("(none)").into_any(), None => t("not recorded").into_any() }}</td>
                            </tr>
                        }}).collect_view()}
                    </tbody>
                </table>
            </li>
        }
        .into_any(),
    }
}

/// The history list, or its empty state.
#[component]
fn History(record: Record) -> impl IntoView {
    let events = history(&record);
    let version = version(&record);
    let marks = ai_marks(&record);
    view! {
        <section class="card section" aria-labelledby="history-heading">
            <h2 id="history-heading">{move || t("History")}</h2>
            {version.map(|v| view! { <p class="muted">{tf("Version {version}", &[("version", &v)])}</p> })}
            {if events.is_empty() {
                view! { <p class="empty">{move || t("No history recorded for this record.")}</p> }.into_any()
            } else {
                view! { <ol class="history">{events.into_iter().map(|event| entry(event, &marks)).collect_view()}</ol> }.into_any()
            }}
        </section>
    }
}
