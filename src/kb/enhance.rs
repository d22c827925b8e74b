//! Enhancing a record with an AI agent, then showing what changed in it.

use larder_api::{ApiError, Record};
use leptos::prelude::*;
use serde_json::Value;

use larder_contract::collections::ENHANCE_FIELDS;
use larder_contract::text::lowercase;

use crate::components::error_view::ErrorView;
use crate::components::toast::Toasts;
use crate::i18n::{plural_name, t, tf, tn};
use crate::kb::gates::can_enhance;
use crate::kb::schema::form::{problems_of, Errors};
use crate::kb::schema::value::{parse, to_input};
use crate::kb::schema::{label, FieldKind, Schema};
use crate::kb::value_view::ValueView;
use crate::ApiClient;

/// Fields whose change says nothing about the enhancement: the stamp, and the audit trail the
/// service keeps of it (shown in the record's History tab).
const BOOKKEEPING: [&str; 3] = ["updated_at", "enhancements", "ai_generated_fields"];

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

/// The values an enhancement sends: the derived fields whose editor was changed, parsed as the
/// contract types them, or the problems beside the editors.
fn values_of(record: &Record, texts: &[(String, String)]) -> Result<Record, Errors> {
    let mut values = Record::new();
    let mut errors = Errors::new();
    for field in ENHANCE_FIELDS {
        let kind = FieldKind::of(&field.ty);
        let initial = to_input(kind, record.get(field.name));
        let Some((_, text)) = texts.iter().find(|(name, _)| name == field.name) else {
            continue;
        };
        if *text == initial {
            continue;
        }
        match parse(kind, text) {
            Ok(Value::Null) => {}
            Ok(value) => {
                values.insert(field.name.into(), value);
            }
            Err(problem) => {
                errors.insert(field.name.into(), problem);
            }
        }
    }
    if errors.is_empty() {
        errors = problems_of(ENHANCE_FIELDS, &values);
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        Err(errors)
    }
}

