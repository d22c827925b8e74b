//! Which language the console starts in.

/// Where a language chosen in the console's menu is remembered (`localStorage`; a preference,
/// not a secret).
pub const REMEMBERED: &str = "larder.language";
/// The start-up catalog, relative to the document: the sign-in form's texts in every language
/// but English (written by `cargo xtask dist`).
pub const START_CATALOG: &str = "locales/start.json";
/// The id of the data block that carries the same catalog inside a built `index.html`, read
/// instead of the file: one round trip less before "Sign in" works (issue 24).
pub const START_CATALOG_IN_PAGE: &str = "start-catalog";

/// The primary subtag of a tag such as `hu`, `hu-HU` or `EL_gr`, lower-cased.
pub fn primary(tag: &str) -> String {
    tag.split(['-', '_'])
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The language to start in, as an index into `offered` (language codes): a remembered choice,
/// else the browser's first language offered, else the configured default, else the first
/// offered. `None` only when nothing is offered.
pub fn pick(
    remembered: Option<&str>,
    browser: &[String],
    default: Option<&str>,
    offered: &[&str],
) -> Option<usize> {
    let position = |tag: &str| {
        let code = primary(tag);
        offered.iter().position(|o| *o == code)
    };
    remembered
        .and_then(position)
        .or_else(|| browser.iter().find_map(|tag| position(tag)))
        .or_else(|| default.and_then(position))
        .or(if offered.is_empty() { None } else { Some(0) })
}

#[cfg(test)]
mod tests {
    use super::pick;

    const ALL: [&str; 4] = ["en", "hu", "sl", "el"];

    fn browser(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn remembered_then_browser_then_default_then_first() {
        assert_eq!(
            pick(Some("sl"), &browser(&["el-GR"]), Some("hu"), &ALL),
            Some(2)
        );
        assert_eq!(
            pick(None, &browser(&["de", "EL_gr"]), Some("hu"), &ALL),
            Some(3)
        );
        assert_eq!(pick(None, &browser(&["de"]), Some("hu"), &ALL), Some(1));
        assert_eq!(pick(None, &browser(&["de"]), None, &["sl", "el"]), Some(0));
        assert_eq!(pick(None, &[], None, &[]), None);
    }

    #[test]
    fn only_what_is_offered() {
        assert_eq!(
            pick(Some("el"), &browser(&["hu"]), None, &["en", "hu"]),
            Some(1)
        );
        assert_eq!(pick(None, &[], Some("el"), &["en", "hu"]), Some(0));
    }
}
