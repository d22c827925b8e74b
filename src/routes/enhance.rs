//! Enhancing a record with an AI agent, then showing what changed in it.

use larder_api::{ApiError, Record};
use leptos::prelude::*;
use serde_json::Value;

use crate::components::error_view::ErrorView;
use crate::components::toast::Toasts;
use crate::components::value_view::ValueView;
use crate::routes::kb::{can_enhance, remember};
use crate::schema::{label, Schema};
use crate::ApiClient;

/// Fields whose change says nothing about the enhancement.
const BOOKKEEPING: [&str; 1] = ["updated_at"];

/// The fields agents derive (wire-notes: production's agent fills these three).
const DERIVABLE: [&str; 3] = ["ai_tags", "ai_category", "ai_key_takeaways"];

/// What a run asks of the agent.
#[derive(Clone)]
enum Ask {
    /// Every field it derives, with optional values to work from (the documented object form).
    Everything(Record),
    /// Only these fields (the list form, which the reference server accepts).
    Only(Vec<String>),
}

/// `(field, before, after)` for every field that differs.
fn differences(before: &Record, after: &Record) -> Vec<(String, Value, Value)> {
    let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| !BOOKKEEPING.contains(&n.as_str()))
        .filter_map(|n| {
            let (b, a) = (
                before.get(n).cloned().unwrap_or(Value::Null),
                after.get(n).cloned().unwrap_or(Value::Null),
            );
            (b != a).then(|| (n.clone(), b, a))
        })
        .collect()
}

/// Agent, optional field values, run; then the record is read again and the changes listed.
#[component]
pub fn EnhancePanel(
    schema: &'static Schema,
    record: Record,
    version: RwSignal<u32>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let agent = RwSignal::new("extractive".to_string());
    let fields = RwSignal::new(String::new());
    let chosen = RwSignal::new(DERIVABLE.map(str::to_string).to_vec());
    let problem = RwSignal::new(None::<String>);
    let before = StoredValue::new(record);
    let run = Action::new_local(move |(agent, ask): &(String, Ask)| {
        let (client, agent, ask) = (client.clone(), agent.clone(), ask.clone());
        let before = before.get_value();
        let urn = before
            .get("urn")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        async move {
            let result = match ask {
                Ask::Everything(values) => {
                    client
                        .enhance(&schema.collection, &urn, &agent, values)
                        .await?
                }
                Ask::Only(names) => {
                    client
                        .enhance_only(&schema.collection, &urn, &agent, &names)
                        .await?
                }
            };
            // Production answers a summary, not the record: read it again to see the change.
            let after = client.get_record(&schema.collection, &urn).await?;
            remember(schema.collection.path, &urn, &after);
            Ok::<_, ApiError>((result.run_id, differences(&before, &after)))
        }
    });
    Effect::new(move || {
        if let Some(Ok(_)) = run.value().get() {
            toasts.success("Enhancement finished");
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        let text = fields.get_untracked();
        let values = if text.trim().is_empty() {
            Ok(Record::new())
        } else {
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(map)) => Ok(map),
                _ => Err(
                    "Field values must be a JSON object, e.g. {\"ai_category\": \"vitamins\"}."
                        .to_string(),
                ),
            }
        };
        let names = chosen.get_untracked();
        match (values, agent.get_untracked().trim().to_string()) {
            (_, a) if a.is_empty() => problem.set(Some("Name the agent.".into())),
            (Err(e), _) => problem.set(Some(e)),
            _ if names.is_empty() => {
                problem.set(Some("Choose at least one field to derive.".into()))
            }
            (Ok(values), a) if names.len() == DERIVABLE.len() => {
                run.dispatch((a, Ask::Everything(values)));
            }
            (Ok(values), _) if !values.is_empty() => problem.set(Some(
                "Field values go with deriving every field; clear them to derive only some.".into(),
            )),
            (Ok(_), a) => {
                run.dispatch((a, Ask::Only(names)));
            }
        }
    };
    let writable = can_enhance(schema);
    view! {
        <Show when=move || writable.get()>
            <section class="card section" aria-labelledby="enhance-heading">
                <h2 id="enhance-heading">"Enhance"</h2>
                <form class="enhance" on:submit=submit novalidate>
                    <label for="enhance-agent">"Agent"</label>
                    <input id="enhance-agent" type="text" list="enhance-agents" prop:value=move || agent.get()
                        on:input=move |ev| agent.set(event_target_value(&ev))/>
                    <datalist id="enhance-agents"><option value="extractive"></option></datalist>
                    <fieldset class="segmented">
                        <legend>"Fields to derive"</legend>
                        {DERIVABLE.map(|name| view! {
                            <label>
                                <input type="checkbox" prop:checked=move || chosen.with(|c| c.iter().any(|n| n == name))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        chosen.update(|c| {
                                            c.retain(|n| n != name);
                                            if on {
                                                c.push(name.to_string());
                                            }
                                        });
                                    }/>
                                {label(name)}
                            </label>
                        }).collect_view()}
                    </fieldset>
                    <label for="enhance-fields">"Field values for the agent (optional JSON object)"</label>
                    <textarea id="enhance-fields" class="code" rows="2" spellcheck="false" prop:value=move || fields.get()
                        on:input=move |ev| fields.set(event_target_value(&ev))></textarea>
                    {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                    <button type="submit" class="primary" disabled=move || run.pending().get()>
                        {move || if run.pending().get() { "Enhancing…" } else { "Run enhancement" }}
                    </button>
                </form>
                {move || run.value().get().map(|result| match result {
                    Err(error) if error.status() == Some(405) => view! {
                        <p class="hint" role="status">"The service does not offer enhancement for this collection."</p>
                    }.into_any(),
                    Err(error) => view! { <ErrorView error/> }.into_any(),
                    Ok((_, changes)) if changes.is_empty() => view! { <p role="status">"The agent changed nothing."</p> }.into_any(),
                    Ok((run_id, changes)) => view! {
                        <div role="status" class="enhanced">
                            <p>{format!("Changed {} field(s){}:", changes.len(), run_id.map(|r| format!(" in run {r}")).unwrap_or_default())}</p>
                            <table class="records changes">
                                <thead><tr><th scope="col">"Field"</th><th scope="col">"Before"</th><th scope="col">"After"</th></tr></thead>
                                <tbody>
                                    {changes.into_iter().map(|(name, b, a)| view! {
                                        <tr><td>{label(&name)}</td><td><ValueView value=b/></td><td><ValueView value=a/></td></tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                            <button type="button" on:click=move |_| version.update(|v| *v += 1)>"Show the updated record"</button>
                        </div>
                    }.into_any(),
                })}
            </section>
        </Show>
    }
}
