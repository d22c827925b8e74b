//! The oracle's full scan: the records as plain documents, and a search over them written for
//! clarity, not speed (production.md's visibility rules, SQLite's order of values, FTS5's BM25).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use larder_contract::collections::{ReadRule, ARTICLES, GUIDES, TEXTBOOKS, TEXTBOOK_PASSAGES};
use larder_contract::Collection;
use larder_search::{
    folded_words, tokens, FacetValue, Filter, Found, NaturalOrder, SearchQuery, SortKey, Viewer,
    BODY_FIELDS,
};
use rust_stemmers::{Algorithm, Stemmer};
use serde_json::Value;

/// Four collections, one per read rule; a record id keeps its collection.
pub fn collection_of(rid: u32) -> &'static Collection {
    [&ARTICLES, &GUIDES, &TEXTBOOKS, &TEXTBOOK_PASSAGES][rid as usize % 4]
}

/// The records as they stand: id, collection, parent and document.
#[derive(Default)]
pub struct Records(pub BTreeMap<u32, Value>);

/// A record's document as the index receives it: its URN where its collection has one.
pub fn stored(rid: u32, mut doc: Value) -> Value {
    let prefix = match collection_of(rid).path {
        "articles" => "article",
        "guides" => "guide",
        "textbooks" => "textbook",
        _ => return doc,
    };
    doc["urn"] = format!("urn:{prefix}:t{rid}").into();
    doc
}

pub fn parent_of(rid: u32, doc: &Value) -> Option<&str> {
    (collection_of(rid).read_rule == ReadRule::AsParent)
        .then(|| doc["textbook_urn"].as_str())
        .flatten()
}

/// Visible by its own fields to a caller without a curator's role (production.md's rules).
fn own_visible(rule: ReadRule, doc: &Value) -> bool {
    let status = doc["status"].as_str().unwrap_or_default();
    let active_or_verified =
        status == "active" || (doc["review_status"] == "verified" && status != "deleted");
    match rule {
        ReadRule::Always | ReadRule::AsParent => true,
        ReadRule::ActiveOrVerified => active_or_verified,
        ReadRule::PublicAndActiveOrVerified => doc["visibility"] == "public" && active_or_verified,
        ReadRule::ReaderVisibility => {
            larder_contract::collections::policy::readable_by_all(doc["reader_visibility"].as_str())
        }
    }
}

/// The short values at a dotted path, in order: a scalar, or a list's scalars.
fn values_at<'d>(doc: &'d Value, path: &str) -> Vec<&'d Value> {
    let mut at = doc;
    for part in path.split('.') {
        match at.get(part) {
            Some(next) => at = next,
            None => return vec![],
        }
    }
    match at {
        Value::Array(items) => items.iter().filter(|v| is_short(v)).collect(),
        other if is_short(other) => vec![other],
        _ => vec![],
    }
}

fn is_short(value: &Value) -> bool {
    match value {
        Value::Bool(_) | Value::Number(_) => true,
        Value::String(s) => s.len() <= 512,
        _ => false,
    }
}

/// Whether some short value sits at `path` or anywhere under it.
fn exists_under(doc: &Value, path: &str) -> bool {
    fn any_short(value: &Value) -> bool {
        match value {
            Value::Array(items) => items.iter().any(is_short),
            Value::Object(map) => map.values().any(any_short),
            other => is_short(other),
        }
    }
    let mut at = doc;
    for part in path.split('.') {
        match at.get(part) {
            Some(next) => at = next,
            None => return false,
        }
    }
    any_short(at)
}

fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => n.as_f64().unwrap().to_string(),
        },
        other => other.to_string(),
    }
}

fn as_number(value: &Value) -> Option<f64> {
    value.as_f64()
}

/// The year of a `YYYY-...` date.
fn year_of(text: &str) -> Option<f64> {
    let year = text.get(..4)?;
    if year.chars().all(|c| c.is_ascii_digit()) && text[4..].starts_with('-') {
        year.parse().ok()
    } else {
        None
    }
}

