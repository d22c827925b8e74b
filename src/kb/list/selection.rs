//! The selection of a list page: the rows chosen with their checkboxes (or `x`), or a whole
//! search ("Select all N matches"). One [`Selection`] is provided per list page; the table's
//! checkboxes, the bulk actions and the keyboard all read and change it, and so can any other
//! toolbar action (an export of only the chosen rows reads [`Selection::ids`], or
//! [`Selection::search`] when the whole search is chosen).

use leptos::prelude::*;

use crate::i18n::{t, tf};
use crate::kb::schema::bulk::{is_chosen, page_state, set_page, toggle, Chosen, PageState};

/// A whole search chosen: the selection is these matches, read by id when acted on.
#[derive(Clone, Debug, PartialEq)]
pub struct WholeSearch {
    /// Its text.
    pub q: Option<String>,
    /// Its filters.
    pub fq: Vec<String>,
    /// How many matched when it was chosen.
    pub total: u64,
}

/// The chosen rows of one list page.
#[derive(Clone, Copy)]
pub struct Selection {
    /// Chosen rows, in the order chosen (across pages).
    pub chosen: RwSignal<Vec<Chosen>>,
    /// Set by "Select all N matches": then the selection is this search, not `chosen`.
    pub search: RwSignal<Option<WholeSearch>>,
    /// The row the keyboard is on, by its place among the rows shown.
    pub cursor: RwSignal<Option<usize>>,
}

impl Selection {
    /// A new, empty selection, provided to the page's components.
    pub fn provide() -> Selection {
        let selection = Selection {
            chosen: RwSignal::new(Vec::new()),
            search: RwSignal::new(None),
            cursor: RwSignal::new(None),
        };
        provide_context(selection);
        selection
    }

    /// How many records are chosen: the whole search's matches, else the rows.
    pub fn count(self) -> u64 {
        match self.search.get() {
            Some(search) => search.total,
            None => self.chosen.with(Vec::len) as u64,
        }
    }

    /// The identifiers of the chosen rows (empty while a whole search is chosen).
    pub fn ids(self) -> Vec<String> {
        self.chosen
            .with(|chosen| chosen.iter().map(|c| c.id.clone()).collect())
    }

    /// Lets everything go.
    pub fn clear(self) {
        self.chosen.set(Vec::new());
        self.search.set(None);
    }

    /// Chooses or lets go one row.
    pub fn toggle(self, row: Chosen) {
        self.search.set(None);
        self.chosen.update(|chosen| toggle(chosen, row));
    }
}

/// The checkbox of one row ("Select <title>").
#[component]
pub fn RowCheckbox(row: Chosen) -> impl IntoView {
    let Some(selection) = use_context::<Selection>() else {
        return ().into_any();
    };
    let id = row.id.clone();
    let name = tf("Select {title}", &[("title", &row.title)]);
    let row = StoredValue::new(row);
    view! {
        <input type="checkbox" class="row-select" aria-label=name
            prop:checked=move || selection.search.with(Option::is_some) || selection.chosen.with(|c| is_chosen(c, &id))
            on:change=move |_| selection.toggle(row.get_value())/>
    }
    .into_any()
}

/// The header's checkbox: the page's rows all, some (mixed) or none chosen.
#[component]
pub fn PageCheckbox(
    /// The identifiers of the page's rows.
    ids: Vec<String>,
    /// The page's rows as they are shown now.
    rows: Callback<(), Vec<Chosen>>,
) -> impl IntoView {
    let Some(selection) = use_context::<Selection>() else {
        return ().into_any();
    };
    let ids = StoredValue::new(ids);
    let state = Memo::new(move |_| {
        if selection.search.with(Option::is_some) {
            return PageState::All;
        }
        selection
            .chosen
            .with(|chosen| ids.with_value(|ids| page_state(ids, chosen)))
    });
    let change = move |_| {
        let on = state.get_untracked() != PageState::All;
        let page = rows.run(());
        selection.search.set(None);
        selection
            .chosen
            .update(|chosen| set_page(chosen, &page, on));
    };
    view! {
        <input type="checkbox" class="page-select" aria-label=move || t("Select all rows on this page")
            prop:checked=move || state.get() == PageState::All
            prop:indeterminate=move || state.get() == PageState::Some
            on:change=change/>
    }
    .into_any()
}
