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

/// An error as an alert. Text from the service is rendered as text, never as markup.
#[component]
pub fn ErrorView(error: ApiError) -> impl IntoView {
    let help = error
        .failure()
        .and_then(|f| f.help.clone())
        .filter(|h| h.starts_with("http"));
    view! {
        <div role="alert" class="error">
            <strong>{error_title(&error)}</strong>
            " "
            <span>{error.detail()}</span>
            {help.map(|href| view! { " " <a href=href target="_blank" rel="noopener noreferrer">"Details"</a> })}
        </div>
    }
}
