//! A cache bounded in bytes: what was used least recently goes first once the entries' sizes
//! add up to more than the budget. The session's record cache (`session::records`) keeps a
//! person's records in one; an entry's size is what the caller says it costs.
//!
//! Hand-written because the well-kept LRU crates (`lru`, `quick_cache`, `moka`) bound entries by
//! count or need a weigher per type and bring more code into the console's module than these
//! few lines; the test beside it holds it to a plain list that does the same thing slowly.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Entries by key, each with its size; at most `budget` bytes in all.
#[derive(Debug)]
pub struct Lru<K, V> {
    budget: usize,
    used: usize,
    /// Each entry, its size and its last use.
    entries: HashMap<K, (V, usize, u64)>,
    /// Keys by last use, oldest first.
    order: BTreeMap<u64, K>,
    clock: u64,
}

impl<K: Clone + Eq + Hash, V> Lru<K, V> {
    /// An empty cache holding at most `budget` bytes.
    pub fn new(budget: usize) -> Lru<K, V> {
        Lru {
            budget,
            used: 0,
            entries: HashMap::new(),
            order: BTreeMap::new(),
            clock: 0,
        }
    }

    /// The bytes held.
    pub fn used(&self) -> usize {
        self.used
    }

    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Keeps `value` under `key` (replacing what was there) as the most recent, then drops the
    /// least recent entries until the budget holds; a value larger than the whole budget is not
    /// kept at all.
    pub fn insert(&mut self, key: K, value: V, size: usize) {
        self.remove(&key);
        if size > self.budget {
            return;
        }
        let now = self.tick();
        self.order.insert(now, key.clone());
        self.entries.insert(key, (value, size, now));
        self.used += size;
        while self.used > self.budget {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some((_, size, _)) = self.entries.remove(&oldest) {
                self.used -= size;
            }
        }
    }

    /// The value under `key`, made the most recent.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        let now = self.tick();
        let (_, _, used_at) = self.entries.get_mut(key)?;
        let before = std::mem::replace(used_at, now);
        if let Some(key) = self.order.remove(&before) {
            self.order.insert(now, key);
        }
        self.entries.get(key).map(|(value, _, _)| value)
    }

    /// Whether `key` is held (without making it recent).
    pub fn contains(&self, key: &K) -> bool {
        self.entries.contains_key(key)
    }

    /// Drops `key`'s entry.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let (value, size, used_at) = self.entries.remove(key)?;
        self.order.remove(&used_at);
        self.used -= size;
        Some(value)
    }
}

/// About how many bytes a JSON value takes in memory: its text, a word for each number, bool
/// and null, and a little for each entry's bookkeeping. An estimate that only grows with the
/// value, which is what a budget needs.
pub fn json_bytes(value: &serde_json::Value) -> usize {
    use serde_json::Value;
    const ENTRY: usize = 16;
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => 8,
        Value::String(text) => ENTRY + text.len(),
        Value::Array(items) => ENTRY + items.iter().map(json_bytes).sum::<usize>(),
        Value::Object(fields) => {
            ENTRY
                + fields
                    .iter()
                    .map(|(key, value)| ENTRY + key.len() + json_bytes(value))
                    .sum::<usize>()
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: a list, least recent first, searched from end to end.
    struct Model {
        budget: usize,
        entries: Vec<(u8, u32, usize)>,
    }

    impl Model {
        fn insert(&mut self, key: u8, value: u32, size: usize) {
            self.entries.retain(|(k, _, _)| *k != key);
            if size > self.budget {
                return;
            }
            self.entries.push((key, value, size));
            while self.entries.iter().map(|(_, _, s)| s).sum::<usize>() > self.budget {
                self.entries.remove(0);
            }
        }

        fn get(&mut self, key: u8) -> Option<u32> {
            let at = self.entries.iter().position(|(k, _, _)| *k == key)?;
            let entry = self.entries.remove(at);
            self.entries.push(entry);
            Some(entry.1)
        }

        fn remove(&mut self, key: u8) -> Option<u32> {
            let at = self.entries.iter().position(|(k, _, _)| *k == key)?;
            Some(self.entries.remove(at).1)
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Insert(u8, u32, usize),
        Get(u8),
        Remove(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u8..12, any::<u32>(), 0usize..40).prop_map(|(k, v, s)| Op::Insert(k, v, s)),
            (0u8..12).prop_map(Op::Get),
            (0u8..12).prop_map(Op::Remove),
        ]
    }

    proptest! {
        #[test]
        fn behaves_as_the_plain_list(budget in 0usize..100, ops in proptest::collection::vec(op(), 0..200)) {
            let mut cache = Lru::new(budget);
            let mut model = Model { budget, entries: Vec::new() };
            for op in ops {
                match op {
                    Op::Insert(k, v, s) => {
                        cache.insert(k, v, s);
                        model.insert(k, v, s);
                    }
                    Op::Get(k) => prop_assert_eq!(cache.get(&k).copied(), model.get(k)),
                    Op::Remove(k) => prop_assert_eq!(cache.remove(&k), model.remove(k)),
                }
                prop_assert!(cache.used() <= budget);
                prop_assert_eq!(cache.used(), model.entries.iter().map(|(_, _, s)| s).sum::<usize>());
                prop_assert_eq!(cache.len(), model.entries.len());
                for (k, _, _) in &model.entries {
                    prop_assert!(cache.contains(k));
                }
            }
        }
    }

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut cache = Lru::new(10);
        cache.insert("a", 1, 4);
        cache.insert("b", 2, 4);
        assert_eq!(cache.get(&"a"), Some(&1));
        cache.insert("c", 3, 4);
        assert!(!cache.contains(&"b"), "b was used least recently");
        assert!(cache.contains(&"a") && cache.contains(&"c"));
        cache.insert("huge", 4, 11);
        assert!(!cache.contains(&"huge"), "larger than the whole budget");
        assert_eq!(cache.used(), 8);
    }

    #[test]
    fn a_json_value_costs_at_least_its_text() {
        let record = serde_json::json!({"title": "Vitamin D", "year": 2020, "tags": ["a", "bb"]});
        assert!(json_bytes(&record) >= record.to_string().len());
        let bigger =
            serde_json::json!({"title": "Vitamin D and more", "year": 2020, "tags": ["a", "bb"]});
        assert!(json_bytes(&bigger) > json_bytes(&record));
    }
}
