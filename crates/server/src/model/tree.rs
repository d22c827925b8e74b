//! Textbook structure trees (checked by the contract's validator): the node a page falls in.
//!
//! A bulk passage replacement places up to 20,000 passages in a tree of up to 10,000 nodes.
//! Walking the tree once per passage cost passages × nodes × title length (minutes of CPU for one
//! request), so [`Locator`] flattens the tree once and answers all pages in one sweep:
//! O((nodes + pages) · log nodes), plus the paths it hands out.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use serde_json::{json, Value};

/// One node of the flattened tree, in preorder.
struct Node<'a> {
    parent: Option<usize>,
    depth: usize,
    start: i64,
    end: i64,
    id: &'a str,
    title: &'a str,
}

/// A tree flattened for one artifact: subtrees bound to another artifact are left out.
pub struct Locator<'a> {
    nodes: Vec<Node<'a>>,
}

impl<'a> Locator<'a> {
    /// Flattens `tree` (its `roots`) as `artifact_id` sees it.
    pub fn new(tree: &'a Value, artifact_id: &str) -> Locator<'a> {
        let mut nodes = Vec::new();
        // An explicit stack, children pushed in reverse, keeps preorder without recursion.
        let mut stack: Vec<(&Value, Option<usize>, usize)> = tree["roots"]
            .as_array()
            .map(|roots| roots.iter().rev().map(|root| (root, None, 1)).collect())
            .unwrap_or_default();
        while let Some((node, parent, depth)) = stack.pop() {
            if node["artifact_id"]
                .as_str()
                .is_some_and(|bound| bound != artifact_id)
            {
                continue;
            }
            let index = nodes.len();
            // A node without `page_start` covers no page but still gives its title to the path.
            let start = node["page_start"].as_i64();
            nodes.push(Node {
                parent,
                depth,
                start: start.unwrap_or(i64::MAX),
                end: start.map_or(i64::MIN, |s| node["page_end"].as_i64().unwrap_or(s)),
                id: node["id"].as_str().unwrap_or_default(),
                title: node["title"].as_str().unwrap_or_default(),
            });
            if let Some(children) = node["children"].as_array() {
                stack.extend(children.iter().rev().map(|c| (c, Some(index), depth + 1)));
            }
        }
        Locator { nodes }
    }

    /// For each of `pages`, the deepest node covering it (the first in preorder among equally
    /// deep ones), by its index. One sweep over the pages in order: nodes join the candidates
    /// when their range starts and leave when it has ended.
    fn deepest(&self, pages: &[i64]) -> HashMap<i64, usize> {
        let mut sorted: Vec<i64> = pages.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut by_start: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].start <= self.nodes[i].end)
            .collect();
        by_start.sort_by_key(|&i| self.nodes[i].start);
        let mut next = 0;
        // Candidates ordered by depth (deepest first), then preorder.
        let mut covering: BTreeSet<(Reverse<usize>, usize)> = BTreeSet::new();
        let mut ending: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
        let mut found = HashMap::with_capacity(sorted.len());
        for page in sorted {
            while let Some(&i) = by_start.get(next).filter(|&&i| self.nodes[i].start <= page) {
                covering.insert((Reverse(self.nodes[i].depth), i));
                ending.push(Reverse((self.nodes[i].end, i)));
                next += 1;
            }
            while let Some(&Reverse((_, i))) = ending.peek().filter(|e| e.0 .0 < page) {
                covering.remove(&(Reverse(self.nodes[i].depth), i));
                ending.pop();
            }
            if let Some(&(_, i)) = covering.first() {
                found.insert(page, i);
            }
        }
        found
    }

    /// The titles from the root down to node `index`.
    fn path(&self, index: usize) -> Vec<String> {
        let mut titles = Vec::with_capacity(self.nodes[index].depth);
        let mut at = Some(index);
        while let Some(i) = at {
            titles.push(self.nodes[i].title.to_string());
            at = self.nodes[i].parent;
        }
        titles.reverse();
        titles
    }

    /// `structure_node_id` and `structure_path` for each of `pages` (`null` and `[]` for a page
    /// no node covers), each page's computed once.
    pub fn places(&self, pages: &[i64]) -> HashMap<i64, (Value, Value)> {
        let deepest = self.deepest(pages);
        pages
            .iter()
            .map(|&page| match deepest.get(&page) {
                Some(&i) => (page, (json!(self.nodes[i].id), json!(self.path(i)))),
                None => (page, (Value::Null, json!([]))),
            })
            .collect()
    }
}

