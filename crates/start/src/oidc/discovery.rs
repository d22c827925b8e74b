//! The provider's discovery document (`<issuer>/.well-known/openid-configuration`): where its
//! endpoints are. Read once per page; `config.json` names only the issuer.

use super::config::{provider_url, Settings};
use super::{Failure, Fields};

/// The provider's endpoints the console uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    /// Where the browser goes to sign in.
    pub authorization: String,
    /// Where codes and refresh tokens are exchanged.
    pub token: String,
    /// The provider's public keys.
    pub jwks: String,
    /// Where RP-initiated logout is posted; `None` when the provider has none (sign-out then
    /// ends the console's session only).
    pub end_session: Option<String>,
    /// Whether the provider puts `iss` in its answers (RFC 9207); then an answer must have it.
    pub iss_in_answers: bool,
}

impl Endpoints {
    /// The endpoints of a discovery document, checked: its `issuer` is exactly the configured
    /// one (Discovery §4.3: else anyone serving a document could name other endpoints), every
    /// endpoint an https URL (http on this machine only), and S256 among its PKCE methods when
    /// it lists them.
    pub fn read(document: &impl Fields, settings: &Settings) -> Result<Endpoints, Failure> {
        if document.text("issuer").as_deref() != Some(settings.issuer.as_str()) {
            return Err(Failure::Discovery(
                "its issuer is not config.json's oidc.issuer",
            ));
        }
        let endpoint = |key: &'static str| -> Result<String, Failure> {
            document
                .text(key)
                .filter(|url| provider_url(url))
                .ok_or(Failure::Discovery(key))
        };
        if let Some(methods) = document.texts("code_challenge_methods_supported") {
            if !methods.iter().any(|m| m == "S256") {
                return Err(Failure::Discovery(
                    "the provider does not offer PKCE with S256",
                ));
            }
        }
        let end_session = match document.has("end_session_endpoint") {
            true => Some(endpoint("end_session_endpoint")?),
            false => None,
        };
        Ok(Endpoints {
            authorization: endpoint("authorization_endpoint")?,
            token: endpoint("token_endpoint")?,
            jwks: endpoint("jwks_uri")?,
            end_session,
            iss_in_answers: document
                .flag("authorization_response_iss_parameter_supported")
                .unwrap_or(false),
        })
    }
}
