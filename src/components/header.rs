//! The top bar: navigation for the signed-in identity's roles, who is signed in, the theme
//! toggle, sign out, and the retry hint.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

use crate::i18n::{t, tf, Lang};
use crate::session::Session;
use crate::ApiClient;

/// Links shown to everyone signed in, to curators, and to administrators only; the status page
/// where the service offers `system/health`.
fn links(
    is_admin: bool,
    is_curator: bool,
    is_user: bool,
    status_offered: bool,
) -> Vec<(&'static str, String)> {
    let mut links = Vec::new();
    if is_user {
        links.push(("/household", t("My household")));
    }
    if is_admin {
        links.push(("/households", t("Households")));
        if status_offered {
            links.push(("/status", t("Status")));
        }
    }
    if is_curator {
        links.push(("/overview", t("Overview")));
    }
    links.push(("/records/articles", t("Knowledge base")));
    links
}

/// The header of every page.
#[component]
pub fn Header() -> impl IntoView {
    let session = expect_context::<Session>();
    let client = expect_context::<ApiClient>();
    // Whether the service offers its status (`system/health`, no token needed): asked once an
    // administrator is signed in, so the link shows only where the page has something to show.
    let status_offered = RwSignal::new(false);
    {
        let client = client.clone();
        Effect::new(move |asked: Option<bool>| {
            let admin = session
                .identity
                .with(|i| i.as_ref().is_some_and(|i| i.has_role("admin")));
            if admin && asked != Some(true) {
                let client = client.clone();
                leptos::task::spawn_local(async move {
                    let offered = matches!(client.system_health().await, Ok(Some(_)));
                    status_offered.set(offered);
                });
            }
            admin
        });
    }
    // The session ends with the sign-in page loaded anew (`Session::end`).
    let sign_out = Action::new_local(move |_: &()| {
        let client = client.clone();
        async move { session.end(&client).await }
    });
    // On a phone the links and the account fold behind "Menu", so a page's title stays in the
    // first screen; wider screens show everything in one row (style/main.css).
    let open = RwSignal::new(false);
    let location = use_location();
    // Closes the menu after a navigation; the path is read, not only tracked (see app.rs's
    // FocusOnNavigation).
    let close_on_navigation = move || {
        let _path = location.pathname.get();
        open.set(false);
    };
    view! {
        <header class="topbar">
            {close_on_navigation}
            <A href=crate::hosting::link("/") attr:class="brand">"Larder"</A>
            {move || session.retrying.get().map(|(attempt, of)| view! {
                <span class="retrying" role="status">{tf("Retrying {attempt} of {of}…", &[("attempt", &attempt.to_string()), ("of", &of.to_string())])}</span>
            })}
            <button type="button" class="menu-toggle" aria-controls="topbar-menu"
                aria-expanded=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
                {move || t("Menu")}
            </button>
            <div id="topbar-menu" class="topbar-menu" class:open=move || open.get()
                on:keydown=move |ev| if ev.key() == "Escape" { open.set(false) }
                // Following a link closes the menu, even to the page already shown.
                on:click=move |ev| {
                    let on_link = ev
                        .target()
                        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                        .is_some_and(|e| e.closest("a").ok().flatten().is_some());
                    if on_link {
                        open.set(false);
                    }
                }>
                {move || session.identity.get().map(|identity| {
                    let curator = larder_contract::collections::CURATORS.allows(&identity.roles);
                    let links = links(identity.has_role("admin"), curator, identity.username.is_some(), status_offered.get());
                    view! {
                        <nav class="mainnav" aria-label=t("Main")>
                            {links.into_iter().map(|(href, text)| view! { <A href=crate::hosting::link(href)>{text}</A> }).collect_view()}
                        </nav>
                    }
                })}
                <span class="spacer"></span>
                <LanguageSelect/>
                <ThemeToggle/>
                <crate::components::display_prefs::DisplayPrefs/>
                {move || session.identity.get().map(|identity| view! {
                    <span class="who">
                        <span class="who-label">{t("Signed in as")}</span> " " <strong>{identity.display_name().to_string()}</strong>
                        {identity.roles.iter().map(|role| view! { <span class="chip">{role.clone()}</span> }).collect_view()}
                    </span>
                    <button type="button" on:click=move |_| { sign_out.dispatch(()); }>{t("Sign out")}</button>
                })}
            </div>
        </header>
    }
}

/// The console's language, among those `config.json` offers. A change applies at once, without
/// a reload and without touching what forms hold, and is remembered.
#[component]
fn LanguageSelect() -> impl IntoView {
    let offered = crate::i18n::choose::offered();
    let current = RwSignal::new(crate::i18n::lang());
    let change = move |ev: leptos::ev::Event| {
        let Some(lang) = Lang::from_tag(&event_target_value(&ev)) else {
            return;
        };
        leptos::task::spawn_local(async move {
            if crate::i18n::choose::switch_to(lang).await.is_ok() {
                crate::i18n::choose::remember(lang);
                current.set(lang);
            }
        });
    };
    view! {
        <select class="language" aria-label=move || t("Language") on:change=change>
            {offered.into_iter().map(|lang| view! {
                <option value=lang.code() lang=lang.code() selected=move || current.get() == lang>{lang.native_name()}</option>
            }).collect_view()}
        </select>
    }
}

/// Light, dark, or the system's preference. Kept in memory: nothing is written to storage.
#[component]
fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new("system");
    Effect::new(move || {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let Some(root) = root {
            let _ = match theme.get() {
                "system" => root.remove_attribute("data-theme"),
                other => root.set_attribute("data-theme", other),
            };
        }
    });
    let name = |theme: &str| match theme {
        "light" => t("Light"),
        "dark" => t("Dark"),
        _ => t("System"),
    };
    let next = move || match theme.get() {
        "system" => "light",
        "light" => "dark",
        _ => "system",
    };
    view! {
        <button type="button" class="theme" on:click=move |_| theme.set(next())
            aria-label=move || tf("Theme: {theme}. Switch to {next}", &[("theme", &name(theme.get())), ("next", &name(next()))])>
            {move || match theme.get() { "light" => "☀ ", "dark" => "☾ ", _ => "◐ " }}
            <span class="theme-name">{move || name(theme.get())}</span>
        </button>
    }
}
