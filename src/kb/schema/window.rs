//! Which rows of a long list are on screen: the list renders only those (plus a margin), so a
//! page of thousands of rows costs what a screenful costs.

/// Rows from `start` (inclusive) to `end` (exclusive) to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First row rendered.
    pub start: usize,
    /// One past the last row rendered.
    pub end: usize,
}

/// The rows visible in a viewport of `height` px scrolled to `scroll_top`, for rows of
/// `row_height` px, with `overscan` extra rows above and below.
pub fn window(
    scroll_top: f64,
    height: f64,
    row_height: f64,
    total: usize,
    overscan: usize,
) -> Window {
    if total == 0 || row_height <= 0.0 || !row_height.is_finite() {
        return Window { start: 0, end: 0 };
    }
    let top = if scroll_top.is_finite() {
        scroll_top.max(0.0)
    } else {
        0.0
    };
    let height = if height.is_finite() {
        height.max(0.0)
    } else {
        0.0
    };
    let first = ((top / row_height).floor() as usize).min(total.saturating_sub(1));
    let visible = (height / row_height).ceil() as usize + 1;
    Window {
        start: first.saturating_sub(overscan),
        end: (first + visible + overscan).min(total),
    }
}

/// The keys of the rows in `w`: each row's place, and whether its record is known yet. A windowed
/// table keys its rows by these, so a row that stays in view keeps its elements while scrolling,
/// and is built again only when its record arrives (a listing's titles are read lazily).
pub fn row_keys(w: Window, known: impl Fn(usize) -> bool) -> Vec<(usize, bool)> {
    (w.start..w.end)
        .map(|index| (index, known(index)))
        .collect()
}

/// The `(limit, offset)` requests that together fetch `limit` rows from `offset` when the service
/// answers at most `largest` rows per request: a page of 10,000 becomes ten consecutive pages.
pub fn chunks(limit: u32, offset: u32, largest: u32) -> Vec<(u32, u32)> {
    let largest = largest.max(1);
    let mut requests = Vec::new();
    let mut done = 0u32;
    while done < limit {
        let size = (limit - done).min(largest);
        requests.push((size, offset.saturating_add(done)));
        done += size;
    }
    requests
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_pages_are_fetched_in_pages_the_service_allows() {
        assert_eq!(chunks(25, 50, 1000), [(25, 50)]);
        assert_eq!(chunks(1000, 0, 1000), [(1000, 0)]);
        assert_eq!(
            chunks(2500, 100, 1000),
            [(1000, 100), (1000, 1100), (500, 2100)]
        );
        assert_eq!(chunks(10_000, 0, 1000).len(), 10);
        assert!(chunks(0, 0, 1000).is_empty());
        assert_eq!(chunks(3, 0, 0), [(1, 0), (1, 1), (1, 2)]);
    }

    #[test]
    fn only_a_screenful_is_rendered() {
        assert_eq!(
            window(0.0, 400.0, 40.0, 10_000, 5),
            Window { start: 0, end: 16 }
        );
        assert_eq!(
            window(40_000.0, 400.0, 40.0, 10_000, 5),
            Window {
                start: 995,
                end: 1016
            }
        );
        let end = window(399_600.0, 400.0, 40.0, 10_000, 5);
        assert_eq!(
            end,
            Window {
                start: 9_985,
                end: 10_000
            }
        );
    }

    #[test]
    fn a_scrolled_frame_builds_only_the_rows_coming_into_view() {
        // The list bench's step: 120 px a frame, rows of 44 px, a 640 px viewport.
        let mut top = 0.0;
        let mut before = row_keys(window(top, 640.0, 44.0, 10_000, 8), |_| true);
        for _ in 0..200 {
            top += 120.0;
            let after = row_keys(window(top, 640.0, 44.0, 10_000, 8), |_| true);
            let new = after.iter().filter(|k| !before.contains(k)).count();
            assert!(new <= 3, "{new} rows built at {top} px");
            assert!(after.len() <= 32, "{} rows in the DOM", after.len());
            before = after;
        }
    }

    #[test]
    fn a_row_whose_record_arrives_gets_a_new_key() {
        let w = Window { start: 5, end: 8 };
        let before = row_keys(w, |_| false);
        let after = row_keys(w, |index| index == 6);
        assert_eq!(before, [(5, false), (6, false), (7, false)]);
        assert_eq!(after, [(5, false), (6, true), (7, false)]);
    }

    #[test]
    fn odd_inputs_are_safe() {
        assert_eq!(window(0.0, 400.0, 40.0, 0, 5), Window { start: 0, end: 0 });
        assert_eq!(
            window(-50.0, 400.0, 40.0, 3, 5),
            Window { start: 0, end: 3 }
        );
        assert_eq!(
            window(f64::NAN, f64::INFINITY, 40.0, 30, 0),
            Window { start: 0, end: 1 }
        );
        assert_eq!(
            window(1e12, 400.0, 40.0, 30, 2),
            Window { start: 27, end: 30 }
        );
        assert_eq!(window(0.0, 400.0, 0.0, 30, 2), Window { start: 0, end: 0 });
    }
}
