//! RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): "Sign out" ends the provider's
//! session too, or the next page load would sign the person back in silently.
//!
//! Sent as a POST form, which the specification allows and Keycloak and oidc-provider accept:
//! as a GET (keycloak-js's default, `openidconnect`'s only way) the ID token would be in a URL,
//! the history and the provider's logs. The page's policy must allow the provider in
//! `form-action`.

use super::config::Settings;
use super::discovery::Endpoints;

/// A form the page builds (hidden inputs) and submits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogoutForm {
    /// Where it is posted: the provider's `end_session_endpoint`.
    pub action: String,
    /// Its fields, in order.
    pub fields: Vec<(&'static str, String)>,
}

/// The sign-out at the provider, returning to `post_logout_redirect_uri` (the console's address,
/// registered at the provider). With the `id_token` of the session as `id_token_hint`, Keycloak
/// signs out without asking; without it, it asks the person first. `None` when the provider has
/// no end-session endpoint.
pub fn form(
    endpoints: &Endpoints,
    settings: &Settings,
    id_token: Option<&str>,
    post_logout_redirect_uri: &str,
) -> Option<LogoutForm> {
    let mut fields = Vec::with_capacity(3);
    if let Some(id_token) = id_token {
        fields.push(("id_token_hint", id_token.to_string()));
    }
    fields.push(("client_id", settings.client_id.clone()));
    fields.push((
        "post_logout_redirect_uri",
        post_logout_redirect_uri.to_string(),
    ));
    Some(LogoutForm {
        action: endpoints.end_session.clone()?,
        fields,
    })
}
