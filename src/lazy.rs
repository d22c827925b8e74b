//! Pages that load on demand, Leptos's way: each route is a `Lazy<Protected<P>>` whose
//! `LazyRoute::data()` starts the page's reads while `preload()` brings the module of its group
//! of pages (`larder_start::landing::Group`), and whose `view()` draws it from that module. The
//! data a page needs is made by its route, beside its code, so no read waits for the code and
//! none is kept anywhere for a page to take later.
//!
//! Written by hand rather than with `#[lazy_route]` (issue 37), for four reasons: its preload
//! panics when a module does not arrive (a panic stops the whole console): here the page says
//! "This page could not be loaded" with "Try again"; its split markers are in every `csr` build,
//! where the test builds cannot link them: here they exist only in the split build (cargo
//! feature `split`, `cargo xtask dist`); it names modules by a hash of where the macro stands,
//! while the build bundles each group by its name; and it cannot sit behind `ProtectedRoute`:
//! here [`Protected`] is the guard, in data (nothing is read for no one) and in view (a
//! redirect to sign in).

use std::future::Future;

use larder_start::landing::Group;
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::LazyRoute;

use crate::i18n::t;
use crate::session::Session;

/// A module of the console could not be fetched (offline, or a deploy in between removed it).
#[derive(Clone, Copy, Debug)]
pub struct ChunkFailed;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkFailed
    }
}

/// A page of a group: what it reads, made as its module loads, and the page itself, from its
/// group's module (an entry of [`split_entry!`]).
pub trait Page: Clone + Send + Sync + 'static {
    /// The group whose module brings this page.
    const GROUP: Group;
    /// What the page reads, started at once; called for a signed-in person only.
    fn data(session: Session) -> Self;
    /// The page, drawn by its module once that is here.
    fn draw(self) -> impl Future<Output = Result<AnyView, ChunkFailed>>;
}

/// The entry of a view in a module of its own (a page in its group's, [`Later`]'s piece in
/// its own): `split_entry!(household_pages, draw_own, OwnHousehold => |data| view! { <MyHousehold
/// data/> })` declares `async fn draw_own(data: OwnHousehold)`, in the split build the module's
/// entry (`wasm_split`, named as given and fallible), elsewhere a plain call.
///
/// Nothing is drawn when the owner it is drawn under no longer reaches the app (the page that
/// asked for a [`Later`] piece went while its module came: its owner was dropped): drawing
/// there would look up the app's context through a parent that is gone and panic, and a panic
/// in a task leaves the app's executor stuck (a journey met it under load: the router never
/// changed page again).
#[macro_export]
macro_rules! split_entry {
    ($group:ident, $entry:ident, $data:ty => $draw:expr) => {
        #[cfg(feature = "split")]
        #[::leptos::wasm_split::wasm_split($group, fallible, wasm_split_path = ::leptos::wasm_split)]
        fn $entry(data: $data) -> ::std::result::Result<::leptos::prelude::AnyView, $crate::lazy::ChunkFailed> {
            if !$crate::lazy::reaches_the_app() {
                return ::std::result::Result::Ok(::leptos::prelude::IntoAny::into_any(()));
            }
            ::std::result::Result::Ok(::leptos::prelude::IntoAny::into_any(($draw)(data)))
        }
        #[cfg(not(feature = "split"))]
        async fn $entry(data: $data) -> ::std::result::Result<::leptos::prelude::AnyView, $crate::lazy::ChunkFailed> {
            if !$crate::lazy::reaches_the_app() {
                return ::std::result::Result::Ok(::leptos::prelude::IntoAny::into_any(()));
            }
            ::std::result::Result::Ok(::leptos::prelude::IntoAny::into_any(($draw)(data)))
        }
    };
}

/// Whether the current owner still reaches the app's context (the client the app provides at
/// its root): false under an owner whose page was dropped.
pub fn reaches_the_app() -> bool {
    use_context::<crate::ApiClient>().is_some()
}

/// Each group's module, by name: the split build makes one module per name, whoever marks it
/// (the pages' entries, [`split_entry!`], and a marker here), so loading it here loads theirs.
macro_rules! groups {
    ($( $group:ident => $variant:ident; )*) => {
        $(
            mod $group {
                use super::ChunkFailed;

                #[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(
                    $group, fallible, wasm_split_path = ::leptos::wasm_split, preload(preload)
                ))]
                #[allow(dead_code)]
                pub(super) fn marker() -> Result<(), ChunkFailed> {
                    Ok(())
                }
            }
        )*

        /// Fetches `group`'s module, if it is not here yet. A failure is not remembered:
        /// calling again tries again.
        pub async fn load(group: Group) -> Result<(), ChunkFailed> {
            #[cfg(feature = "split")]
            {
                match group {
                    $( Group::$variant => $group::preload().await.map_err(ChunkFailed::from), )*
                }
            }
            #[cfg(not(feature = "split"))]
            {
                let _ = group;
                Ok(())
            }
        }
    };
}

