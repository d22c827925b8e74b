//! `--oidc-issuer`: access tokens of an OpenID Connect provider, checked as production's services
//! check Keycloak's (production.md §1.3), beside this server's own tokens. The provider here is
//! the test's own (keys made in the test, a small issuer serving them); the certified one is in
//! `oidc_provider.rs`.

mod common;
#[path = "oidc/local_accounts.rs"]
mod local_accounts;
#[path = "common/oidc.rs"]
mod provider;

use std::sync::OnceLock;

use common::TestServer;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use provider::{claims, now, unsigned, Issuer, Key};
use serde_json::{json, Value};

/// The test's keys, made once (an RSA key takes a moment).
struct Keys {
    rsa: Key,
    ec: Key,
    rotated: Key,
    /// Never published: signs under the RSA key's kid.
    foreign: Key,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| Keys {
        rsa: Key::rsa("rs-1"),
        ec: Key::ec("es-1"),
        rotated: Key::rsa("rs-2"),
        foreign: Key::rsa("rs-1"),
    })
}

async fn server_for(issuer: &Issuer, extra: &[&str]) -> TestServer {
    let mut args = vec!["--demo", "--oidc-issuer", issuer.url.as_str()];
    args.extend_from_slice(extra);
    TestServer::start(&args).await
}

/// Who the server says the token's caller is (`system/ping`, reference wire), or the status.
async fn who(server: &TestServer, token: &str) -> Result<Value, u16> {
    let answer = server.call("GET", "households/me", Some(token), None).await;
    if answer.status == 401 {
        return Err(401);
    }
    let ping = server.call("GET", "system/ping", Some(token), None).await;
    assert_eq!(ping.status, 200);
    match ping.body["result"]["authenticated"].as_bool() {
        Some(true) => Ok(ping.body["result"].clone()),
        _ => Err(ping.status),
    }
}

fn with(issuer: &Issuer, change: impl FnOnce(&mut Value)) -> Value {
    let mut claims = claims(&issuer.url);
    change(&mut claims);
    claims
}

#[tokio::test]
async fn a_providers_token_signed_by_its_rsa_or_ec_key_is_taken() {
    let issuer = Issuer::start(&[&keys().rsa, &keys().ec]).await;
    let server = server_for(&issuer, &[]).await;
    for key in [&keys().rsa, &keys().ec] {
        let caller = who(&server, &key.sign(&claims(&issuer.url))).await.unwrap();
        assert_eq!(caller["kind"], "user");
        assert_eq!(caller["username"], "olivia");
    }
    assert_eq!(issuer.key_fetches(), 1, "the keys are fetched once");
    server.stop().await;
}

#[tokio::test]
async fn the_household_owner_is_the_tokens_sub() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let token = keys().rsa.sign(&claims(&issuer.url));
    // The demo's olivia (`user:olivia`) owns a household; the provider's olivia is another sub.
    let mine = server
        .call("GET", "households/me", Some(&token), None)
        .await;
    assert_eq!(mine.status, 404, "{}", mine.body);
    let created = server
        .call(
            "POST",
            "households",
            Some(&token),
            Some(
                json!({"name": "Olivia's", "members": [{"name": "Olivia", "age_group": "adult"}]}),
            ),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["result"]["owner_id"], "f:5c1a:olivia");
    let mine = server
        .call("GET", "households/me", Some(&token), None)
        .await;
    assert_eq!(mine.status, 200);
    assert_eq!(mine.body["result"]["name"], "Olivia's");
    // The demo's olivia still has her own.
    let local = server.login("olivia", "olivia-demo").await;
    let hers = server
        .call("GET", "households/me", Some(&local), None)
        .await;
    assert_ne!(hers.body["result"]["id"], mine.body["result"]["id"]);
    // The provider's account is not this server's to erase.
    let erase = server.call("DELETE", "users/me", Some(&token), None).await;
    assert_eq!(erase.status, 403, "{}", erase.body);
    assert_eq!(
        server
            .call("GET", "households/me", Some(&local), None)
            .await
            .status,
        200
    );
    server.stop().await;
}

