//! Larder's start-up module, the first wasm module the page runs: `index.html`'s sign-in form,
//! working (in the chosen language, sending the sign-in) before the console's module arrives.
//!
//! The console's own module (the `larder` crate's main module and its chunks, about 100 KB
//! brotli before any page) used to be what made "Sign in" work. This module does only what the
//! form needs and carries no serde, no Leptos and no API client: the console's module comes
//! once the form works, and this module hands it config.json, the form's texts and each press
//! (with the sign-in's answer, which the console's API client reads as its own). Without this
//! module (a development build, a test page) the console's module runs the form itself.

#[cfg(target_arch = "wasm32")]
mod web;

// A free-list allocator of about 1 KB instead of std's dlmalloc (about 7 KB, 3 KB compressed):
// this module allocates little (texts, the request, a few closures) and one thread only runs it.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: wasm32-unknown-unknown without the atomics feature runs one thread.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

fn main() {}
