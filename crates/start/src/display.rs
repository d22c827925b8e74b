//! Display preferences (issue 40 item 4): text size and high contrast, kept in the browser like
//! the language, and put on the page's root element (`data-text-size`, `data-contrast`) by the
//! start-up module before the sign-in form shows, and by the console's "Display" panel.

/// Where the text size is remembered.
pub const TEXT_SIZE: &str = "larder.text-size";
/// Where the contrast is remembered.
pub const CONTRAST: &str = "larder.contrast";
/// The text sizes, the default first.
pub const TEXT_SIZES: [&str; 3] = ["normal", "large", "larger"];
/// The remembered value of high contrast.
pub const HIGH: &str = "high";

/// The root's `data-text-size` for a remembered size: `None` for the default or an unknown one.
pub fn text_size(remembered: Option<&str>) -> Option<&'static str> {
    TEXT_SIZES[1..]
        .iter()
        .find(|size| Some(**size) == remembered)
        .copied()
}

/// Whether the remembered contrast is high.
pub fn high_contrast(remembered: Option<&str>) -> bool {
    remembered == Some(HIGH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_sizes_and_high_contrast_apply() {
        assert_eq!(text_size(Some("larger")), Some("larger"));
        assert_eq!(text_size(Some("normal")), None);
        assert_eq!(text_size(Some("huge")), None);
        assert_eq!(text_size(None), None);
        assert!(high_contrast(Some("high")));
        assert!(!high_contrast(Some("normal")));
    }
}
