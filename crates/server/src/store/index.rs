//! The search index: an inverted index of every record's text, and its short scalar values, in
//! memory. The database stays the record of truth; the index is built from it at start and kept
//! in step after every committed write, so a search never walks documents' JSON.
//!
//! Text is split as SQLite's `unicode61 remove_diacritics 2` tokenizer splits it (letters and
//! digits, lower-cased, accents removed) and stemmed (Snowball English); relevance is BM25 with
//! SQLite FTS5's constants and column weights (title 2, body 1).

use std::collections::HashMap;
use std::sync::Arc;

use larder_contract::collections::ReadRule;
use larder_contract::{Collection, COLLECTIONS};
use rust_stemmers::{Algorithm, Stemmer};
use serde_json::Value;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Fields whose text is the body column (after the title).
pub const BODY_FIELDS: &[&str] = &[
    "abstract",
    "content",
    "description",
    "rule_text",
    "text",
    "notes",
    "short_title",
    "subtitle",
    "keywords",
    "tags",
    "topics",
    "authors",
    "ai_tags",
];

/// Strings longer than this are searchable as text but not kept as filterable values.
pub const MAX_VALUE_LEN: usize = 512;

const K1: f64 = 1.2;
const B: f64 = 0.75;
const TITLE_WEIGHT: f64 = 2.0;
const BODY_WEIGHT: f64 = 1.0;

/// A short value of a record, for filters, sorting and facets.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// true or false.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// Another number.
    Float(f64),
    /// A string of at most [`MAX_VALUE_LEN`] bytes.
    Str(Box<str>),
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

#[derive(Clone, Copy, Debug)]
struct Posting {
    rid: u32,
    title: u16,
    body: u16,
}

/// One indexed record.
#[derive(Debug)]
pub struct Doc {
    /// Its collection.
    pub collection: &'static Collection,
    /// Its full URN, for URN collections.
    pub urn: Option<Arc<str>>,
    /// The full URN of its parent, for children.
    pub parent: Option<Arc<str>>,
    /// Whether callers without `admin` or `expert` may see it by its own fields (the parent
    /// decides for children that read as their parent).
    pub own_visible: bool,
    /// Its status is `deleted`.
    pub deleted: bool,
    title_len: u32,
    body_len: u32,
    terms: Vec<u32>,
    values: Vec<(u16, Scalar)>,
}

/// The whole index.
pub struct Index {
    docs: Vec<Option<Doc>>,
    by_urn: HashMap<Arc<str>, u32>,
    term_ids: HashMap<Box<str>, u32>,
    postings: Vec<Vec<Posting>>,
    field_ids: HashMap<Box<str>, u16>,
    field_names: Vec<Box<str>>,
    count: u64,
    title_total: u64,
    body_total: u64,
    stemmer: Stemmer,
}

impl Default for Index {
    fn default() -> Self {
        Index {
            docs: Vec::new(),
            by_urn: HashMap::new(),
            term_ids: HashMap::new(),
            postings: Vec::new(),
            field_ids: HashMap::new(),
            field_names: Vec::new(),
            count: 0,
            title_total: 0,
            body_total: 0,
            stemmer: Stemmer::create(Algorithm::English),
        }
    }
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Index({} records, {} terms)",
            self.count,
            self.term_ids.len()
        )
    }
}

/// Splits `text` into search tokens: runs of letters and digits, lower-cased, without accents,
/// stemmed.
pub fn tokens<'a>(stemmer: &'a Stemmer, text: &'a str) -> impl Iterator<Item = String> + 'a {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(move |word| {
            let folded: String = word
                .nfd()
                .filter(|c| !is_combining_mark(*c))
                .flat_map(char::to_lowercase)
                .collect();
            stemmer.stem(&folded).into_owned()
        })
}

fn text_of(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push(' ');
            out.push_str(s);
        }
        Value::Array(items) => items.iter().for_each(|item| text_of(item, out)),
        Value::Number(n) => {
            out.push(' ');
            out.push_str(&n.to_string());
        }
        _ => {}
    }
}

/// Whether a record is visible to callers without `admin` or `expert` by its own fields.
pub fn own_visibility(rule: ReadRule, doc: &Value) -> bool {
    let active_or_verified = doc["status"] == "active"
        || (doc["review_status"] == "verified" && doc["status"] != "deleted");
    match rule {
        ReadRule::Always | ReadRule::AsParent => true,
        ReadRule::ActiveOrVerified => active_or_verified,
        ReadRule::PublicAndActiveOrVerified => doc["visibility"] == "public" && active_or_verified,
    }
}

