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

/// The page of the record a child belongs to (a guideline's guide, an artifact's parent, a
/// passage's textbook), with the parent's collection name; `None` for top-level records.
pub fn parent_of(record: &Record) -> Option<(String, &'static str)> {
    let urn = larder_contract::COLLECTIONS
        .iter()
        .filter_map(|c| c.parent.map(|p| p.field))
        .find_map(|f| record.get(f).and_then(|v| v.as_str()))?;
    let collection = larder_contract::Collection::of_urn(urn)?;
    Some((record_href(collection.path, urn), collection.singular))
}

/// Role gates per collection, created once in the console's root scope: pages come and go (and
/// are disposed while a sign-out re-renders them), the gates stay readable.
#[derive(Clone, Copy)]
pub struct RoleGates {
    write: [Memo<bool>; 7],
    create: [Memo<bool>; 7],
    delete: [Memo<bool>; 7],
    enhance: [Memo<bool>; 7],
}

impl RoleGates {
    /// Creates the gates for the session's identity and provides them in context.
    pub fn provide(session: Session) {
        let gate = |allows: fn(&larder_contract::Collection, &larder_api::Identity) -> bool| {
            std::array::from_fn(|index| {
                let collection = &larder_api::collections::COLLECTIONS[index];
                Memo::new(move |_| {
                    session
                        .identity
                        .with(|i| i.as_ref().is_some_and(|i| allows(collection, i)))
                })
            })
        };
        provide_context(RoleGates {
            write: gate(|c, i| c.roles.update.allows(&i.roles)),
            create: gate(|c, i| c.roles.create.allows(&i.roles)),
            delete: gate(|c, i| c.roles.delete.allows(&i.roles)),
            enhance: gate(|c, i| c.roles.enhance.allows(&i.roles)),
        });
    }
}

fn gate_index(schema: &'static Schema) -> usize {
    larder_api::collections::COLLECTIONS
        .iter()
        .position(|c| c.path == schema.collection.path)
        .unwrap_or_default()
}

/// Whether the signed-in identity holds a role that may edit records of the collection (roles
/// as production's gates read them: realm and client roles, lower-cased). Only for hiding
/// buttons: the service decides, and its 403 is still shown.
pub fn can_write(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().write[gate_index(schema)]
}

/// Whether the signed-in identity may create records of the collection.
pub fn can_create(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().create[gate_index(schema)]
}

/// Whether the signed-in identity may run an enhancement: writers of the collection, and agents.
pub fn can_enhance(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().enhance[gate_index(schema)]
}

/// Whether the signed-in identity may delete in the collection.
pub fn can_delete(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().delete[gate_index(schema)]
}

/// The menu of collections, the current one marked.
#[component]
pub fn CollectionNav(current: &'static str) -> impl IntoView {
    view! {
        <nav class="collection-nav" aria-label="Collections">
            {SCHEMAS.iter().map(|s| {
                let path = s.collection.path;
                view! {
                    <A href=crate::app::link(format!("/records/{path}")) attr:aria-current=(path == current).then_some("page")>{s.collection.plural}</A>
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

/// The identifiers with whatever the cache already holds for them; nothing is fetched.
pub fn cached_records(
    schema: &'static Schema,
    identifiers: Vec<String>,
) -> Vec<(String, Option<Record>)> {
    CACHE.with(|c| {
        let cache = c.borrow();
        identifiers
            .into_iter()
            .map(|id| {
                let record = cache.get(&cache_key(schema.collection.path, &id)).cloned();
                (id, record)
            })
            .collect()
    })
}

/// The records behind listed identifiers: cached ones at once, the others fetched together in
/// batches of ten. A record that fails to load stays `None` (the row shows its identifier).
pub async fn resolve(
    client: &ApiClient,
    schema: &'static Schema,
    identifiers: Vec<String>,
) -> Vec<(String, Option<Record>)> {
    let path = schema.collection.path;
    let missing: Vec<String> = CACHE.with(|c| {
        let cache = c.borrow();
        identifiers
            .iter()
            .filter(|id| !cache.contains_key(&cache_key(path, id)))
            .cloned()
            .collect()
    });
    for batch in missing.chunks(10) {
        let fetched = join_all(
            batch
                .iter()
                .map(|id| client.get_record(schema.collection, id)),
        )
        .await;
        for (id, record) in batch.iter().zip(fetched) {
            if let Ok(record) = record {
                remember(path, id, &record);
            }
        }
    }
    cached_records(schema, identifiers)
}

/// A record read through the cache's bookkeeping.
pub async fn load(
    client: &ApiClient,
    schema: &'static Schema,
    identifier: &str,
) -> Result<Record, ApiError> {
    let record = client.get_record(schema.collection, identifier).await?;
    remember(schema.collection.path, identifier, &record);
    Ok(record)
}
