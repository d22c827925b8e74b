//! The slug pattern of a URN created by the console: `^[a-z0-9]+(?:[-_][a-z0-9]+)*$`.

/// Whether `s` is a valid slug.
pub fn is_valid_slug(s: &str) -> bool {
    let mut previous_was_separator = true; // forbids a leading separator
    for c in s.chars() {
        match c {
            'a'..='z' | '0'..='9' => previous_was_separator = false,
            '-' | '_' if !previous_was_separator => previous_was_separator = true,
            _ => return false,
        }
    }
    !s.is_empty() && !previous_was_separator
}

#[cfg(test)]
mod tests {
    use super::is_valid_slug;

    #[test]
    fn slug_pattern() {
        for ok in ["a", "vit-d", "a_b-c9", "2024-guide"] {
            assert!(is_valid_slug(ok), "{ok}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "a b",
            "urn:article:x",
            "é",
            "a-_b",
        ] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }
}