groups! {
    household_pages => Household;
    member_pages => Member;
    admin_pages => Admin;
    record_list_pages => RecordList;
    knowledge_base_pages => KnowledgeBase;
}

/// Fetches `group`'s module in the background, for a page people are likely to open next (the
/// remembered link's while people type, a member's from their household), once the page being
/// drawn is on screen.
pub async fn prefetch(group: Group) {
    after_paint().await;
    let _ = load(group).await;
}

/// Resolves once the browser has painted the frame being built now (a frame's callback, then a
/// task after it), or after 100 ms where no frame comes (a tab in the background).
///
/// Why: a module's fetch starts one request per part it needs (some 30 for the member pages,
/// as many for the household's tools), each costing the page's thread a little. Started while
/// the household page was drawn, they held its first paint back by 50 to 75 ms on the bench's
/// phone line (a trace of issue 37's press 2 s after "Sign in" works).
pub async fn after_paint() {
    #[cfg(target_arch = "wasm32")]
    {
        use std::cell::Cell;
        use std::rc::Rc;
        use std::time::Duration;

        let (send, painted) = futures::channel::oneshot::channel::<()>();
        // Sent once, by whichever comes first.
        let send = Rc::new(Cell::new(Some(send)));
        let fire = {
            let send = Rc::clone(&send);
            move || {
                if let Some(send) = send.take() {
                    let _ = send.send(());
                }
            }
        };
        let after_frame = fire.clone();
        request_animation_frame(move || set_timeout(after_frame, Duration::ZERO));
        set_timeout(fire, Duration::from_millis(100));
        let _ = painted.await;
    }
}

/// A page only a signed-in person sees: its data is made, its module fetched and the page
/// drawn only for one; anyone else is sent to sign in, and back afterwards.
#[derive(Clone)]
pub struct Protected<P> {
    data: Option<P>,
    data_owner: DataOwner,
}

/// The reactive owner a route's data was made under, kept for as long as the route's view is
/// on screen.
///
/// Why: Leptos 0.8's router makes a lazy route's data under a preload owner of its own, and
/// drops that owner as soon as the *next* page's preload has finished, while the old page is
/// still on screen and still reading its data. A read of a disposed signal then panics, which
/// a release build shows only as `RuntimeError: unreachable` and which stops the whole console
/// (seen in CI, on a slow machine, leaving "My household" for another page:
/// `tests/lazy_routes.rs` shows both sides).
#[derive(Clone)]
pub struct DataOwner(Option<Owner>);

impl DataOwner {
    /// The owner reads are being made under now (in `LazyRoute::data`).
    pub fn current() -> Self {
        DataOwner(Owner::current())
    }

    /// Keeps the data's owner until the current owner (the view's) is cleaned up. Nothing to
    /// keep when the data was made under the view's own owner: holding it from its own
    /// clean-up would keep it forever.
    pub fn keep_until_view_goes(self) {
        let Some(data_owner) = self.0 else {
            return;
        };
        if Owner::current().is_some_and(|view_owner| view_owner != data_owner) {
            Owner::on_cleanup(move || drop(data_owner));
        }
    }
}

impl<P: Page> LazyRoute for Protected<P> {
    fn data() -> Self {
        let session = expect_context::<Session>();
        Protected {
            data: session.signed_in().then(|| P::data(session)),
            data_owner: DataOwner::current(),
        }
    }

    async fn preload() {
        if expect_context::<Session>().signed_in() {
            // A failure is the view's to show.
            let _ = load(P::GROUP).await;
        }
    }

    async fn view(this: Self) -> AnyView {
        this.data_owner.keep_until_view_goes();
        match this.data {
            Some(data) => arrive(data).await,
            None => view! { <Redirect path=sign_in_redirect()/> }.into_any(),
        }
    }
}

/// A page of the console's own module, guarded as [`Protected`] pages are.
pub fn guarded<V: IntoView + 'static>(
    page: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView {
    let session = expect_context::<Session>();
    move || {
        if session.signed_in() {
            page().into_any()
        } else {
            view! { <Redirect path=sign_in_redirect()/> }.into_any()
        }
    }
}

