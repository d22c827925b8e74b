//! Checks a JSON body against a list of [`Field`]s the way the production service's pydantic
//! models do (production.md §1.5, §3): unknown keys refused (or ignored, for the systemic
//! service), required fields, types, lengths, patterns and bounds, with pydantic's error shape
//! (`type`, `loc`, `msg`, `input`, `ctx`). Values come back normalised as the service stores them
//! (strings trimmed, URLs with a path, an article's year as a date, file types as extensions).
//!
//! Work is bounded whatever the body: a list over its limit is reported once without looking at
//! its elements, a tree stops at [`MAX_TREE_NODES`] nodes, and at most [`MAX_SHOWN`] problems are
//! kept (the rest are counted).

use serde_json::{json, Map, Value};

use crate::collections::TREE_NODE;
use crate::slug::is_valid_slug;
use crate::types::{Field, Type};

/// Problems kept in an answer; the rest are only counted.
pub const MAX_SHOWN: usize = 50;
/// Nodes a structure tree may hold.
pub const MAX_TREE_NODES: usize = 10_000;
/// Levels a structure tree may nest.
pub const MAX_TREE_DEPTH: usize = 32;
/// The longest string echoed back as a problem's `input`.
const MAX_ECHOED: usize = 200;

/// What to do with keys a schema does not name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// A 422 (`extra_forbidden`): every data-service create and update schema.
    Forbid,
    /// Drop them silently: the systemic service's schemas.
    Ignore,
}

/// One step of a problem's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// A key of an object.
    Key(String),
    /// An index of a list.
    Index(usize),
}

impl Loc {
    fn to_json(&self) -> Value {
        match self {
            Loc::Key(key) => json!(key),
            Loc::Index(index) => json!(index),
        }
    }
}

/// One problem, shaped like a pydantic error.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// pydantic's error type, e.g. `extra_forbidden`, `missing`, `string_too_long`.
    pub kind: &'static str,
    /// Where, from the body's root (`["body", "venue"]` once [`Problems::to_json`] adds `body`).
    pub loc: Vec<Loc>,
    /// The sentence pydantic gives.
    pub msg: String,
    /// The offending value, when it is small.
    pub input: Option<Value>,
    /// Parameters of the rule (`{"max_length": 2000}`).
    pub ctx: Option<Value>,
}

impl Problem {
    /// The field a problem is about: the last key of its location.
    pub fn field(&self) -> Option<&str> {
        self.loc.iter().rev().find_map(|l| match l {
            Loc::Key(k) => Some(k.as_str()),
            Loc::Index(_) => None,
        })
    }

