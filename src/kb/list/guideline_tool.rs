//! The button of a bulk tool over chosen guidelines (editorial policy, enrich, backfill): shown
//! on the guidelines list to the roles its contract route names, naming how many are chosen; its
//! dialog, in the list tools' module, loads when it opens. The dialog's `close(ran)` closes it
//! and, when it ran, tells the list (`changed`) to read again.

use larder_contract::collections::{WriteRoles, GUIDELINES};
use leptos::prelude::*;

use crate::i18n::tn;
use crate::kb::gates::holds;
use crate::kb::list::selection::Selection;
use crate::kb::schema::Schema;

#[component]
pub fn GuidelineTool(
    schema: &'static Schema,
    roles: WriteRoles,
    /// The button's catalog key, with `{count}`.
    label: &'static str,
    running: Signal<bool>,
    /// Told when a run changed records (not every tool changes what the list shows).
    #[prop(optional)]
    changed: Option<Callback<()>>,
    /// The dialog, given its `close(ran)`.
    #[prop(into)]
    dialog: Callback<Callback<bool>, AnyView>,
) -> impl IntoView {
    if schema.collection.path != GUIDELINES.path {
        return ().into_any();
    }
    let allowed = holds(roles);
    let open = RwSignal::new(false);
    let selection = expect_context::<Selection>();
    let close = Callback::new(move |ran: bool| {
        open.set(false);
        if let (true, Some(changed)) = (ran, changed) {
            changed.run(());
        }
    });
    view! {
        <Show when=move || allowed.get()>
            <button type="button" disabled=move || running.get() on:click=move |_| open.set(true)>
                {move || tn(label, selection.count() as i64, &[])}
            </button>
        </Show>
        <Show when=move || open.get()>{move || dialog.run(close)}</Show>
    }
    .into_any()
}
