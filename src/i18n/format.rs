//! Numbers, dates, times, sizes and plural categories the language's way, through the browser's
//! `Intl` (which costs the module no formatting code or locale data). Natively (tests) plain
//! fallbacks stand in.

use super::Lang;

/// The `Intl.PluralRules` category of `count` in `lang`: `one`, `two`, `few` or `other`.
pub fn plural_category(lang: Lang, count: i64) -> &'static str {
    #[cfg(target_arch = "wasm32")]
    {
        browser::plural(lang, count)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        // CLDR's integer rules for the four languages, for native tests.
        match lang {
            Lang::Sl => match count.unsigned_abs() % 100 {
                1 => "one",
                2 => "two",
                3 | 4 => "few",
                _ => "other",
            },
            _ if count == 1 => "one",
            _ => "other",
        }
    }
}

/// A number in `lang`'s way (`1 234,5` in Hungarian).
pub fn number_in(lang: Lang, value: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        browser::number(lang, value)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = lang;
        value.to_string()
    }
}

/// A number in the current language.
pub fn number(value: f64) -> String {
    number_in(super::lang(), value)
}

/// A stored value that is a number: as `number`, but four digits stay ungrouped (`2014`, not
/// `2,014`: a year reads as a year), as Intl's `useGrouping: "min2"` writes them.
pub fn value_number(value: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        browser::value_number(super::lang(), value)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        value.to_string()
    }
}

/// A size in bytes, as the language writes kilobytes and megabytes.
pub fn bytes(size: u64) -> String {
    let (value, unit) = match size {
        s if s >= 1_000_000_000 => (s as f64 / 1e9, "gigabyte"),
        s if s >= 1_000_000 => (s as f64 / 1e6, "megabyte"),
        s if s >= 1_000 => (s as f64 / 1e3, "kilobyte"),
        s => (s as f64, "byte"),
    };
    #[cfg(target_arch = "wasm32")]
    {
        browser::unit(super::lang(), value, unit)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{value} {unit}")
    }
}

/// An ISO date (`2024-05-01`) or date-time, as the language writes it; text that is not one
/// stays as it is.
pub fn date(iso: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        browser::date(super::lang(), iso).unwrap_or_else(|| iso.to_string())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        iso.to_string()
    }
}

/// A calendar day (`2026-11-28`) with its weekday, as the language writes it ("Saturday,
/// 28 November"); text that is not a day stays as it is.
pub fn day(iso: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        browser::day(super::lang(), iso).unwrap_or_else(|| iso.to_string())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        iso.to_string()
    }
}

/// An instant (Unix milliseconds) as the language writes a date and time, in local time.
pub fn moment(unix_ms: u64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        browser::moment(super::lang(), unix_ms)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        unix_ms.to_string()
    }
}