impl Index {
    fn term_id(&mut self, term: String) -> u32 {
        if let Some(id) = self.term_ids.get(term.as_str()) {
            return *id;
        }
        let id = self.postings.len() as u32;
        self.postings.push(Vec::new());
        self.term_ids.insert(term.into_boxed_str(), id);
        id
    }

    fn field_id(&mut self, field: &str) -> u16 {
        if let Some(id) = self.field_ids.get(field) {
            return *id;
        }
        let id = self.field_ids.len() as u16;
        self.field_ids.insert(field.into(), id);
        self.field_names.push(field.into());
        id
    }

    fn values(&mut self, prefix: &str, value: &Value, out: &mut Vec<(u16, Scalar)>, depth: usize) {
        let scalar = match value {
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            Value::Number(n) => Some(match n.as_i64() {
                Some(i) => Scalar::Int(i),
                None => Scalar::Float(n.as_f64().unwrap_or_default()),
            }),
            Value::String(s) if s.len() <= MAX_VALUE_LEN => Some(Scalar::Str(s.as_str().into())),
            _ => None,
        };
        if let Some(scalar) = scalar {
            if !prefix.is_empty() && self.field_ids.len() < u16::MAX as usize {
                let id = self.field_id(prefix);
                out.push((id, scalar));
            }
            return;
        }
        if depth > 4 {
            return;
        }
        match value {
            Value::Array(items) => {
                for item in items.iter().filter(|i| !i.is_array() && !i.is_object()) {
                    self.values(prefix, item, out, depth + 1);
                }
            }
            Value::Object(map) if prefix.len() < 200 => {
                for (key, child) in map {
                    let path = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}.{key}")
                    };
                    self.values(&path, child, out, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// Indexes (or re-indexes) record `rid` of `collection`.
    pub fn put(
        &mut self,
        rid: i64,
        collection: &'static Collection,
        parent: Option<&str>,
        doc: &Value,
    ) {
        self.remove(rid);
        let Ok(rid) = u32::try_from(rid) else {
            return;
        };
        let mut counts: HashMap<u32, (u16, u16)> = HashMap::new();
        let title = doc["title"].as_str().unwrap_or_default().to_string();
        let mut body = String::new();
        for field in BODY_FIELDS {
            text_of(&doc[*field], &mut body);
        }
        let title_tokens: Vec<String> = tokens(&self.stemmer, &title).collect();
        let body_tokens: Vec<String> = tokens(&self.stemmer, &body).collect();
        let (title_len, body_len) = (title_tokens.len() as u32, body_tokens.len() as u32);
        for token in title_tokens {
            let id = self.term_id(token);
            let entry = counts.entry(id).or_default();
            entry.0 = entry.0.saturating_add(1);
        }
        for token in body_tokens {
            let id = self.term_id(token);
            let entry = counts.entry(id).or_default();
            entry.1 = entry.1.saturating_add(1);
        }
        let mut terms: Vec<u32> = counts.keys().copied().collect();
        terms.sort_unstable();
        for term in &terms {
            let (title, body) = counts[term];
            let list = &mut self.postings[*term as usize];
            let posting = Posting { rid, title, body };
            match list.last() {
                Some(last) if last.rid > rid => {
                    let at = list.partition_point(|p| p.rid < rid);
                    list.insert(at, posting);
                }
                _ => list.push(posting),
            }
        }
        let mut values = Vec::new();
        self.values("", doc, &mut values, 0);
        let urn: Option<Arc<str>> = doc["urn"].as_str().map(Arc::from);
        if let Some(urn) = &urn {
            self.by_urn.insert(urn.clone(), rid);
        }
        if self.docs.len() <= rid as usize {
            self.docs.resize_with(rid as usize + 1, || None);
        }
        self.count += 1;
        self.title_total += u64::from(title_len);
        self.body_total += u64::from(body_len);
        self.docs[rid as usize] = Some(Doc {
            collection,
            urn,
            parent: parent.map(Arc::from),
            own_visible: own_visibility(collection.read_rule, doc),
            deleted: doc["status"] == "deleted",
            title_len,
            body_len,
            terms,
            values,
        });
    }

    /// Forgets record `rid`.
    pub fn remove(&mut self, rid: i64) {
        let Ok(rid) = u32::try_from(rid) else {
            return;
        };
        let Some(doc) = self.docs.get_mut(rid as usize).and_then(Option::take) else {
            return;
        };
        for term in &doc.terms {
            let list = &mut self.postings[*term as usize];
            if let Ok(at) = list.binary_search_by_key(&rid, |p| p.rid) {
                list.remove(at);
            }
        }
        if let Some(urn) = &doc.urn {
            if self.by_urn.get(urn) == Some(&rid) {
                self.by_urn.remove(urn);
            }
        }
        self.count -= 1;
        self.title_total -= u64::from(doc.title_len);
        self.body_total -= u64::from(doc.body_len);
    }

    /// The record `rid`, if indexed.
    pub fn doc(&self, rid: u32) -> Option<&Doc> {
        self.docs.get(rid as usize).and_then(Option::as_ref)
    }

    /// Whether callers without `admin` or `expert` may see record `rid`, its parent included.
    pub fn publicly_visible(&self, doc: &Doc) -> bool {
        if !doc.own_visible {
            return false;
        }
        if doc.collection.read_rule != ReadRule::AsParent {
            return true;
        }
        let Some(parent) = doc
            .parent
            .as_ref()
            .and_then(|urn| self.by_urn.get(urn))
            .and_then(|rid| self.doc(*rid))
        else {
            return false;
        };
        parent.own_visible
    }

    /// The record ids holding every term of `query` (tokenised and stemmed), ascending; `None`
    /// for an empty query.
    pub fn matching(&self, query: &[String]) -> Option<Vec<u32>> {
        let mut lists: Vec<&Vec<Posting>> = Vec::new();
        for word in query {
            for token in tokens(&self.stemmer, word) {
                match self.term_ids.get(token.as_str()) {
                    Some(id) => lists.push(&self.postings[*id as usize]),
                    None => return Some(Vec::new()),
                }
            }
        }
        if lists.is_empty() {
            return None;
        }
        lists.sort_by_key(|l| l.len());
        let mut hits: Vec<u32> = lists[0].iter().map(|p| p.rid).collect();
        for list in &lists[1..] {
            hits.retain(|rid| list.binary_search_by_key(rid, |p| p.rid).is_ok());
        }
        Some(hits)
    }

    /// Every record id of `collection`, ascending.
    pub fn all_of(&self, collection: &Collection) -> Vec<u32> {
        self.docs
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                d.as_ref()
                    .is_some_and(|d| d.collection.path == collection.path)
            })
            .map(|(rid, _)| rid as u32)
            .collect()
    }

    /// BM25 relevance of each record of `rids` for the query's terms (FTS5's formula and
    /// constants: k1 1.2, b 0.75, IDF floored at 1e-6, title weighted 2 and body 1).
    pub fn scores(&self, rids: &[u32], query: &[String]) -> Vec<f64> {
        let n = self.count.max(1) as f64;
        let avg_title = (self.title_total as f64 / n).max(1e-9);
        let avg_body = (self.body_total as f64 / n).max(1e-9);
        let mut lists: Vec<(&Vec<Posting>, f64)> = Vec::new();
        for word in query {
            for token in tokens(&self.stemmer, word) {
                if let Some(id) = self.term_ids.get(token.as_str()) {
                    let list = &self.postings[*id as usize];
                    let with_term = list.len() as f64;
                    let idf = ((n - with_term + 0.5) / (with_term + 0.5)).ln();
                    lists.push((list, if idf <= 0.0 { 1e-6 } else { idf }));
                }
            }
        }
        let part = |idf: f64, tf: u16, len: u32, avg: f64, weight: f64| {
            let tf = f64::from(tf);
            weight * idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * f64::from(len) / avg))
        };
        // Hits come in ascending order, as postings do: a cursor walks each list once instead of
        // searching it for every hit, unless the list is far longer than the hits.
        let ascending = rids.windows(2).all(|w| w[0] < w[1]);
        let walks: Vec<bool> = lists
            .iter()
            .map(|(list, _)| ascending && rids.len().saturating_mul(8) >= list.len())
            .collect();
        let mut cursors = vec![0usize; lists.len()];
        rids.iter()
            .map(|rid| {
                let Some(doc) = self.doc(*rid) else {
                    return 0.0;
                };
                let mut score = 0.0;
                for (((list, idf), walk), at) in lists.iter().zip(&walks).zip(cursors.iter_mut()) {
                    let found = if *walk {
                        while *at < list.len() && list[*at].rid < *rid {
                            *at += 1;
                        }
                        list.get(*at).filter(|p| p.rid == *rid)
                    } else {
                        list.binary_search_by_key(rid, |p| p.rid)
                            .ok()
                            .map(|i| &list[i])
                    };
                    if let Some(posting) = found {
                        score += part(*idf, posting.title, doc.title_len, avg_title, TITLE_WEIGHT)
                            + part(*idf, posting.body, doc.body_len, avg_body, BODY_WEIGHT);
                    }
                }
                score
            })
            .collect()
    }

    /// Whether record `doc` has a value at `field`, or under it (`geographic_context:*`).
    pub fn has_field(&self, doc: &Doc, field: &str) -> bool {
        doc.values.iter().any(|(id, _)| {
            let name = &self.field_names[*id as usize];
            name.as_ref() == field
                || (name.starts_with(field) && name.as_bytes().get(field.len()) == Some(&b'.'))
        })
    }

    /// The id of a field name, resolved once per search rather than once per record.
    pub fn known_field(&self, field: &str) -> Option<u16> {
        self.field_ids.get(field).copied()
    }

    /// The values of the field with id `id` of record `doc` (none for an unknown field).
    pub fn values_by_id<'a>(
        &'a self,
        doc: &'a Doc,
        id: Option<u16>,
    ) -> impl Iterator<Item = &'a Scalar> + 'a {
        doc.values
            .iter()
            .filter(move |(f, _)| Some(*f) == id)
            .map(|(_, v)| v)
    }

    /// The values of `field` (a dotted path) of record `rid`.
    pub fn values_of<'a>(
        &'a self,
        doc: &'a Doc,
        field: &str,
    ) -> impl Iterator<Item = &'a Scalar> + 'a {
        let id = self.field_ids.get(field).copied();
        doc.values
            .iter()
            .filter(move |(f, _)| Some(*f) == id)
            .map(|(_, v)| v)
    }

    /// How many records are indexed.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The collection of a stored collection name.
    pub fn collection_of(path: &str) -> Option<&'static Collection> {
        COLLECTIONS.iter().find(|c| c.path == path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::{ARTICLES, GUIDES};
    use serde_json::json;

    #[test]
    fn tokens_fold_accents_case_and_stems() {
        let stemmer = Stemmer::create(Algorithm::English);
        let words: Vec<String> = tokens(&stemmer, "Café SUPPLEMENTS, vitamins-D").collect();
        assert_eq!(words, ["cafe", "supplement", "vitamin", "d"]);
    }

    #[test]
    fn put_match_score_remove() {
        let mut index = Index::default();
        index.put(
            1,
            &ARTICLES,
            None,
            &json!({"title": "Vitamin D", "abstract": "bones", "status": "active", "year": 2001}),
        );
        index.put(
            2,
            &ARTICLES,
            None,
            &json!({"title": "Iron", "abstract": "vitamin C and iron", "status": "active"}),
        );
        index.put(
            3,
            &GUIDES,
            None,
            &json!({"title": "Vitamins", "status": "draft"}),
        );
        let q = vec!["vitamin".to_string()];
        assert_eq!(index.matching(&q), Some(vec![1, 2, 3]));
        let scores = index.scores(&[1, 2], &q);
        assert!(
            scores[0] > scores[1],
            "a title match weighs more: {scores:?}"
        );
        assert!(!index.doc(3).unwrap().own_visible);
        let year: Vec<&Scalar> = index.values_of(index.doc(1).unwrap(), "year").collect();
        assert_eq!(year, [&Scalar::Int(2001)]);
        index.put(
            1,
            &ARTICLES,
            None,
            &json!({"title": "Zinc", "status": "active"}),
        );
        assert_eq!(index.matching(&q), Some(vec![2, 3]));
        index.remove(2);
        assert_eq!(index.matching(&q), Some(vec![3]));
        assert_eq!(index.len(), 2);
        assert_eq!(index.matching(&["absent".into()]), Some(vec![]));
        assert_eq!(index.matching(&[]), None);
    }
}
