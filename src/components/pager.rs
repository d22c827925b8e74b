//! Paging whose state is the URL's `limit` and `offset`, so a page can be linked and reloaded.

use crate::i18n::format::number;
use crate::i18n::{t, tf};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

/// Page sizes offered (up to the page's longest).
pub const PAGE_SIZES: [u32; 6] = [10, 25, 50, 100, 1000, 10_000];
/// The longest page of record lists: longer than the service's largest answer, so it arrives
/// in several (see `schema::window::chunks`).
pub const LONGEST_PAGE: u32 = 10_000;
/// The longest page of lists fetched in one request.
pub const ONE_REQUEST: u32 = larder_contract::limits::MAX_PAGE_SIZE;

/// `limit` (at most `longest`) and `offset` from the URL, with defaults and bounds.
pub fn use_page(default_limit: u32, longest: u32) -> Memo<(u32, u32)> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            let limit = q
                .get("limit")
                .and_then(|l| l.parse().ok())
                .filter(|l| (1..=longest).contains(l))
                .unwrap_or(default_limit);
            let offset = q.get("offset").and_then(|o| o.parse().ok()).unwrap_or(0);
            (limit, offset)
        })
    })
}

/// The current URL's query with `limit` and `offset` replaced.
fn href(limit: u32, offset: u32) -> String {
    let query = use_query_map().get_untracked();
    let mut parts: Vec<String> = query
        .into_iter()
        .filter(|(k, _)| k != "limit" && k != "offset")
        .map(|(k, v)| {
            format!(
                "{}={}",
                larder_api::config::encode_component(&k),
                larder_api::config::encode_component(&v)
            )
        })
        .collect();
    parts.push(format!("limit={limit}"));
    parts.push(format!("offset={offset}"));
    format!("?{}", parts.join("&"))
}

/// Previous and next page, the range shown, and the page size.
#[component]
pub fn Pager(
    /// `(limit, offset)` from [`use_page`].
    page: Memo<(u32, u32)>,
    /// How many items the current page holds.
    #[prop(into)]
    shown: Signal<usize>,
    /// The total when the service says it.
    #[prop(into, optional)]
    total: Signal<Option<u64>>,
    /// The longest page offered, as given to [`use_page`].
    longest: u32,
) -> impl IntoView {
    let navigate = use_navigate();
    let go = move |limit: u32, offset: u32| navigate(&href(limit, offset), Default::default());
    let go_prev = go.clone();
    let go_next = go.clone();
    let has_next = move || {
        let (limit, offset) = page.get();
        match total.get() {
            Some(total) => u64::from(offset) + u64::from(limit) < total,
            None => shown.get() as u32 >= limit,
        }
    };
    view! {
        <nav class="pager" aria-label=move || t("Pages")>
            <button type="button" disabled=move || page.get().1 == 0
                on:click=move |_| { let (l, o) = page.get_untracked(); go_prev(l, o.saturating_sub(l)); }>{move || t("Previous")}</button>
            <span class="range">{move || {
                let (_, offset) = page.get();
                let shown = shown.get() as u32;
                let range = if shown == 0 { t("none") } else { format!("{}–{}", number(f64::from(offset + 1)), number(f64::from(offset + shown))) };
                match total.get() { Some(all) => tf("{range} of {total}", &[("range", &range), ("total", &number(all as f64))]), None => range }
            }}</span>
            <button type="button" disabled=move || !has_next()
                on:click=move |_| { let (l, o) = page.get_untracked(); go_next(l, o + l); }>{move || t("Next")}</button>
            <label class="page-size">{move || t("Per page")} " "
                <select on:change=move |ev| { let l = event_target_value(&ev).parse().unwrap_or(25); go(l, 0); }>
                    {PAGE_SIZES.iter().filter(|size| **size <= longest).map(|size| view! {
                        <option value=size.to_string() selected=move || page.get().0 == *size>{size.to_string()}</option>
                    }).collect_view()}
                </select>
            </label>
        </nav>
    }
}
