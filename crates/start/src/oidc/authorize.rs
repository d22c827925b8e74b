//! The authorization URL: where the tab goes to sign in (OpenID Connect Core §3.1.2.1, PKCE).

use super::config::Settings;
use super::discovery::Endpoints;
use super::form;
use super::pending::Pending;

/// The URL that signs in at the provider for `pending`, the provider answering at
/// `redirect_uri` (the console's address, [`super::redirect_uri`]) in the fragment, so the code
/// never reaches a server's logs (`response_mode=fragment`, keycloak-js's default). `challenge`
/// is [`super::pkce::challenge`] of the pending verifier. A silent pending sign-in asks
/// `prompt=none`: the provider answers at once, with a code when its session is alive and
/// `login_required` otherwise, and shows nothing.
pub fn url(
    endpoints: &Endpoints,
    settings: &Settings,
    redirect_uri: &str,
    pending: &Pending,
    challenge: &str,
) -> String {
    let scope = settings.scope();
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", settings.client_id.as_str()),
        ("redirect_uri", redirect_uri),
        ("scope", scope.as_str()),
        ("state", pending.state.as_str()),
        ("nonce", pending.nonce.as_str()),
        ("code_challenge", challenge),
        ("code_challenge_method", "S256"),
        ("response_mode", "fragment"),
    ];
    if pending.silent {
        pairs.push(("prompt", "none"));
    }
    let mut url = endpoints.authorization.clone();
    url.push(if url.contains('?') { '&' } else { '?' });
    url.push_str(&form::encode_pairs(pairs));
    url
}
