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
use larder_contract::limits::MAX_NESTED_VALUES;
use larder_contract::{Collection, COLLECTIONS};
use rust_stemmers::{Algorithm, Stemmer};
use serde_json::Value;

pub use crate::column::{Column, FacetKey, Scalar, MAX_VALUE_LEN};
use crate::text::text_of;
pub use crate::text::{folded_words, own_visibility, tokens, BODY_FIELDS};

/// The most indexed terms one word of a word-prefix search stands for, the most frequent
/// first: a one-letter word would otherwise stand for a good part of the vocabulary.
pub const MAX_PREFIX_TERMS: usize = 256;

mod fields;
mod ranking;

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

/// See [`Index::size`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSize {
    /// Records indexed.
    pub records: u64,
    /// Distinct terms some record holds.
    pub terms: usize,
    /// Fields some record holds a value of.
    pub fields: usize,
    /// Bytes the columns of values hold, roughly (part of `bytes`).
    pub column_bytes: usize,
    /// Bytes held, roughly (capacities included).
    pub bytes: usize,
}

/// A collection as the index numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectionNumber(u8);

/// The whole index.
pub struct Index {
    docs: Vec<Option<Doc>>,
    meta: Vec<Meta>,
    by_urn: HashMap<Arc<str>, u32>,
    term_ids: HashMap<Arc<str>, u32>,
    /// By term id: the term, `None` once no record holds it (its id is then in `free_terms`).
    term_names: Vec<Option<Arc<str>>>,
    free_terms: Vec<u32>,
    postings: Vec<Vec<Posting>>,
    field_ids: HashMap<Arc<str>, u16>,
    /// By field id: the dotted path, `None` once no record holds a value there.
    field_names: Vec<Option<Arc<str>>>,
    free_fields: Vec<u16>,
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
            term_names: Vec::new(),
            free_terms: Vec::new(),
            postings: Vec::new(),
            field_ids: HashMap::new(),
            field_names: Vec::new(),
            free_fields: Vec::new(),
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

impl Index {
    fn term_id(&mut self, term: String) -> u32 {
        if let Some(id) = self.term_ids.get(term.as_str()) {
            return *id;
        }
        let name: Arc<str> = term.into();
        let id = match self.free_terms.pop() {
            Some(id) => {
                self.term_names[id as usize] = Some(name.clone());
                id
            }
            None => {
                self.postings.push(Vec::new());
                self.term_names.push(Some(name.clone()));
                (self.postings.len() - 1) as u32
            }
        };
        self.term_ids.insert(name, id);
        id
    }

    /// Forgets term `id` once no record holds it, so its id and its text can be reused.
    fn release_term(&mut self, id: u32) {
        let list = &mut self.postings[id as usize];
        if !list.is_empty() {
            if list.capacity() > 2 * list.len() + 8 {
                list.shrink_to(list.len() + list.len() / 2);
            }
            return;
        }
        *list = Vec::new();
        if let Some(name) = self.term_names[id as usize].take() {
            self.term_ids.remove(&name);
        }
        self.free_terms.push(id);
    }

    fn field_id(&mut self, field: &str) -> u16 {
        if let Some(id) = self.field_ids.get(field) {
            return *id;
        }
        let name: Arc<str> = field.into();
        let id = match self.free_fields.pop() {
            Some(id) => {
                self.field_names[id as usize] = Some(name.clone());
                id
            }
            None => {
                self.field_names.push(Some(name.clone()));
                self.columns.push(Column::default());
                (self.columns.len() - 1) as u16
            }
        };
        self.field_ids.insert(name, id);
        id
    }

    /// Forgets field `id` once no record holds a value there.
    fn release_field(&mut self, id: u16) {
        if !self.columns[id as usize].is_empty() {
            return;
        }
        self.columns[id as usize] = Column::default();
        if let Some(name) = self.field_names[id as usize].take() {
            self.field_ids.remove(&name);
        }
        self.free_fields.push(id);
    }

    /// Collects the short values of `value` under the dotted path `prefix`. Values below the
    /// top level (free-form objects such as `extras`) draw on `nested`, so one record cannot
    /// open more than [`MAX_NESTED_VALUES`] of them.
    fn values(
        &mut self,
        prefix: &str,
        value: &Value,
        out: &mut Vec<(u16, Scalar)>,
        depth: usize,
        nested: &mut usize,
    ) {
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
            if prefix.contains('.') {
                if *nested == 0 {
                    return;
                }
                *nested -= 1;
            }
            if !prefix.is_empty()
                && (self.field_ids.contains_key(prefix)
                    || !self.free_fields.is_empty()
                    || self.columns.len() < u16::MAX as usize)
            {
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
                    self.values(prefix, item, out, depth + 1, nested);
                }
            }
            Value::Object(map) if prefix.len() < 200 => {
                for (key, child) in map {
                    let path = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}.{key}")
                    };
                    self.values(&path, child, out, depth + 1, nested);
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
        let mut nested = MAX_NESTED_VALUES;
        self.values("", doc, &mut values, 0, &mut nested);
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
            self.release_term(*term);
        }
        for field in &doc.fields {
            self.columns[*field as usize].remove(rid);
            self.release_field(*field);
        }
        let meta = std::mem::take(&mut self.meta[rid as usize]);
        while self.docs.last().is_some_and(Option::is_none) {
            self.docs.pop();
            self.meta.pop();
        }
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
            .filter_map(|(name, column)| Some((name.as_ref()?, column)))
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

    /// What the index holds and roughly how many bytes: a measure that must come back to where
    /// it was once the records written since are gone.
    pub fn size(&self) -> IndexSize {
        let term_bytes: usize = self.term_ids.keys().map(|t| t.len() + 16).sum();
        let posting_bytes: usize = self
            .postings
            .iter()
            .map(|p| p.capacity() * std::mem::size_of::<Posting>())
            .sum();
        let doc_bytes: usize = self
            .docs
            .iter()
            .flatten()
            .map(|d| d.terms.capacity() * 4 + d.fields.capacity() * 2)
            .sum();
        let column_bytes = self.columns.iter().map(Column::bytes).sum::<usize>();
        let bytes = term_bytes
            + posting_bytes
            + self.postings.capacity() * std::mem::size_of::<Vec<Posting>>()
            + self.term_ids.capacity() * 24
            + self.term_names.capacity() * 16
            + column_bytes
            + self.columns.capacity() * std::mem::size_of::<Column>()
            + self.field_ids.capacity() * 24
            + self.field_names.capacity() * 16
            + doc_bytes
            + self.docs.capacity() * std::mem::size_of::<Option<Doc>>()
            + self.meta.capacity() * std::mem::size_of::<Meta>();
        IndexSize {
            records: self.count,
            terms: self.term_ids.len(),
            fields: self.field_ids.len(),
            column_bytes,
            bytes,
        }
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
