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

type Key = (&'static str, Viewer, Box<str>);

#[derive(Default)]
struct State {
    entries: HashMap<Key, Arc<str>>,
    generation: u64,
    writing: usize,
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
        if state.entries.len() >= CAPACITY {
            state.entries.clear();
        }
        state
            .entries
            .insert((path, viewer, Box::from(identifier)), json);
    }

    /// A write begins: nothing is served or kept until the answer is dropped (the write has
    /// committed, failed or panicked).
    pub fn writing(&self) -> Writing<'_> {
        let mut state = self.state();
        state.writing += 1;
        state.generation += 1;
        state.entries.clear();
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
        state.entries.clear();
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
}
