//! Shared pieces of the knowledge-base pages: the collection from the URL, links, role checks,
//! the collection menu, and the cache that turns listed identifiers into titled records.

use std::cell::RefCell;
use std::collections::HashMap;

use futures::future::join_all;
use larder_api::records::path_segment;
use larder_api::{ApiError, Record};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::schema::{schema, Schema, SCHEMAS};
use crate::session::Session;
use crate::ApiClient;

/// A collection's name in menus and headings.
pub fn plural(path: &str) -> &'static str {
    match path {
        "articles" => "Articles",
        "guides" => "Guides",
        "guidelines" => "Guidelines",
        "textbooks" => "Textbooks",
        "textbook-passages" => "Passages",
        "fctables" => "Food composition tables",
        "artifacts" => "Artifacts",
        _ => "Records",
    }
}

/// The schema of the URL's `:collection`, `None` for an unknown one.
pub fn use_schema() -> Memo<Option<&'static Schema>> {
    let params = use_params_map();
    Memo::new(move |_| {
        params
            .with(|p| p.get("collection"))
            .and_then(|c| schema(&c))
    })
}

/// The URL's `:id`.
pub fn use_record_id() -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id")).unwrap_or_default())
}

/// The detail page of a record.
pub fn record_href(path: &str, identifier: &str) -> String {
    format!("/records/{path}/{}", path_segment(identifier))
}

/// Whether the signed-in identity holds a role that may create and edit in the collection.
/// Only for hiding buttons: the service decides, and its 403 is still shown.
pub fn can_write(schema: &'static Schema) -> Signal<bool> {
    let session = expect_context::<Session>();
    Signal::derive(move || {
        session.identity.with(|i| {
            i.as_ref()
                .is_some_and(|i| schema.collection.write_roles.allows(&i.roles))
        })
    })
}

/// Whether the signed-in identity may delete in the collection.
pub fn can_delete(schema: &'static Schema) -> Signal<bool> {
    let session = expect_context::<Session>();
    Signal::derive(move || {
        session.identity.with(|i| {
            i.as_ref()
                .is_some_and(|i| schema.collection.delete_roles.allows(&i.roles))
        })
    })
}

/// The menu of collections, the current one marked.
#[component]
pub fn CollectionNav(current: &'static str) -> impl IntoView {
    view! {
        <nav class="collection-nav" aria-label="Collections">
            {SCHEMAS.iter().map(|s| {
                let path = s.collection.path;
                view! {
                    <A href=format!("/records/{path}") attr:aria-current=(path == current).then_some("page")>{plural(path)}</A>
                }
            }).collect_view()}
        </nav>
    }
}

thread_local! {
    /// Records read recently, by `path identifier`: a listing of identifiers shows titles
    /// without fetching each record again on every page turn.
    static CACHE: RefCell<HashMap<String, Record>> = RefCell::new(HashMap::new());
}

fn cache_key(path: &str, identifier: &str) -> String {
    format!("{path} {identifier}")
}

/// Remembers a record read or written.
pub fn remember(path: &str, identifier: &str, record: &Record) {
    CACHE.with(|c| {
        c.borrow_mut()
            .insert(cache_key(path, identifier), record.clone())
    });
}

/// Forgets a record (deleted, or changed elsewhere).
pub fn forget(path: &str, identifier: &str) {
    CACHE.with(|c| c.borrow_mut().remove(&cache_key(path, identifier)));
}

/// The records behind listed identifiers: cached ones at once, the others fetched together in
/// batches of ten. A record that fails to load stays `None` (the row shows its identifier).
pub async fn resolve(
    client: &ApiClient,
    schema: &'static Schema,
    identifiers: Vec<String>,
) -> Vec<(String, Option<Record>)> {
    let cached = |id: &str| {
        CACHE.with(|c| {
            c.borrow()
                .get(&cache_key(schema.collection.path, id))
                .cloned()
        })
    };
    let missing: Vec<String> = identifiers
        .iter()
        .filter(|id| cached(id).is_none())
        .cloned()
        .collect();
    for batch in missing.chunks(10) {
        let fetched = join_all(
            batch
                .iter()
                .map(|id| client.get_record(&schema.collection, id)),
        )
        .await;
        for (id, record) in batch.iter().zip(fetched) {
            if let Ok(record) = record {
                remember(schema.collection.path, id, &record);
            }
        }
    }
    identifiers
        .into_iter()
        .map(|id| {
            let record = cached(&id);
            (id, record)
        })
        .collect()
}

/// A record read through the cache's bookkeeping.
pub async fn load(
    client: &ApiClient,
    schema: &'static Schema,
    identifier: &str,
) -> Result<Record, ApiError> {
    let record = client.get_record(&schema.collection, identifier).await?;
    remember(schema.collection.path, identifier, &record);
    Ok(record)
}
