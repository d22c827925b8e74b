//! The requests the core builds and the answers it reads, except the ID token (`id_token.rs`).

use larder_start::oidc::authorize;
use larder_start::oidc::callback::{check, Callback};
use larder_start::oidc::config::Settings;
use larder_start::oidc::discovery::Endpoints;
use larder_start::oidc::form::pairs;
use larder_start::oidc::pending::{Pending, PENDING_TTL_MS, RANDOM_BYTES};
use larder_start::oidc::token::{code_request, read_answer, refresh_request};
use larder_start::oidc::{logout, redirect_uri, Failure, MAX_ANSWER};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::Json;

pub const ISSUER: &str = "https://auth.example.org/realms/master";
const NOW_MS: u64 = 1_800_000_000_000;

pub fn settings() -> Settings {
    Settings::new(ISSUER, "larder-console", Some(&["roles".to_string()])).unwrap()
}

/// Keycloak's discovery document, as far as the console reads it.
pub fn discovery() -> serde_json::Value {
    let base = format!("{ISSUER}/protocol/openid-connect");
    json!({
        "issuer": ISSUER,
        "authorization_endpoint": format!("{base}/auth"),
        "token_endpoint": format!("{base}/token"),
        "jwks_uri": format!("{base}/certs"),
        "end_session_endpoint": format!("{base}/logout"),
        "code_challenge_methods_supported": ["plain", "S256"],
        "authorization_response_iss_parameter_supported": true,
        "grant_types_supported": ["authorization_code", "refresh_token"],
    })
}

pub fn endpoints() -> Endpoints {
    Endpoints::read(&Json(discovery()), &settings()).unwrap()
}

fn pending(silent: bool) -> Pending {
    let mut random = [0u8; RANDOM_BYTES];
    for (i, b) in random.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(29).wrapping_add(3);
    }
    Pending::new(
        &random,
        "/records/articles?q=iron",
        NOW_MS,
        silent,
        ISSUER,
        &endpoints(),
    )
}

const CONSOLE: &str = "http://127.0.0.1:8080/console/";

fn challenge_of(verifier: &str) -> String {
    let digest: [u8; 32] = Sha256::digest(verifier.as_bytes()).into();
    larder_start::oidc::pkce::challenge(&digest)
}

#[test]
fn the_console_is_its_own_redirect_uri() {
    assert_eq!(redirect_uri("http://127.0.0.1:8080", "/console"), CONSOLE);
    assert_eq!(redirect_uri("http://127.0.0.1:8080", "/console/"), CONSOLE);
    assert_eq!(
        redirect_uri("https://c.example.org/", "/"),
        "https://c.example.org/"
    );
    assert_eq!(
        redirect_uri("https://c.example.org", ""),
        "https://c.example.org/"
    );
}

#[test]
fn discovery_names_the_endpoints_of_the_configured_issuer_only() {
    let read = endpoints();
    assert_eq!(
        read.token,
        format!("{ISSUER}/protocol/openid-connect/token")
    );
    assert!(read.iss_in_answers);
    assert!(read.end_session.is_some());
    let changed = |key: &str, value: serde_json::Value| {
        let mut document = discovery();
        document[key] = value;
        Endpoints::read(&Json(document), &settings())
    };
    assert!(matches!(
        changed("issuer", json!(format!("{ISSUER}/"))),
        Err(Failure::Discovery(_))
    ));
    assert!(changed("token_endpoint", json!("http://auth.example.org/token")).is_err());
    assert!(changed("authorization_endpoint", json!(null)).is_err());
    assert!(changed("jwks_uri", json!(7)).is_err());
    assert!(changed("code_challenge_methods_supported", json!(["plain"])).is_err());
    assert!(changed("end_session_endpoint", json!("javascript:x")).is_err());
    let mut without = discovery();
    without
        .as_object_mut()
        .unwrap()
        .remove("end_session_endpoint");
    without
        .as_object_mut()
        .unwrap()
        .remove("authorization_response_iss_parameter_supported");
    let read = Endpoints::read(&Json(without), &settings()).unwrap();
    assert_eq!((read.end_session, read.iss_in_answers), (None, false));
}

#[test]
fn the_authorization_url_asks_for_a_code_with_pkce_state_and_nonce() {
    let pending = pending(false);
    let challenge = challenge_of(&pending.verifier);
    let url = authorize::url(&endpoints(), &settings(), CONSOLE, &pending, &challenge);
    let (endpoint, query) = url.split_once('?').unwrap();
    assert_eq!(endpoint, format!("{ISSUER}/protocol/openid-connect/auth"));
    let query = pairs(query).unwrap();
    let expected = [
        ("response_type", "code"),
        ("client_id", "larder-console"),
        ("redirect_uri", CONSOLE),
        ("scope", "openid roles"),
        ("state", pending.state.as_str()),
        ("nonce", pending.nonce.as_str()),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("response_mode", "fragment"),
    ];
    let got: Vec<(&str, &str)> = query
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(got, expected);
    assert!(
        !url.contains(&pending.verifier),
        "the verifier never travels in a URL"
    );
    assert_eq!(challenge.len(), 43);

    let silent = self::pending(true);
    let url = authorize::url(&endpoints(), &settings(), CONSOLE, &silent, "c");
    assert!(url.ends_with("&prompt=none"), "{url}");
    let mut odd = endpoints();
    odd.authorization = "https://auth.example.org/auth?kc_locale=en".into();
    let url = authorize::url(&odd, &settings(), CONSOLE, &silent, "c");
    assert!(url.starts_with("https://auth.example.org/auth?kc_locale=en&response_type=code&"));
}

