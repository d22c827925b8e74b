//! Edits a JSON object as key/value rows with typed values, or as raw JSON that is validated
//! before it is used.

use larder_contract::text::lowercase;
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::i18n::{t, tf};
use crate::kv::{map_from_json, map_from_rows, rows_from_map, KvRow, ValueKind};

/// The editor's state, owned by the form that contains it.
#[derive(Clone, Copy)]
pub struct KvState {
    // Each row has its own signal so typing re-renders only that row.
    rows: RwSignal<Vec<(u64, RwSignal<KvRow>)>>,
    next_id: StoredValue<u64>,
    raw: RwSignal<Option<String>>,
    /// Where the state was made: rows belong there, not to whatever runs a reset (an answer's
    /// effect disposes what it made when it runs again, and the rows would go with it).
    owner: StoredValue<Option<Owner>>,
}

impl KvState {
    /// State holding `map`.
    pub fn new(map: &Map<String, Value>) -> KvState {
        let state = KvState {
            rows: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(0),
            raw: RwSignal::new(None),
            owner: StoredValue::new(Owner::current()),
        };
        state.reset(map);
        state
    }

    /// Replaces the content with `map`, in row mode.
    pub fn reset(&self, map: &Map<String, Value>) {
        let rows: Vec<_> = rows_from_map(map)
            .into_iter()
            .map(|row| (self.take_id(), self.row(row)))
            .collect();
        self.rows.set(rows);
        self.raw.set(None);
    }

    fn row(&self, row: KvRow) -> RwSignal<KvRow> {
        match self.owner.get_value() {
            Some(owner) => owner.with(|| RwSignal::new(row)),
            None => RwSignal::new(row),
        }
    }

    fn take_id(&self) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        id
    }

    fn add_row(&self) {
        let id = self.take_id();
        self.rows
            .update(|rows| rows.push((id, self.row(KvRow::empty()))));
    }

    fn row_values(&self) -> Vec<KvRow> {
        self.rows
            .with(|rows| rows.iter().map(|(_, row)| row.get()).collect())
    }

    /// The object as typed (tracked, so a memo over it follows every keystroke).
    pub fn read(&self) -> Result<Map<String, Value>, String> {
        match self.raw.get() {
            Some(text) => map_from_json(&text),
            None => map_from_rows(&self.row_values()).map_err(|problems| {
                problems
                    .into_iter()
                    .map(|(i, p)| {
                        tf(
                            "row {row}: {problem}",
                            &[("row", &(i + 1).to_string()), ("problem", &p)],
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
        }
    }

    fn toggle_raw(&self) -> Result<(), String> {
        match self.raw.get_untracked() {
            None => {
                let map = self.read()?;
                self.raw.set(Some(
                    serde_json::to_string_pretty(&Value::Object(map)).unwrap_or_default(),
                ));
            }
            Some(text) => {
                let map = map_from_json(&text)?;
                self.reset(&map);
            }
        }
        Ok(())
    }
}

/// The editor; `label` names the group (e.g. "Nutritional preferences").
#[component]
pub fn KvEditor(
    state: KvState,
    /// The group's name, a key of the catalog.
    label: &'static str,
    id: &'static str,
) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let live_problem = move || state.read().err();
    view! {
        <fieldset class="kv" aria-describedby=format!("{id}-problem")>
            <legend>{move || t(label)}</legend>
            <Show when=move || state.raw.get().is_none() fallback=move || view! {
                <label for=format!("{id}-raw") class="sr-only">{move || tf("{what} as JSON", &[("what", &t(label))])}</label>
                <textarea id=format!("{id}-raw") class="json" rows="8" spellcheck="false"
                    prop:value=move || state.raw.get().unwrap_or_default()
                    on:input=move |ev| state.raw.set(Some(event_target_value(&ev)))></textarea>
            }>
                <For each=move || state.rows.get() key=|(id, _)| *id let:((row_id, row))>
                    <KvRowEditor row label row_id remove=Callback::new(move |_| state.rows.update(|rows| rows.retain(|(i, _)| *i != row_id)))/>
                </For>
                <button type="button" on:click=move |_| state.add_row()>{move || tf("Add {what}", &[("what", &lowercase(&t(label)))])}</button>
            </Show>
            <div class="kv-tools">
                <button type="button" on:click=move |_| problem.set(state.toggle_raw().err())>
                    {move || if state.raw.get().is_some() { t("Edit as rows") } else { t("Edit as JSON") }}
                </button>
            </div>
            <p id=format!("{id}-problem") class="field-error" role="alert">{move || problem.get().or_else(live_problem)}</p>
        </fieldset>
    }
}

#[component]
fn KvRowEditor(
    row: RwSignal<KvRow>,
    label: &'static str,
    row_id: u64,
    remove: Callback<()>,
) -> impl IntoView {
    let key_id = format!("kv-{label}-{row_id}-key").replace(' ', "-");
    let value_id = format!("kv-{label}-{row_id}-value").replace(' ', "-");
    let kind = move || row.with(|r| r.kind);
    view! {
        <div class="kv-row">
            <label for=key_id.clone() class="sr-only">{move || t("Key")}</label>
            <input id=key_id type="text" placeholder="key" prop:value=move || row.with(|r| r.key.clone())
                on:input=move |ev| row.update(|r| r.key = event_target_value(&ev))/>
            <label class="sr-only" for=format!("{value_id}-kind")>{move || t("Type")}</label>
            <select id=format!("{value_id}-kind") on:change=move |ev| row.update(|r| {
                r.kind = ValueKind::from_name(&event_target_value(&ev));
                if r.kind == ValueKind::YesNo && r.text != "true" { r.text = "false".into(); }
            })>
                {ValueKind::ALL.iter().map(|(k, name)| view! {
                    <option value=k.name() selected=move || kind() == *k>{move || t(name)}</option>
                }).collect_view()}
            </select>
            <label for=value_id.clone() class="sr-only">{move || t("Value")}</label>
            {move || if kind() == ValueKind::YesNo {
                view! {
                    <select id=value_id.clone() on:change=move |ev| row.update(|r| r.text = event_target_value(&ev))>
                        <option value="true" selected=move || row.with(|r| r.text == "true")>{move || t("Yes")}</option>
                        <option value="false" selected=move || row.with(|r| r.text != "true")>{move || t("No")}</option>
                    </select>
                }.into_any()
            } else {
                view! {
                    <input id=value_id.clone() type="text" placeholder=move || match kind() {
                            ValueKind::List => "a, b, c", ValueKind::Number => "0", ValueKind::Json => "{ }", _ => "value" }
                        inputmode=move || if kind() == ValueKind::Number { "decimal" } else { "text" }
                        prop:value=move || row.with(|r| r.text.clone())
                        on:input=move |ev| row.update(|r| r.text = event_target_value(&ev))/>
                }.into_any()
            }}
            <button type="button" class="icon" aria-label=move || tf("Remove {what}", &[("what", &row.with(|r| r.key.clone()))])
                on:click=move |_| remove.run(())>"×"</button>
        </div>
    }
}