#[tokio::test]
async fn the_issuer_the_audience_and_the_expiry_are_checked() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let sign = |claims: Value| keys().rsa.sign(&claims);
    let refused = [
        (
            "another issuer",
            with(&issuer, |c| c["iss"] = json!("http://127.0.0.1:1")),
        ),
        (
            "the issuer with a slash",
            with(&issuer, |c| c["iss"] = json!(format!("{}/", issuer.url))),
        ),
        (
            "no issuer",
            with(&issuer, |c| {
                c.as_object_mut().unwrap().remove("iss");
            }),
        ),
        (
            "the console's audience (an ID token)",
            with(&issuer, |c| c["aud"] = json!("larder-console")),
        ),
        (
            "master-realm, not asked for here",
            with(&issuer, |c| c["aud"] = json!("master-realm")),
        ),
        (
            "no audience",
            with(&issuer, |c| {
                c.as_object_mut().unwrap().remove("aud");
            }),
        ),
        (
            "expired beyond the leeway",
            with(&issuer, |c| c["exp"] = json!(now() - 31)),
        ),
        (
            "no expiry",
            with(&issuer, |c| {
                c.as_object_mut().unwrap().remove("exp");
            }),
        ),
        (
            "not yet valid",
            with(&issuer, |c| c["nbf"] = json!(now() + 120)),
        ),
        (
            "no sub",
            with(&issuer, |c| {
                c.as_object_mut().unwrap().remove("sub");
            }),
        ),
        (
            "nobody (no name, no client)",
            with(&issuer, |c| {
                let c = c.as_object_mut().unwrap();
                c.remove("preferred_username");
                c.remove("azp");
            }),
        ),
    ];
    for (what, claims) in refused {
        assert_eq!(who(&server, &sign(claims)).await, Err(401), "{what}");
    }
    let taken = [
        (
            "an audience list holding account",
            with(&issuer, |c| c["aud"] = json!(["larder-api", "account"])),
        ),
        (
            "expired within the leeway",
            with(&issuer, |c| c["exp"] = json!(now() - 5)),
        ),
    ];
    for (what, claims) in taken {
        assert!(who(&server, &sign(claims)).await.is_ok(), "{what}");
    }
    server.stop().await;

    // --oidc-audience names the accepted audiences.
    let server = server_for(
        &issuer,
        &[
            "--oidc-audience",
            "master-realm",
            "--oidc-audience",
            "account",
        ],
    )
    .await;
    let master = with(&issuer, |c| c["aud"] = json!("master-realm"));
    assert!(who(&server, &sign(master)).await.is_ok());
    server.stop().await;
    let server = server_for(&issuer, &["--oidc-audience", "master-realm"]).await;
    assert_eq!(
        who(&server, &sign(claims(&issuer.url))).await,
        Err(401),
        "account no longer"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_signature_that_is_not_the_published_keys_is_refused() {
    let issuer = Issuer::start(&[&keys().rsa, &keys().ec]).await;
    let server = server_for(&issuer, &[]).await;
    let good = keys().rsa.sign(&claims(&issuer.url));
    assert!(who(&server, &good).await.is_ok());
    // A byte of the signature changed; the claims changed after signing.
    let (head, signature) = good.rsplit_once('.').unwrap();
    let flipped = format!(
        "{head}.{}{}",
        if signature.starts_with('A') { "B" } else { "A" },
        &signature[1..]
    );
    let admin = with(&issuer, |c| c["realm_access"]["roles"] = json!(["admin"]));
    let parts: Vec<&str> = good.split('.').collect();
    let payload = base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        admin.to_string(),
    );
    let swapped = format!("{}.{payload}.{}", parts[0], parts[2]);
    let refused = [
        ("a changed signature", flipped),
        ("changed claims", swapped),
        (
            "a key never published, under a published kid",
            keys().foreign.sign(&claims(&issuer.url)),
        ),
        (
            "alg none",
            unsigned(&json!({"alg": "none", "kid": "rs-1"}), &claims(&issuer.url)),
        ),
        (
            "alg none without a kid",
            unsigned(&json!({"alg": "none"}), &claims(&issuer.url)),
        ),
        (
            "an ES256 header on the RSA key",
            keys().rsa.sign_then_swap_header(
                &claims(&issuer.url),
                &json!({"alg": "ES256", "kid": "rs-1"}),
            ),
        ),
        (
            "an RS256 header on the EC key",
            keys().ec.sign_then_swap_header(
                &claims(&issuer.url),
                &json!({"alg": "RS256", "kid": "es-1"}),
            ),
        ),
        (
            "RS384",
            keys().rsa.sign_then_swap_header(
                &claims(&issuer.url),
                &json!({"alg": "RS384", "kid": "rs-1"}),
            ),
        ),
        (
            "no kid",
            keys()
                .rsa
                .sign_then_swap_header(&claims(&issuer.url), &json!({"alg": "RS256"})),
        ),
        ("not a JWT", "a.b".to_string()),
    ];
    for (what, token) in refused {
        assert_eq!(who(&server, &token).await, Err(401), "{what}");
    }
    server.stop().await;
}

