//! The pages that load on demand, and the module each arrives in.
//!
//! The release build of `cargo xtask dist` (cargo feature `split`) moves each group of pages
//! below into a wasm module of its own, fetched the first time one of its pages opens: the
//! sign-in form needs only the main module. Other builds (trunk, tests) call the same functions
//! directly, so nothing else depends on the split.

use std::cell::RefCell;
use std::collections::HashSet;

use leptos::prelude::*;

use crate::chunks::ChunkFailed;
use crate::components::loading::Loading;
use crate::i18n::{k, t};
use crate::routes::allergy_audit::AllergyAudit;
use crate::routes::household::MyHousehold;
use crate::routes::household_view::HouseholdView;
use crate::routes::households::Households;
use crate::routes::member::MemberPage;
use crate::routes::record::RecordPage;
use crate::routes::record_new::RecordNew;
use crate::routes::records::Records;

/// Declares the pages per module: an entry that renders each (the split point), a `preload`
/// that fetches its module, and [`Page`] over all of them.
macro_rules! pages_in_modules {
    ($( $module:ident { $( $page:ident: $entry:ident, $preload:ident => $view:ident ),* $(,)? } )*) => {
        $($(
            #[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(
                $module, fallible, wasm_split_path = ::leptos::wasm_split, preload($preload)
            ))]
            fn $entry() -> Result<AnyView, ChunkFailed> {
                Ok(view! { <$view/> }.into_any())
            }
        )*)*

        /// A page that loads on demand.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Page {
            $($( $page, )*)*
        }

        impl Page {
            /// Fetches the page's module. Success is remembered; a failure is not, so calling
            /// again tries again.
            pub(crate) async fn fetch(self) -> Result<(), ChunkFailed> {
                #[cfg(feature = "split")]
                {
                    match self {
                        $($( Page::$page => $preload().await.map_err(ChunkFailed::from), )*)*
                    }
                }
                #[cfg(not(feature = "split"))]
                {
                    let _ = self;
                    Ok(())
                }
            }

            /// The page, once its module is here.
            fn render(self) -> Result<AnyView, ChunkFailed> {
                #[cfg(feature = "split")]
                {
                    use futures::FutureExt;
                    // The module is loaded, so the entry's future is ready when first polled.
                    match self {
                        $($( Page::$page => $entry().now_or_never().unwrap_or(Err(ChunkFailed)), )*)*
                    }
                }
                #[cfg(not(feature = "split"))]
                {
                    match self {
                        $($( Page::$page => $entry(), )*)*
                    }
                }
            }
        }
    };
}

pages_in_modules! {
    household_pages {
        MyHousehold: my_household_page, preload_my_household => MyHousehold,
    }
    // Apart from "My household" (issue 24): the member page and its profile form are about
    // 20 KB brotli the bookmark to `/household` would otherwise wait for. The household page
    // fetches this module once its members are on screen ([`prefetch`]).
    member_pages {
        Member: member_page, preload_member => MemberPage,
    }
    admin_pages {
        Households: households_page, preload_households => Households,
        Household: household_page, preload_household => HouseholdView,
        AllergyAudit: allergy_audit_page, preload_allergy_audit => AllergyAudit,
    }
    knowledge_base_pages {
        Records: records_page, preload_records => Records,
        Record: record_page, preload_record => RecordPage,
        NewRecord: new_record_page, preload_new_record => RecordNew,
    }
}

thread_local! {
    /// Pages whose module has arrived: they render at once, without a loading line.
    static ARRIVED: RefCell<HashSet<Page>> = RefCell::new(HashSet::new());
}

/// Fetches `page`'s module in the background, for a page people are likely to open next; once
/// here, the page renders at once. A failure is not remembered (opening the page tries again).
pub fn prefetch(page: Page) {
    if cfg!(not(feature = "split")) || ARRIVED.with(|a| a.borrow().contains(&page)) {
        return;
    }
    leptos::task::spawn_local(async move {
        if page.fetch().await.is_ok() {
            ARRIVED.with(|a| a.borrow_mut().insert(page));
        }
    });
}

#[derive(Clone, Copy, PartialEq)]
enum Arrival {
    Waiting,
    Here,
    Failed,
}

/// A page from its module: a loading line while the module arrives, and a message with
/// "Try again" when it cannot (offline, or a new deploy replaced it), never a dead page.
#[component]
pub fn Deferred(page: Page) -> impl IntoView {
    let arrived = cfg!(not(feature = "split")) || ARRIVED.with(|a| a.borrow().contains(&page));
    let arrival = RwSignal::new(if arrived {
        Arrival::Here
    } else {
        Arrival::Waiting
    });
    let fetch = move || {
        arrival.set(Arrival::Waiting);
        leptos::task::spawn_local(async move {
            let next = match page.fetch().await {
                Ok(()) => {
                    ARRIVED.with(|a| a.borrow_mut().insert(page));
                    Arrival::Here
                }
                Err(ChunkFailed) => Arrival::Failed,
            };
            // The page may have been left meanwhile.
            let _ = arrival.try_set(next);
        });
    };
    if !arrived {
        fetch();
    }
    move || match arrival.get() {
        Arrival::Waiting => view! { <Loading what=k("Loading the page…")/> }.into_any(),
        Arrival::Here => page
            .render()
            .unwrap_or_else(|ChunkFailed| view! { <NotArrived retry=fetch/> }.into_any()),
        Arrival::Failed => view! { <NotArrived retry=fetch/> }.into_any(),
    }
}

/// The page's module did not arrive.
#[component]
fn NotArrived(retry: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    view! {
        <section class="card" role="alert">
            <h1>{move || t("This page could not be loaded")}</h1>
            <p>"Its part of the console did not arrive: the connection may be down, or a newer version \
                of the console was published meanwhile. What you entered elsewhere is kept."</p>
            <p class="actions">
                <button type="button" class="primary" on:click=move |_| retry()>{move || t("Try again")}</button>
                " "
                <button type="button" on:click=|_| { let _ = web_sys::window().map(|w| w.location().reload()); }>
                    {move || t("Reload (signs you out)")}
                </button>
            </p>
        </section>
    }
}
