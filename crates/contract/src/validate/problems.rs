//! The problems a check finds, shaped like pydantic's errors (`type`, `loc`, `msg`, `input`,
//! `ctx`): where each one is, how many were found, and the first [`MAX_SHOWN`] kept.

use serde_json::{json, Value};

use super::MAX_SHOWN;

/// The longest string echoed back as a problem's `input`.
const MAX_ECHOED: usize = 200;

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

/// Records a problem about the value at the current location; answers `None` so a check can
/// `return fail(..)`.
pub(super) fn fail(
    problems: &mut Problems,
    kind: &'static str,
    msg: String,
    value: &Value,
) -> Option<Value> {
    problems.add(None, kind, msg, Some(value), None);
    None
}

/// [`fail`] with the rule's parameters (`{"max_length": 2000}`).
pub(super) fn fail_ctx(
    problems: &mut Problems,
    kind: &'static str,
    msg: String,
    value: &Value,
    ctx: Value,
) -> Option<Value> {
    problems.add(None, kind, msg, Some(value), Some(ctx));
    None
}
