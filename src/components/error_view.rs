//! One way to show an error: its title, the service's detail, and the help link when there is one.

use crate::i18n::t;
use larder_api::ApiError;
use leptos::prelude::*;

pub use crate::error_text::{error_title, worth_retrying};

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
            {help.map(|href| view! { " " <a href=href target="_blank" rel="noopener noreferrer">{move || t("Details")}</a> })}
            {retry.map(|retry| view! { " " <button type="button" on:click=move |_| retry.run(())>{move || t("Try again")}</button> })}
        </div>
    }
}
