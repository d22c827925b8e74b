//! Toasts: short messages for successes and failures, announced to screen readers.

use crate::components::error_view::RequestId;
use crate::i18n::t;
use larder_api::ApiError;
use leptos::prelude::*;

/// How a toast looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToastKind {
    /// Something worked.
    Success,
    /// Something failed.
    Error,
}

/// One message.
#[derive(Clone, Debug, PartialEq)]
pub struct Toast {
    id: u64,
    kind: ToastKind,
    title: String,
    detail: String,
    help: Option<String>,
    /// The failed request's id, for support.
    request_id: Option<String>,
}

/// The toasts in context; `Copy`, so handlers can capture it freely.
#[derive(Clone, Copy)]
pub struct Toasts {
    items: RwSignal<Vec<Toast>>,
    next_id: StoredValue<u64>,
}

/// How long a success stays on screen; failures stay until dismissed.
const SUCCESS_MS: u64 = 5_000;

impl Toasts {
    /// An empty toast list, provided in context.
    pub fn provide() -> Toasts {
        let toasts = Toasts {
            items: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(0),
        };
        provide_context(toasts);
        toasts
    }

    fn push(
        &self,
        kind: ToastKind,
        title: String,
        detail: String,
        help: Option<String>,
        request_id: Option<String>,
    ) {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.items.update(|items| {
            items.push(Toast {
                id,
                kind,
                title,
                detail,
                help,
                request_id,
            })
        });
        if kind == ToastKind::Success {
            let toasts = *self;
            set_timeout(
                move || toasts.dismiss(id),
                std::time::Duration::from_millis(SUCCESS_MS),
            );
        }
    }

    /// A success message.
    pub fn success(&self, title: impl Into<String>) {
        self.push(ToastKind::Success, title.into(), String::new(), None, None);
    }

    /// A failure, with the error's title, detail and help link.
    pub fn error(&self, error: &ApiError) {
        let help = error
            .failure()
            .and_then(|f| f.help.clone())
            .filter(|h| h.starts_with("http"));
        self.push(
            ToastKind::Error,
            crate::components::error_view::error_title(error),
            crate::components::error_view::shown_detail(error),
            help,
            crate::components::error_view::request_id(error),
        );
    }

    /// Removes a toast.
    pub fn dismiss(&self, id: u64) {
        self.items.update(|items| items.retain(|t| t.id != id));
    }
}

/// Where toasts appear.
#[component]
pub fn ToastRegion() -> impl IntoView {
    let toasts = expect_context::<Toasts>();
    view! {
        <div class="toasts" role="status" aria-live="polite">
            <For each=move || toasts.items.get() key=|t| t.id let:toast>
                <div class="toast" class:toast-error=toast.kind == ToastKind::Error>
                    <div>
                        <strong>{toast.title.clone()}</strong>
                        {(!toast.detail.is_empty()).then(|| view! { <p>{toast.detail.clone()}</p> })}
                        {toast.request_id.clone().map(|id| view! { <RequestId id/> })}
                        {toast.help.clone().map(|href| view! { <a href=href target="_blank" rel="noopener noreferrer">{move || t("Details")}</a> })}
                    </div>
                    <button type="button" class="icon" aria-label=move || t("Dismiss") on:click=move |_| toasts.dismiss(toast.id)>"×"</button>
                </div>
            </For>
        </div>
    }
}

/// Follows the answers of a form's action: `on_saved` runs with each success; a failure is
/// toasted and, when the form shows its error beside itself, kept in `error` (cleared again by
/// the next success). What was typed stays either way.
pub fn on_answer<I, T>(
    action: Action<I, Result<T, ApiError>>,
    error: Option<RwSignal<Option<ApiError>>>,
    on_saved: impl Fn(T) + 'static,
) where
    I: 'static,
    T: Clone + 'static,
{
    let toasts = expect_context::<Toasts>();
    Effect::new(move || match action.value().get() {
        Some(Ok(value)) => {
            if let Some(error) = error {
                error.set(None);
            }
            on_saved(value);
        }
        Some(Err(failure)) => {
            toasts.error(&failure);
            if let Some(error) = error {
                error.set(Some(failure));
            }
        }
        None => {}
    });
}