#[tokio::test]
async fn hs256_with_the_providers_public_key_as_its_secret_is_refused() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("rs-1".into());
    for secret in [
        keys().rsa.jwk["n"].as_str().unwrap().to_string(),
        keys().rsa.jwk.to_string(),
    ] {
        let token = jsonwebtoken::encode(
            &header,
            &claims(&issuer.url),
            &EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap();
        assert_eq!(who(&server, &token).await, Err(401));
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_kid_fetches_the_keys_once_and_not_again_for_30_seconds() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let checker = server.state.auth.provider().unwrap().clone();
    assert!(who(&server, &keys().rsa.sign(&claims(&issuer.url)))
        .await
        .is_ok());
    assert_eq!(issuer.key_fetches(), 1);
    // The provider rotates. Within 30 s of the last fetch a token of its new key fetches
    // nothing (nor do made-up kids: a stream of them cannot hammer the provider).
    issuer.publish(&[&keys().rsa, &keys().rotated]);
    let rotated = keys().rotated.sign(&claims(&issuer.url));
    assert_eq!(who(&server, &rotated).await, Err(401));
    for kid in ["rs-3", "rs-4", "rs-5"] {
        let token = keys()
            .rsa
            .sign_then_swap_header(&claims(&issuer.url), &json!({"alg": "RS256", "kid": kid}));
        assert_eq!(who(&server, &token).await, Err(401), "{kid}");
    }
    assert_eq!(issuer.key_fetches(), 1);
    // 30 s later: the new kid fetches the keys once, and is taken from then on.
    checker
        .backdate_last_fetch(std::time::Duration::from_secs(31))
        .await;
    assert!(who(&server, &rotated).await.is_ok());
    assert!(who(&server, &rotated).await.is_ok());
    assert_eq!(issuer.key_fetches(), 2);
    let made_up = keys().rsa.sign_then_swap_header(
        &claims(&issuer.url),
        &json!({"alg": "RS256", "kid": "rs-6"}),
    );
    assert_eq!(who(&server, &made_up).await, Err(401));
    assert_eq!(issuer.key_fetches(), 2, "and again not for 30 s");
    // A fetch takes the published set whole: a key the provider dropped stops working.
    issuer.publish(&[&keys().rotated]);
    assert_eq!(checker.fetch_keys().await.unwrap(), 1);
    assert_eq!(
        who(&server, &keys().rsa.sign(&claims(&issuer.url))).await,
        Err(401)
    );
    assert!(who(&server, &keys().rotated.sign(&claims(&issuer.url)))
        .await
        .is_ok());
    server.stop().await;
}

#[tokio::test]
async fn keys_for_encryption_or_of_another_algorithm_are_not_used() {
    let issuer = Issuer::start(&[]).await;
    let mut encryption = keys().rsa.jwk.clone();
    encryption["use"] = json!("enc");
    let mut rs512 = keys().ec.jwk.clone();
    rs512["alg"] = json!("ES384");
    issuer.publish_raw(
        json!([encryption, rs512, {"kty": "oct", "kid": "hs", "k": "c2VjcmV0"}, "not a key"]),
    );
    let server = server_for(&issuer, &[]).await;
    assert_eq!(
        who(&server, &keys().rsa.sign(&claims(&issuer.url))).await,
        Err(401)
    );
    assert_eq!(
        who(&server, &keys().ec.sign(&claims(&issuer.url))).await,
        Err(401)
    );
    server.stop().await;
}

#[tokio::test]
async fn a_discovery_document_naming_another_issuer_gives_no_keys() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    issuer.misname("http://127.0.0.1:1");
    let server = server_for(&issuer, &[]).await;
    assert_eq!(
        who(&server, &keys().rsa.sign(&claims(&issuer.url))).await,
        Err(401)
    );
    assert_eq!(issuer.key_fetches(), 0, "its key set is not even fetched");
    server.stop().await;
}

