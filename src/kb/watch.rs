//! Changes as they happen, without a push channel (issue 40 item 3): an open list says "3
//! records changed: Refresh", an open edit form "Changed by someone else since you opened it"
//! (its save then shows the edit-conflict view, `kb::edit`). Each asks at most every 30 s while
//! the tab is visible, every 2 minutes while hidden (`kb::schema::changes`), and nothing once
//! closed: the timer lives and dies with the component.

use leptos::prelude::*;

use crate::i18n::{t, tn};
use crate::kb::schema::changes::{changed, due, query, stamp_of, CLOCK_MARGIN_MS};
use crate::kb::schema::conflict::changed_since;
use crate::kb::schema::Schema;
use crate::ApiClient;
use larder_api::Record;

/// How often the timer looks whether an ask is due.
const LOOK_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

fn hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// Calls `ask` whenever one is due (none while one is on its way), until the owner goes.
fn every_due(ask: impl Fn(Callback<()>) + 'static) {
    let last = StoredValue::new(js_sys::Date::now());
    let busy = StoredValue::new(false);
    let done = Callback::new(move |_| {
        busy.set_value(false);
        last.set_value(js_sys::Date::now());
    });
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if busy.get_value() || !due(js_sys::Date::now() - last.get_value(), hidden()) {
                return;
            }
            busy.set_value(true);
            ask(done);
        },
        LOOK_EVERY,
    ) {
        on_cleanup(move || handle.clear());
    }
}

/// The ISO time `margin` before now.
fn before_now(margin_ms: f64) -> String {
    js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(
        js_sys::Date::now() - margin_ms,
    ))
    .to_iso_string()
    .into()
}

/// On a list: how many of the records in view (`shown`: identifier and `updated_at`) changed
/// since it was read, with Refresh.
#[component]
pub fn ListChanges(
    schema: &'static Schema,
    shown: Signal<Vec<(String, String)>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let seen = RwSignal::new(Vec::<String>::new());
    // What is in view was read now: the search looks back from a while before.
    let since = RwSignal::new(before_now(CLOCK_MARGIN_MS));
    Effect::new(move || {
        shown.track();
        seen.set(Vec::new());
        since.set(before_now(CLOCK_MARGIN_MS));
    });
    let searchable = schema.collection.routes.search.by_reference()
        && schema.fields().iter().any(|f| f.name == "updated_at");
    if searchable {
        every_due(move |done| {
            let in_view = shown.get_untracked();
            if in_view.is_empty() {
                done.run(());
                return;
            }
            let client = client.clone();
            let asked = query(schema, &since.get_untracked());
            leptos::task::spawn_local(async move {
                if let Ok(found) = client.search_records(schema.collection, &asked).await {
                    let now: Vec<(String, String)> = found
                        .results
                        .iter()
                        .filter_map(|hit| stamp_of(schema, &hit.record))
                        .collect();
                    let ids = changed(&in_view, &now);
                    if !ids.is_empty() {
                        seen.set(ids);
                    }
                }
                done.run(());
            });
        });
    }
    move || {
        let count = seen.with(Vec::len);
        (count > 0).then(|| {
            view! {
                <p class="notice changes" role="status" data-testid="list-changes">
                    {tn("{count} records changed since this list was read.", count as i64, &[])}
                    " "
                    <button type="button" on:click=move |_| { seen.set(Vec::new()); refresh.run(()); }>
                        {move || t("Refresh")}
                    </button>
                </p>
            }
        })
    }
}

/// On an open edit form: a line once the record changed since `opened` was read.
#[component]
pub fn FormChanged(schema: &'static Schema, opened: Record, id: String) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let changed_now = RwSignal::new(false);
    let opened = StoredValue::new(opened);
    every_due(move |done| {
        if changed_now.get_untracked() {
            done.run(());
            return;
        }
        let (client, id) = (client.clone(), id.clone());
        leptos::task::spawn_local(async move {
            if let Ok(now) = client.get_record(schema.collection, &id).await {
                if opened.with_value(|before| changed_since(schema, before, &now)) {
                    changed_now.set(true);
                }
            }
            done.run(());
        });
    });
    move || {
        changed_now.get().then(|| {
            view! {
                <p class="notice changes" role="status" data-testid="form-changed">
                    {move || t("Changed by someone else since you opened it. Saving shows what changed, to choose what to keep.")}
                </p>
            }
        })
    }
}