    /// The location as dotted text (`members.3.name`).
    pub fn dotted(&self) -> String {
        self.loc
            .iter()
            .map(|l| match l {
                Loc::Key(k) => k.clone(),
                Loc::Index(i) => i.to_string(),
            })
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// The problems found, the first [`MAX_SHOWN`] kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problems {
    shown: Vec<Problem>,
    total: usize,
    at: Vec<Loc>,
}

impl Problems {
    /// No problems yet.
    pub fn new() -> Problems {
        Problems::default()
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// How many were found in all.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The kept problems.
    pub fn shown(&self) -> &[Problem] {
        &self.shown
    }

    /// Found but not kept.
    pub fn omitted(&self) -> usize {
        self.total - self.shown.len()
    }

    /// Records a problem at the current location (plus `extra`).
    pub fn add(
        &mut self,
        extra: Option<Loc>,
        kind: &'static str,
        msg: impl Into<String>,
        input: Option<&Value>,
        ctx: Option<Value>,
    ) {
        self.total += 1;
        if self.shown.len() >= MAX_SHOWN {
            return;
        }
        let mut loc = self.at.clone();
        loc.extend(extra);
        self.shown.push(Problem {
            kind,
            loc,
            msg: msg.into(),
            input: input.filter(|v| small(v)).cloned(),
            ctx,
        });
    }

    /// A problem at `field` (a top-level key), for rules outside the schemas.
    pub fn at_field(&mut self, field: &str, kind: &'static str, msg: impl Into<String>) {
        self.add(Some(Loc::Key(field.into())), kind, msg, None, None);
    }

    /// A custom rule's failure at `field` (pydantic's `value_error`).
    pub fn value_error(&mut self, field: &str, msg: &str) {
        self.at_field(field, "value_error", format!("Value error, {msg}"));
    }

    /// Runs `f` one step deeper.
    pub fn within<T>(&mut self, step: Loc, f: impl FnOnce(&mut Problems) -> T) -> T {
        self.at.push(step);
        let out = f(self);
        self.at.pop();
        out
    }

    /// Adds every problem of `other` under `step`.
    pub fn absorb(&mut self, step: Loc, other: Problems) {
        let omitted = other.omitted();
        for mut problem in other.shown {
            self.total += 1;
            if self.shown.len() < MAX_SHOWN {
                let mut loc = self.at.clone();
                loc.push(step.clone());
                loc.append(&mut problem.loc);
                problem.loc = loc;
                self.shown.push(problem);
            }
        }
        self.total += omitted;
    }

    /// pydantic's list with `loc` under `root` (`"body"` or `"query"`).
    pub fn to_json(&self, root: &str) -> Value {
        Value::Array(
            self.shown
                .iter()
                .map(|p| {
                    let mut loc = vec![json!(root)];
                    loc.extend(p.loc.iter().map(Loc::to_json));
                    let mut item = json!({ "type": p.kind, "loc": loc, "msg": p.msg });
                    if let Some(input) = &p.input {
                        item["input"] = input.clone();
                    }
                    if let Some(ctx) = &p.ctx {
                        item["ctx"] = ctx.clone();
                    }
                    item
                })
                .collect(),
        )
    }
}

fn small(value: &Value) -> bool {
    match value {
        Value::String(s) => s.len() <= MAX_ECHOED,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => true,
    }
}

/// Checks `body` against `fields` (a create schema, an update schema or an item's shape, each
/// with its own required flags); answers the normalised object (unknown keys dropped when
/// `extra` is [`Extra::Ignore`]) and records problems in `problems`.
pub fn check_object(
    fields: &[Field],
    extra: Extra,
    body: &Map<String, Value>,
    problems: &mut Problems,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in body {
        match fields.iter().find(|f| f.name == key.as_str()) {
            Some(field) => {
                let step = Loc::Key(key.clone());
                let checked = problems.within(step, |p| check_field(field, value, p));
                if let Some(checked) = checked {
                    out.insert(key.clone(), checked);
                }
            }
            None if extra == Extra::Forbid => problems.add(
                Some(Loc::Key(key.clone())),
                "extra_forbidden",
                "Extra inputs are not permitted",
                Some(value),
                None,
            ),
            None => {}
        }
    }
    for field in fields {
        if field.required && !body.contains_key(field.name) {
            problems.add(
                Some(Loc::Key(field.name.into())),
                "missing",
                "Field required",
                None,
                None,
            );
        }
    }
    out
}

/// Checks one field's value; `null` passes for optional fields.
fn check_field(field: &Field, value: &Value, problems: &mut Problems) -> Option<Value> {
    if value.is_null() && !field.required {
        return Some(Value::Null);
    }
    check_value(&field.ty, value, problems)
}

/// Checks a value of `ty` at the current location; `None` when it failed.
pub fn check_value(ty: &Type, value: &Value, problems: &mut Problems) -> Option<Value> {
    let mut nodes = 0;
    check(ty, value, problems, &mut nodes, 0)
}

fn expected_text(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn fail(problems: &mut Problems, kind: &'static str, msg: String, value: &Value) -> Option<Value> {
    problems.add(None, kind, msg, Some(value), None);
    None
}

fn fail_ctx(
    problems: &mut Problems,
    kind: &'static str,
    msg: String,
    value: &Value,
    ctx: Value,
) -> Option<Value> {
    problems.add(None, kind, msg, Some(value), Some(ctx));
    None
}

fn string<'a>(value: &'a Value, problems: &mut Problems) -> Option<&'a str> {
    match value {
        Value::String(s) => Some(s.trim()),
        _ => {
            fail(
                problems,
                "string_type",
                "Input should be a valid string".into(),
                value,
            );
            None
        }
    }
}

fn lengths(
    s: &str,
    min: u32,
    max: Option<u32>,
    value: &Value,
    problems: &mut Problems,
) -> Option<()> {
    let count = s.chars().count();
    if count < min as usize {
        let plural = if min == 1 { "" } else { "s" };
        return fail_ctx(
            problems,
            "string_too_short",
            format!("String should have at least {min} character{plural}"),
            value,
            json!({ "min_length": min }),
        )
        .map(|_| ());
    }
    if let Some(max) = max.filter(|max| count > *max as usize) {
        return fail_ctx(
            problems,
            "string_too_long",
            format!("String should have at most {max} characters"),
            value,
            json!({ "max_length": max }),
        )
        .map(|_| ());
    }
    Some(())
}

fn pattern(ok: bool, pattern: &str, value: &Value, problems: &mut Problems) -> Option<()> {
    if ok {
        Some(())
    } else {
        fail_ctx(
            problems,
            "string_pattern_mismatch",
            format!("String should match pattern '{pattern}'"),
            value,
            json!({ "pattern": pattern }),
        )
        .map(|_| ())
    }
}

const URN_PATTERN: &str = r"^urn:[a-z0-9][a-z0-9\-._:/]{2,}$";

/// Whether `s` matches the production `Urn` pattern.
pub fn is_valid_urn(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("urn:") else {
        return false;
    };
    let mut chars = rest.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && rest.chars().count() >= 3
        && chars.all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | ':' | '/')
        })
}

