//! What the start-up module reads before the form works: config.json, the start-up catalog,
//! the language to show, and the page group the sign-in will land on. Each `None` leaves the
//! form to the console's module (see `super::run`).

use js_sys::{Array, Object, Promise, Reflect};
use larder_start::{config, landing, language};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

/// The start-up catalog `cargo xtask dist` writes into the page, as a data block (which the
/// policy does not govern: it is never run).
pub(super) fn catalog_in_page(document: &web_sys::Document) -> Option<String> {
    document
        .get_element_by_id(language::START_CATALOG_IN_PAGE)?
        .text_content()
}

/// config.json's text; `NULL` when there is none (absent, or a host's HTML for a missing
/// file), as the console reads it; `None` when it could not be read (the console says why).
pub(super) async fn config_text(fetching: Promise) -> Option<JsValue> {
    let response: Response = JsFuture::from(fetching).await.ok()?.dyn_into().ok()?;
    let html = response
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .is_some_and(|t| t.starts_with("text/html"));
    match response.status() {
        404 => Some(JsValue::NULL),
        200 if html => Some(JsValue::NULL),
        200 => Some(JsFuture::from(response.text().ok()?).await.ok()?),
        _ => None,
    }
}

/// The page the sign-in will land on: the page opened, or the sign-in page's `next`
/// (`larder_start::landing`, the console's own rule).
pub(super) fn landing_of(window: &web_sys::Window) -> Option<landing::Landing> {
    let location = window.location();
    let (path, search) = (location.pathname().ok()?, location.search().ok()?);
    let base = window.document()?.base_uri().ok()??;
    let base = web_sys::Url::new(&base).ok()?.pathname();
    let mut inside = String::from(
        path.strip_prefix(base.trim_end_matches('/'))
            .unwrap_or(&path),
    );
    inside.push_str(&search);
    let next = web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get("next");
    landing::after_sign_in(&inside, next.as_deref())
}

/// A successful answer's text, else `NULL`.
pub(super) async fn text_of(answer: JsValue) -> JsValue {
    let Ok(response) = answer.dyn_into::<Response>() else {
        return JsValue::NULL;
    };
    if response.status() != 200 {
        return JsValue::NULL;
    }
    match response.text() {
        Ok(text) => JsFuture::from(text).await.unwrap_or(JsValue::NULL),
        Err(_) => JsValue::NULL,
    }
}

pub(super) fn field(object: &Object, key: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// The language by the console's rule (`larder_start::language::pick`): English and the
/// start-up catalog's languages, as config.json limits them.
pub(super) fn choose(window: &web_sys::Window, file: &Object, catalogs: &Object) -> Option<String> {
    let mut offered: Vec<String> = match field(file, "languages") {
        Some(list) => list
            .dyn_into::<Array>()
            .ok()?
            .iter()
            .map(|code| code.as_string())
            .collect::<Option<_>>()?,
        None => {
            let mut all = vec![String::from("en")];
            all.extend(Object::keys(catalogs).iter().filter_map(|k| k.as_string()));
            all
        }
    };
    offered.retain(|code| !code.is_empty());
    let default = match field(file, "default_language") {
        Some(value) => Some(value.as_string()?),
        None => None,
    };
    let remembered = window
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(language::REMEMBERED).ok().flatten());
    let browser: Vec<String> = window
        .navigator()
        .languages()
        .iter()
        .filter_map(|tag| tag.as_string())
        .collect();
    let codes: Vec<&str> = offered.iter().map(String::as_str).collect();
    let at = language::pick(remembered.as_deref(), &browser, default.as_deref(), &codes)?;
    Some(language::primary(codes.get(at)?))
}

/// Whether the console takes config.json as `file` (`larder::config::parse`'s rules): only known
/// keys; absolute http(s) bases; a timeout of at most 600 s; languages the console has (English
/// and the start-up catalog's), at least one when listed; picture hosts by the contract's rule;
/// a consent version of 1 to 16 characters; a share page with one `{token}`. Otherwise the
/// console says what is wrong, in place of the form.
pub(super) fn acceptable(file: &Object, catalogs: &Object) -> Option<()> {
    let known = |tag: &JsValue| {
        let code = language::primary(&tag.as_string()?);
        (code == "en" || Reflect::has(catalogs, &JsValue::from_str(&code)).ok()?).then_some(())
    };
    for key in Object::keys(file).iter() {
        let key = key.as_string()?;
        config::KEYS.contains(&key.as_str()).then_some(())?;
        let Some(value) = field(file, &key) else {
            continue;
        };
        match key.as_str() {
            "data_api_base" | "system_api_base" => {
                config::base_url(&value.as_string()?)?;
            }
            "timeout_seconds" => {
                config::timeout_ms(value.as_f64()?)?;
            }
            "default_language" => known(&value)?,
            // The core's rules (`larder_start::oidc::config`), as the console reads them, in
            // the module with the provider's sign-in; without it (that module did not come),
            // the password form runs and the provider is not asked.
            "oidc" => {
                #[cfg(feature = "provider")]
                super::oidc::settings(value)?;
            }
            // Each entry by the contract's rule, as the console reads it (may be empty).
            "picture_hosts" => {
                let list: Array = value.dyn_into().ok()?;
                for host in list.iter() {
                    larder_contract::hosting::picture_host(&host.as_string()?)?;
                }
            }
            "consent_version" => {
                let chars = value.as_string()?.trim().chars().count();
                let most = larder_contract::account::MAX_CONSENT_VERSION_CHARS as usize;
                (1..=most).contains(&chars).then_some(())?;
            }
            "share_page" => {
                config::share_page(&value.as_string()?)?;
            }
            "languages" => {
                let list: Array = value.dyn_into().ok()?;
                (list.length() > 0).then_some(())?;
                for tag in list.iter() {
                    known(&tag)?;
                }
            }
            // A key this match does not check yet: the console decides.
            _ => return None,
        }
    }
    Some(())
}
