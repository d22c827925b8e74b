//! Signing in at the service's identity provider (issue 42): OpenID Connect's authorization
//! code flow with PKCE, as a pure core both modules use. The start-up module runs the redirect
//! legs (to the provider, and back on page load); the console renews and signs out. Neither
//! module's HTTP, storage or crypto is in here: the caller fetches, and the browser's WebCrypto
//! makes the random bytes ([`pending::RANDOM_BYTES`]), the SHA-256 of the verifier
//! ([`pkce::challenge`]) and the signature check of the ID token ([`id_token`]).
//!
//! Hand-written rather than `oauth2` or `openidconnect`: the same flow built each way into a
//! wasm module (`cargo xtask bench --only oidc-size`, the probe in `xtask/probes/oidc-size`;
//! run of 2026-11-28 in docs/bench-log.md, "Issue 42") weighs 31.0 KB gzip by hand (with
//! serde_json as its JSON reader, which the start-up module does not even link), 138.4 KB with
//! `oauth2` alone (4.5x, and it neither reads discovery nor checks an ID token) and 273.2 KB
//! with `openidconnect` (8.8x), against a start-up module of about 20 KB that makes "Sign in"
//! work; they check RSA in Rust where the browser already does, build logout URLs that carry
//! the ID token, and leave the hard part (carrying `state`, `nonce` and the verifier across the
//! redirect) to the caller anyway. The oracles are beside each part: the RFC 7636
//! test vector, the `base64` crate, tokens signed by `jsonwebtoken` (`tests/oidc.rs`), and the
//! certified `oidc-provider` (`crates/server/tests/oidc_provider.rs`, the journeys).
//!
//! # The flow, and which function each step is
//!
//! 1. config.json's `oidc: {issuer, client_id, scopes?}`: [`config::Settings::new`].
//! 2. The provider's discovery document (`Settings::discovery_url`):
//!    [`discovery::Endpoints::read`].
//! 3. Before the redirect: 64 random bytes make a [`pending::Pending`] (`state`, `nonce`, the
//!    verifier, the page to return to, the issuer's endpoints); its
//!    [`pending::Pending::to_text`] goes to the carrier (the same-origin service worker,
//!    `crates/start/js/oidc-worker.js`, keyed by `state`), [`authorize::url`] is where the tab
//!    goes (`prompt=none` for a silent sign-in).
//! 4. Back at [`redirect_uri`]: [`callback::Callback::read`] the fragment, clear it from the
//!    history entry, take the pending values by the answer's `state` (their endpoints stand in
//!    for step 2 when config.json still names their issuer), [`callback::check`].
//! 5. [`token::code_request`] (a form POST, no preflight); its answer [`token::read_answer`].
//! 6. The ID token: [`id_token::split`], [`id_token::choose_key`] among the provider's keys,
//!    WebCrypto verifies ([`id_token::Alg`] names its parameters), [`id_token::check_claims`].
//! 7. Renewal: [`token::refresh_request`], the same answer and claim rules (the same `sub`).
//! 8. Sign-out: [`logout::form`], a POST form, so the ID token stays out of every URL.
//! 9. Anything that comes back to a page: [`return_path::inside`].
//!
//! Every failure is a [`Failure`]: each ends on the sign-in form with what it says, nothing kept.

pub mod authorize;
pub mod base64url;
pub mod callback;
pub mod config;
pub mod discovery;
pub mod fields;
pub mod form;
pub mod id_token;
pub mod logout;
pub mod pending;
pub mod pkce;
pub mod return_path;
pub mod signed_out;
pub mod token;

pub use fields::Fields;

/// Longer tokens (access, refresh, ID) are refused unread: larder-server's own limit.
pub const MAX_TOKEN: usize = 16 << 10;
/// Longer answers of the provider (tokens, discovery, keys) are refused unread.
pub const MAX_ANSWER: usize = 64 << 10;
/// At most this many keys of the provider are looked at.
pub const MAX_KEYS: usize = 64;
/// How far the provider's clock may be from the browser's, in seconds, for `exp` and `iat`.
pub const LEEWAY_S: u64 = 60;