/// Makes `lang`'s number, plural and date-and-time formatters before the first page needs them
/// (the household's "Members (3)" and "Created"). Why: a page's first `Intl` object costs 25 to
/// 40 ms in headless Chromium (the browser loads its locale data then); made while people type,
/// that is not between pressing "Sign in" and the page working (issue 37).
pub fn warm(lang: Lang) {
    #[cfg(target_arch = "wasm32")]
    {
        browser::number(lang, 0.0);
        browser::plural(lang, 1);
        browser::moment(lang, 0);
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = lang;
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use js_sys::{Array, Date, Function, Intl, Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    use super::Lang;

    fn locales(lang: Lang) -> Array {
        Array::of1(&JsValue::from_str(lang.code()))
    }

    fn options(pairs: &[(&str, JsValue)]) -> Object {
        let object = Object::new();
        for (key, value) in pairs {
            let _ = Reflect::set(&object, &JsValue::from_str(key), value);
        }
        object
    }

    fn call(format: Function, value: &JsValue) -> Option<String> {
        format.call1(&JsValue::NULL, value).ok()?.as_string()
    }

    thread_local! {
        /// Formatters by language and kind: building an `Intl` formatter costs far more than
        /// using one, and a list renders hundreds of values.
        static MADE: std::cell::RefCell<std::collections::HashMap<(Lang, String), JsValue>> =
            Default::default();
    }

    fn made(lang: Lang, kind: &str, make: impl FnOnce() -> JsValue) -> JsValue {
        let key = (lang, kind.to_string());
        if let Some(found) = MADE.with(|m| m.borrow().get(&key).cloned()) {
            return found;
        }
        let value = make();
        MADE.with(|m| m.borrow_mut().insert(key, value.clone()));
        value
    }

    fn formatter(lang: Lang, kind: &str, make: impl FnOnce() -> Function) -> Function {
        made(lang, kind, || make().into()).unchecked_into()
    }

    pub fn plural(lang: Lang, count: i64) -> &'static str {
        let rules: Intl::PluralRules = made(lang, "plural", || {
            Intl::PluralRules::new(&locales(lang), &Object::new()).into()
        })
        .unchecked_into();
        match String::from(rules.select(count as f64)).as_str() {
            "zero" => "zero",
            "one" => "one",
            "two" => "two",
            "few" => "few",
            "many" => "many",
            _ => "other",
        }
    }

    pub fn number(lang: Lang, value: f64) -> String {
        let format = formatter(lang, "number", || {
            Intl::NumberFormat::new(&locales(lang), &Object::new()).format()
        });
        call(format, &JsValue::from_f64(value)).unwrap_or_else(|| js_text(value))
    }

    pub fn value_number(lang: Lang, value: f64) -> String {
        let format = formatter(lang, "value", || {
            Intl::NumberFormat::new(&locales(lang), &options(&[("useGrouping", "min2".into())]))
                .format()
        });
        call(format, &JsValue::from_f64(value)).unwrap_or_else(|| js_text(value))
    }

    pub fn unit(lang: Lang, value: f64, unit: &str) -> String {
        let format = formatter(lang, unit, || {
            Intl::NumberFormat::new(
                &locales(lang),
                &options(&[
                    ("style", "unit".into()),
                    ("unit", unit.into()),
                    ("maximumFractionDigits", 1.into()),
                ]),
            )
            .format()
        });
        call(format, &JsValue::from_f64(value))
            .unwrap_or_else(|| format!("{} {unit}", js_text(value)))
    }

    /// A number as JavaScript writes it, for when `Intl` fails: Rust's own float formatting
    /// (about 10 KB) would otherwise sit in the start-up module only for this fallback.
    fn js_text(value: f64) -> String {
        js_sys::Number::from(value)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default()
    }

    pub fn moment(lang: Lang, unix_ms: u64) -> String {
        let date = Date::new(&JsValue::from_f64(unix_ms as f64));
        let format = formatter(lang, "date and time", || {
            let pairs = [
                ("dateStyle", JsValue::from_str("medium")),
                ("timeStyle", "short".into()),
            ];
            Intl::DateTimeFormat::new(&locales(lang), &options(&pairs)).format()
        });
        call(format, &date.into()).unwrap_or_else(|| unix_ms.to_string())
    }

    pub fn day(lang: Lang, iso: &str) -> Option<String> {
        larder_contract::time::day_number(iso)?;
        // A calendar day has no time zone: read and shown as UTC, it stays the same day.
        let date = Date::new(&JsValue::from_str(iso));
        let format = formatter(lang, "weekday", || {
            let pairs = [
                ("weekday", JsValue::from_str("long")),
                ("day", "numeric".into()),
                ("month", "long".into()),
                ("timeZone", "UTC".into()),
            ];
            Intl::DateTimeFormat::new(&locales(lang), &options(&pairs)).format()
        });
        call(format, &date.into())
    }

    pub fn date(lang: Lang, iso: &str) -> Option<String> {
        let bytes = iso.as_bytes();
        let looks_like_date = (iso.len() == 10 || (iso.len() >= 19 && bytes[10] == b'T'))
            && bytes[4] == b'-'
            && bytes[7] == b'-'
            && iso.is_char_boundary(10)
            && iso[..4].chars().all(|c| c.is_ascii_digit());
        if !looks_like_date {
            return None;
        }
        let date_only = iso.len() == 10;
        // Production's database answers without a zone, meaning UTC; `Date` would read local time.
        let date = Date::new(&JsValue::from_str(&larder_contract::time::as_utc(iso)));
        if date.get_time().is_nan() {
            return None;
        }
        let kind = if date_only { "date" } else { "date and time" };
        let format = formatter(lang, kind, || {
            let mut pairs = vec![("dateStyle", JsValue::from_str("medium"))];
            if date_only {
                // A calendar date has no time zone: read and shown as UTC, it stays the same day.
                pairs.push(("timeZone", "UTC".into()));
            } else {
                pairs.push(("timeStyle", "short".into()));
            }
            Intl::DateTimeFormat::new(&locales(lang), &options(&pairs)).format()
        });
        call(format, &date.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slovenian_has_dual_and_few() {
        let forms: Vec<_> = [1, 2, 3, 5, 101, 102]
            .map(|n| plural_category(Lang::Sl, n))
            .into();
        assert_eq!(forms, ["one", "two", "few", "other", "one", "two"]);
        assert_eq!(plural_category(Lang::Hu, 1), "one");
        assert_eq!(plural_category(Lang::El, 7), "other");
    }
}
