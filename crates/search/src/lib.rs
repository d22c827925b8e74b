//! Larder's search index, on its own so it can be read, measured and replaced: an inverted index
//! of every record's text and a column per short value, kept in memory by the server (which
//! stays the record of truth and feeds it every committed write), and the search over it.

mod column;
mod engine;
mod filter;
mod firsts;
pub mod index;
mod text;

pub use column::{Column, FacetKey, Scalar, MAX_VALUE_LEN};
pub use engine::{FacetValue, Found, NaturalOrder, SearchQuery, SortKey};
pub use filter::Filter;
pub use index::{
    folded_words, own_visibility, tokens, Index, IndexSize, BODY_FIELDS, MAX_PREFIX_TERMS,
};

/// Which records a caller may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// `admin` and `expert`: everything.
    Curator,
    /// Everyone else: by each collection's read rule.
    Public,
}
