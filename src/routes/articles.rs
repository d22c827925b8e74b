//! The start page: the newest articles.

use futures::future::join_all;
use larder_api::collections::ARTICLES;
use larder_api::{ApiError, Record};
use leptos::prelude::*;
use serde_json::Value;

use crate::components::error_view::ErrorView;
use crate::ApiClient;

const PAGE_SIZE: u32 = 20;

async fn first_page(client: ApiClient) -> Result<Vec<(String, Option<Record>)>, ApiError> {
    let listed = client.list(&ARTICLES, PAGE_SIZE, 0).await?;
    let identifiers: Vec<String> = listed
        .iter()
        .filter_map(|l| l.identifier().map(str::to_string))
        .collect();
    // A listing carries identifiers only: the titles come from the records, fetched side by side.
    let records = join_all(
        identifiers
            .iter()
            .map(|id| client.get_record(&ARTICLES, id)),
    )
    .await;
    Ok(identifiers
        .into_iter()
        .zip(records.into_iter().map(Result::ok))
        .collect())
}

fn text(record: &Option<Record>, field: &str) -> String {
    match record.as_ref().and_then(|r| r.get(field)) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// The articles page.
#[component]
pub fn Articles() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let articles = LocalResource::new(move || first_page(client.clone()));
    view! {
        <h1>"Articles"</h1>
        <Transition fallback=|| view! { <p class="loading" aria-busy="true">"Loading articles…"</p> }>
            {move || articles.get().map(|result| match result {
                Err(error) => view! { <ErrorView error/> }.into_any(),
                Ok(rows) if rows.is_empty() => view! { <p class="empty">"There are no articles yet."</p> }.into_any(),
                Ok(rows) => view! {
                    <table class="records">
                        <thead><tr><th scope="col">"Title"</th><th scope="col">"Year"</th><th scope="col">"Status"</th><th scope="col">"URN"</th></tr></thead>
                        <tbody>
                            {rows.into_iter().map(|(urn, record)| view! {
                                <tr>
                                    <td>{text(&record, "title")}</td>
                                    <td>{text(&record, "publication_year")}</td>
                                    <td>{text(&record, "status")}</td>
                                    <td><code>{urn}</code></td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            })}
        </Transition>
    }
}
