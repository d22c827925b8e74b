//! A JSON object as the caller's own JSON reader sees it: the start-up module reads answers with
//! the browser's `JSON.parse` (it carries no JSON library), the console with serde_json (the
//! feature `json` implements [`Fields`] for `serde_json::Value`). The core only asks for the
//! values it checks.

/// The members of one JSON object.
pub trait Fields: Sized {
    /// Whether the object has `key` at all (any value, `null` included).
    fn has(&self, key: &str) -> bool;
    /// The string at `key`; `None` when absent or not a string.
    fn text(&self, key: &str) -> Option<String>;
    /// The number at `key`; `None` when absent or not a number.
    fn number(&self, key: &str) -> Option<f64>;
    /// The boolean at `key`; `None` when absent or not a boolean.
    fn flag(&self, key: &str) -> Option<bool>;
    /// The strings of the array at `key`; `None` when absent, not an array, or holding anything
    /// but strings.
    fn texts(&self, key: &str) -> Option<Vec<String>>;
    /// The objects of the array at `key`; `None` when absent or not an array (members that are
    /// not objects are left out).
    fn objects(&self, key: &str) -> Option<Vec<Self>>;
}

#[cfg(feature = "json")]
impl Fields for serde_json::Value {
    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    fn text(&self, key: &str) -> Option<String> {
        self.get(key)?.as_str().map(str::to_string)
    }
    fn number(&self, key: &str) -> Option<f64> {
        self.get(key)?.as_f64()
    }
    fn flag(&self, key: &str) -> Option<bool> {
        self.get(key)?.as_bool()
    }
    fn texts(&self, key: &str) -> Option<Vec<String>> {
        self.get(key)?
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect()
    }
    fn objects(&self, key: &str) -> Option<Vec<Self>> {
        Some(
            self.get(key)?
                .as_array()?
                .iter()
                .filter(|v| v.is_object())
                .cloned()
                .collect(),
        )
    }
}

/// A whole number of seconds at `key` (`exp`, `iat`, `expires_in`): finite, not negative, at
/// most 2^53; fractions are cut (RFC 7519 allows them).
pub fn seconds(fields: &impl Fields, key: &str) -> Option<u64> {
    fields
        .number(key)
        .filter(|n| n.is_finite() && *n >= 0.0 && *n <= 9_007_199_254_740_992.0)
        .map(|n| n as u64)
}
