//! The console itself, mounted once someone has signed in (or at once on a page without the
//! start-up form). In the split build it is a module of its own: the start-up module fetches it
//! while people type (see `crate::boot`).

use larder_api::Identity;
use leptos::prelude::*;

use crate::app::App;
use crate::chunks::ChunkFailed;
use crate::ApiClient;

/// Fetches the console's module, if it is not here yet. A failure is not remembered: calling
/// again tries again.
pub async fn fetch() -> Result<(), ChunkFailed> {
    #[cfg(feature = "split")]
    {
        preload_console().await.map_err(ChunkFailed::from)
    }
    #[cfg(not(feature = "split"))]
    {
        Ok(())
    }
}

/// Mounts the console with the client (signed in when `identity` is given).
pub async fn open(client: ApiClient, identity: Option<Identity>) -> Result<(), ChunkFailed> {
    #[cfg(feature = "split")]
    {
        mount(client, identity).await
    }
    #[cfg(not(feature = "split"))]
    {
        mount(client, identity)
    }
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(
    console, fallible, wasm_split_path = ::leptos::wasm_split, preload(preload_console)
))]
fn mount(client: ApiClient, identity: Option<Identity>) -> Result<(), ChunkFailed> {
    leptos::mount::mount_to_body(move || view! { <App client identity/> });
    Ok(())
}
