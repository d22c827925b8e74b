//! Administrators: the service's status (issue 40 item 2, production.md §10.6). The health of
//! the search engine, the cache and storage; each search index's drift (fields the records carry
//! and the index does not map); embedding coverage per collection, with a dry-run *Preview* and
//! then *Backfill* where production has a backfill route. Read again on demand and every minute
//! while the tab is visible; a route the service lacks says so in its own section.

use larder_api::status::{Backfill, Coverage, Embeddings, Health, Indices, Part};
use larder_api::ApiError;
use leptos::prelude::*;

use crate::components::error_view::ErrorView;
use crate::components::loading::Loading;
use crate::components::not_allowed::NotAllowed;
use crate::components::toast::Toasts;
use crate::i18n::format::{bytes, number};
use crate::i18n::{k, plural_name, t, tf, tn};
use crate::session::Session;
use crate::ApiClient;

/// How often the page reads the service again while the tab is visible.
const REFRESH_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// What one read of the three status routes brought.
#[derive(Clone)]
struct Reading {
    health: Result<Option<Health>, ApiError>,
    indices: Result<Option<Indices>, ApiError>,
    embeddings: Result<Option<Embeddings>, ApiError>,
}

async fn read(client: ApiClient) -> Reading {
    let (health, indices, embeddings) = futures::join!(
        client.system_health(),
        client.system_indices(),
        client.system_embeddings()
    );
    Reading {
        health,
        indices,
        embeddings,
    }
}

/// The page: the status for administrators, "Not allowed" for anyone else.
#[component]
pub fn Status() -> impl IntoView {
    let session = expect_context::<Session>();
    let is_admin = move || {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| i.has_role("admin")))
    };
    move || {
        if is_admin() {
            view! { <StatusPage/> }.into_any()
        } else {
            view! { <NotAllowed needs=k("the role admin")/> }.into_any()
        }
    }
}

#[component]
fn StatusPage() -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let reading = {
        let client = client.clone();
        LocalResource::new(move || read(client.clone()))
    };
    // Every minute, unless the tab is hidden (a hidden tab is read again when it is next due).
    if let Ok(handle) = set_interval_with_handle(
        move || {
            let hidden = web_sys::window()
                .and_then(|w| w.document())
                .is_some_and(|d| d.hidden());
            if !hidden {
                reading.refetch();
            }
        },
        REFRESH_EVERY,
    ) {
        on_cleanup(move || handle.clear());
    }
    view! {
        <h1 tabindex="-1">{move || t("Status")}</h1>
        <p class="page-actions">
            <button type="button" on:click=move |_| reading.refetch()>{move || t("Refresh")}</button>
            " "<span class="hint">{move || t("Read again every minute while this page is open.")}</span>
        </p>
        <Transition fallback=|| view! { <Loading what=k("Reading the service's status…")/> }>
            {move || reading.get().map(|now| {
                let changed = Callback::new(move |_| reading.refetch());
                view! {
                    <HealthSection answer=now.health/>
                    <IndicesSection answer=now.indices/>
                    <EmbeddingsSection answer=now.embeddings changed/>
                }
            })}
        </Transition>
    }
}

/// A section whose route the service may lack: its error, "not offered", or its content.
fn offered<T>(answer: Result<Option<T>, ApiError>, content: impl FnOnce(T) -> AnyView) -> AnyView {
    match answer {
        Err(error) => view! { <ErrorView error/> }.into_any(),
        Ok(None) => {
            view! { <p class="hint">{move || t("The service does not offer this.")}</p> }.into_any()
        }
        Ok(Some(value)) => content(value),
    }
}

/// "Working" or "Not working", with why.
fn state_cell(up: bool, error: Option<String>) -> impl IntoView {
    let word = if up { k("Working") } else { k("Not working") };
    view! {
        <td class=if up { "state up" } else { "state down" }>
            {move || t(word)}
            {error.map(|why| view! { <span class="hint">" ("{why}")"</span> })}
        </td>
    }
}

