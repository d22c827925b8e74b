//! The selection of a list page and the bookkeeping of a bulk delete: which rows are chosen,
//! what the header checkbox shows for the page, and what each row's delete came to. Pure: the
//! checkboxes, the bulk bar and the export read the same state, tested natively here.

use std::collections::HashSet;

/// One chosen row: its identifier (URN, else UUID) and the title it was shown with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The record's identifier in its collection.
    pub id: String,
    /// The title shown for it (the identifier when the record was not read yet).
    pub title: String,
}

/// What the page's header checkbox shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageState {
    /// No row of the page is chosen.
    None,
    /// Some rows of the page are chosen (the checkbox is "mixed").
    Some,
    /// Every row of the page is chosen.
    All,
}

/// Whether `id` is chosen.
pub fn is_chosen(chosen: &[Chosen], id: &str) -> bool {
    chosen.iter().any(|c| c.id == id)
}

/// Chooses `row`, or lets it go when it was chosen.
pub fn toggle(chosen: &mut Vec<Chosen>, row: Chosen) {
    match chosen.iter().position(|c| c.id == row.id) {
        Some(at) => {
            chosen.remove(at);
        }
        None => chosen.push(row),
    }
}

/// Chooses every row of `page` (`on`), or lets every one of them go; rows of other pages stay.
/// Linear in the rows (a set of identifiers, not a search per row): a page may hold 10,000.
pub fn set_page(chosen: &mut Vec<Chosen>, page: &[Chosen], on: bool) {
    if on {
        let mut seen: HashSet<String> = chosen.iter().map(|c| c.id.clone()).collect();
        for row in page {
            if seen.insert(row.id.clone()) {
                chosen.push(row.clone());
            }
        }
    } else {
        let page: HashSet<&str> = page.iter().map(|row| row.id.as_str()).collect();
        chosen.retain(|c| !page.contains(c.id.as_str()));
    }
}

/// The header checkbox's state for a page of `page_ids`; linear, like [`set_page`].
pub fn page_state(page_ids: &[String], chosen: &[Chosen]) -> PageState {
    if chosen.is_empty() || page_ids.is_empty() {
        return PageState::None;
    }
    let chosen: HashSet<&str> = chosen.iter().map(|c| c.id.as_str()).collect();
    let on = page_ids
        .iter()
        .filter(|id| chosen.contains(id.as_str()))
        .count();
    match on {
        0 => PageState::None,
        n if n == page_ids.len() => PageState::All,
        _ => PageState::Some,
    }
}

/// Why one row was not deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The identifier.
    pub id: String,
    /// The title shown for it.
    pub title: String,
    /// What the service (or the network) said.
    pub reason: String,
}

/// The running tally of a bulk delete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeleteReport {
    /// Rows to delete.
    pub total: usize,
    /// Rows deleted so far.
    pub deleted: usize,
    /// Rows that failed, in the order their answers came.
    pub failed: Vec<Failure>,
}

impl DeleteReport {
    /// A tally of `total` rows, none answered yet.
    pub fn of(total: usize) -> DeleteReport {
        DeleteReport {
            total,
            ..DeleteReport::default()
        }
    }

    /// Rows answered so far, deleted or not.
    pub fn done(&self) -> usize {
        self.deleted + self.failed.len()
    }

    /// Whether every row has its answer.
    pub fn finished(&self) -> bool {
        self.done() >= self.total
    }

    /// Counts one row's answer: `None` deleted, `Some(reason)` failed.
    pub fn record(&mut self, row: &Chosen, failure: Option<String>) {
        match failure {
            None => self.deleted += 1,
            Some(reason) => self.failed.push(Failure {
                id: row.id.clone(),
                title: row.title.clone(),
                reason,
            }),
        }
    }

    /// The chosen rows that remain after the delete: those that failed (so they can be tried
    /// again on purpose, never automatically).
    pub fn left_chosen(&self) -> Vec<Chosen> {
        self.failed
            .iter()
            .map(|f| Chosen {
                id: f.id.clone(),
                title: f.title.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> Chosen {
        Chosen {
            id: id.into(),
            title: format!("Title {id}"),
        }
    }

    fn ids(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn toggling_chooses_and_lets_go() {
        let mut chosen = Vec::new();
        toggle(&mut chosen, row("a"));
        toggle(&mut chosen, row("b"));
        assert_eq!(chosen, [row("a"), row("b")]);
        toggle(&mut chosen, row("a"));
        assert_eq!(chosen, [row("b")]);
    }

    #[test]
    fn the_header_is_none_some_or_all_of_the_page() {
        let page = ids(&["a", "b", "c"]);
        let mut chosen = vec![row("z")];
        assert_eq!(page_state(&page, &chosen), PageState::None);
        toggle(&mut chosen, row("b"));
        assert_eq!(page_state(&page, &chosen), PageState::Some);
        set_page(&mut chosen, &[row("a"), row("b"), row("c")], true);
        assert_eq!(page_state(&page, &chosen), PageState::All);
        assert_eq!(chosen.len(), 4, "no row twice, other pages' rows kept");
        set_page(&mut chosen, &[row("a"), row("b"), row("c")], false);
        assert_eq!(chosen, [row("z")]);
        assert_eq!(page_state(&[], &chosen), PageState::None);
    }

    #[test]
    fn a_page_of_ten_thousand_is_chosen_and_let_go_at_once() {
        let page: Vec<Chosen> = (0..10_000).map(|i| row(&format!("r{i}"))).collect();
        let page_ids: Vec<String> = page.iter().map(|r| r.id.clone()).collect();
        // A row of another page and one of this page chosen before.
        let mut chosen = vec![row("elsewhere"), row("r5")];
        assert_eq!(page_state(&page_ids, &chosen), PageState::Some);
        set_page(&mut chosen, &page, true);
        assert_eq!(chosen.len(), 10_001, "each row once, the earlier ones kept");
        assert_eq!(chosen[1].id, "r5", "the order chosen is kept");
        assert_eq!(page_state(&page_ids, &chosen), PageState::All);
        set_page(&mut chosen, &page, false);
        assert_eq!(chosen, [row("elsewhere")]);
        assert_eq!(page_state(&page_ids, &chosen), PageState::None);
        assert_eq!(page_state(&[], &chosen), PageState::None);
    }

    #[test]
    fn a_report_counts_each_row_once_and_keeps_the_failures_chosen() {
        let mut report = DeleteReport::of(3);
        report.record(&row("a"), None);
        report.record(&row("b"), Some("Internal error".into()));
        assert!(!report.finished());
        report.record(&row("c"), None);
        assert!(report.finished());
        assert_eq!((report.deleted, report.failed.len()), (2, 1));
        assert_eq!(report.failed[0].reason, "Internal error");
        assert_eq!(report.left_chosen(), [row("b")]);
    }
}
