//! Shared links (issue 41 item 3, production.md §10.4): the owner's links with their state,
//! *Copy link* and *Revoke* (asked first).
//! The public page of a link is the service's; where the service lacks the routes nothing is
//! shown.

use larder_api::shares::ShareLink;
use leptos::prelude::*;

use crate::components::confirm::ConfirmButton;
use crate::components::error_view::ErrorView;
use crate::components::toast::Toasts;
use crate::i18n::format::{date, number};
use crate::i18n::{t, tf, value_label};
use crate::ApiClient;

/// Links listed at once (production's default page).
const LISTED: u32 = 50;

/// The owner's shared links.
#[component]
pub fn SharedLinks() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let version = RwSignal::new(0u32);
    let links = {
        let client = client.clone();
        LocalResource::new(move || {
            version.track();
            let client = client.clone();
            async move { client.share_links(LISTED).await }
        })
    };
    let reload = Callback::new(move |_| version.update(|v| *v += 1));
    view! {
        <Transition fallback=|| ()>
            {move || links.get().map(|answer| match answer {
                Ok(None) => ().into_any(),
                Err(error) => view! {
                    <section class="shared-links" aria-labelledby="shares-title">
                        <h3 id="shares-title">{move || t("Shared links")}</h3>
                        <ErrorView error retry=reload/>
                    </section>
                }.into_any(),
                Ok(Some(links)) => view! { <LinksTable links reload/> }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn LinksTable(links: Vec<ShareLink>, reload: Callback<()>) -> impl IntoView {
    if links.is_empty() {
        return view! {
            <section class="shared-links" aria-labelledby="shares-title">
                <h3 id="shares-title">{move || t("Shared links")}</h3>
                <p class="hint">{move || t("No shared links yet.")}</p>
            </section>
        }
        .into_any();
    }
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let share_page = crate::config::share_page();
    let when = |stamp: &Option<String>| stamp.as_deref().map(date).unwrap_or_else(|| "—".into());
    let rows = links
        .into_iter()
        .map(|link| {
            let url = client.public_share_url(&link.token, share_page.as_deref());
            let state = if link.revoked {
                t("Revoked")
            } else if link.live {
                t("Live")
            } else {
                t("Expired")
            };
            let expires = link
                .expires_at
                .as_deref()
                .map(date)
                .unwrap_or_else(|| t("When revoked"));
            let revoke = {
                let client = client.clone();
                let token = link.token.clone();
                Callback::new(move |_| {
                    let client = client.clone();
                    let token = token.clone();
                    leptos::task::spawn_local(async move {
                        match client.revoke_share(&token).await {
                            Ok(_) => {
                                toasts.success(t("The link was revoked."));
                                reload.run(());
                            }
                            Err(error) => toasts.error(&error),
                        }
                    });
                })
            };
            let copy_url = url.clone();
            let title = if link.title.is_empty() {
                t("Untitled")
            } else {
                link.title.clone()
            };
            let question = tf(
                "Revoke the link “{title}”? Anyone who has it can no longer open it.",
                &[("title", &title)],
            );
            view! {
                <tr>
                    <th scope="row">{title}</th>
                    <td>{value_label("share_kind", &link.kind)}</td>
                    <td>{when(&link.created_at)}</td>
                    <td>{expires}</td>
                    <td class="num">{number(link.view_count as f64)}</td>
                    <td>{when(&link.last_viewed_at)}</td>
                    <td><span class="chip">{state}</span></td>
                    <td class="actions">
                        {link.live.then(|| view! {
                            <button type="button" on:click=move |_| copy(&copy_url, toasts)>{move || t("Copy link")}</button>
                            <ConfirmButton label=Signal::derive(|| t("Revoke")) question=Signal::derive(move || question.clone())
                                confirm_label=Signal::derive(|| t("Revoke")) on_confirm=revoke/>
                        })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="shared-links" aria-labelledby="shares-title">
            <h3 id="shares-title">{move || t("Shared links")}</h3>
            <div class="table-wrap">
                <table>
                    <thead><tr>
                        <th scope="col">{move || t("Title")}</th>
                        <th scope="col">{move || t("Kind")}</th>
                        <th scope="col">{move || t("Created")}</th>
                        <th scope="col">{move || t("Expires")}</th>
                        <th scope="col">{move || t("Views")}</th>
                        <th scope="col">{move || t("Last viewed")}</th>
                        <th scope="col">{move || t("State")}</th>
                        <th scope="col"><span class="visually-hidden">{move || t("Actions")}</span></th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

/// Copies `url`; where the browser refuses, the toast says the link, to be copied by hand.
fn copy(url: &str, toasts: Toasts) {
    #[cfg(target_arch = "wasm32")]
    {
        let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
        let url = url.to_string();
        leptos::task::spawn_local(async move {
            let copied = match clipboard {
                Some(clipboard) => wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&url))
                    .await
                    .is_ok(),
                None => false,
            };
            if copied {
                toasts.success(t("The link was copied."));
            } else {
                toasts.success(tf("Copy this link: {url}", &[("url", &url)]));
            }
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (url, toasts);
}

/// "Share this meal plan" (from the meal-plan view): a public link to the member's plan,
/// its address shown with *Copy link*. Where the service lacks share links, it says so once.
#[component]
pub fn ShareMealPlan(plan_id: String, member_id: String) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let made = RwSignal::new(None::<String>);
    let failed = RwSignal::new(None::<larder_api::ApiError>);
    let not_offered = RwSignal::new(false);
    let share = Action::new_local(move |_: &()| {
        let (client, share_page) = (client.clone(), crate::config::share_page());
        let request = larder_api::shares::NewShare::meal_plan(&plan_id, &member_id);
        async move {
            let created = client.create_share(&request).await;
            created.map(|c| c.map(|c| client.public_share_url(&c.token, share_page.as_deref())))
        }
    });
    Effect::new(move || match share.value().get() {
        Some(Ok(Some(url))) => {
            failed.set(None);
            made.set(Some(url));
        }
        Some(Ok(None)) => not_offered.set(true),
        Some(Err(error)) => failed.set(Some(error)),
        None => {}
    });
    view! {
        <div class="share-plan">
            {move || if not_offered.get() {
                view! { <p class="hint">{move || t("The service does not offer share links.")}</p> }.into_any()
            } else if let Some(url) = made.get() {
                let copy_url = url.clone();
                view! {
                    <p role="status">{move || t("Anyone with this link can see the plan:")}" "
                        <a href=url.clone() rel="noreferrer" target="_blank" data-testid="shared-plan-link">{url.clone()}</a></p>
                    <button type="button" on:click=move |_| copy(&copy_url, toasts)>{move || t("Copy link")}</button>
                }.into_any()
            } else {
                view! {
                    <button type="button" disabled=move || share.pending().get() on:click=move |_| { share.dispatch(()); }>
                        {move || t("Share this meal plan")}
                    </button>
                }.into_any()
            }}
            {move || failed.get().map(|error| view! { <ErrorView error/> })}
        </div>
    }
}
