//! A textbook's structure tree (collapsible, page ranges shown) and its page view: the passages
//! of one page, with a node's pages one click away.

use larder_api::types::{Node, StructureTree};
use larder_api::{Passage, Record};
use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::i18n::format::number;
use crate::i18n::{k, t, tf};
use crate::kb::gates::can_create;
use crate::kb::list::bulk_replace::BulkReplace;
use crate::kb::schema::schema_of;
use crate::paths::record_href;
use crate::ApiClient;
use larder_contract::collections::TEXTBOOK_PASSAGES;

/// The most page buttons a node offers at once (a long part gets the first ones).
const MAX_PAGE_BUTTONS: i64 = 60;

fn pages(node: &Node) -> String {
    match (node.page_start, node.last_page()) {
        (Some(a), Some(b)) if a != b => tf(
            "pp. {first}–{last}",
            &[("first", &a.to_string()), ("last", &b.to_string())],
        ),
        (Some(a), _) => tf("p. {page}", &[("page", &a.to_string())]),
        _ => String::new(),
    }
}

/// The tree, the page view and (for curators) the bulk replace.
#[component]
pub fn TextbookStructure(
    textbook: Record,
    textbook_urn: String,
    version: RwSignal<u32>,
) -> impl IntoView {
    let tree: Option<StructureTree> = textbook
        .get("structure_tree")
        .or_else(|| textbook.get("structure_tree_payload"))
        .filter(|v| !v.is_null())
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    let page_count = textbook.get("page_count").and_then(Value::as_i64);
    let selected = RwSignal::new(None::<(i64, i64)>);
    let page = RwSignal::new(None::<i64>);
    let urn = StoredValue::new(textbook_urn);
    let artifacts = textbook.get("artifacts").cloned();
    let writable = can_create(schema_of(&TEXTBOOK_PASSAGES));
    view! {
        <section class="card section" aria-labelledby="structure-heading">
            <h2 id="structure-heading">{move || t("Structure")}</h2>
            {match tree.filter(|t| !t.roots.is_empty()) {
                None => view! { <p class="empty">{move || t("This textbook has no structure tree yet. A bulk replace can add one.")}</p> }.into_any(),
                Some(tree) => view! {
                    <nav aria-label=move || t("Table of contents")>
                        <ul class="tree">
                            {tree.roots.into_iter().map(|node| view! { <TreeNode node selected page/> }).collect_view()}
                        </ul>
                    </nav>
                }.into_any(),
            }}
        </section>
        <section class="card section" aria-labelledby="pages-heading">
            <h2 id="pages-heading">{move || t("Pages")}</h2>
            <PageChooser page page_count selected/>
            {move || page.get().map(|n| view! { <PagePassages textbook_urn=urn.get_value() page=n/> })}
        </section>
        <Show when=move || writable.get()>
            <BulkReplace textbook_urn=urn.get_value() artifacts=artifacts.clone() version page_count/>
        </Show>
    }
}

/// A node: with children, its title is a disclosure button (`aria-expanded`) that folds them;
/// its page range opens its pages. Not details/summary: the pages button would then sit inside
/// the summary, an interactive element within another (axe-core's `nested-interactive`).
#[component]
fn TreeNode(
    node: Node,
    selected: RwSignal<Option<(i64, i64)>>,
    page: RwSignal<Option<i64>>,
) -> impl IntoView {
    let range = node
        .page_start
        .map(|a| (a, node.last_page().unwrap_or(a).max(a)));
    let details = view! {
        " " <span class="chip">{node.kind.clone()}</span>
        " " <span class="muted">{pages(&node)}</span>
        {range.map(|(a, b)| view! {
            " " <button type="button" class="link-button" aria-label=tf("Show pages of {title}", &[("title", &node.title)])
                on:click=move |_| {
                    selected.set(Some((a, b)));
                    page.set(Some(a));
                }>{move || t("Pages")}</button>
        })}
    };
    if node.children.is_empty() {
        view! { <li><span class="node-title">{node.title.clone()}</span>{details}</li> }.into_any()
    } else {
        let open = RwSignal::new(true);
        let children = node.children.clone();
        view! {
            <li>
                <button type="button" class="fold" aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|open| *open = !*open)>
                    <span class="fold-mark" aria-hidden="true">{move || if open.get() { "▾" } else { "▸" }}</span>
                    " " <span class="node-title">{node.title.clone()}</span>
                </button>
                {details}
                <ul hidden=move || !open.get()>
                    {children.into_iter().map(|child| view! { <TreeNode node=child selected page/> }).collect_view()}
                </ul>
            </li>
        }
        .into_any()
    }
}

