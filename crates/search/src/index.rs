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

pub use crate::column::{Column, FacetKey, Scalar, MAX_VALUE_LEN};

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

const K1: f64 = 1.2;
const B: f64 = 0.75;
const TITLE_WEIGHT: f64 = 2.0;
const BODY_WEIGHT: f64 = 1.0;

#[derive(Clone, Copy, Debug)]
struct Posting {
    rid: u32,
    title: u16,
    body: u16,
}

/// One indexed record: what a write needs to undo its entries, and what visibility needs.
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
    terms: Vec<u32>,
    fields: Vec<u16>,
}

/// What every pass over a search's hits reads of a record, in one dense array indexed by record
/// id: the pass then reads memory in order instead of following each record's allocation.
#[derive(Clone, Copy, Debug, Default)]
struct Meta {
    /// The collection's position in `COLLECTIONS` plus one; 0 where no record is indexed.
    collection: u8,
    title_len: u32,
    body_len: u32,
}

/// A collection as the index numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectionNumber(u8);

/// The whole index.
pub struct Index {
    docs: Vec<Option<Doc>>,
    meta: Vec<Meta>,
    by_urn: HashMap<Arc<str>, u32>,
    term_ids: HashMap<Box<str>, u32>,
    postings: Vec<Vec<Posting>>,
    field_ids: HashMap<Box<str>, u16>,
    field_names: Vec<Box<str>>,
    columns: Vec<Column>,
    count: u64,
    title_total: u64,
    body_total: u64,
    stemmer: Stemmer,
}

impl Default for Index {
    fn default() -> Self {
        Index {
            docs: Vec::new(),
            meta: Vec::new(),
            by_urn: HashMap::new(),
            term_ids: HashMap::new(),
            postings: Vec::new(),
            field_ids: HashMap::new(),
            field_names: Vec::new(),
            columns: Vec::new(),
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
        self.columns.push(Column::default());
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
        let mut fields = Vec::new();
        for (field, value) in values {
            if self.columns[field as usize].add(rid, value) {
                fields.push(field);
            }
        }
        let urn: Option<Arc<str>> = doc["urn"].as_str().map(Arc::from);
        if let Some(urn) = &urn {
            self.by_urn.insert(urn.clone(), rid);
        }
        if self.docs.len() <= rid as usize {
            self.docs.resize_with(rid as usize + 1, || None);
            self.meta.resize(rid as usize + 1, Meta::default());
        }
        self.meta[rid as usize] = Meta {
            collection: Self::number(collection).0,
            title_len,
            body_len,
        };
        self.count += 1;
        self.title_total += u64::from(title_len);
        self.body_total += u64::from(body_len);
        self.docs[rid as usize] = Some(Doc {
            collection,
            urn,
            parent: parent.map(Arc::from),
            own_visible: own_visibility(collection.read_rule, doc),
            terms,
            fields,
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
        for field in &doc.fields {
            self.columns[*field as usize].remove(rid);
        }
        let meta = std::mem::take(&mut self.meta[rid as usize]);
        if let Some(urn) = &doc.urn {
            if self.by_urn.get(urn) == Some(&rid) {
                self.by_urn.remove(urn);
            }
        }
        self.count -= 1;
        self.title_total -= u64::from(meta.title_len);
        self.body_total -= u64::from(meta.body_len);
    }

    /// The number of `collection`.
    pub fn number(collection: &Collection) -> CollectionNumber {
        let at = COLLECTIONS.iter().position(|c| c.path == collection.path);
        CollectionNumber(at.map_or(0, |at| at as u8 + 1))
    }

    /// Whether record `rid` is indexed and belongs to the collection numbered `number`.
    pub fn is_in(&self, rid: u32, number: CollectionNumber) -> bool {
        self.meta
            .get(rid as usize)
            .is_some_and(|meta| meta.collection != 0 && meta.collection == number.0)
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
        let number = Self::number(collection);
        (0..self.meta.len() as u32)
            .filter(|rid| self.is_in(*rid, number))
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
                let Some(doc) = self.meta.get(*rid as usize).filter(|m| m.collection != 0) else {
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

    /// The column of `field` (a dotted path), if some record has had a value there.
    pub fn column(&self, field: &str) -> Option<&Column> {
        self.field_ids
            .get(field)
            .map(|id| &self.columns[*id as usize])
    }

    /// The columns of `field` and of every field under it (`geographic_context:*`).
    pub fn columns_under(&self, field: &str) -> Vec<&Column> {
        self.field_names
            .iter()
            .zip(&self.columns)
            .filter(|(name, _)| {
                name.as_ref() == field
                    || (name.starts_with(field) && name.as_bytes().get(field.len()) == Some(&b'.'))
            })
            .map(|(_, column)| column)
            .collect()
    }

    /// The values of `field` (a dotted path) of record `rid`, in order.
    pub fn values_of(&self, rid: u32, field: &str) -> Vec<&Scalar> {
        self.column(field)
            .map(|column| column.ids(rid).map(|id| column.value(id)).collect())
            .unwrap_or_default()
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
        assert_eq!(index.values_of(1, "year"), [&Scalar::Int(2001)]);
        index.put(
            1,
            &ARTICLES,
            None,
            &json!({"title": "Zinc", "status": "active"}),
        );
        assert_eq!(index.matching(&q), Some(vec![2, 3]));
        assert_eq!(index.values_of(1, "year"), Vec::<&Scalar>::new());
        index.remove(2);
        assert_eq!(index.matching(&q), Some(vec![3]));
        assert_eq!(index.len(), 2);
        assert_eq!(index.matching(&["absent".into()]), Some(vec![]));
        assert_eq!(index.matching(&[]), None);
    }

    #[test]
    fn columns_keep_lists_in_order_and_reuse_values_no_record_holds() {
        let text = |s: &str| Scalar::Str(s.into());
        let mut index = Index::default();
        let article =
            |keywords: Value| json!({"title": "T", "status": "active", "keywords": keywords});
        index.put(1, &ARTICLES, None, &article(json!(["x", "y", "x"])));
        index.put(2, &ARTICLES, None, &article(json!(["y"])));
        assert_eq!(
            index.values_of(1, "keywords"),
            [&text("x"), &text("y"), &text("x")]
        );
        let keywords = index.column("keywords").unwrap();
        assert!(keywords.has_lists());
        assert_eq!(keywords.ids_len(), 2, "one id per distinct value");

        index.put(1, &ARTICLES, None, &article(json!(["z"])));
        assert_eq!(index.values_of(1, "keywords"), [&text("z")]);
        assert_eq!(index.values_of(2, "keywords"), [&text("y")]);
        assert_eq!(
            index.column("keywords").unwrap().ids_len(),
            2,
            "z took the id x left"
        );
        index.remove(2);
        assert_eq!(index.values_of(2, "keywords"), Vec::<&Scalar>::new());
        assert_eq!(index.all_of(&ARTICLES), [1]);
    }
}
