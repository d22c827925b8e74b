//! The top bar: navigation for the signed-in identity's roles, who is signed in, the theme
//! toggle, sign out, and the retry hint.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_location, use_navigate};

use crate::session::Session;
use crate::ApiClient;

/// Links shown to everyone signed in, and to administrators only.
fn links(is_admin: bool, is_user: bool) -> Vec<(&'static str, &'static str)> {
    let mut links = Vec::new();
    if is_user {
        links.push(("/household", "My household"));
    }
    if is_admin {
        links.push(("/households", "Households"));
    }
    links.push(("/records/articles", "Knowledge base"));
    links
}

/// The header of every page.
#[component]
pub fn Header() -> impl IntoView {
    let session = expect_context::<Session>();
    let client = expect_context::<ApiClient>();
    let navigate = use_navigate();
    let sign_out = Action::new_local(move |_: &()| {
        let client = client.clone();
        async move { client.sign_out().await }
    });
    Effect::new(move || {
        if sign_out.version().get() > 0 {
            session.identity.set(None);
            navigate("/sign-in", Default::default());
        }
    });
    // On a phone the links and the account fold behind "Menu", so a page's title stays in the
    // first screen; wider screens show everything in one row (style/main.css).
    let open = RwSignal::new(false);
    let location = use_location();
    Effect::new(move || {
        location.pathname.track();
        open.set(false);
    });
    view! {
        <header class="topbar">
            <A href=crate::hosting::link("/") attr:class="brand">"Larder"</A>
            {move || session.retrying.get().map(|(attempt, of)| view! {
                <span class="retrying" role="status">{format!("Retrying {attempt} of {of}…")}</span>
            })}
            <button type="button" class="menu-toggle" aria-controls="topbar-menu"
                aria-expanded=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
                "Menu"
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
                    let links = links(identity.has_role("admin"), identity.username.is_some());
                    view! {
                        <nav class="mainnav" aria-label="Main">
                            {links.into_iter().map(|(href, text)| view! { <A href=crate::hosting::link(href)>{text}</A> }).collect_view()}
                        </nav>
                    }
                })}
                <span class="spacer"></span>
                <ThemeToggle/>
                {move || session.identity.get().map(|identity| view! {
                    <span class="who">
                        "Signed in as " <strong>{identity.display_name().to_string()}</strong>
                        {identity.roles.iter().map(|role| view! { <span class="chip">{role.clone()}</span> }).collect_view()}
                    </span>
                    <button type="button" on:click=move |_| { sign_out.dispatch(()); }>"Sign out"</button>
                })}
            </div>
        </header>
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
    let next = move || match theme.get() {
        "system" => "light",
        "light" => "dark",
        _ => "system",
    };
    view! {
        <button type="button" class="theme" on:click=move |_| theme.set(next())
            aria-label=move || format!("Theme: {}. Switch to {}", theme.get(), next())>
            {move || match theme.get() { "light" => "☀ Light", "dark" => "☾ Dark", _ => "◐ System" }}
        </button>
    }
}