#[component]
fn HealthSection(answer: Result<Option<Health>, ApiError>) -> impl IntoView {
    view! {
        <section aria-labelledby="status-health">
            <h2 id="status-health">{move || t("Health")}</h2>
            {offered(answer, |health| {
                let engine = health.elasticsearch.clone();
                let engine_detail = [
                    engine.status.clone(),
                    engine.number_of_nodes.map(|n| tn("{count} nodes", n as i64, &[])),
                    engine.unassigned_shards.filter(|n| *n > 0).map(|n| tn("{count} shards unassigned", n as i64, &[])),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ");
                let part_row = |name: &'static str, part: Part| {
                    let up = part.is_up();
                    view! { <tr><th scope="row">{move || t(name)}</th>{state_cell(up, part.error)}<td></td></tr> }
                };
                view! {
                    <p role="status" data-testid="health-summary">
                        {move || if health.healthy { t("Every part of the service works.") } else { t("Part of the service is not working.") }}
                    </p>
                    <div class="table-wrap"><table class="status-table">
                        <thead><tr>
                            <th scope="col">{move || t("Part")}</th>
                            <th scope="col">{move || t("State")}</th>
                            <th scope="col">{move || t("Details")}</th>
                        </tr></thead>
                        <tbody>
                            <tr>
                                <th scope="row">{move || t("Search engine")}</th>
                                {state_cell(engine.reachable && engine.error.is_none(), engine.error.clone())}
                                <td>{engine_detail}</td>
                            </tr>
                            {part_row(k("Cache"), health.redis.clone())}
                            {part_row(k("Storage"), health.storage.clone())}
                        </tbody>
                    </table></div>
                }
                .into_any()
            })}
        </section>
    }
}

