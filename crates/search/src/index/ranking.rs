//! The index read for a query: the terms each word stands for, the records that hold every
//! word, and their BM25 relevance.

use larder_contract::Collection;

use super::{folded_words, Index, Posting, MAX_PREFIX_TERMS};

const K1: f64 = 1.2;
const B: f64 = 0.75;
const TITLE_WEIGHT: f64 = 2.0;
const BODY_WEIGHT: f64 = 1.0;

impl Index {
    /// The terms each word of `query` stands for, one group per word: its stem; and, for a
    /// word-prefix search, also every indexed term beginning with the word as typed (folded, not
    /// stemmed: "medit" stands for "mediterranean"), at most [`MAX_PREFIX_TERMS`] of them, the
    /// most frequent first. A group is empty when nothing indexed matches the word.
    pub(super) fn term_groups(&self, query: &[String], prefix: bool) -> Vec<Vec<u32>> {
        let mut groups = Vec::new();
        for text in query {
            for word in folded_words(text) {
                let stem = self.stemmer.stem(&word).into_owned();
                let mut group: Vec<u32> = self
                    .term_ids
                    .get(stem.as_str())
                    .copied()
                    .into_iter()
                    .collect();
                if prefix {
                    let mut starting: Vec<u32> = self
                        .term_ids
                        .iter()
                        .filter(|(term, id)| term.starts_with(word.as_str()) && !group.contains(id))
                        .map(|(_, id)| *id)
                        .collect();
                    // Most frequent first, then by the term, so the cut is the same every time.
                    starting.sort_by(|a, b| {
                        let (la, lb) = (
                            self.postings[*a as usize].len(),
                            self.postings[*b as usize].len(),
                        );
                        lb.cmp(&la).then_with(|| {
                            self.term_names[*a as usize].cmp(&self.term_names[*b as usize])
                        })
                    });
                    starting.truncate(MAX_PREFIX_TERMS.saturating_sub(group.len()));
                    group.extend(starting);
                }
                groups.push(group);
            }
        }
        groups
    }

    /// The record ids holding every term of `query` (tokenised and stemmed), ascending; `None`
    /// for an empty query. With `prefix`, a word is held by a record holding any term it stands
    /// for (see [`Index::term_groups`]).
    pub fn matching(&self, query: &[String], prefix: bool) -> Option<Vec<u32>> {
        let groups = self.term_groups(query, prefix);
        if groups.is_empty() {
            return None;
        }
        let mut lists: Vec<Vec<u32>> = Vec::with_capacity(groups.len());
        for group in &groups {
            let mut rids: Vec<u32> = group
                .iter()
                .flat_map(|id| self.postings[*id as usize].iter().map(|p| p.rid))
                .collect();
            if group.len() > 1 {
                rids.sort_unstable();
                rids.dedup();
            }
            if rids.is_empty() {
                return Some(Vec::new());
            }
            lists.push(rids);
        }
        lists.sort_by_key(Vec::len);
        let mut hits = lists[0].clone();
        for list in &lists[1..] {
            hits.retain(|rid| list.binary_search(rid).is_ok());
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
    ///
    /// With `prefix`, every term a word stands for counts once (see [`Index::term_groups`]).
    pub fn scores(&self, rids: &[u32], query: &[String], prefix: bool) -> Vec<f64> {
        let n = self.count.max(1) as f64;
        let avg_title = (self.title_total as f64 / n).max(1e-9);
        let avg_body = (self.body_total as f64 / n).max(1e-9);
        let mut lists: Vec<(&Vec<Posting>, f64)> = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        for group in self.term_groups(query, prefix) {
            for id in group {
                // A stem typed twice counts twice, as FTS5 counts a repeated word; a term two
                // prefixes stand for counts once.
                if prefix && seen.contains(&id) {
                    continue;
                }
                seen.push(id);
                let list = &self.postings[id as usize];
                let with_term = list.len() as f64;
                let idf = ((n - with_term + 0.5) / (with_term + 0.5)).ln();
                lists.push((list, if idf <= 0.0 { 1e-6 } else { idf }));
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
}
