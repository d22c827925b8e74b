//! A record's short values (for filters, sorting and facets) and the columns that hold them: per
//! field, each record's value as a small id into the field's dictionary of distinct values, so
//! a search reads one array per field and decides or counts once per distinct value.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::firsts::Firsts;

/// Strings longer than this are searchable as text but not kept as filterable values.
pub const MAX_VALUE_LEN: usize = 512;

/// A short value of a record, for filters, sorting and facets.
#[derive(Clone, Debug)]
pub enum Scalar {
    /// true or false.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// Another number.
    Float(f64),
    /// A string of at most [`MAX_VALUE_LEN`] bytes, shared by a column's dictionary and its
    /// lookup table.
    Str(Arc<str>),
}

/// Equal as facets count them: floats by their bits, so equality and hashing agree.
impl PartialEq for Scalar {
    fn eq(&self, other: &Scalar) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Scalar {}

impl std::hash::Hash for Scalar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Scalar {
    /// The value as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            Scalar::Bool(b) => Value::Bool(*b),
            Scalar::Int(n) => Value::from(*n),
            Scalar::Float(f) => Value::from(*f),
            Scalar::Str(s) => Value::String(s.to_string()),
        }
    }

    /// The value as text, as a filter compares it (`true`, `2019`, `active`).
    pub fn as_text(&self) -> String {
        match self {
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(n) => n.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Str(s) => s.to_string(),
        }
    }

    /// The value as a number, when it is one.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Scalar::Int(n) => Some(*n as f64),
            Scalar::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// SQLite's order of values: numbers, then text (booleans are numbers 0 and 1 there).
    pub fn order(&self, other: &Scalar) -> std::cmp::Ordering {
        let rank = |s: &Scalar| match s {
            Scalar::Bool(_) | Scalar::Int(_) | Scalar::Float(_) => 0,
            Scalar::Str(_) => 1,
        };
        let number = |s: &Scalar| match s {
            Scalar::Bool(b) => f64::from(u8::from(*b)),
            other => other.as_number().unwrap_or_default(),
        };
        rank(self)
            .cmp(&rank(other))
            .then_with(|| match (self, other) {
                (Scalar::Str(a), Scalar::Str(b)) => a.cmp(b),
                _ => number(self).total_cmp(&number(other)),
            })
    }

    /// A key for counting equal values in facets, borrowed (no allocation per value). Floats
    /// compare by their bits: equal bits, equal shortest text, for every value JSON can carry.
    pub fn key(&self) -> FacetKey<'_> {
        match self {
            Scalar::Bool(b) => FacetKey::Bool(*b),
            Scalar::Int(n) => FacetKey::Int(*n),
            Scalar::Float(f) => FacetKey::Float(f.to_bits()),
            Scalar::Str(s) => FacetKey::Str(s),
        }
    }
}

/// See [`Scalar::key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FacetKey<'a> {
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// Another number, by its bits.
    Float(u64),
    /// A string.
    Str(&'a str),
}

/// The distinct values of one field, each with a small id; a value is kept while a record
/// holds it.
#[derive(Default)]
struct Dictionary {
    values: Vec<Scalar>,
    holders: Vec<u32>,
    ids: HashMap<Scalar, u32>,
    free: Vec<u32>,
}

impl Dictionary {
    fn intern(&mut self, value: Scalar) -> u32 {
        if let Some(id) = self.ids.get(&value) {
            self.holders[*id as usize] += 1;
            return *id;
        }
        let id = match self.free.pop() {
            Some(id) => {
                self.values[id as usize] = value.clone();
                self.holders[id as usize] = 1;
                id
            }
            None => {
                self.values.push(value.clone());
                self.holders.push(1);
                (self.values.len() - 1) as u32
            }
        };
        self.ids.insert(value, id);
        id
    }

    fn release(&mut self, id: u32) {
        let holders = &mut self.holders[id as usize];
        *holders -= 1;
        if *holders == 0 {
            // The placeholder lets a freed string go now, not when its id is reused.
            let value = std::mem::replace(&mut self.values[id as usize], Scalar::Bool(false));
            self.ids.remove(&value);
            self.free.push(id);
            if self.ids.is_empty() {
                *self = Dictionary::default();
            }
        }
    }

    /// Bytes held, roughly: the values (strings included), their counts and the lookup table.
    fn bytes(&self) -> usize {
        let strings: usize = self
            .ids
            .keys()
            .map(|v| match v {
                Scalar::Str(s) => s.len(),
                _ => 0,
            })
            .sum();
        strings
            + self.values.capacity() * std::mem::size_of::<Scalar>()
            + self.holders.capacity() * 4
            + self.free.capacity() * 4
            + self.ids.capacity() * (std::mem::size_of::<Scalar>() + 4)
    }
}

/// One field's values for every record: filters, sorting and facets read a record's value id
/// from one array, and decide or count per distinct value rather than per record.
#[derive(Default)]
pub struct Column {
    /// Each record's first value id (dense or sparse, see `firsts.rs`).
    first: Firsts,
    /// Records holding a list: the ids of the values after the first, in order.
    rest: HashMap<u32, Vec<u32>>,
    dictionary: Dictionary,
}

impl Column {
    /// Adds a value of record `rid`; whether it is the record's first in this column.
    pub(crate) fn add(&mut self, rid: u32, value: Scalar) -> bool {
        let id = self.dictionary.intern(value);
        if self.first.get(rid).is_none() {
            self.first.set(rid, id);
            true
        } else {
            self.rest.entry(rid).or_default().push(id);
            false
        }
    }

    /// Forgets every value of record `rid`.
    pub(crate) fn remove(&mut self, rid: u32) {
        let Some(id) = self.first.take(rid) else {
            return;
        };
        self.dictionary.release(id);
        for id in self.rest.remove(&rid).unwrap_or_default() {
            self.dictionary.release(id);
        }
        if self.rest.is_empty() && self.rest.capacity() > 0 {
            self.rest = HashMap::new();
        }
    }

    /// Whether no record holds a value here.
    pub fn is_empty(&self) -> bool {
        self.first.holders() == 0
    }

    /// Bytes held, roughly.
    pub fn bytes(&self) -> usize {
        self.first.bytes()
            + self.dictionary.bytes()
            + self
                .rest
                .values()
                .map(|ids| ids.capacity() * 4 + 16)
                .sum::<usize>()
            + self.rest.capacity() * 32
    }

    /// The id of record `rid`'s first value.
    #[inline]
    pub fn first(&self, rid: u32) -> Option<u32> {
        self.first.get(rid)
    }

    /// The ids of every value of record `rid`, in order.
    pub fn ids(&self, rid: u32) -> impl Iterator<Item = u32> + '_ {
        let rest = if self.rest.is_empty() {
            None
        } else {
            self.rest.get(&rid)
        };
        self.first(rid)
            .into_iter()
            .chain(rest.into_iter().flatten().copied())
    }

    /// Whether some record holds more than one value.
    pub fn has_lists(&self) -> bool {
        !self.rest.is_empty()
    }

    /// The value with id `id`.
    pub fn value(&self, id: u32) -> &Scalar {
        &self.dictionary.values[id as usize]
    }

    /// How many value ids there are (some may be free).
    pub fn ids_len(&self) -> usize {
        self.dictionary.values.len()
    }
}
