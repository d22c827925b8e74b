//! What the split build's modules share: the failure of fetching one. Apart from `console` and
//! `pages` (which fetch modules) so that neither has to import the other, and `app` can use
//! `pages` without a circle back through `console`.

/// A module of the console could not be fetched (offline, or a deploy in between removed it).
#[derive(Clone, Copy, Debug)]
pub struct ChunkFailed;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkFailed
    }
}