fn answer(fragment: &str) -> Callback {
    Callback::read(fragment).unwrap().expect("an answer")
}

#[test]
fn the_answer_is_read_from_the_fragment_and_checked_against_the_pending_sign_in() {
    let pending = pending(false);
    assert_eq!(Callback::read("").unwrap(), None, "an ordinary load");
    assert_eq!(Callback::read("#/household").unwrap(), None);
    let fragment = format!(
        "#code=SplxlOBeZQQYbYS6WxSbIA&state={}&iss={}",
        pending.state,
        larder_start::oidc::form::encode(ISSUER)
    );
    let callback = answer(&fragment);
    assert_eq!(callback.pending_key(), Some(pending.state.as_str()));
    assert_eq!(
        check(&callback, Some(&pending), ISSUER, true, NOW_MS + 5_000),
        Ok("SplxlOBeZQQYbYS6WxSbIA".to_string())
    );
    // The query works as well (response_mode=query).
    let query = fragment.replacen('#', "?", 1);
    assert!(check(&answer(&query), Some(&pending), ISSUER, true, NOW_MS).is_ok());
}

#[test]
fn a_state_that_does_not_match_is_refused_before_anything_else() {
    let pending = pending(false);
    let other = "AAAAAAAAAAAAAAAAAAAAAA";
    for fragment in [
        format!("code=x&state={other}&iss={ISSUER}"),
        format!("error=access_denied&state={other}"),
        "code=x".to_string(),
    ] {
        assert_eq!(
            check(&answer(&fragment), Some(&pending), ISSUER, true, NOW_MS),
            Err(Failure::StateMismatch),
            "{fragment}"
        );
    }
    // An answer whose state has another form is not even looked up.
    assert_eq!(answer("code=x&state=short").pending_key(), None);
    assert_eq!(answer("code=x").pending_key(), None);
    // Nothing pending (the carrier lost it, or the answer is not this tab's).
    assert_eq!(
        check(&answer("code=x&state=y"), None, ISSUER, true, NOW_MS),
        Err(Failure::NotPending)
    );
}

#[test]
fn a_missing_code_a_foreign_issuer_or_an_old_sign_in_is_refused() {
    let pending = pending(false);
    let state = &pending.state;
    let checked = |fragment: String, iss_in_answers: bool, now| {
        check(
            &answer(&fragment),
            Some(&pending),
            ISSUER,
            iss_in_answers,
            now,
        )
    };
    assert_eq!(
        checked(format!("state={state}&iss={ISSUER}"), true, NOW_MS),
        Err(Failure::MissingCode)
    );
    assert_eq!(
        checked(format!("code=&state={state}&iss={ISSUER}"), true, NOW_MS),
        Err(Failure::MissingCode)
    );
    assert_eq!(
        checked(
            format!("code=a%20b&state={state}&iss={ISSUER}"),
            true,
            NOW_MS
        ),
        Err(Failure::MissingCode),
        "a code is printable ASCII"
    );
    assert_eq!(
        checked(
            format!("code=x&state={state}&iss=https://evil.example"),
            false,
            NOW_MS
        ),
        Err(Failure::IssuerMismatch)
    );
    assert_eq!(
        checked(format!("code=x&state={state}"), true, NOW_MS),
        Err(Failure::IssuerMismatch)
    );
    assert_eq!(
        checked(format!("code=x&state={state}"), false, NOW_MS),
        Ok("x".into())
    );
    assert_eq!(
        checked(
            format!("code=x&state={state}&iss={ISSUER}"),
            true,
            NOW_MS + PENDING_TTL_MS + 1
        ),
        Err(Failure::Expired)
    );
    let long = "c".repeat(2049);
    assert_eq!(
        checked(format!("code={long}&state={state}"), false, NOW_MS),
        Err(Failure::TooLarge)
    );
    assert_eq!(Callback::read(&"a".repeat(9000)), Err(Failure::TooLarge));
}

