//! Records as `GET {collection}/{identifier}` answers them, kept until the next write: reading a
//! record again then costs neither SQLite nor JSON work nor a trip to the blocking pool.
//!
//! Every use of the writing connection empties the cache before and after it, and nothing is
//! served from or added to the cache while it runs, so an answer is never older than the last
//! committed write. An entry read before a write is refused when it arrives after it (the
//! generation it was read in has passed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::Viewer;

/// Entries kept at most; the cache starts again empty when it is full.
const CAPACITY: usize = 20_000;
/// Bytes of JSON kept at most (counted as the answers' lengths): a count alone let 100 large
/// records hold hundreds of MiB. Past it the cache starts again empty, as past [`CAPACITY`].
pub const MAX_BYTES: usize = 64 << 20;
/// An answer longer than this is never kept: serving it again costs little next to its size,
/// and one such answer would otherwise push out thousands of small ones.
pub const MAX_ENTRY_BYTES: usize = 1 << 20;

type Key = (&'static str, Viewer, Box<str>);

#[derive(Default)]
struct State {
    entries: HashMap<Key, Arc<str>>,
    /// The sum of the kept answers' lengths.
    bytes: usize,
    generation: u64,
    writing: usize,
}

impl State {
    fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }
}

/// The cache; see the module's documentation.
#[derive(Default)]
pub struct Presented {
    state: Mutex<State>,
}

impl Presented {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The answer for `identifier` of the collection at `path`, as `viewer` sees it: the record
    /// as JSON text.
    pub fn get(&self, path: &'static str, viewer: Viewer, identifier: &str) -> Option<Arc<str>> {
        let state = self.state();
        if state.writing > 0 {
            return None;
        }
        state
            .entries
            .get(&(path, viewer, Box::from(identifier)))
            .cloned()
    }

    /// The generation to pass to [`Presented::put`]; read it before reading the database.
    pub fn generation(&self) -> u64 {
        self.state().generation
    }

    /// Keeps an answer read in `generation`, unless a write has started since.
    pub fn put(
        &self,
        generation: u64,
        path: &'static str,
        viewer: Viewer,
        identifier: &str,
        json: Arc<str>,
    ) {
        let mut state = self.state();
        if state.writing > 0 || state.generation != generation {
            return;
        }
        if json.len() > MAX_ENTRY_BYTES {
            return;
        }
        let key = (path, viewer, Box::from(identifier));
        // An answer kept again replaces its older copy, so only the difference counts.
        if let Some(old) = state.entries.remove(&key) {
            state.bytes -= old.len();
        }
        if state.entries.len() >= CAPACITY || state.bytes + json.len() > MAX_BYTES {
            state.clear();
        }
        state.bytes += json.len();
        state.entries.insert(key, json);
    }

    /// The bytes of JSON the cache holds.
    pub fn bytes(&self) -> usize {
        self.state().bytes
    }

    /// A write begins: nothing is served or kept until the answer is dropped (the write has
    /// committed, failed or panicked).
    pub fn writing(&self) -> Writing<'_> {
        let mut state = self.state();
        state.writing += 1;
        state.generation += 1;
        state.clear();
        Writing(self)
    }
}

/// See [`Presented::writing`].
pub struct Writing<'a>(&'a Presented);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state();
        state.writing -= 1;
        state.generation += 1;
        state.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An article `id` as the curator reads it, kept at `generation`, and read back.
    fn keep(cache: &Presented, generation: u64, id: &str, json: &str) {
        cache.put(generation, "articles", Viewer::Curator, id, Arc::from(json));
    }

    fn read(cache: &Presented, viewer: Viewer, id: &str) -> Option<String> {
        cache
            .get("articles", viewer, id)
            .map(|json| json.to_string())
    }

    #[test]
    fn a_write_empties_the_cache_and_refuses_older_reads() {
        let cache = Presented::default();
        let read_before = cache.generation();
        keep(&cache, read_before, "a", "{}");
        assert_eq!(read(&cache, Viewer::Curator, "a").as_deref(), Some("{}"));
        assert_eq!(read(&cache, Viewer::Public, "a"), None, "per viewer");

        let write = cache.writing();
        assert_eq!(read(&cache, Viewer::Curator, "a"), None);
        keep(&cache, cache.generation(), "b", "{}");
        assert_eq!(
            read(&cache, Viewer::Curator, "b"),
            None,
            "kept while writing"
        );
        drop(write);

        keep(&cache, read_before, "a", "{}");
        assert_eq!(
            read(&cache, Viewer::Curator, "a"),
            None,
            "read before the write, kept after it"
        );
        keep(&cache, cache.generation(), "a", "[]");
        assert_eq!(read(&cache, Viewer::Curator, "a").as_deref(), Some("[]"));
    }

    /// Security review 2, finding 12: 100 large records held +696 MiB. The cache is bounded
    /// by bytes as well as by entries, and a single large answer is not kept at all.
    #[test]
    fn the_cache_is_bounded_by_bytes() {
        let cache = Presented::default();
        let generation = cache.generation();
        let large: Arc<str> = Arc::from("x".repeat(MAX_ENTRY_BYTES + 1));
        cache.put(generation, "articles", Viewer::Curator, "large", large);
        assert_eq!(read(&cache, Viewer::Curator, "large"), None);
        assert_eq!(cache.bytes(), 0);

        let entry: Arc<str> = Arc::from("y".repeat(MAX_ENTRY_BYTES));
        let fit = MAX_BYTES / MAX_ENTRY_BYTES;
        for n in 0..fit * 3 {
            let id = format!("r{n}");
            cache.put(generation, "articles", Viewer::Curator, &id, entry.clone());
            assert!(
                cache.bytes() <= MAX_BYTES,
                "{} bytes after {n}",
                cache.bytes()
            );
            assert!(
                read(&cache, Viewer::Curator, &id).is_some(),
                "the newest is kept"
            );
        }
        // Replacing an entry counts it once.
        let before = cache.bytes();
        let id = format!("r{}", fit * 3 - 1);
        cache.put(generation, "articles", Viewer::Curator, &id, entry.clone());
        assert_eq!(cache.bytes(), before);
        drop(cache.writing());
        assert_eq!(cache.bytes(), 0);
    }
}