/// The address the provider sends the browser back to: the console's own, with its trailing
/// slash (`origin` `https://c.example.org`, `base` `/console` → `https://c.example.org/console/`).
/// The operator registers exactly this as the client's redirect URI (README).
pub fn redirect_uri(origin: &str, base: &str) -> String {
    let mut uri = String::from(origin.trim_end_matches('/'));
    let base = base.trim_matches('/');
    uri.push('/');
    if !base.is_empty() {
        uri.push_str(base);
        uri.push('/');
    }
    uri
}

/// Why a sign-in, a renewal or a sign-out at the provider did not happen. Each ends on the
/// sign-in form with [`Failure::text`], and nothing kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The provider's discovery document is not usable: what is wrong with it.
    Discovery(&'static str),
    /// Back from the provider with nothing of a sign-in this tab started: the carrier lost the
    /// values (the service worker was stopped), or the answer's `state` names none.
    NotPending,
    /// The answer's `state` is not the pending sign-in's.
    StateMismatch,
    /// The pending sign-in is older than [`pending::PENDING_TTL_MS`].
    Expired,
    /// The answer names another issuer (`iss`, RFC 9207), or none where the provider sends one.
    IssuerMismatch,
    /// The answer has neither a code nor an error.
    MissingCode,
    /// A silent sign-in (`prompt=none`) found no session at the provider: show the sign-in form,
    /// without an error.
    SessionRequired,
    /// The provider answered with an error (`access_denied`, ...), as it named it.
    Denied { error: String, description: String },
    /// The token endpoint refused (`invalid_grant`: a code used twice or expired, a refresh
    /// token revoked or replayed), as it named it.
    Refused { error: String, description: String },
    /// The provider answered with this unexpected status (5xx: down or overloaded).
    Unavailable(u16),
    /// An answer of the provider is not what the protocol says: which part.
    Malformed(&'static str),
    /// An answer or a value is larger than its limit.
    TooLarge,
    /// The ID token broke a rule: which.
    IdToken(Claim),
}

/// The ID token's rule a token broke ([`id_token`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// `alg` is not RS256 or ES256 (`none`, `HS256`, ...).
    Algorithm,
    /// No key of the provider has the token's `kid` and algorithm.
    UnknownKey,
    /// The signature does not verify (the caller's WebCrypto says so).
    Signature,
    /// `iss` is not exactly the issuer.
    Issuer,
    /// `aud` does not hold the client ID.
    Audience,
    /// `azp` is not the client ID, or missing beside several audiences.
    AuthorizedParty,
    /// `exp` has passed.
    Expired,
    /// `iat` is in the future.
    IssuedInFuture,
    /// `nonce` is not the pending sign-in's.
    Nonce,
    /// `sub` is missing, or not the signed-in person's on a renewal.
    Subject,
}

impl Failure {
    /// What the sign-in form says, in English (the console's catalogs translate it by this key).
    pub fn text(&self) -> &'static str {
        match self {
            Failure::SessionRequired => "Sign in to continue.",
            Failure::NotPending | Failure::Expired => {
                "This sign-in was not started in this tab, or took too long. Please sign in again."
            }
            Failure::StateMismatch | Failure::IssuerMismatch | Failure::MissingCode => {
                "The identity provider's answer did not match this sign-in. Please sign in again."
            }
            Failure::Denied { .. } => "The identity provider did not sign you in.",
            Failure::Refused { .. } => "The identity provider refused this sign-in or your session has ended. Please sign in again.",
            Failure::Unavailable(_) => "The identity provider is not answering. Try again in a moment.",
            Failure::Discovery(_) | Failure::Malformed(_) | Failure::TooLarge => {
                "The identity provider's answer could not be read."
            }
            Failure::IdToken(_) => "The identity provider's answer failed its checks. Please sign in again.",
        }
    }
}
