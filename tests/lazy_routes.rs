//! The lazy routes' data owner (`larder::lazy::DataOwner`) in Chromium, with Leptos's own
//! owners standing for the router's: the preload owner a route's data is made under, dropped
//! by the router once the next page's preload ends, and the view's owner, cleaned up when the
//! page leaves the screen.
#![cfg(target_arch = "wasm32")]

use larder::lazy::DataOwner;
use leptos::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::client;

/// A route's data, made under `owner` as the router's preload makes it.
fn data_under(owner: &Owner) -> (DataOwner, RwSignal<u32>) {
    owner.with(|| (DataOwner::current(), RwSignal::new(7)))
}

#[wasm_bindgen_test]
fn the_data_lives_as_long_as_its_view() {
    let view_owner = Owner::new();
    let preload_owner = Owner::new();
    let (data_owner, household) = data_under(&preload_owner);
    view_owner.with(|| data_owner.keep_until_view_goes());

    // The next page's preload has finished: the router lets go of this page's preload owner.
    drop(preload_owner);
    assert_eq!(
        household.try_get_untracked(),
        Some(7),
        "the page on screen still reads its data"
    );

    // The page leaves the screen: its data goes with it.
    view_owner.cleanup();
    assert_eq!(
        household.try_get_untracked(),
        None,
        "nothing is kept once the page is gone"
    );
}

#[wasm_bindgen_test]
fn without_it_the_data_goes_with_the_preload_owner() {
    let view_owner = Owner::new();
    let preload_owner = Owner::new();
    let (_, household) = data_under(&preload_owner);
    drop(preload_owner);
    // What the console met in CI: the page still on screen, its data gone (a read panics).
    assert_eq!(household.try_get_untracked(), None);
    drop(view_owner);
}

#[wasm_bindgen_test]
fn data_made_under_the_views_own_owner_is_not_kept_by_itself() {
    let view_owner = Owner::new();
    let (data_owner, household) = data_under(&view_owner);
    view_owner.with(|| data_owner.keep_until_view_goes());
    // Dropped, not cleaned up: an owner holding itself from its own clean-up would never go.
    drop(view_owner);
    assert_eq!(
        household.try_get_untracked(),
        None,
        "no owner keeps itself alive"
    );
}

// A piece drawn as `Later` draws one, needing the app's context as every page does.
larder::split_entry!(test_piece, draw_piece, u32 => |n: u32| {
    let _client = expect_context::<larder::ApiClient>();
    n.to_string()
});

/// Polls a future that is ready at once (the non-split entry has nothing to wait for).
fn at_once<F: std::future::Future>(future: F) -> F::Output {
    use futures::FutureExt;
    future.now_or_never().expect("ready at once")
}

#[wasm_bindgen_test]
fn a_piece_whose_page_went_while_its_module_came_is_not_drawn() {
    let app = Owner::new();
    app.with(|| provide_context(client()));
    let page = app.with(Owner::new);
    let piece = page.with(Owner::new);
    assert!(piece.with(larder::lazy::reaches_the_app));
    assert!(piece.with(|| at_once(draw_piece(1))).is_ok());

    // The page goes (the person moved on) while the piece's task still holds its owner.
    page.cleanup();
    drop(page);
    assert!(!piece.with(larder::lazy::reaches_the_app));
    // Drawing now would panic on the missing context; nothing is drawn instead.
    assert!(piece.with(|| at_once(draw_piece(2))).is_ok());
}
