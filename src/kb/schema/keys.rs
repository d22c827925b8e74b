//! The keys of list pages: `/` search, `j`/`k` rows, `x` select, Enter open, `?` the sheet of
//! keys. Which key does what is decided here, natively tested; the page only carries it out.

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Move the focus to the search box.
    FocusSearch,
    /// The next row.
    Next,
    /// The previous row.
    Previous,
    /// Choose or let go the current row.
    ToggleSelection,
    /// Open the current row's record.
    Open,
    /// Show the sheet of keys.
    ShowKeys,
}

/// One key press, as much of it as the decision needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyPress<'a> {
    /// `KeyboardEvent.key`.
    pub key: &'a str,
    /// Ctrl, Meta (Cmd) or Alt held: the browser's or the system's shortcut, not ours.
    pub modified: bool,
    /// The focus is where people type (an input, a text area, a select, editable text).
    pub typing: bool,
    /// A dialog is open: its own keys apply.
    pub in_dialog: bool,
    /// The focus is on a row (its link or checkbox) rather than elsewhere on the page.
    pub on_row: bool,
}

/// What `press` asks for, `None` when it is not one of the list's keys (or the person types).
pub fn action(press: KeyPress<'_>) -> Option<KeyAction> {
    if press.modified || press.typing || press.in_dialog {
        return None;
    }
    match press.key {
        "/" => Some(KeyAction::FocusSearch),
        "j" | "J" => Some(KeyAction::Next),
        "k" | "K" => Some(KeyAction::Previous),
        "x" | "X" => Some(KeyAction::ToggleSelection),
        "?" => Some(KeyAction::ShowKeys),
        // On a row's link Enter opens it already; elsewhere it keeps its own meaning.
        "Enter" if press.on_row => Some(KeyAction::Open),
        _ => None,
    }
}

/// Whether an element with this tag (upper-case, as the DOM gives it), `type` and
/// `contenteditable` takes typed text.
pub fn takes_text(tag: &str, input_type: Option<&str>, editable: bool) -> bool {
    if editable {
        return true;
    }
    match tag {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            input_type.map(str::to_ascii_lowercase).as_deref(),
            Some("checkbox" | "radio" | "button" | "submit" | "reset" | "file" | "range" | "color")
        ),
        _ => false,
    }
}

/// The row the focus moves to: from `current` (none yet) among `rows` rows. `j` from nowhere
/// starts at the first row, `k` at the last; both stop at the ends.
pub fn moved(current: Option<usize>, rows: usize, action: KeyAction) -> Option<usize> {
    if rows == 0 {
        return None;
    }
    let last = rows - 1;
    match (action, current) {
        (KeyAction::Next, None) => Some(0),
        (KeyAction::Previous, None) => Some(last),
        (KeyAction::Next, Some(at)) => Some((at + 1).min(last)),
        (KeyAction::Previous, Some(at)) => Some(at.saturating_sub(1).min(last)),
        (_, current) => current.map(|at| at.min(last)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(key: &str) -> KeyPress<'_> {
        KeyPress {
            key,
            ..KeyPress::default()
        }
    }

    #[test]
    fn each_key_maps_to_its_action() {
        assert_eq!(action(press("/")), Some(KeyAction::FocusSearch));
        assert_eq!(action(press("j")), Some(KeyAction::Next));
        assert_eq!(action(press("k")), Some(KeyAction::Previous));
        assert_eq!(action(press("x")), Some(KeyAction::ToggleSelection));
        assert_eq!(action(press("?")), Some(KeyAction::ShowKeys));
        assert_eq!(action(press("q")), None);
        assert_eq!(
            action(press("Enter")),
            None,
            "Enter off a row keeps its meaning"
        );
        let on_row = KeyPress {
            on_row: true,
            ..press("Enter")
        };
        assert_eq!(action(on_row), Some(KeyAction::Open));
    }

    #[test]
    fn keys_are_ignored_while_typing_in_dialogs_and_with_modifiers() {
        for key in ["/", "j", "k", "x", "?", "Enter"] {
            for blocked in [
                KeyPress {
                    typing: true,
                    on_row: true,
                    ..press(key)
                },
                KeyPress {
                    in_dialog: true,
                    on_row: true,
                    ..press(key)
                },
                KeyPress {
                    modified: true,
                    on_row: true,
                    ..press(key)
                },
            ] {
                assert_eq!(action(blocked), None, "{key}");
            }
        }
    }

    #[test]
    fn text_fields_take_text_checkboxes_do_not() {
        assert!(takes_text("INPUT", None, false));
        assert!(takes_text("INPUT", Some("search"), false));
        assert!(takes_text("TEXTAREA", None, false));
        assert!(takes_text("SELECT", None, false));
        assert!(takes_text("DIV", None, true));
        assert!(!takes_text("INPUT", Some("checkbox"), false));
        assert!(!takes_text("A", None, false));
        assert!(!takes_text("BUTTON", None, false));
    }

    #[test]
    fn rows_move_and_stop_at_the_ends() {
        assert_eq!(moved(None, 3, KeyAction::Next), Some(0));
        assert_eq!(moved(None, 3, KeyAction::Previous), Some(2));
        assert_eq!(moved(Some(0), 3, KeyAction::Next), Some(1));
        assert_eq!(moved(Some(2), 3, KeyAction::Next), Some(2));
        assert_eq!(moved(Some(0), 3, KeyAction::Previous), Some(0));
        assert_eq!(moved(Some(5), 3, KeyAction::ToggleSelection), Some(2));
        assert_eq!(moved(Some(1), 0, KeyAction::Next), None);
    }
}