fn passes(doc: &Value, filter: &Filter) -> bool {
    match filter {
        Filter::Exists { field } => exists_under(doc, field),
        Filter::Prefix { field, prefix } => {
            let prefix: String = folded_words(prefix).collect();
            values_at(doc, field).iter().any(|v| {
                v.as_str()
                    .is_some_and(|s| folded_words(s).any(|w| w.starts_with(prefix.as_str())))
            })
        }
        Filter::Equals { field, value } => values_at(doc, field).iter().any(|v| {
            as_text(v) == *value
                || value
                    .parse::<f64>()
                    .ok()
                    .is_some_and(|n| as_number(v) == Some(n))
        }),
        Filter::Range { field, low, high } => {
            let bound = |b: &Option<String>, open: f64| match b {
                None => Some(open),
                Some(t) => t.parse::<f64>().ok(),
            };
            match (bound(low, f64::NEG_INFINITY), bound(high, f64::INFINITY)) {
                (Some(lo), Some(hi)) => values_at(doc, field).iter().any(|v| {
                    let n = match v {
                        Value::String(s) => year_of(s),
                        other => as_number(other),
                    };
                    n.is_some_and(|n| n >= lo && n <= hi)
                }),
                _ => values_at(doc, field).iter().any(|v| {
                    v.as_str().is_some_and(|s| {
                        low.as_deref().is_none_or(|l| s >= l)
                            && high.as_deref().is_none_or(|h| s <= h)
                    })
                }),
            }
        }
    }
}

/// SQLite's order of values: numbers (booleans as 0 and 1) before text.
fn order(a: &Value, b: &Value) -> Ordering {
    let number = |v: &Value| {
        v.as_bool()
            .map(|b| f64::from(u8::from(b)))
            .or_else(|| v.as_f64())
    };
    match (a.as_str(), b.as_str()) {
        (Some(a), Some(b)) => a.cmp(b),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => number(a).unwrap().total_cmp(&number(b).unwrap()),
    }
}

/// Missing values last whichever the direction.
fn by_first(a: &Value, b: &Value, field: &str, descending: bool) -> Ordering {
    match (values_at(a, field).first(), values_at(b, field).first()) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) if descending => order(y, x),
        (Some(x), Some(y)) => order(x, y),
    }
}

/// A record's title tokens and body tokens.
fn words_of(stemmer: &Stemmer, doc: &Value) -> (Vec<String>, Vec<String>) {
    fn body(value: &Value, out: &mut String) {
        match value {
            Value::String(s) => out.push_str(&format!(" {s}")),
            Value::Number(n) => out.push_str(&format!(" {n}")),
            Value::Array(items) => items.iter().for_each(|i| body(i, out)),
            _ => {}
        }
    }
    let mut text = String::new();
    for field in BODY_FIELDS {
        body(&doc[*field], &mut text);
    }
    let title = doc["title"].as_str().unwrap_or_default();
    (
        tokens(stemmer, title).collect(),
        tokens(stemmer, &text).collect(),
    )
}

