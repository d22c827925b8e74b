//! The top bar: navigation for the signed-in identity's roles, who is signed in, the theme
//! toggle, sign out, and the retry hint.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

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
    view! {
        <header class="topbar">
            <A href=crate::hosting::link("/") attr:class="brand">"Larder"</A>
            {move || session.identity.get().map(|identity| {
                let links = links(identity.has_role("admin"), identity.username.is_some());
                view! {
                    <nav class="mainnav" aria-label="Main">
                        {links.into_iter().map(|(href, text)| view! { <A href=crate::hosting::link(href)>{text}</A> }).collect_view()}
                    </nav>
                }
            })}
            <span class="spacer"></span>
            {move || session.retrying.get().map(|(attempt, of)| view! {
                <span class="retrying" role="status">{format!("Retrying {attempt} of {of}…")}</span>
            })}
            <ThemeToggle/>
            {move || session.identity.get().map(|identity| view! {
                <span class="who">
                    "Signed in as " <strong>{identity.display_name().to_string()}</strong>
                    {identity.roles.iter().map(|role| view! { <span class="chip">{role.clone()}</span> }).collect_view()}
                </span>
                <button type="button" on:click=move |_| { sign_out.dispatch(()); }>"Sign out"</button>
            })}
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