/// Whether `s` is a UUID in its canonical lower-case hyphenated form.
pub fn is_canonical_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_digit() || ('a'..='f').contains(&c),
        })
}

/// A UUID in any of the usual forms, in canonical form.
pub fn parse_uuid(s: &str) -> Option<String> {
    let hex: String = s
        .trim()
        .trim_start_matches("urn:uuid:")
        .trim_matches(|c| c == '{' || c == '}')
        .chars()
        .filter(|c| *c != '-')
        .collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let hex = hex.to_ascii_lowercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// An absolute http(s) URL, normalised as pydantic echoes it (a bare host gets `/`).
pub fn normalise_url(s: &str) -> Result<String, &'static str> {
    let (scheme, rest) = s.split_once("://").ok_or("relative URL without a base")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err("scheme");
    }
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..host_end];
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    if host.is_empty() {
        return Err("empty host");
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("invalid international domain name");
    }
    let tail = &rest[host_end..];
    let tail = if tail.starts_with('/') {
        tail.to_string()
    } else {
        format!("/{tail}")
    };
    Ok(format!(
        "{scheme}://{}{tail}",
        authority.to_ascii_lowercase()
    ))
}

/// Whether `s` is a calendar date `YYYY-MM-DD`.
pub fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// Whether `s` is an ISO-8601 date, or date and time (`T` or space, seconds and fraction
/// optional, `Z` or an offset optional).
pub fn is_datetime(s: &str) -> bool {
    if s.len() < 10 || !s.is_char_boundary(10) || !is_date(&s[..10]) {
        return false;
    }
    let rest = &s[10..];
    if rest.is_empty() {
        return true;
    }
    let Some(time) = rest.strip_prefix(['T', 't', ' ']) else {
        return false;
    };
    let (clock, _zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => {
            let zone = &time[at..];
            let zone_ok = matches!(zone, "Z" | "z")
                || (zone.len() == 6 && zone.as_bytes()[3] == b':')
                || zone.len() == 5
                || zone.len() == 3;
            if !zone_ok {
                return false;
            }
            (&time[..at], zone)
        }
        None => (time, ""),
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    if fraction.is_empty() || !fraction.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let parts: Vec<&str> = hms.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return false;
    }
    let limits = [23, 59, 59];
    parts.iter().zip(limits).all(|(p, max)| {
        p.len() == 2
            && p.chars().all(|c| c.is_ascii_digit())
            && p.parse::<u32>().unwrap_or(99) <= max
    })
}