impl Records {
    pub fn scan(&self, query: &SearchQuery) -> Found {
        let stemmer = Stemmer::create(Algorithm::English);
        let words: BTreeMap<u32, (Vec<String>, Vec<String>)> = self
            .0
            .iter()
            .map(|(rid, doc)| (*rid, words_of(&stemmer, doc)))
            .collect();
        let holds = |rid: &u32, token: &String| {
            let (title, body) = &words[rid];
            title.contains(token) || body.contains(token)
        };
        // Each word of the query stands for its stem; in a word-prefix search also for every
        // token some record holds that begins with the word as typed (the corpus here is small
        // enough that no word stands for more than the index's cap).
        let vocabulary: std::collections::BTreeSet<&String> = words
            .values()
            .flat_map(|(title, body)| title.iter().chain(body))
            .collect();
        let groups: Vec<Vec<String>> = query
            .terms
            .iter()
            .flat_map(|w| folded_words(w).collect::<Vec<_>>())
            .map(|word| {
                let stem = tokens(&stemmer, &word).next().unwrap_or_default();
                let mut group = vec![stem];
                if query.prefix {
                    for token in &vocabulary {
                        if token.starts_with(word.as_str()) && !group.contains(*token) {
                            group.push((*token).clone());
                        }
                    }
                }
                group
            })
            .collect();
        // The terms scored: every stem typed (a repeated word twice), or in a prefix search
        // every term some word stands for, once.
        let mut asked: Vec<String> = Vec::new();
        for group in &groups {
            for token in group {
                if !query.prefix || !asked.contains(token) {
                    asked.push(token.clone());
                }
            }
        }
        let visible = |rid: u32, doc: &Value| {
            let rule = collection_of(rid).read_rule;
            if !own_visible(rule, doc) {
                return false;
            }
            if rule != ReadRule::AsParent {
                return true;
            }
            let parent = parent_of(rid, doc);
            self.0.iter().any(|(p, d)| {
                d["urn"].as_str().is_some()
                    && d["urn"].as_str() == parent
                    && own_visible(collection_of(*p).read_rule, d)
            })
        };
        let hits: Vec<u32> = self
            .0
            .iter()
            .filter(|(rid, _)| collection_of(**rid).path == query.collection.path)
            .filter(|(rid, _)| groups.iter().all(|g| g.iter().any(|t| holds(rid, t))))
            .filter(|(rid, doc)| {
                query.parent.is_none() || parent_of(**rid, doc) == query.parent.as_deref()
            })
            .filter(|(rid, doc)| query.viewer == Viewer::Curator || visible(**rid, doc))
            .filter(|(_, doc)| query.filters.iter().all(|f| passes(doc, f)))
            .map(|(rid, _)| *rid)
            .collect();

        // BM25 as FTS5 computes it, over every record of every collection.
        let n = self.0.len().max(1) as f64;
        let title_total: usize = words.values().map(|(t, _)| t.len()).sum();
        let body_total: usize = words.values().map(|(_, b)| b.len()).sum();
        let avg_title = (title_total as f64 / n).max(1e-9);
        let avg_body = (body_total as f64 / n).max(1e-9);
        let score = |rid: u32| -> f64 {
            let part = |idf: f64, tf: usize, len: usize, avg: f64, weight: f64| {
                let tf = tf as f64;
                weight * idf * tf * (1.2 + 1.0)
                    / (tf + 1.2 * (1.0 - 0.75 + 0.75 * len as f64 / avg))
            };
            let (title, body) = &words[&rid];
            let mut total = 0.0;
            for token in &asked {
                let with = words.keys().filter(|r| holds(r, token)).count() as f64;
                if with == 0.0 || !holds(&rid, token) {
                    continue;
                }
                let idf = ((n - with + 0.5) / (with + 0.5)).ln();
                let idf = if idf <= 0.0 { 1e-6 } else { idf };
                let in_title = title.iter().filter(|t| *t == token).count();
                let in_body = body.iter().filter(|t| *t == token).count();
                total += part(idf, in_title, title.len(), avg_title, 2.0)
                    + part(idf, in_body, body.len(), avg_body, 1.0);
            }
            total
        };

        let facets = query
            .facets
            .iter()
            .map(|field| {
                let mut counts: Vec<(Value, u64)> = Vec::new();
                for rid in &hits {
                    let mut seen: Vec<&Value> = Vec::new();
                    for value in values_at(&self.0[rid], field) {
                        if seen.contains(&value) {
                            continue;
                        }
                        seen.push(value);
                        match counts.iter_mut().find(|(v, _)| v == value) {
                            Some((_, count)) => *count += 1,
                            None => counts.push((value.clone(), 1)),
                        }
                    }
                }
                counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| order(&a.0, &b.0)));
                counts.truncate(query.facet_limit as usize);
                let values = counts
                    .into_iter()
                    .map(|(value, count)| FacetValue { value, count })
                    .collect();
                (field.clone(), values)
            })
            .collect();

        let sort = if query.sort.is_empty() && !query.terms.is_empty() {
            vec![SortKey::Score]
        } else {
            query.sort.clone()
        };
        let natural: &[&str] = match (sort.is_empty(), query.natural_order) {
            (false, _) | (true, NaturalOrder::Insertion) => &[],
            (true, NaturalOrder::Sequence) => &["sequence_no"],
            (true, NaturalOrder::Page) => &["page_no", "sequence_no"],
        };
        let mut ranked: Vec<(u32, f64)> = hits.iter().map(|rid| (*rid, score(*rid))).collect();
        ranked.sort_by(|a, b| {
            let (da, db) = (&self.0[&a.0], &self.0[&b.0]);
            let mut by = Ordering::Equal;
            for key in &sort {
                by = by.then_with(|| match key {
                    SortKey::Score => b.1.total_cmp(&a.1),
                    SortKey::Field { field, descending } => by_first(da, db, field, *descending),
                });
            }
            for field in natural {
                by = by.then_with(|| by_first(da, db, field, false));
            }
            by.then(a.0.cmp(&b.0))
        });
        let page = ranked
            .into_iter()
            .skip(query.offset as usize)
            .take(query.limit as usize)
            .map(|(rid, score)| (rid, if query.terms.is_empty() { 0.0 } else { score }))
            .collect();
        Found {
            page,
            total: hits.len() as u64,
            facets,
        }
    }
}
