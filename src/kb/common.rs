//! Pieces the knowledge-base pages share: the collection and record from the URL, links and the
//! collection menu.

use larder_api::Record;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::i18n::{plural_name, t};
use crate::kb::schema::{schema, Schema, SCHEMAS};
use crate::paths::record_href;

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

/// The page of the record a child belongs to (a guideline's guide, an artifact's parent, a
/// passage's textbook), with the parent's collection name; `None` for top-level records.
pub fn parent_of(record: &Record) -> Option<(String, &'static larder_contract::Collection)> {
    let urn = larder_contract::COLLECTIONS
        .iter()
        .filter_map(|c| c.parent.map(|p| p.field))
        .find_map(|f| record.get(f).and_then(|v| v.as_str()))?;
    let collection = larder_contract::Collection::of_urn(urn)?;
    Some((record_href(collection.path, urn), collection))
}

/// The menu of collections, the current one marked.
#[component]
pub fn CollectionNav(current: &'static str) -> impl IntoView {
    view! {
        <nav class="collection-nav" aria-label=move || t("Collections")>
            {SCHEMAS.iter().map(|s| {
                let path = s.collection.path;
                view! {
                    <A href=crate::hosting::link(format!("/records/{path}")) attr:aria-current=(path == current).then_some("page")>{move || plural_name(s.collection)}</A>
                }
            }).collect_view()}
        </nav>
    }
}