/// The deepest node covering `page` (a node without `page_end` covers its `page_start` only),
/// skipping subtrees bound to another artifact: its id and the titles from the root down to it.
pub fn locate(tree: &Value, page: i64, artifact_id: &str) -> Option<(String, Vec<String>)> {
    let locator = Locator::new(tree, artifact_id);
    let index = *locator.deepest(&[page]).get(&page)?;
    Some((locator.nodes[index].id.to_string(), locator.path(index)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tree() -> Value {
        json!({"roots": [{"id": "p1", "title": "Part I", "kind": "part", "page_start": 1, "page_end": 20, "children": [
            {"id": "c1", "title": "Chapter 1", "kind": "chapter", "page_start": 1, "page_end": 10, "children": [
                {"id": "s1", "title": "Section 1.1", "kind": "section", "page_start": 3, "page_end": 5}
            ]},
            {"id": "c2", "title": "Chapter 2", "kind": "chapter", "page_start": 11, "page_end": 20, "artifact_id": "other"}
        ]}]})
    }

    #[test]
    fn deepest_covering_node() {
        let t = tree();
        assert_eq!(
            locate(&t, 4, "a"),
            Some((
                "s1".into(),
                vec!["Part I".into(), "Chapter 1".into(), "Section 1.1".into()]
            ))
        );
        assert_eq!(locate(&t, 7, "a").unwrap().0, "c1");
        assert_eq!(locate(&t, 12, "a").unwrap().0, "p1");
        assert_eq!(locate(&t, 12, "other").unwrap().0, "c2");
        assert_eq!(locate(&t, 99, "a"), None);
    }

    /// The walk this module used to do, kept as the plain definition to compare against.
    fn walk(
        node: &Value,
        page: i64,
        artifact: &str,
        path: &mut Vec<String>,
        best: &mut Option<(usize, String, Vec<String>)>,
    ) {
        if node["artifact_id"]
            .as_str()
            .is_some_and(|bound| bound != artifact)
        {
            return;
        }
        path.push(node["title"].as_str().unwrap_or_default().to_string());
        if let Some(start) = node["page_start"].as_i64() {
            let end = node["page_end"].as_i64().unwrap_or(start);
            let deeper = best
                .as_ref()
                .is_none_or(|(depth, _, _)| path.len() > *depth);
            if (start..=end).contains(&page) && deeper {
                *best = Some((
                    path.len(),
                    node["id"].as_str().unwrap_or_default().to_string(),
                    path.clone(),
                ));
            }
        }
        for child in node["children"].as_array().into_iter().flatten() {
            walk(child, page, artifact, path, best);
        }
        path.pop();
    }

    fn walked(tree: &Value, page: i64, artifact: &str) -> Option<(String, Vec<String>)> {
        let mut best = None;
        for root in tree["roots"].as_array().into_iter().flatten() {
            walk(root, page, artifact, &mut Vec::new(), &mut best);
        }
        best.map(|(_, id, titles)| (id, titles))
    }

    /// A tree of `count` nodes: overlapping ranges, nesting up to 6, some bound to "other".
    fn generated(count: usize) -> Value {
        fn node(n: &mut usize, count: usize, depth: usize) -> Value {
            *n += 1;
            let id = *n;
            let start = (id * 7919 % 500 + 1) as i64;
            let mut made =
                json!({"id": format!("n{id}"), "title": format!("Node {id}"), "page_start": start});
            if !id.is_multiple_of(3) {
                made["page_end"] = json!(start + (id % 40) as i64);
            }
            if id.is_multiple_of(17) {
                made["artifact_id"] = json!("other");
            }
            let mut children = Vec::new();
            while depth < 6 && *n < count && children.len() < 4 {
                children.push(node(n, count, depth + 1));
            }
            made["children"] = json!(children);
            made
        }
        let mut n = 0;
        let mut roots = Vec::new();
        while n < count {
            roots.push(node(&mut n, count, 1));
        }
        json!({"roots": roots})
    }

    #[test]
    fn the_sweep_agrees_with_the_walk() {
        let tree = generated(400);
        for artifact in ["a", "other"] {
            let pages: Vec<i64> = (0..560).collect();
            let places = Locator::new(&tree, artifact).places(&pages);
            for page in pages {
                let expected = walked(&tree, page, artifact);
                assert_eq!(locate(&tree, page, artifact), expected, "page {page}");
                let (node, path) = &places[&page];
                match expected {
                    Some((id, titles)) => assert_eq!((node, path), (&json!(id), &json!(titles))),
                    None => assert_eq!((node, path), (&Value::Null, &json!([]))),
                }
            }
        }
    }

    /// Security review 2, finding 12: placing the most passages a replacement carries, on distinct
    /// pages, in the largest tree the validator lets through, took minutes. One sweep finishes
    /// within this test's run (the walk, 20,000 × 10,000 nodes with their titles, does not).
    #[test]
    fn a_large_replacement_is_placed_in_one_sweep() {
        let tree = generated(10_000);
        let pages: Vec<i64> = (1..=20_000).collect();
        let places = Locator::new(&tree, "a").places(&pages);
        assert_eq!(places.len(), 20_000);
        assert_eq!(places[&1].0, json!(walked(&tree, 1, "a").unwrap().0));
        assert_eq!(places[&20_000], (Value::Null, json!([])));
    }
}