/// A file type as production stores it: a MIME type becomes an extension, a leading `.` goes,
/// lower-cased.
pub fn normalise_file_type(s: &str) -> String {
    let s = s.trim().trim_start_matches('.').to_ascii_lowercase();
    let Some((_, subtype)) = s.split_once('/') else {
        return s;
    };
    let known = match s.as_str() {
        "text/plain" => "txt",
        "image/jpeg" => "jpg",
        "image/svg+xml" => "svg",
        "text/markdown" => "md",
        "application/octet-stream" => "bin",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => "xlsx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => "docx",
        "application/vnd.ms-excel" => "xls",
        "application/msword" => "doc",
        _ => "",
    };
    if known.is_empty() {
        subtype
            .trim_start_matches("x-")
            .split(['+', ';'])
            .next()
            .unwrap_or_default()
            .to_string()
    } else {
        known.to_string()
    }
}

fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn check(
    ty: &Type,
    value: &Value,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
) -> Option<Value> {
    match *ty {
        Type::Str { min, max, .. } => {
            let s = string(value, problems)?;
            lengths(s, min, max, value, problems)?;
            Some(json!(s))
        }
        Type::Slug => {
            let s = string(value, problems)?;
            lengths(s, 1, Some(100), value, problems)?;
            pattern(
                is_valid_slug(s),
                "^[a-z0-9]+(?:[-_][a-z0-9]+)*$",
                value,
                problems,
            )?;
            Some(json!(s))
        }
        Type::Urn(prefix) => {
            let s = string(value, problems)?;
            lengths(s, 5, Some(255), value, problems)?;
            pattern(is_valid_urn(s), URN_PATTERN, value, problems)?;
            if let Some(prefix) = prefix.filter(|p| !s.starts_with(p)) {
                return fail(
                    problems,
                    "value_error",
                    format!("Value error, must be a URN starting with {prefix}"),
                    value,
                );
            }
            Some(json!(s))
        }
        Type::Uuid => {
            let Some(s) = value.as_str() else {
                return fail(
                    problems,
                    "uuid_type",
                    "UUID input should be a string, bytes or UUID object".into(),
                    value,
                );
            };
            match parse_uuid(s) {
                Some(uuid) => Some(json!(uuid)),
                None => fail(
                    problems,
                    "uuid_parsing",
                    "Input should be a valid UUID, invalid character or length".into(),
                    value,
                ),
            }
        }
        Type::Lang => {
            let s = string(value, problems)?;
            let ok = s.len() == 2 && s.chars().all(|c| c.is_ascii_lowercase());
            pattern(ok, "^[a-z]{2}$", value, problems)?;
            Some(json!(s))
        }
        Type::Country => {
            let s = string(value, problems)?;
            let ok = s.len() == 2 && s.chars().all(|c| c.is_ascii_uppercase());
            pattern(ok, "^[A-Z]{2}$", value, problems)?;
            Some(json!(s))
        }
        Type::Url => {
            let s = string(value, problems)?;
            if s.len() > 2083 {
                return fail_ctx(
                    problems,
                    "url_too_long",
                    "URL should have at most 2083 characters".into(),
                    value,
                    json!({"max_length": 2083}),
                );
            }
            match normalise_url(s) {
                Ok(url) => Some(json!(url)),
                Err("scheme") => fail_ctx(
                    problems,
                    "url_scheme",
                    "URL scheme should be 'http' or 'https'".into(),
                    value,
                    json!({"expected_schemes": "'http' or 'https'"}),
                ),
                Err(error) => fail_ctx(
                    problems,
                    "url_parsing",
                    format!("Input should be a valid URL, {error}"),
                    value,
                    json!({ "error": error }),
                ),
            }
        }
        Type::Date => {
            let s = string(value, problems)?;
            if is_date(s) {
                Some(json!(s))
            } else {
                fail(
                    problems,
                    "date_from_datetime_parsing",
                    "Input should be a valid date in the format YYYY-MM-DD".into(),
                    value,
                )
            }
        }
        Type::DateTime => {
            let s = string(value, problems)?;
            if is_datetime(s) {
                Some(json!(s))
            } else {
                fail(
                    problems,
                    "datetime_from_date_parsing",
                    "Input should be a valid datetime".into(),
                    value,
                )
            }
        }
        Type::Enum(values) => match value.as_str() {
            Some(s) if values.contains(&s) => Some(json!(s)),
            _ => {
                let expected = expected_text(values);
                fail_ctx(
                    problems,
                    "enum",
                    format!("Input should be {expected}"),
                    value,
                    json!({ "expected": expected }),
                )
            }
        },
        Type::EnumFolded(values) => {
            let folded = value.as_str().map(|s| s.trim().to_lowercase());
            match folded {
                Some(s) if values.contains(&s.as_str()) => Some(json!(s)),
                _ => {
                    let expected = expected_text(values);
                    fail_ctx(
                        problems,
                        "enum",
                        format!("Input should be {expected}"),
                        value,
                        json!({ "expected": expected }),
                    )
                }
            }
        }
        Type::Int { min, max } => {
            let Some(n) = integer(value) else {
                let (kind, msg) = if value.is_string() {
                    (
                        "int_parsing",
                        "Input should be a valid integer, unable to parse string as an integer",
                    )
                } else {
                    ("int_type", "Input should be a valid integer")
                };
                return fail(problems, kind, msg.into(), value);
            };
            if let Some(min) = min.filter(|min| n < *min) {
                return fail_ctx(
                    problems,
                    "greater_than_equal",
                    format!("Input should be greater than or equal to {min}"),
                    value,
                    json!({ "ge": min }),
                );
            }
            if let Some(max) = max.filter(|max| n > *max) {
                return fail_ctx(
                    problems,
                    "less_than_equal",
                    format!("Input should be less than or equal to {max}"),
                    value,
                    json!({ "le": max }),
                );
            }
            Some(json!(n))
        }
        Type::Float { min, max } => {
            let n = match value {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
                _ => None,
            };
            let Some(n) = n else {
                return fail(
                    problems,
                    "float_type",
                    "Input should be a valid number".into(),
                    value,
                );
            };
            if let Some(min) = min.filter(|min| n < *min) {
                return fail_ctx(
                    problems,
                    "greater_than_equal",
                    format!("Input should be greater than or equal to {min}"),
                    value,
                    json!({ "ge": min }),
                );
            }
            if let Some(max) = max.filter(|max| n > *max) {
                return fail_ctx(
                    problems,
                    "less_than_equal",
                    format!("Input should be less than or equal to {max}"),
                    value,
                    json!({ "le": max }),
                );
            }
            Some(value.as_number().map(|_| value.clone()).unwrap_or(json!(n)))
        }
        Type::Bool => match value {
            Value::Bool(b) => Some(json!(b)),
            Value::Number(n) if n.as_i64() == Some(0) || n.as_i64() == Some(1) => {
                Some(json!(n.as_i64() == Some(1)))
            }
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" | "t" | "y" => Some(json!(true)),
                "false" | "0" | "no" | "off" | "f" | "n" => Some(json!(false)),
                _ => fail(
                    problems,
                    "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input".into(),
                    value,
                ),
            },
            _ => fail(
                problems,
                "bool_type",
                "Input should be a valid boolean".into(),
                value,
            ),
        },
        Type::YearDate => {
            let date = match value {
                Value::Number(_) => integer(value)
                    .filter(|y| (1..=9999).contains(y))
                    .map(|y| format!("{y:04}-01-01")),
                Value::String(s) => {
                    let s = s.trim();
                    if s.len() == 4 && s.chars().all(|c| c.is_ascii_digit()) {
                        Some(format!("{s}-01-01"))
                    } else if is_datetime(s) {
                        Some(s[..10].to_string())
                    } else {
                        None
                    }
                }
                _ => None,
            };
            match date {
                Some(date) => Some(json!(date)),
                None => fail(
                    problems,
                    "value_error",
                    "Value error, publication_year must be a year, a digit string or an ISO date"
                        .into(),
                    value,
                ),
            }
        }
        Type::Year => match value {
            Value::String(s) if s.trim().is_empty() => Some(Value::Null),
            _ => match integer(value) {
                Some(n) => Some(json!(n)),
                None => fail(
                    problems,
                    "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer".into(),
                    value,
                ),
            },
        },
        Type::FileType => {
            let s = string(value, problems)?;
            let normalised = normalise_file_type(s);
            if normalised.is_empty() {
                return fail(
                    problems,
                    "value_error",
                    "Value error, file_type must not be empty".into(),
                    value,
                );
            }
            Some(json!(normalised))
        }
        Type::Object => match value {
            Value::Object(_) => Some(value.clone()),
            _ => fail(
                problems,
                "dict_type",
                "Input should be a valid dictionary".into(),
                value,
            ),
        },
        Type::Any => Some(value.clone()),
        Type::List {
            item,
            min,
            max,
            unique,
        } => {
            let Some(items) = value.as_array() else {
                return fail(
                    problems,
                    "list_type",
                    "Input should be a valid list".into(),
                    value,
                );
            };
            let count = items.len();
            if count < min as usize {
                let plural = if min == 1 { "" } else { "s" };
                return fail_ctx(
                    problems,
                    "too_short",
                    format!("List should have at least {min} item{plural} after validation, not {count}"),
                    value,
                    json!({ "field_type": "List", "min_length": min, "actual_length": count }),
                );
            }
            if let Some(max) = max.filter(|max| count > *max as usize) {
                return fail_ctx(
                    problems,
                    "too_long",
                    format!("List should have at most {max} items after validation, not {count}"),
                    value,
                    json!({ "field_type": "List", "max_length": max, "actual_length": count }),
                );
            }
            let mut out = Vec::with_capacity(count);
            let mut ok = true;
            for (index, element) in items.iter().enumerate() {
                if problems.total() > MAX_SHOWN * 4 {
                    // Enough is known to refuse the body; stop working on it.
                    return None;
                }
                let checked =
                    problems.within(Loc::Index(index), |p| check(item, element, p, nodes, depth));
                match checked {
                    Some(v) => out.push(v),
                    None => ok = false,
                }
            }
            if !ok {
                return None;
            }
            if unique {
                let mut seen = std::collections::HashSet::new();
                for element in &out {
                    if let Some(s) = element.as_str() {
                        if !seen.insert(s.to_lowercase()) {
                            return fail(
                                problems,
                                "value_error",
                                format!(
                                    "Value error, duplicate value {s:?} (compared ignoring case)"
                                ),
                                value,
                            );
                        }
                    }
                }
            }
            Some(Value::Array(out))
        }
        Type::Shape(fields) => {
            let Some(map) = value.as_object() else {
                return fail(
                    problems,
                    "model_type",
                    "Input should be a valid dictionary or instance of a model".into(),
                    value,
                );
            };
            let before = problems.total();
            let out = check_object(fields, Extra::Forbid, map, problems);
            (problems.total() == before).then_some(Value::Object(out))
        }
        Type::Loose(fields) => {
            let Some(map) = value.as_object() else {
                return fail(
                    problems,
                    "model_type",
                    "Input should be a valid dictionary or instance of a model".into(),
                    value,
                );
            };
            let before = problems.total();
            let out = check_object(fields, Extra::Ignore, map, problems);
            (problems.total() == before).then_some(Value::Object(out))
        }
        Type::Tree => {
            let Some(map) = value.as_object() else {
                return fail(
                    problems,
                    "model_type",
                    "Input should be a valid dictionary or instance of a model".into(),
                    value,
                );
            };
            let before = problems.total();
            let mut out = Map::new();
            for key in map.keys().filter(|k| k.as_str() != "roots") {
                problems.add(
                    Some(Loc::Key(key.clone())),
                    "extra_forbidden",
                    "Extra inputs are not permitted",
                    map.get(key),
                    None,
                );
            }
            match map.get("roots") {
                None => problems.add(
                    Some(Loc::Key("roots".into())),
                    "missing",
                    "Field required",
                    None,
                    None,
                ),
                Some(roots) => {
                    let mut ids = std::collections::HashSet::new();
                    let roots = problems.within(Loc::Key("roots".into()), |p| {
                        nodes_of(roots, p, nodes, depth, &mut ids)
                    });
                    if let Some(roots) = roots {
                        out.insert("roots".into(), roots);
                    }
                }
            }
            (problems.total() == before).then_some(Value::Object(out))
        }
    }
}

