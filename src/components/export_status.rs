//! What every export shows while it runs and after: progress (n of N), Cancel, the saved file's
//! name, or what failed with "Try again". Shared by the list's Export and "Download my data".

use std::cell::Cell;
use std::rc::Rc;

use larder_api::ApiError;
use leptos::prelude::*;

use crate::error_text::{error_detail, error_title};
use crate::i18n::format::number;
use crate::i18n::{t, tf, tn};

/// Where an export is.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportState {
    /// Not started.
    Idle,
    /// `done` of `total` rows (members) written; `total` unknown for some lists.
    Running { done: u64, total: Option<u64> },
    /// Saved, with a sentence saying what.
    Done(String),
    /// Stopped by a failure, with a sentence saying what failed.
    Failed(String),
    /// Stopped by Cancel.
    Cancelled,
}

/// Why an export stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// Cancel was pressed.
    Cancelled,
    /// Something failed; the sentence says what.
    Failed(String),
}

impl From<ApiError> for Stop {
    fn from(error: ApiError) -> Stop {
        match error {
            ApiError::Cancelled => Stop::Cancelled,
            error => Stop::Failed(format!("{}: {}", error_title(&error), error_detail(&error))),
        }
    }
}

/// The state of one export and its Cancel, to share between the button that starts it and the
/// status below it.
#[derive(Clone, Copy)]
pub struct ExportControl {
    /// Where the export is.
    pub state: RwSignal<ExportState>,
    cancelled: StoredValue<Rc<Cell<bool>>, LocalStorage>,
}

impl Default for ExportControl {
    fn default() -> Self {
        ExportControl::new()
    }
}

impl ExportControl {
    /// No export yet.
    pub fn new() -> ExportControl {
        ExportControl {
            state: RwSignal::new(ExportState::Idle),
            cancelled: StoredValue::new_local(Rc::new(Cell::new(false))),
        }
    }

    /// Whether an export runs now.
    pub fn running(&self) -> bool {
        matches!(self.state.get(), ExportState::Running { .. })
    }

    /// Marks a new export as started and hands back its Cancel flag, checked between requests.
    pub fn begin(&self, total: Option<u64>) -> Rc<Cell<bool>> {
        let flag = Rc::new(Cell::new(false));
        self.cancelled.set_value(flag.clone());
        self.state.set(ExportState::Running { done: 0, total });
        flag
    }

    /// Progress.
    pub fn progress(&self, done: u64, total: Option<u64>) {
        self.state.set(ExportState::Running { done, total });
    }

    /// Stops the running export before its next request.
    pub fn cancel(&self) {
        self.cancelled.get_value().set(true);
    }

    /// How the export ended.
    pub fn end(&self, outcome: Result<String, Stop>) {
        self.state.set(match outcome {
            Ok(said) => ExportState::Done(said),
            Err(Stop::Cancelled) => ExportState::Cancelled,
            Err(Stop::Failed(problem)) => ExportState::Failed(problem),
        });
    }
}

/// `Err(Stop::Cancelled)` once Cancel was pressed.
pub fn check(cancelled: &Cell<bool>) -> Result<(), Stop> {
    if cancelled.get() {
        Err(Stop::Cancelled)
    } else {
        Ok(())
    }
}

/// Progress with Cancel, then the outcome; a failure offers `retry`.
#[component]
pub fn ExportStatus(
    control: ExportControl,
    /// What is counted, e.g. "{done} of {total} rows".
    counted: fn(u64, Option<u64>) -> String,
    /// Runs the same export again.
    retry: Callback<()>,
) -> impl IntoView {
    move || {
        match control.state.get() {
        ExportState::Idle => ().into_any(),
        ExportState::Running { done, total } => view! {
            <div class="export-status">
                <progress max=total.unwrap_or(0).max(1) value=total.map(|_| done) aria-label=move || t("Export progress")></progress>
                <span role="status">{counted(done, total)}</span>
                <button type="button" on:click=move |_| control.cancel()>{move || t("Cancel export")}</button>
            </div>
        }
        .into_any(),
        ExportState::Done(said) => view! { <p class="export-status" role="status">{said}</p> }.into_any(),
        ExportState::Cancelled => view! { <p class="export-status" role="status">{move || t("Export cancelled.")}</p> }.into_any(),
        ExportState::Failed(problem) => view! {
            <div class="export-status" role="alert">
                <p class="error-text">{tf("The export failed: {problem}", &[("problem", &problem)])}</p>
                <button type="button" on:click=move |_| retry.run(())>{move || t("Try again")}</button>
            </div>
        }
        .into_any(),
    }
    }
}

/// "{done} of {total} rows", or "{done} rows" when the total is not known.
pub fn rows_counted(done: u64, total: Option<u64>) -> String {
    match total {
        Some(total) => tf(
            "{done} of {total} rows",
            &[
                ("done", &number(done as f64)),
                ("total", &number(total as f64)),
            ],
        ),
        None => tn("{count} rows", done as i64, &[]),
    }
}
