//! The "AI" mark beside a value a machine wrote (`kb::schema::provenance`): the agent and run
//! on hover and on keyboard focus, read out by screen readers as the mark's name.

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::kb::schema::provenance::AiMark;

/// Who wrote it, as a sentence.
fn said(mark: &AiMark) -> String {
    match (&mark.agent, &mark.run_id) {
        (Some(agent), Some(run)) => tf(
            "Written by the {agent} agent (run {run}); a curator's edit takes it over.",
            &[("agent", agent), ("run", run)],
        ),
        (Some(agent), None) => tf(
            "Written by the {agent} agent; a curator's edit takes it over.",
            &[("agent", agent)],
        ),
        _ => t("Written by a machine; a curator's edit takes it over."),
    }
}

/// "AI", its sentence in `title` (hover). Focusable by default, the sentence then shown beside
/// it on focus and read as its name; in a list's cells (`quiet`) it takes no tab stop of its own
/// among thousands of rows, and its sentence is read as hidden text.
#[component]
pub fn AiBadge(mark: AiMark, #[prop(optional)] quiet: bool) -> impl IntoView {
    let mark = StoredValue::new(mark);
    let tip = move || mark.with_value(said);
    if quiet {
        return view! {
            <span class="badge ai-mark" title=tip>
                {move || t("AI")}<span class="visually-hidden">": "{tip}</span>
            </span>
        }
        .into_any();
    }
    view! {
        <span class="badge ai-mark" tabindex="0" role="img" aria-label=tip title=tip data-tip=tip>
            {move || t("AI")}
        </span>
    }
    .into_any()
}