#[test]
fn a_silent_sign_in_without_a_session_shows_the_form_without_an_error() {
    for error in ["login_required", "interaction_required", "consent_required"] {
        let silent = pending(true);
        let fragment = format!("error={error}&state={}&iss={ISSUER}", silent.state);
        assert_eq!(
            check(&answer(&fragment), Some(&silent), ISSUER, true, NOW_MS),
            Err(Failure::SessionRequired)
        );
        let interactive = pending(false);
        let fragment = format!("error={error}&state={}&iss={ISSUER}", interactive.state);
        assert!(matches!(
            check(&answer(&fragment), Some(&interactive), ISSUER, true, NOW_MS),
            Err(Failure::Denied { .. })
        ));
    }
    let pending = pending(false);
    let fragment = format!(
        "error=access_denied&error_description={}&state={}&iss={ISSUER}",
        "x".repeat(1000),
        pending.state
    );
    match check(&answer(&fragment), Some(&pending), ISSUER, true, NOW_MS) {
        Err(Failure::Denied { error, description }) => {
            assert_eq!(error, "access_denied");
            assert_eq!(description.len(), 300, "what is shown is bounded");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_token_requests_are_simple_form_posts() {
    let pending = pending(false);
    let request = code_request(
        &endpoints(),
        &settings(),
        CONSOLE,
        "the-code",
        &pending.verifier,
    );
    assert_eq!(request.url, endpoints().token);
    let body = pairs(&request.body).unwrap();
    let got: Vec<(&str, &str)> = body.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        got,
        [
            ("grant_type", "authorization_code"),
            ("code", "the-code"),
            ("redirect_uri", CONSOLE),
            ("client_id", "larder-console"),
            ("code_verifier", pending.verifier.as_str()),
        ]
    );
    let refresh = refresh_request(&endpoints(), &settings(), "rt+/=");
    assert_eq!(
        refresh.body,
        "grant_type=refresh_token&refresh_token=rt%2B%2F%3D&client_id=larder-console"
    );
}

#[test]
fn token_answers_successful_refused_broken_or_from_a_provider_that_is_down() {
    let good = json!({
        "access_token": "at", "token_type": "Bearer", "expires_in": 300,
        "refresh_token": "rt", "id_token": "it", "scope": "openid", "refresh_expires_in": 1800,
        "not-before-policy": 0, "session_state": "s",
    });
    let tokens = read_answer(200, 100, Some(&Json(good.clone()))).unwrap();
    assert_eq!(tokens.access_token, "at");
    assert_eq!(tokens.expires_in, Some(300));
    assert_eq!(tokens.refresh_token.as_deref(), Some("rt"));
    assert_eq!(tokens.id_token.as_deref(), Some("it"));
    let mut lower = good.clone();
    lower["token_type"] = json!("bearer");
    assert!(read_answer(200, 100, Some(&Json(lower))).is_ok());

    // A code used twice, or a refresh token replayed or revoked: the provider says invalid_grant.
    let refused = json!({"error": "invalid_grant", "error_description": "Code not valid"});
    assert_eq!(
        read_answer(400, 60, Some(&Json(refused))),
        Err(Failure::Refused {
            error: "invalid_grant".into(),
            description: "Code not valid".into()
        })
    );
    assert_eq!(
        read_answer(502, 10, None::<&Json>),
        Err(Failure::Unavailable(502))
    );
    assert_eq!(
        read_answer(503, 10, Some(&Json(json!({"error": "x"})))),
        Err(Failure::Unavailable(503))
    );
    assert_eq!(
        read_answer(200, 10, None::<&Json>),
        Err(Failure::Malformed("the token answer"))
    );
    assert_eq!(
        read_answer(200, MAX_ANSWER + 1, Some(&Json(good.clone()))),
        Err(Failure::TooLarge)
    );
    for (key, value) in [
        ("access_token", json!(null)),
        ("access_token", json!("")),
        ("access_token", json!("a b")),
        ("token_type", json!("mac")),
        ("expires_in", json!(-1)),
        ("expires_in", json!("300")),
        ("refresh_token", json!(7)),
        ("id_token", json!(["x"])),
    ] {
        let mut broken = good.clone();
        broken[key] = value.clone();
        assert!(
            matches!(
                read_answer(200, 100, Some(&Json(broken))),
                Err(Failure::Malformed(_))
            ),
            "{key}: {value}"
        );
    }
    let mut huge = good.clone();
    huge["access_token"] = json!("a".repeat(16385));
    assert_eq!(
        read_answer(200, 100, Some(&Json(huge))),
        Err(Failure::TooLarge)
    );
    let mut bare = good;
    for key in ["refresh_token", "id_token", "expires_in"] {
        bare.as_object_mut().unwrap().remove(key);
    }
    let tokens = read_answer(200, 100, Some(&Json(bare))).unwrap();
    assert_eq!(
        (tokens.refresh_token, tokens.id_token, tokens.expires_in),
        (None, None, None)
    );
}

#[test]
fn signing_out_posts_the_id_token_never_puts_it_in_a_url() {
    let form = logout::form(&endpoints(), &settings(), Some("the.id.token"), CONSOLE).unwrap();
    assert_eq!(
        form.action,
        format!("{ISSUER}/protocol/openid-connect/logout")
    );
    assert!(!form.action.contains("the.id.token"));
    assert_eq!(
        form.fields,
        [
            ("id_token_hint", "the.id.token".to_string()),
            ("client_id", "larder-console".into()),
            ("post_logout_redirect_uri", CONSOLE.into()),
        ]
    );
    let bare = logout::form(&endpoints(), &settings(), None, CONSOLE).unwrap();
    assert_eq!(bare.fields.len(), 2);
    let mut none = endpoints();
    none.end_session = None;
    assert_eq!(logout::form(&none, &settings(), Some("t"), CONSOLE), None);
}