/// A list of tree nodes: each checked against [`TREE_NODE`], `kind` defaulting to `other` and
/// `page_end` to `page_start`, `page_end >= page_start`, ids unique in the tree.
fn nodes_of(
    value: &Value,
    problems: &mut Problems,
    nodes: &mut usize,
    depth: usize,
    ids: &mut std::collections::HashSet<String>,
) -> Option<Value> {
    let Some(items) = value.as_array() else {
        return fail(
            problems,
            "list_type",
            "Input should be a valid list".into(),
            value,
        );
    };
    if depth >= MAX_TREE_DEPTH {
        return fail(
            problems,
            "value_error",
            format!("Value error, a structure tree nests at most {MAX_TREE_DEPTH} levels"),
            value,
        );
    }
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (index, node) in items.iter().enumerate() {
        *nodes += 1;
        if *nodes > MAX_TREE_NODES {
            return fail(
                problems,
                "value_error",
                format!("Value error, a structure tree holds at most {MAX_TREE_NODES} nodes"),
                value,
            );
        }
        let checked = problems.within(Loc::Index(index), |p| {
            let Some(map) = node.as_object() else {
                return fail(
                    p,
                    "model_type",
                    "Input should be a valid dictionary or instance of a model".into(),
                    node,
                );
            };
            let before = p.total();
            let mut plain = map.clone();
            let children = plain.remove("children");
            let mut checked = check_object(TREE_NODE, Extra::Forbid, &plain, p);
            let children = match children {
                None | Some(Value::Null) => Some(Value::Array(Vec::new())),
                Some(children) => p.within(Loc::Key("children".into()), |p| {
                    nodes_of(&children, p, nodes, depth + 1, ids)
                }),
            };
            if p.total() != before {
                return None;
            }
            checked
                .entry("kind")
                .and_modify(|k| {
                    if k.is_null() {
                        *k = json!("other")
                    }
                })
                .or_insert(json!("other"));
            let start = checked.get("page_start").and_then(Value::as_i64);
            match (start, checked.get("page_end").and_then(Value::as_i64)) {
                (Some(start), Some(end)) if end < start => {
                    p.value_error("page_end", "page_end must not be below page_start");
                    return None;
                }
                (Some(start), None) => {
                    checked.insert("page_end".into(), json!(start));
                }
                _ => {}
            }
            if let Some(id) = checked.get("id").and_then(Value::as_str) {
                if !ids.insert(id.to_string()) {
                    p.value_error("id", "another node of the tree has this id");
                    return None;
                }
            }
            checked.insert("children".into(), children?);
            Some(Value::Object(checked))
        });
        match checked {
            Some(node) => out.push(node),
            None => ok = false,
        }
    }
    ok.then_some(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{list, Field, LICENSES, S2K};

    fn run(fields: &[Field], body: Value) -> (Map<String, Value>, Value) {
        let mut problems = Problems::new();
        let out = check_object(
            fields,
            Extra::Forbid,
            body.as_object().unwrap(),
            &mut problems,
        );
        (out, problems.to_json("body"))
    }

    const FIELDS: &[Field] = &[
        Field::req("title", S2K),
        Field::opt("year", Type::YearDate),
        Field::opt("url", Type::Url),
        Field::opt("license", Type::Enum(LICENSES)),
        Field::opt("tags", list(&S2K, 0, Some(2))),
        Field::opt(
            "count",
            Type::Int {
                min: Some(0),
                max: None,
            },
        ),
        Field::opt(
            "score",
            Type::Float {
                min: Some(0.0),
                max: Some(1.0),
            },
        ),
    ];

    #[test]
    fn pydantic_shaped_problems() {
        let (_, errors) = run(
            FIELDS,
            json!({"status": "active", "year": "soon", "url": "ftp://x", "license": "WTFPL",
                   "tags": ["a", "b", "c"], "count": -1, "score": 2}),
        );
        let kinds: Vec<(&str, String)> = errors
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["type"].as_str().unwrap(),
                    e["loc"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                )
            })
            .collect();
        assert!(
            kinds.contains(&("extra_forbidden", r#""body","status""#.into())),
            "{kinds:?}"
        );
        assert!(kinds.contains(&("missing", r#""body","title""#.into())));
        assert!(kinds.contains(&("url_scheme", r#""body","url""#.into())));
        assert!(kinds.contains(&("enum", r#""body","license""#.into())));
        assert!(kinds.contains(&("too_long", r#""body","tags""#.into())));
        assert!(kinds.contains(&("greater_than_equal", r#""body","count""#.into())));
        assert!(kinds.contains(&("less_than_equal", r#""body","score""#.into())));
        assert!(kinds.contains(&("value_error", r#""body","year""#.into())));
        let missing = errors
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "missing")
            .unwrap();
        assert_eq!(missing["msg"], "Field required");
    }

    #[test]
    fn values_are_normalised() {
        let (out, errors) = run(
            FIELDS,
            json!({"title": "  Lentils  ", "year": 2019, "url": "https://Example.org", "count": "4"}),
        );
        assert_eq!(errors, json!([]));
        assert_eq!(out["title"], "Lentils");
        assert_eq!(out["year"], "2019-01-01");
        assert_eq!(out["url"], "https://example.org/");
        assert_eq!(out["count"], 4);
    }

    #[test]
    fn optional_fields_take_null_and_required_ones_do_not() {
        let (_, errors) = run(FIELDS, json!({"title": "T", "count": null}));
        assert_eq!(errors, json!([]));
        let (_, errors) = run(FIELDS, json!({"title": null}));
        assert_eq!(errors[0]["type"], "string_type");
        let (_, errors) = run(FIELDS, json!({"title": " "}));
        assert_eq!(errors[0]["type"], "string_too_short");
    }

    #[test]
    fn problems_are_capped_and_counted() {
        let body: Map<String, Value> = (0..500).map(|i| (format!("k{i}"), json!(i))).collect();
        let mut problems = Problems::new();
        check_object(FIELDS, Extra::Forbid, &body, &mut problems);
        assert_eq!(
            problems.total(),
            501,
            "500 unknown keys and the missing title"
        );
        assert_eq!(problems.shown().len(), MAX_SHOWN);
        assert_eq!(problems.omitted(), 451);
    }

    #[test]
    fn trees_are_checked_and_completed() {
        let tree = json!({"roots": [{"id": "c1", "title": "One", "page_start": 1, "children": [
            {"id": "s1", "title": "1.1", "kind": "section", "page_start": 2, "page_end": 3}]}]});
        let mut problems = Problems::new();
        let out = check_value(&Type::Tree, &tree, &mut problems).unwrap();
        assert!(problems.is_empty());
        assert_eq!(out["roots"][0]["kind"], "other");
        assert_eq!(out["roots"][0]["page_end"], 1);
        let bad = json!({"roots": [{"id": "c1", "title": "One", "page_start": 4, "page_end": 2, "x": 1},
                                   {"id": "c1", "title": "Two", "kind": "volume", "page_start": 0}]});
        let mut problems = Problems::new();
        assert!(check_value(&Type::Tree, &bad, &mut problems).is_none());
        let kinds: Vec<&str> = problems.shown().iter().map(|p| p.kind).collect();
        assert!(kinds.contains(&"extra_forbidden"), "{kinds:?}");
        assert!(kinds.contains(&"enum"), "{kinds:?}");
        assert!(kinds.contains(&"greater_than_equal"), "{kinds:?}");
        let mut deep = json!([]);
        for level in 0..40 {
            deep = json!([{"id": format!("n{level}"), "title": "x", "page_start": 1, "children": deep}]);
        }
        let mut problems = Problems::new();
        assert!(check_value(&Type::Tree, &json!({"roots": deep}), &mut problems).is_none());
    }

    #[test]
    fn helpers() {
        assert!(is_datetime("2020-02-29T10:00:00Z"));
        assert!(is_datetime("2020-02-29"));
        assert!(is_datetime("2020-02-29T10:00:00.123+02:00"));
        assert!(!is_datetime("2019-02-29"));
        assert!(!is_datetime("2020-02-29T25:00"));
        assert_eq!(normalise_file_type("application/pdf"), "pdf");
        assert_eq!(normalise_file_type(".PDF"), "pdf");
        assert_eq!(normalise_file_type("text/plain"), "txt");
        assert!(is_valid_urn("urn:guide:eat-well"));
        assert!(!is_valid_urn("urn:Guide:x"));
        assert!(is_canonical_uuid("0b6f0c2e-1111-4222-8333-444455556666"));
        assert!(!is_canonical_uuid("0B6F0C2E-1111-4222-8333-444455556666"));
        assert_eq!(
            parse_uuid("0B6F0C2E111142228333444455556666").as_deref(),
            Some("0b6f0c2e-1111-4222-8333-444455556666")
        );
    }
}
