//! The certified provider of the journeys (`tests/oidc/provider.mjs`: panva's `oidc-provider`,
//! shaped like production's Keycloak) with larder-server's `--oidc-issuer`, driven by the
//! console's own OpenID Connect core (`larder_start::oidc`) as the browser would: sign-in with
//! PKCE, the code exchange, the ID token's checks, renewal with rotation, a silent sign-in,
//! sign-out; and the access tokens it issues opening the service as its demo accounts.
//!
//! Needs Node and the npm packages (`cargo xtask setup` installs both).

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::TestServer;
use larder_start::oidc::callback::{check, Callback};
use larder_start::oidc::config::Settings;
use larder_start::oidc::discovery::Endpoints;
use larder_start::oidc::id_token::{self, Expected, Nonce};
use larder_start::oidc::pending::{Pending, RANDOM_BYTES};
use larder_start::oidc::token::{self, Tokens, FORM_TYPE};
use larder_start::oidc::{authorize, base64url, logout, pkce, Claim, Failure, Fields};
use rand::RngCore;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const CONSOLE: &str = "http://127.0.0.1:9/console/";

/// The provider as a child process, stopped when dropped.
struct Provider {
    child: Child,
    issuer: String,
}

impl Provider {
    fn start() -> Provider {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut child = Command::new("node")
            .arg("tests/oidc/provider.mjs")
            .args([
                "--port",
                "0",
                "--console",
                CONSOLE,
                "--sign-endpoint",
                "--access-ttl",
                "120",
            ])
            .current_dir(&root)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs (cargo xtask setup installs it and the provider's npm packages)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let issuer = line
            .trim()
            .strip_prefix("OIDC_ISSUER=")
            .unwrap_or_else(|| panic!("the provider did not start (cargo xtask setup?): {line:?}"))
            .to_string();
        Provider { child, issuer }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser's part: one cookie jar (the provider's session), redirects followed by hand.
struct Browser {
    http: reqwest::Client,
    cookies: HashMap<String, String>,
}

enum Landed {
    /// Back at the console: the URL's fragment.
    Console(String),
    /// A page of the provider: its address and HTML.
    Page(String, String),
}

impl Browser {
    fn new() -> Browser {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser {
            http,
            cookies: HashMap::new(),
        }
    }

    async fn send(&mut self, method: &str, url: &str, form: Option<String>) -> reqwest::Response {
        let cookie: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut request = self
            .http
            .request(method.parse().unwrap(), url)
            .header("cookie", cookie.join("; "));
        if let Some(form) = form {
            request = request.header("content-type", FORM_TYPE).body(form);
        }
        let response = request.send().await.unwrap();
        for set in response.headers().get_all("set-cookie") {
            let set = set.to_str().unwrap();
            let (pair, attributes) = set.split_once(';').unwrap_or((set, ""));
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty()
                || attributes
                    .to_ascii_lowercase()
                    .contains("expires=thu, 01 jan 1970")
            {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        response
    }

    /// Goes to `url` (a form POST when `form` is given) and follows redirects until the console
    /// or a page of the provider.
    async fn go(&mut self, url: &str, form: Option<String>) -> Landed {
        let mut method = if form.is_some() { "POST" } else { "GET" };
        let (mut url, mut form) = (url.to_string(), form);
        loop {
            let response = self.send(method, &url, form.take()).await;
            let Some(location) = response.headers().get("location") else {
                let status = response.status();
                let html = response.text().await.unwrap();
                assert!(
                    status.is_success() || status == 401,
                    "{url}: {status} {html}"
                );
                return Landed::Page(url, html);
            };
            let next = reqwest::Url::parse(&url)
                .unwrap()
                .join(location.to_str().unwrap())
                .unwrap();
            if next.as_str().starts_with(CONSOLE) {
                return Landed::Console(next.fragment().unwrap_or_default().to_string());
            }
            (url, method) = (next.to_string(), "GET");
        }
    }
}

/// A form of a provider's page: its action, and its fields with `extra` over them.
fn form_of(base: &str, html: &str, extra: &[(&str, &str)]) -> (String, String) {
    let start = html.find("<form").expect("a form");
    let form = &html[start..html[start..].find("</form>").unwrap() + start];
    let attribute = |tag: &str, name: &str| {
        let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    let action = attribute(form, "action").unwrap();
    let mut fields: Vec<(String, String)> = form
        .split("<input")
        .skip(1)
        .filter_map(|input| {
            Some((
                attribute(input, "name")?,
                attribute(input, "value").unwrap_or_default(),
            ))
        })
        .collect();
    for (key, value) in extra {
        fields.retain(|(k, _)| k != key);
        fields.push((key.to_string(), value.to_string()));
    }
    let body = larder_start::oidc::form::encode_pairs(
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    );
    (
        reqwest::Url::parse(base)
            .unwrap()
            .join(&action)
            .unwrap()
            .to_string(),
        body,
    )
}

struct Console {
    settings: Settings,
    endpoints: Endpoints,
    keys: Vec<Value>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

impl Console {
    async fn discover(issuer: &str) -> Console {
        let scopes = ["profile".to_string(), "roles".to_string()];
        let settings = Settings::new(issuer, "larder-console", Some(&scopes)).unwrap();
        let document: Value = reqwest::get(settings.discovery_url())
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let endpoints = Endpoints::read(&document, &settings).expect("discovery");
        assert!(endpoints.iss_in_answers && endpoints.end_session.is_some());
        let jwks: Value = reqwest::get(&endpoints.jwks)
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let keys = jwks.objects("keys").unwrap();
        Console {
            settings,
            endpoints,
            keys,
        }
    }

    fn begin(&self, silent: bool) -> (Pending, String) {
        let mut random = [0u8; RANDOM_BYTES];
        rand::thread_rng().fill_bytes(&mut random);
        let pending = Pending::new(
            &random,
            "/household",
            now_ms(),
            silent,
            &self.settings.issuer,
            &self.endpoints,
        );
        let digest: [u8; 32] = Sha256::digest(pending.verifier.as_bytes()).into();
        let url = authorize::url(
            &self.endpoints,
            &self.settings,
            CONSOLE,
            &pending,
            &pkce::challenge(&digest),
        );
        (pending, url)
    }

    /// The code of the answer in `fragment` to `pending`.
    fn code(&self, fragment: &str, pending: &Pending) -> Result<String, Failure> {
        let callback = Callback::read(fragment).unwrap().expect("an answer");
        // The carrier gives the values back by the answer's state; a text round trip, as the
        // service worker holds them.
        assert_eq!(callback.pending_key(), Some(pending.state.as_str()));
        let carried = Pending::from_text(&pending.to_text()).unwrap();
        check(
            &callback,
            Some(&carried),
            &self.settings.issuer,
            true,
            now_ms(),
        )
    }

    async fn post(&self, request: token::FormPost) -> Result<Tokens, Failure> {
        let response = reqwest::Client::new()
            .post(&request.url)
            .header("content-type", FORM_TYPE)
            .header("origin", "http://127.0.0.1:9")
            .body(request.body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        assert_eq!(
            response
                .headers()
                .get("access-control-allow-origin")
                .and_then(|v| v.to_str().ok()),
            Some("http://127.0.0.1:9"),
            "the console's origin may read the answer"
        );
        let text = response.text().await.unwrap();
        let body: Option<Value> = serde_json::from_str(&text).ok();
        token::read_answer(status, text.len(), body.as_ref())
    }

    async fn exchange(&self, code: &str, pending: &Pending) -> Result<Tokens, Failure> {
        self.post(token::code_request(
            &self.endpoints,
            &self.settings,
            CONSOLE,
            code,
            &pending.verifier,
        ))
        .await
    }

    /// The ID token checked as a module checks it (jsonwebtoken in WebCrypto's place).
    fn identity(
        &self,
        token: &str,
        nonce: Nonce<'_>,
        subject: Option<&str>,
    ) -> Result<id_token::Identity, Failure> {
        let jwt = id_token::split(token)?;
        let header: Value = serde_json::from_slice(&jwt.header).unwrap();
        let (index, alg) = id_token::choose_key(&header, &self.keys)?;
        let jwk: jsonwebtoken::jwk::Jwk = serde_json::from_value(self.keys[index].clone()).unwrap();
        let algorithm = match alg {
            id_token::Alg::Rs256 => jsonwebtoken::Algorithm::RS256,
            id_token::Alg::Es256 => jsonwebtoken::Algorithm::ES256,
        };
        let key = jsonwebtoken::DecodingKey::from_jwk(&jwk).unwrap();
        let signature = base64url::encode(&jwt.signature);
        if !jsonwebtoken::crypto::verify(&signature, jwt.signing_input.as_bytes(), &key, algorithm)
            .unwrap()
        {
            return Err(Failure::IdToken(Claim::Signature));
        }
        let claims: Value = serde_json::from_slice(&jwt.payload).unwrap();
        let expected = Expected {
            issuer: &self.settings.issuer,
            client_id: &self.settings.client_id,
            nonce,
            subject,
            now_s: now_ms() / 1000,
        };
        id_token::check_claims(&claims, &expected)
    }

    /// An interactive sign-in of `login` in `browser`: the provider's form, then the tokens.
    async fn sign_in(&self, browser: &mut Browser, login: &str) -> (Pending, Tokens) {
        let (pending, url) = self.begin(false);
        let Landed::Page(page, html) = browser.go(&url, None).await else {
            panic!("the provider's sign-in form first");
        };
        assert!(html.contains("<label>Username") && html.contains("<label>Password"));
        let (action, wrong) = form_of(&page, &html, &[("login", login), ("password", "wrong")]);
        let Landed::Page(_, again) = browser.go(&action, Some(wrong)).await else {
            panic!("a wrong password keeps the form");
        };
        assert!(again.contains("role=\"alert\""));
        let password = format!("{login}-demo");
        let (action, form) = form_of(&page, &html, &[("login", login), ("password", &password)]);
        let Landed::Console(fragment) = browser.go(&action, Some(form)).await else {
            panic!("back at the console");
        };
        assert!(!fragment.contains(&pending.verifier));
        let code = self.code(&fragment, &pending).expect("a code");
        let tokens = self.exchange(&code, &pending).await.expect("tokens");
        (pending, tokens)
    }
}

#[tokio::test]
async fn the_console_signs_in_renews_and_signs_out_at_the_certified_provider() {
    let provider = Provider::start();
    let console = Console::discover(&provider.issuer).await;
    let server = TestServer::start(&["--demo", "--oidc-issuer", &provider.issuer]).await;
    let mut browser = Browser::new();

    // Sign-in: the ID token is this sign-in's; the access token opens olivia's demo household.
    let (pending, tokens) = console.sign_in(&mut browser, "olivia").await;
    let id = tokens.id_token.clone().expect("an ID token");
    let person = console
        .identity(&id, Nonce::Exactly(&pending.nonce), None)
        .unwrap();
    assert_eq!(
        (person.sub.as_str(), person.preferred_username.as_deref()),
        ("user:olivia", Some("olivia"))
    );
    assert_eq!(
        console.identity(&id, Nonce::Exactly("another"), None),
        Err(Failure::IdToken(Claim::Nonce))
    );
    let mine = server
        .call("GET", "households/me", Some(&tokens.access_token), None)
        .await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.body["result"]["owner_id"], "user:olivia");
    // The ID token is not an access token: its audience is the console.
    assert_eq!(
        server
            .call("GET", "households/me", Some(&id), None)
            .await
            .status,
        401
    );

    // Renewal rotates the refresh token; the renewed ID token is the same person's.
    let first = tokens.refresh_token.clone().expect("a refresh token");
    let renewed = console
        .post(token::refresh_request(
            &console.endpoints,
            &console.settings,
            &first,
        ))
        .await
        .unwrap();
    let second = renewed.refresh_token.clone().unwrap();
    assert_ne!(second, first, "rotated");
    let renewed_id = renewed.id_token.clone().unwrap();
    console
        .identity(
            &renewed_id,
            Nonce::IfPresent(&pending.nonce),
            Some("user:olivia"),
        )
        .unwrap();
    assert_eq!(
        server
            .call("GET", "households/me", Some(&renewed.access_token), None)
            .await
            .status,
        200
    );

    // Silent sign-in while the provider's session lives: a code at once, no form.
    let (silent, url) = console.begin(true);
    let Landed::Console(fragment) = browser.go(&url, None).await else {
        panic!("prompt=none shows nothing");
    };
    let code = console.code(&fragment, &silent).unwrap();
    let quiet = console.exchange(&code, &silent).await.unwrap();
    console
        .identity(
            quiet.id_token.as_deref().unwrap(),
            Nonce::Exactly(&silent.nonce),
            None,
        )
        .unwrap();

    // A code used twice is refused (and the provider revokes that grant).
    let reused = console.exchange(&code, &silent).await;
    assert!(
        matches!(&reused, Err(Failure::Refused { error, .. }) if error == "invalid_grant"),
        "{reused:?}"
    );

    // Replaying a rotated refresh token is refused and ends that grant: the newest dies too.
    let replay = console
        .post(token::refresh_request(
            &console.endpoints,
            &console.settings,
            &first,
        ))
        .await;
    assert!(
        matches!(&replay, Err(Failure::Refused { error, .. }) if error == "invalid_grant"),
        "{replay:?}"
    );
    let newest = console
        .post(token::refresh_request(
            &console.endpoints,
            &console.settings,
            &second,
        ))
        .await;
    assert!(matches!(newest, Err(Failure::Refused { .. })), "{newest:?}");

    // Sign-out: the logout form, posted; the provider signs out without asking and comes back.
    let form = logout::form(&console.endpoints, &console.settings, Some(&id), CONSOLE).unwrap();
    assert!(!form.action.contains(&id));
    let body =
        larder_start::oidc::form::encode_pairs(form.fields.iter().map(|(k, v)| (*k, v.as_str())));
    let mut landed = browser.go(&form.action, Some(body)).await;
    // The provider's own pages submit their forms themselves (as a browser runs them): a relay
    // to itself with its session cookie, then the sign-out without a question.
    for _ in 0..3 {
        let Landed::Page(page, html) = &landed else {
            break;
        };
        assert!(!page.contains(&id), "the ID token is in no URL");
        let (action, next) = form_of(page, html, &[]);
        landed = browser.go(&action, Some(next)).await;
    }
    assert!(matches!(landed, Landed::Console(_)), "back at the console");
    // Now a silent sign-in finds no session: the sign-in form, without an error.
    let (silent, url) = console.begin(true);
    let Landed::Console(fragment) = browser.go(&url, None).await else {
        panic!("prompt=none shows nothing");
    };
    assert_eq!(
        console.code(&fragment, &silent),
        Err(Failure::SessionRequired)
    );
    server.stop().await;
}

#[path = "oidc_provider/roles.rs"]
mod roles;
