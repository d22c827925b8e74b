//! One way to show an error: its title, the service's detail, and the help link when there is one.

use crate::i18n::t;
use larder_api::ApiError;
use leptos::prelude::*;

pub use crate::error_text::{error_title, worth_retrying};

/// The sentence shown under an error's title: the service's own, except where the console knows
/// better what to say (issue 22): a used-up daily budget says when it resets, in local time
/// (production resets it at the next UTC midnight), and maintenance when to try again.
pub fn shown_detail(error: &ApiError) -> String {
    if let Some(budget) = error.daily_budget(js_sys::Date::now() as u64) {
        let resets = crate::i18n::format::moment(budget.resets_at_ms);
        let said = crate::i18n::tf("It resets on {time}.", &[("time", &resets)]);
        return if budget.detail.is_empty() {
            said
        } else {
            format!("{} {said}", budget.detail)
        };
    }
    if error.maintenance().is_some() {
        return crate::error_text::error_detail(error);
    }
    error.detail()
}

/// The id of the request a failure answered (`X-Request-Id`), which the service's log names it
/// by: what support asks for.
pub fn request_id(error: &ApiError) -> Option<String> {
    error.failure().and_then(|f| f.request_id.clone())
}

/// "Request id: …", its id selectable whole.
#[component]
pub fn RequestId(id: String) -> impl IntoView {
    view! {
        <small class="request-id">{move || t("Request id:")}" "<code>{id}</code></small>
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
    let id = request_id(&error);
    view! {
        <div role="alert" class="error">
            <strong>{error_title(&error)}</strong>
            " "
            <span>{shown_detail(&error)}</span>
            {help.map(|href| view! { " " <a href=href target="_blank" rel="noopener noreferrer">{move || t("Details")}</a> })}
            {retry.map(|retry| view! { " " <button type="button" on:click=move |_| retry.run(())>{move || t("Try again")}</button> })}
            {id.map(|id| view! { " " <RequestId id/> })}
        </div>
    }
}