/// The sign-in page, told to come back to the page being opened (path and query). The route's
/// own URL: a lazy route's view comes before the address bar shows it.
fn sign_in_redirect() -> String {
    let url = leptos_router::hooks::use_url().get_untracked();
    let search = match url.search() {
        "" => String::new(),
        query => format!("?{query}"),
    };
    crate::paths::sign_in_path(url.path(), &search, &crate::hosting::base_path())
}

/// The page from its module, or "This page could not be loaded" with "Try again" when the
/// module did not arrive (never a panic, never a dead page).
async fn arrive<P: Page>(data: P) -> AnyView {
    match data.clone().draw().await {
        Ok(page) => page,
        Err(ChunkFailed) => view! { <NotArrived data/> }.into_any(),
    }
}

/// The page's module did not arrive: "Try again" fetches it again, and draws the page once here.
#[component]
fn NotArrived<P: Page>(data: P) -> impl IntoView {
    // `false` while fetching again.
    let failed = RwSignal::new(true);
    let drawn = RwSignal::new_local(None::<AnyView>);
    let data = StoredValue::new(data);
    let retry = move || {
        failed.set(false);
        // With this component's owner: the page drawn belongs here.
        leptos::task::spawn_local_scoped(async move {
            let Some(data) = data.try_get_value() else {
                return;
            };
            match data.draw().await {
                Ok(page) => {
                    let _ = drawn.try_set(Some(page));
                }
                Err(ChunkFailed) => {
                    let _ = failed.try_set(true);
                }
            }
        });
    };
    move || {
        drawn.track();
        // Taken without a notification: nothing changes here once the page is drawn.
        if let Some(page) = drawn.try_update_untracked(Option::take).flatten() {
            return page;
        }
        view! {
            <section class="card" role="alert">
                <h1>{move || t("This page could not be loaded")}</h1>
                <p>"Its part of the console did not arrive: the connection may be down, or a newer version \
                    of the console was published meanwhile. What you entered elsewhere is kept."</p>
                <p class="actions">
                    <button type="button" class="primary" disabled=move || !failed.get() on:click=move |_| retry()>{move || t("Try again")}</button>
                    " "
                    <button type="button" on:click=|_| { let _ = web_sys::window().map(|w| w.location().reload()); }>
                        {move || t("Reload (signs you out)")}
                    </button>
                </p>
            </section>
        }
        .into_any()
    }
}

/// A piece of a page that comes from a module of its own (a dialog few open, kept out of the
/// module a page's bookmark waits for): `entry` ([`split_entry!`]) draws it from `data` once its
/// module is here, "Loading…" meanwhile; when it does not arrive, what went wrong, with "Try
/// again".
#[component]
pub fn Later<T, F, Fut>(data: T, entry: F) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    F: Fn(T) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkFailed>> + 'static,
{
    // `None` while the module comes.
    let failed = RwSignal::new(None::<bool>);
    let drawn = RwSignal::new_local(None::<AnyView>);
    let data = StoredValue::new(data);
    let fetch = move || {
        failed.set(None);
        // With this component's owner: the piece drawn belongs here.
        leptos::task::spawn_local_scoped(async move {
            // Its module's requests wait for the page around it to be on screen.
            #[cfg(feature = "split")]
            after_paint().await;
            let Some(data) = data.try_get_value() else {
                return;
            };
            match entry(data).await {
                Ok(piece) => {
                    let _ = drawn.try_set(Some(piece));
                    let _ = failed.try_set(Some(false));
                }
                Err(ChunkFailed) => {
                    let _ = failed.try_set(Some(true));
                }
            }
        });
    };
    fetch();
    move || {
        drawn.track();
        // Taken without a notification: nothing changes here once the piece is drawn.
        if let Some(piece) = drawn.try_update_untracked(Option::take).flatten() {
            return piece;
        }
        match failed.get() {
            None => view! { <p role="status" class="loading">{move || t("Loading…")}</p> }.into_any(),
            Some(false) => ().into_any(),
            Some(true) => view! {
                <p class="error-text" role="alert">
                    {move || t("Its module did not arrive: the connection may be down, or a newer version was published meanwhile.")}
                    " " <button type="button" on:click=move |_| fetch()>{move || t("Try again")}</button>
                </p>
            }
            .into_any(),
        }
    }
}