#[tokio::test]
async fn roles_are_the_realms_and_every_clients_trimmed_and_lower_cased() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let curator = with(&issuer, |c| {
        c["preferred_username"] = json!("curator");
        c["sub"] = json!("f:curator");
        c["resource_access"]["larder-console"] = json!({"roles": [" Expert "]});
    });
    let token = keys().rsa.sign(&curator);
    let caller = who(&server, &token).await.unwrap();
    let roles: Vec<&str> = caller["roles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        [
            "offline_access",
            "uma_authorization",
            "manage-account",
            "view-profile",
            "expert"
        ]
    );
    // The expert's gate passes: a curator creates an article.
    let article = server
        .call("POST", "articles", Some(&token), Some(json!({"title": "Iron", "urn": "urn:article:oidc-iron", "authors": [], "abstract": "a"})))
        .await;
    assert_ne!(article.status, 403, "{}", article.body);
    assert_ne!(article.status, 401);
    // A realm admin (exact spelling) sees every household; a client-level Admin passes the list's
    // gate but not the ownership override, as in production.
    let admin = keys().rsa.sign(&with(&issuer, |c| {
        c["preferred_username"] = json!("admin");
        c["realm_access"]["roles"] = json!(["admin", "offline_access"]);
    }));
    let client_admin = keys().rsa.sign(&with(&issuer, |c| {
        c["resource_access"]["larder-console"] = json!({"roles": ["Admin"]});
    }));
    let plain = keys().rsa.sign(&claims(&issuer.url));
    let local = server.login("olivia", "olivia-demo").await;
    let hers = server
        .call("GET", "households/me", Some(&local), None)
        .await;
    let path = format!("households/{}", hers.body["result"]["id"].as_str().unwrap());
    assert_eq!(
        server.call("GET", &path, Some(&admin), None).await.status,
        200
    );
    assert_eq!(
        server
            .call("GET", &path, Some(&client_admin), None)
            .await
            .status,
        403
    );
    assert_eq!(
        server.call("GET", &path, Some(&plain), None).await.status,
        403
    );
    assert_eq!(
        server
            .call("GET", "households", Some(&client_admin), None)
            .await
            .status,
        200
    );
    assert_eq!(
        server
            .call("GET", "households", Some(&plain), None)
            .await
            .status,
        403
    );
    server.stop().await;
}

#[tokio::test]
async fn a_machine_clients_token_names_its_client() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let service = keys().rsa.sign(&with(&issuer, |c| {
        let c = c.as_object_mut().unwrap();
        c.remove("preferred_username");
        c.insert("client_id".into(), json!("enhancer-service"));
    }));
    let caller = who(&server, &service).await.unwrap();
    assert_eq!(
        (caller["kind"].as_str(), caller["client_id"].as_str()),
        (Some("client"), Some("enhancer-service"))
    );
    server.stop().await;
}

#[tokio::test]
async fn the_servers_own_sign_in_keeps_working_beside_the_provider() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let own = server.login("olivia", "olivia-demo").await;
    let caller = who(&server, &own).await.unwrap();
    assert_eq!(caller["username"], "olivia");
    let machine = server.mtm("enhancer", "enhancer-demo").await;
    assert_eq!(who(&server, &machine).await.unwrap()["kind"], "client");
    // Its own tokens signed by anything but its key are still refused.
    let forged = server
        .state
        .auth
        .sign_claims(&json!({"preferred_username": "admin", "exp": now() + 60}));
    assert_eq!(
        who(&server, &forged).await,
        Err(401),
        "no fingerprint of an account in force"
    );
    assert_eq!(
        issuer.key_fetches(),
        0,
        "no own token asked the provider anything"
    );
    server.stop().await;
}

#[tokio::test]
async fn without_the_option_a_providers_token_is_refused() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = TestServer::demo().await;
    assert_eq!(
        who(&server, &keys().rsa.sign(&claims(&issuer.url))).await,
        Err(401)
    );
    assert_eq!(issuer.key_fetches(), 0);
    server.stop().await;
}

#[tokio::test]
async fn the_option_takes_plain_http_issuers_only() {
    use clap::Parser;
    let parse = |args: &[&str]| {
        larder_server::Options::try_parse_from(
            std::iter::once("larder-server").chain(args.iter().copied()),
        )
    };
    assert!(parse(&["--oidc-issuer", "http://localhost:8081/realms/master"]).is_ok());
    let https = parse(&["--oidc-issuer", "https://auth.example.org/realms/master"]).unwrap_err();
    assert!(https.to_string().contains("plain http only"), "{https}");
    assert!(
        parse(&["--oidc-audience", "account"]).is_err(),
        "an audience without an issuer"
    );
    let options = parse(&["--oidc-issuer", "http://localhost:1"]).unwrap();
    assert_eq!(options.oidc_audiences, ["account"]);
}