#[component]
fn IndicesSection(answer: Result<Option<Indices>, ApiError>) -> impl IntoView {
    view! {
        <section aria-labelledby="status-indices">
            <h2 id="status-indices">{move || t("Search indices")}</h2>
            {offered(answer, |indices| view! {
                <div class="table-wrap"><table class="status-table" data-testid="indices">
                    <thead><tr>
                        <th scope="col">{move || t("Index")}</th>
                        <th scope="col" class="num">{move || t("Documents")}</th>
                        <th scope="col" class="num">{move || t("Size")}</th>
                        <th scope="col">{move || t("Fields the index lacks")}</th>
                    </tr></thead>
                    <tbody>
                        {indices.indices.into_iter().map(|index| {
                            let missing = index.missing_fields.join(", ");
                            let drifted = !index.missing_fields.is_empty();
                            view! {
                                <tr data-index=index.index.clone()>
                                    <th scope="row">{index.index.clone()}</th>
                                    <td class="num">{index.doc_count.map(|n| number(n as f64))}</td>
                                    <td class="num">{index.size_bytes.map(bytes)}</td>
                                    <td class=if drifted { "drift" } else { "" }>
                                        {if !index.exists {
                                            t("The index does not exist.")
                                        } else if drifted {
                                            missing
                                        } else {
                                            t("None")
                                        }}
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table></div>
            }.into_any())}
        </section>
    }
}

#[component]
fn EmbeddingsSection(
    answer: Result<Option<Embeddings>, ApiError>,
    /// Called after a backfill was applied, to read the coverage again.
    changed: Callback<()>,
) -> impl IntoView {
    view! {
        <section aria-labelledby="status-embeddings">
            <h2 id="status-embeddings">{move || t("Embeddings")}</h2>
            {offered(answer, move |embeddings| view! {
                {embeddings.queue.pending.map(|n| view! { <p>{tn("{count} waiting to be embedded", n as i64, &[])}</p> })}
                <div class="table-wrap"><table class="status-table" data-testid="embeddings">
                    <thead><tr>
                        <th scope="col">{move || t("Index")}</th>
                        <th scope="col" class="num">{move || t("Documents")}</th>
                        <th scope="col" class="num">{move || t("Embedded")}</th>
                        <th scope="col" class="num">{move || t("Missing")}</th>
                        <th scope="col" class="num">{move || t("Outdated")}</th>
                        <th scope="col">{move || t("Backfill")}</th>
                    </tr></thead>
                    <tbody>
                        {embeddings.indices.into_iter().map(|coverage| view! { <CoverageRow coverage changed/> }).collect_view()}
                    </tbody>
                </table></div>
            }.into_any())}
        </section>
    }
}

/// One collection's coverage, with its backfill where production has one: a dry run first,
/// whose count the apply then names.
#[component]
fn CoverageRow(coverage: Coverage, changed: Callback<()>) -> impl IntoView {
    let client = expect_context::<ApiClient>();
    let toasts = expect_context::<Toasts>();
    let collection = coverage.backfill_collection();
    let preview = RwSignal::new(None::<Backfill>);
    let failed = RwSignal::new(None::<ApiError>);
    let run = Action::new_local(move |dry_run: &bool| {
        let client = client.clone();
        let dry_run = *dry_run;
        async move {
            let collection = collection.expect("a backfill is offered only for its collection");
            (
                dry_run,
                client.backfill_embeddings(collection, dry_run).await,
            )
        }
    });
    Effect::new(move || match run.value().get() {
        Some((true, Ok(Some(answer)))) => {
            failed.set(None);
            preview.set(Some(answer));
        }
        Some((false, Ok(Some(answer)))) => {
            failed.set(None);
            preview.set(None);
            toasts.success(tn(
                "{count} queued for embedding",
                answer.queued as i64,
                &[],
            ));
            changed.run(());
        }
        Some((_, Ok(None))) => failed.set(Some(ApiError::Caller(t(
            "The service does not offer this.",
        )))),
        Some((_, Err(error))) => failed.set(Some(error)),
        None => {}
    });
    let percent = coverage
        .coverage
        .map(|c| format!("{} %", number((c * 1000.0).round() / 10.0)));
    let name = collection
        .map(plural_name)
        .unwrap_or_else(|| coverage.index.clone());
    let stale = coverage.stale;
    view! {
        <tr data-index=coverage.index.clone()>
            <th scope="row">{name}</th>
            <td class="num">{number(coverage.total as f64)}</td>
            <td class="num">{number(coverage.embedded as f64)}{percent.map(|p| view! { <span class="hint">" ("{p}")"</span> })}</td>
            <td class="num">{number(coverage.missing as f64)}</td>
            <td class="num">{move || stale.map(|n| number(n as f64)).unwrap_or_else(|| t("not measured"))}</td>
            <td>
                {coverage.error.clone().map(|why| view! { <p class="error">{why}</p> })}
                {collection.map(|_| view! {
                    <button type="button" disabled=move || run.pending().get()
                        on:click=move |_| { run.dispatch(true); }>{move || t("Preview")}</button>
                    {move || preview.get().map(|answer| {
                        let queued = answer.queued;
                        view! {
                            <p role="status" data-testid="backfill-preview">
                                {tf("Would queue {queued} of {scanned} looked at ({skipped} already embedded).", &[
                                    ("queued", &number(queued as f64)),
                                    ("scanned", &number(answer.scanned as f64)),
                                    ("skipped", &number(answer.skipped_already_embedded as f64)),
                                ])}
                            </p>
                            {(queued > 0).then(|| view! {
                                <button type="button" class="primary" disabled=move || run.pending().get()
                                    on:click=move |_| { run.dispatch(false); }>
                                    {tn("Backfill {count}", queued as i64, &[])}
                                </button>
                            })}
                        }
                    })}
                    {move || failed.get().map(|error| view! { <ErrorView error/> })}
                })}
            </td>
        </tr>
    }
}

/// `/status`: the page reads what it shows itself.
#[derive(Clone, Copy)]
pub struct StatusRoute;

impl crate::lazy::Page for StatusRoute {
    const GROUP: larder_start::landing::Group = larder_start::landing::Group::Admin;

    fn data(_: crate::session::Session) -> Self {
        StatusRoute
    }

    async fn draw(self) -> Result<AnyView, crate::lazy::ChunkFailed> {
        draw_status(self).await
    }
}

crate::split_entry!(admin_pages, draw_status, StatusRoute => |_| view! { <Status/> });