/// A page number box with previous and next, and the selected node's pages as buttons.
#[component]
fn PageChooser(
    page: RwSignal<Option<i64>>,
    page_count: Option<i64>,
    selected: RwSignal<Option<(i64, i64)>>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    Effect::new(move || typed.set(page.get().map(|p| p.to_string()).unwrap_or_default()));
    let in_range = move |n: i64| n >= 1 && page_count.is_none_or(|c| n <= c);
    let go = move |n: i64| {
        if in_range(n) {
            page.set(Some(n))
        }
    };
    view! {
        <form class="page-chooser" on:submit=move |ev| {
            ev.prevent_default();
            if let Ok(n) = typed.get_untracked().trim().parse::<i64>() { go(n) }
        }>
            <button type="button" disabled=move || page.get().is_none_or(|p| p <= 1)
                on:click=move |_| if let Some(p) = page.get_untracked() { go(p - 1) }>{move || t("Previous page")}</button>
            <label for="page-no" class="inline-label">{move || t("Page")}</label>
            <input id="page-no" type="text" inputmode="numeric" size="4" prop:value=move || typed.get()
                on:input=move |ev| typed.set(event_target_value(&ev))/>
            {page_count.map(|c| view! { <span class="muted">{move || tf("of {count}", &[("count", &number(c as f64))])}</span> })}
            <button type="submit">{move || t("Show page")}</button>
            <button type="button" disabled=move || page.get().is_some_and(|p| !in_range(p + 1))
                on:click=move |_| go(page.get_untracked().unwrap_or(0) + 1)>{move || t("Next page")}</button>
        </form>
        {move || selected.get().map(|(a, b)| view! {
            <nav class="node-pages" aria-label=move || t("Pages of the chosen section")>
                {(a..=b.min(a + MAX_PAGE_BUTTONS - 1)).map(|n| view! {
                    <button type="button" aria-pressed=move || (page.get() == Some(n)).to_string() on:click=move |_| page.set(Some(n))>{n.to_string()}</button>
                }).collect_view()}
            </nav>
        })}
    }
}

/// The passages of one page, in sequence.
#[component]
fn PagePassages(textbook_urn: String, page: i64) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let urn = StoredValue::new(textbook_urn);
    let passages = LocalResource::new(move || {
        let client = client.clone();
        async move {
            client
                .passages_on_page(&urn.get_value(), page.max(1) as u32, 200)
                .await
        }
    });
    view! {
        <h3>{move || tf("Page {page}", &[("page", &page.to_string())])}</h3>
        <Transition fallback=|| view! { <Loading what=k("Loading the page…")/> }>
            {move || passages.get().map(|result| match result {
                Err(error) => view! { <ErrorView error/> }.into_any(),
                Ok(list) if list.is_empty() => view! { <p class="empty">{move || t("No passages on this page.")}</p> }.into_any(),
                Ok(list) => view! { <ol class="passages">{list.into_iter().map(passage_view).collect_view()}</ol> }.into_any(),
            })}
        </Transition>
    }
}

fn passage_view(passage: Passage) -> impl IntoView {
    let id = passage.id.clone().unwrap_or_default();
    view! {
        <li class="passage">
            <p class="muted">{passage.structure_path.join(" › ")}</p>
            <p>{passage.text.clone()}</p>
            <A href=crate::hosting::link(record_href(TEXTBOOK_PASSAGES.path, &id)) attr:class="muted">{tf("Passage {number}", &[("number", &passage.sequence_no.unwrap_or_default().to_string())])}</A>
        </li>
    }
}
