//! After "Sign out" the sign-in page must not sign the person straight back in. A provider
//! session can outlive the console's: a password sign-out on a console with a provider, a
//! provider without an end-session endpoint, or another tab's sign-out still on its way to the
//! provider. The console opens the sign-in page with [`MARKER`] in its query, and that load
//! leaves the provider alone until someone presses "Sign in with <provider>".

/// The sign-in page's query parameter (no value) that says the person has just signed out. Not
/// a secret: it names no one.
pub const MARKER: &str = "signed-out";

/// The sign-in page after a sign-out, below the console's base path (`""` or `/console`).
pub fn sign_in_page(base_path: &str) -> String {
    format!("{}/sign-in?{MARKER}", base_path.trim_end_matches('/'))
}

/// Whether a load of `path` (inside the console, from its `/`) with `search` (`?a=b&c`, or
/// empty) may ask the provider silently: any page but the sign-in page opened after a sign-out.
pub fn silent_allowed(path: &str, search: &str) -> bool {
    let sign_in = path == "/sign-in" || path.starts_with("/sign-in/");
    !sign_in
        || !search
            .trim_start_matches('?')
            .split('&')
            .any(|pair| pair.split('=').next() == Some(MARKER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_after_a_sign_out_is_under_the_base_path() {
        assert_eq!(sign_in_page(""), "/sign-in?signed-out");
        assert_eq!(sign_in_page("/console"), "/console/sign-in?signed-out");
        assert_eq!(sign_in_page("/console/"), "/console/sign-in?signed-out");
    }

    #[test]
    fn only_the_sign_in_page_after_a_sign_out_stays_away_from_the_provider() {
        assert!(!silent_allowed("/sign-in", "?signed-out"));
        assert!(!silent_allowed("/sign-in", "?next=%2Fhousehold&signed-out"));
        assert!(!silent_allowed("/sign-in", "?signed-out="));
        assert!(silent_allowed("/sign-in", ""));
        assert!(silent_allowed("/sign-in", "?next=%2Fsigned-out"));
        assert!(silent_allowed("/sign-in", "?signed-outs"));
        // A page's own query is its own.
        assert!(silent_allowed("/household", "?signed-out"));
        assert!(silent_allowed("/sign-inside", "?signed-out"));
    }
}
