//! The language at start and when changed: remembered in `localStorage` (a preference, not a
//! secret), else the browser's, else `config.json`'s default; its catalog fetched from
//! `locales/<code>.json` beside `index.html`; `<html lang>` set.

use super::{set, Catalog, Lang};

const REMEMBERED: &str = "larder.language";

thread_local! {
    /// The languages `config.json` offers, for the language menu.
    static OFFERED: std::cell::RefCell<Vec<Lang>> = std::cell::RefCell::new(Lang::ALL.to_vec());
}

/// The languages offered.
pub fn offered() -> Vec<Lang> {
    OFFERED.with(|o| o.borrow().clone())
}

/// Picks and loads the language to start in. A catalog that cannot be fetched leaves English.
pub async fn start(default: Option<Lang>, offered: Vec<Lang>) {
    OFFERED.with(|o| *o.borrow_mut() = offered.clone());
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
    let _ = switch_to(lang).await;
}

/// Switches to `lang`: fetches its catalog (English has none), then every text follows.
pub async fn switch_to(lang: Lang) -> Result<(), String> {
    let catalog = match lang {
        Lang::En => Catalog::default(),
        other => fetch(other).await?,
    };
    set(lang, catalog);
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.code());
    }
    Ok(())
}

/// Remembers a language chosen in the menu.
pub fn remember(lang: Lang) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(REMEMBERED, lang.code());
    }
}

async fn fetch(lang: Lang) -> Result<Catalog, String> {
    // Relative to the document's base, as config.json: a sub-path hosting works.
    let url = format!("locales/{}.json", lang.code());
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    if response.status() != 200 {
        return Err(format!("{url}: status {}", response.status()));
    }
    let text = response.text().await.map_err(|e| format!("{url}: {e}"))?;
    Catalog::parse(&text)
}
