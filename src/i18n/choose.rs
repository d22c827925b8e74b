//! The language at start and when changed: remembered in `localStorage` (a preference, not a
//! secret), else the browser's, else `config.json`'s default; its catalog fetched from
//! `locales/<code>.json` beside `index.html`; `<html lang>` set.
//!
//! The sign-in form does not wait for a whole catalog (13-15 KB compressed): the start-up
//! module shows it with the start-up catalog's few texts (crates/start, [`super::start_keys`]),
//! and hands over once "Sign in" works; the chosen language's whole catalog comes then, while
//! people type ([`prepare`]), and [`ready`] waits for it before the console shows anything.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;

use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::{set, Catalog, Lang};

// Shared with the start-up module, which chooses the form's language by the same rule.
use larder_start::language::REMEMBERED;

thread_local! {
    /// The languages `config.json` offers, for the language menu.
    static OFFERED: RefCell<Vec<Lang>> = RefCell::new(Lang::ALL.to_vec());
    /// The language the start-up module shows the form in, whose whole catalog is to come.
    static PENDING: Cell<Option<Lang>> = const { Cell::new(None) };
    /// That catalog's fetch, once started: resolves once it is in use, or could not come. The
    /// console mounts only after it resolved, so the language menu never races it.
    static REST: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// The languages offered.
pub fn offered() -> Vec<Lang> {
    OFFERED.with(|o| o.borrow().clone())
}

/// Picks and loads the language to start in, its whole catalog. A catalog that cannot be fetched
/// leaves English.
pub async fn start(default: Option<Lang>, offered: Vec<Lang>) {
    let lang = choose(default, offered);
    let _ = switch_to(lang).await;
}

/// Picks the language the start-up module chose by the same rule and starts fetching its
/// whole catalog, for [`ready`] (English has none to wait for). Returns the language picked.
pub fn prepare(default: Option<Lang>, offered: Vec<Lang>) -> Lang {
    let lang = choose(default, offered);
    if lang == Lang::En {
        show(lang, Catalog::default());
    } else {
        PENDING.set(Some(lang));
        fetch_the_rest();
    }
    lang
}

/// Starts fetching the whole catalog of the language the form shows, if it is still to come.
pub fn fetch_the_rest() {
    let _ = rest();
}

/// Resolves once the chosen language's whole catalog is in use (at once when it already is, or
/// when there is none to wait for). When it cannot come, the start-up texts stay and the rest
/// is English, as a failed catalog always left it.
pub async fn ready() {
    if let Some(rest) = rest() {
        let _ = JsFuture::from(rest).await;
    }
}

/// The whole catalog's fetch, started on first call; `None` when nothing is to come.
fn rest() -> Option<Promise> {
    let lang = PENDING.get()?;
    let fetching = REST.with(|r| {
        r.borrow_mut()
            .get_or_insert_with(|| {
                // A promise rather than a shared future: every waiter can await it, and the
                // start-up module has promises' code already.
                Promise::new(&mut |done: js_sys::Function, _| {
                    wasm_bindgen_futures::spawn_local(async move {
                        // When it cannot come, the start-up texts stay, the rest is English.
                        let _ = switch_to(lang).await;
                        let _ = done.call0(&JsValue::UNDEFINED);
                    });
                })
            })
            .clone()
    });
    Some(fetching)
}

/// The language to start in, by [`Lang::pick`]; remembers what `config.json` offers.
fn choose(default: Option<Lang>, offered: Vec<Lang>) -> Lang {
    let window = web_sys::window();
    let remembered = window
        .as_ref()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(REMEMBERED).ok().flatten());
    let browser: Vec<String> = window
        .as_ref()
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|l| l.as_string())
                .collect()
        })
        .unwrap_or_default();
    let lang = Lang::pick(remembered.as_deref(), &browser, default, &offered);
    OFFERED.with(|o| *o.borrow_mut() = offered);
    lang
}

/// Switches to `lang`: fetches its catalog (English has none), then every text follows.
/// Boxed: awaited in four places, its code is in the module once rather than in each.
pub fn switch_to(lang: Lang) -> Pin<Box<dyn Future<Output = Result<(), String>>>> {
    Box::pin(async move {
        let catalog = match lang {
            Lang::En => Catalog::default(),
            other => fetch(other).await?,
        };
        show(lang, catalog);
        Ok(())
    })
}

/// Puts `lang`'s `catalog` in use and says so in `<html lang>`.
fn show(lang: Lang, catalog: Catalog) {
    set(lang, catalog);
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.code());
    }
}

/// Remembers a language chosen in the menu.
pub fn remember(lang: Lang) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(REMEMBERED, lang.code());
    }
}

async fn fetch(lang: Lang) -> Result<Catalog, String> {
    Catalog::parse(&fetch_text(&format!("locales/{}.json", lang.code())).await?)
}

/// A file's text, relative to the document's base as config.json (a sub-path hosting works).
async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    if response.status() != 200 {
        return Err(format!("{url}: status {}", response.status()));
    }
    response.text().await.map_err(|e| format!("{url}: {e}"))
}