/// An agent's name and the values it derived for AI tags, category and key takeaways: sent as
/// production's `{agent, fields: {...}}`; the record is then read again and the changes listed.
#[component]
pub fn EnhancePanel(
    schema: &'static Schema,
    record: Record,
    version: RwSignal<u32>,
) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let session = expect_context::<crate::session::Session>();
    let toasts = expect_context::<Toasts>();
    let agent = RwSignal::new("larder-console".to_string());
    let before = StoredValue::new(record.clone());
    let texts: Vec<(String, RwSignal<String>)> = ENHANCE_FIELDS
        .iter()
        .map(|f| {
            let text = to_input(FieldKind::of(&f.ty), record.get(f.name));
            (f.name.to_string(), RwSignal::new(text))
        })
        .collect();
    let texts = StoredValue::new(texts);
    let errors = RwSignal::new(Errors::new());
    let problem = RwSignal::new(None::<String>);
    let run = Action::new_local(move |(agent, values): &(String, Record)| {
        let (client, agent, values) = (client.clone(), agent.clone(), values.clone());
        let before = before.get_value();
        let urn = before
            .get("urn")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        async move {
            let result = client
                .enhance(schema.collection, &urn, &agent, values)
                .await?;
            // Production answers a summary, not the record: read it again to see the change.
            let after = client.get_record(schema.collection, &urn).await?;
            session.remember_record(schema.collection.path, &urn, &after);
            Ok::<_, ApiError>((result.run_id, differences(&before, &after)))
        }
    });
    Effect::new(move || {
        if let Some(Ok(_)) = run.value().get() {
            toasts.success(t("Enhancement saved"));
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        let current: Vec<(String, String)> = texts.with_value(|t| {
            t.iter()
                .map(|(n, s)| (n.clone(), s.get_untracked()))
                .collect()
        });
        let name = agent.get_untracked().trim().to_string();
        if !larder_contract::slug::is_valid_slug(&name) {
            problem.set(Some(t(
                "Name the agent in lower-case letters and digits, e.g. larder-console.",
            )));
            return;
        }
        match values_of(&before.get_value(), &current) {
            Err(found) => errors.set(found),
            Ok(values) if values.is_empty() => problem.set(Some(t(
                "Change at least one of the fields: the service stores the values given.",
            ))),
            Ok(values) => {
                errors.set(Errors::new());
                run.dispatch((name, values));
            }
        }
    };
    let writable = can_enhance(schema);
    view! {
        <Show when=move || writable.get()>
            <section class="card section" aria-labelledby="enhance-heading">
                <h2 id="enhance-heading">{move || t("Enhance")}</h2>
                <p class="hint">{move || t("Record what an AI agent derived for this record. The fields you change are sent; the others stay.")}</p>
                <form class="enhance" on:submit=submit novalidate>
                    <label for="enhance-agent">{move || t("Agent")}</label>
                    <input id="enhance-agent" type="text" prop:value=move || agent.get()
                        on:input=move |ev| agent.set(event_target_value(&ev))/>
                    {texts.get_value().into_iter().map(|(name, text)| {
                        let id = format!("enhance-{name}");
                        let multi = ENHANCE_FIELDS.iter().any(|f| f.name == name && matches!(f.ty, larder_contract::Type::List { .. }));
                        let field = name.clone();
                        let error = move || errors.with(|e| e.get(&field).cloned());
                        let error_id = format!("{id}-error");
                        view! {
                            <label for=id.clone()>{label(&name)}{multi.then(|| format!(" {}", t("(one per line)")))}</label>
                            {if multi {
                                view! { <textarea id=id.clone() rows="3" prop:value=move || text.get()
                                    aria-describedby=error_id.clone()
                                    on:input=move |ev| text.set(event_target_value(&ev))></textarea> }.into_any()
                            } else {
                                view! { <input id=id.clone() type="text" prop:value=move || text.get()
                                    aria-describedby=error_id.clone()
                                    on:input=move |ev| text.set(event_target_value(&ev))/> }.into_any()
                            }}
                            {move || error().map(|e| view! { <p class="field-error" id=error_id.clone()>{e}</p> })}
                        }
                    }).collect_view()}
                    {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
                    <button type="submit" class="primary" disabled=move || run.pending().get()>
                        {move || if run.pending().get() { t("Saving…") } else { t("Save enhancement") }}
                    </button>
                </form>
                {move || run.value().get().map(|result| match result {
                    Err(error) if error.is_not_offered() => view! {
                        <p class="hint" role="status">{move || tf("This service does not offer enhancement for {what}.", &[("what", &lowercase(&plural_name(schema.collection)))])}</p>
                    }.into_any(),
                    Err(error) => view! { <ErrorView error/> }.into_any(),
                    Ok((_, changes)) if changes.is_empty() => view! { <p role="status">{move || t("Nothing changed.")}</p> }.into_any(),
                    Ok((run_id, changes)) => view! {
                        <div role="status" class="enhanced">
                            <p>{match run_id { Some(run) => tn("Changed {count} fields in run {run}:", changes.len() as i64, &[("run", &run.to_string())]), None => tn("Changed {count} fields:", changes.len() as i64, &[]) }}</p>
                            <table class="records changes">
                                <thead><tr><th scope="col">{move || t("Field")}</th><th scope="col">{move || t("Before")}</th><th scope="col">{move || t("After")}</th></tr></thead>
                                <tbody>
                                    {changes.into_iter().map(|(name, b, a)| view! {
                                        <tr><td>{label(&name)}</td><td><ValueView value=b/></td><td><ValueView value=a/></td></tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                            <button type="button" on:click=move |_| version.update(|v| *v += 1)>{move || t("Show the updated record")}</button>
                        </div>
                    }.into_any(),
                })}
            </section>
        </Show>
    }
}
