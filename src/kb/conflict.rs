//! The edit-conflict dialog: the record changed in the service since the form opened. It lists
//! each field that differs (theirs beside yours, and who changed it) and asks: keep mine, take
//! theirs, or merge field by field. Nothing is saved until one is chosen.

use larder_api::Record;
use leptos::prelude::*;

use crate::components::modal::Modal;
use crate::i18n::t;
use crate::kb::schema::conflict::{all, conflicts, merged, Side};
use crate::kb::schema::value::display;
use crate::kb::schema::{label, Schema};

/// What the person chose.
#[derive(Clone, Debug)]
pub enum Resolution {
    /// Save this record (theirs with the chosen fields of mine) over theirs.
    Save(Record),
    /// Drop the edits; show their version.
    TakeTheirs,
    /// Back to the form, nothing decided.
    Back,
}

fn shown(value: &Option<serde_json::Value>) -> String {
    match value.as_ref().map(display) {
        Some(text) if !text.is_empty() => text,
        _ => t("(none)"),
    }
}

/// The dialog over `theirs` (now in the service) and `mine` (the form), both read against
/// `base` (the record as the form opened it).
#[component]
pub fn ConflictDialog(
    schema: &'static Schema,
    base: Record,
    theirs: Record,
    mine: Record,
    on_resolve: Callback<Resolution>,
) -> impl IntoView {
    let found = conflicts(schema, &base, &theirs, &mine);
    let choices = RwSignal::new(
        found
            .iter()
            .map(|c| (c.field, c.default_side()))
            .collect::<Vec<_>>(),
    );
    let records = StoredValue::new((theirs, mine, found.clone()));
    let choose = move |field: &'static str, side: Side| {
        choices.update(|all| {
            if let Some(entry) = all.iter_mut().find(|(f, _)| *f == field) {
                entry.1 = side;
            }
        })
    };
    let save_with = move |picked: Vec<(&'static str, Side)>| {
        let record = records.with_value(|(theirs, mine, _)| merged(theirs, mine, &picked));
        on_resolve.run(Resolution::Save(record));
    };
    let rows = found
        .into_iter()
        .map(|c| {
            let field = c.field;
            let name = format!("conflict-{field}");
            let who = match (c.theirs_changed, c.mine_changed) {
                (true, true) => t("Changed by both"),
                (true, false) => t("Changed by someone else"),
                _ => t("Changed by you"),
            };
            let is = move |side: Side| {
                choices.with(|all| all.iter().any(|(f, s)| *f == field && *s == side))
            };
            view! {
                <fieldset class="conflict-field" class:both=c.both_changed()>
                    <legend>{label(field)} " " <span class="muted">"(" {who} ")"</span></legend>
                    <label class="conflict-choice">
                        <input type="radio" name=name.clone() prop:checked=move || is(Side::Theirs)
                            on:change=move |_| choose(field, Side::Theirs)/>
                        <span>{move || t("Theirs")} ": "</span> <span class="conflict-value">{shown(&c.theirs)}</span>
                    </label>
                    <label class="conflict-choice">
                        <input type="radio" name=name prop:checked=move || is(Side::Mine)
                            on:change=move |_| choose(field, Side::Mine)/>
                        <span>{move || t("Yours")} ": "</span> <span class="conflict-value">{shown(&c.mine)}</span>
                    </label>
                </fieldset>
            }
        })
        .collect_view();
    let none = records.with_value(|(_, _, found)| found.is_empty());
    view! {
        <Modal role="alertdialog" labelled_by="conflict-title" on_escape=Callback::new(move |_| on_resolve.run(Resolution::Back))>
            <h2 id="conflict-title">{move || t("Changed while you were editing")}</h2>
            <p>{move || t("Someone saved this record after you opened the form. Choose what to keep; nothing is saved until you do.")}</p>
            {none.then(|| view! { <p class="hint">{move || t("The fields you can edit agree; only other fields changed.")}</p> })}
            <div class="conflict-fields">{rows}</div>
            <div class="actions">
                <button type="button" data-initial-focus on:click=move |_| on_resolve.run(Resolution::Back)>{move || t("Back to the form")}</button>
                <button type="button" on:click=move |_| on_resolve.run(Resolution::TakeTheirs)>{move || t("Take theirs")}</button>
                <button type="button" on:click=move |_| save_with(records.with_value(|(_, _, f)| all(f, Side::Mine)))>{move || t("Keep mine")}</button>
                <button type="button" class="primary" on:click=move |_| save_with(choices.get_untracked())>{move || t("Save the merge")}</button>
            </div>
        </Modal>
    }
}
