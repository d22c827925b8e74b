//! One way to show an error: its title, the service's detail, and the help link when there is one.

use larder_api::ApiError;
use leptos::prelude::*;

/// The title people read: a refusal says "Not allowed" (and the session stays).
pub fn error_title(error: &ApiError) -> String {
    if error.is_kind(larder_api::ErrorKind::Authorization) {
        "Not allowed".into()
    } else {
        error.title()
    }
}

/// Whether asking again may help: the service or the network failed, not the request itself.
pub fn worth_retrying(error: &ApiError) -> bool {
    match error.status() {
        Some(status) => status == 429 || status >= 500 || (200..300).contains(&status),
        None => matches!(
            error,
            ApiError::Network(_) | ApiError::Timeout { .. } | ApiError::Decode { .. }
        ),
    }
}

/// An error as an alert. Text from the service is rendered as text, never as markup. With
/// `retry`, a failure that asking again may cure offers "Try again".
#[component]
pub fn ErrorView(
    error: ApiError,
    #[prop(optional, into)] retry: Option<Callback<()>>,
) -> impl IntoView {
    let help = error
        .failure()
        .and_then(|f| f.help.clone())
        .filter(|h| h.starts_with("http"));
    let retry = retry.filter(|_| worth_retrying(&error));
    view! {
        <div role="alert" class="error">
            <strong>{error_title(&error)}</strong>
            " "
            <span>{error.detail()}</span>
            {help.map(|href| view! { " " <a href=href target="_blank" rel="noopener noreferrer">"Details"</a> })}
            {retry.map(|retry| view! { " " <button type="button" on:click=move |_| retry.run(())>"Try again"</button> })}
        </div>
    }
}
