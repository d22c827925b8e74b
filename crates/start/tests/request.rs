//! The start-up module's requests are the API client's own: the sign-in (same method, URL,
//! headers it needs and body, for both kinds of credentials and any text typed; its endpoint,
//! keys and token keys are one rule, `larder_start::login` and `token`, which the client uses),
//! the first reads with its token, and what a refused sign-in says.

use larder_api::config::Api;
use larder_api::transport::fake::FakeTransport;
use larder_api::transport::HttpResponse;
use larder_api::{ApiError, Client, ClientConfig, Credentials};
use larder_start::{login, token};
use serde_json::{json, Value};

fn client_request(
    system_base: &str,
    credentials: &Credentials,
) -> larder_api::transport::HttpRequest {
    let transport = FakeTransport::new(0, |_| Ok(HttpResponse::text(500, "unused")));
    let config = ClientConfig::split("https://data.example.org", system_base);
    Client::new(transport, config).sign_in_request(credentials)
}

fn same_request(system_base: &str, machine: bool, name: &str, secret: &str) {
    let credentials = if machine {
        Credentials::from_fields("", "", name, secret)
    } else {
        Credentials::from_fields(name, secret, "", "")
    }
    .expect("complete credentials");
    let expected = client_request(system_base, &credentials);
    let ours = login::request(system_base, machine, name, secret);
    assert_eq!(expected.method, "POST");
    assert_eq!(ours.url, expected.url, "the URL");
    let body = |text: &str| serde_json::from_str::<Value>(text).expect("a JSON body");
    assert_eq!(
        body(&ours.body),
        body(expected.body.as_deref().expect("a body")),
        "the body"
    );
    // The start-up module sends JSON and asks for JSON, as the client does, and no token.
    assert_eq!(expected.header("content-type"), Some("application/json"));
    assert_eq!(expected.header("accept"), Some("application/json"));
    assert_eq!(expected.header("authorization"), None);
}

#[test]
fn a_person_signs_in_with_the_clients_request() {
    same_request("https://system.example.org", false, "olivia", "olivia-demo");
    same_request(
        "http://127.0.0.1:8080/",
        false,
        "  olivia ",
        " pass \"word\" ",
    );
    same_request("https://x.example/sub/", false, "Ωμέγα\\", "tab\there\u{1}");
}

#[test]
fn a_machine_client_signs_in_with_the_clients_request() {
    same_request("https://system.example.org", true, "etl-client", "s3cret");
    same_request("https://system.example.org//", true, " id ", "\n");
}

#[test]
fn the_form_is_complete_by_the_clients_rule() {
    for machine in [false, true] {
        for (name, secret) in [("", ""), ("  ", "x"), ("a", ""), ("a", "b"), (" a ", " ")] {
            let theirs = if machine {
                Credentials::from_fields("", "", name, secret)
            } else {
                Credentials::from_fields(name, secret, "", "")
            };
            assert_eq!(
                login::missing(machine, name, secret).is_none(),
                theirs.is_ok(),
                "{name:?} {secret:?}"
            );
        }
    }
}

#[test]
fn the_api_prefix_is_the_contracts() {
    let ours = login::request("https://h", false, "a", "b");
    assert_eq!(
        ours.url,
        format!("https://h{}/system/login", larder_contract::API_PREFIX)
    );
}

#[test]
fn the_timeout_is_the_clients_default() {
    assert_eq!(
        u64::from(login::TIMEOUT_MS),
        larder_api::config::DEFAULT_TIMEOUT_MS
    );
}

/// The client's own `households/me` request, at `system_base`.
fn client_household_request(system_base: &str) -> larder_api::transport::HttpRequest {
    let transport = FakeTransport::new(0, |_| Ok(HttpResponse::text(500, "unused")));
    let config = ClientConfig::split("https://data.example.org", system_base);
    Client::new(transport, config).own_household_request()
}

#[test]
fn the_first_reads_go_where_the_clients_do() {
    for base in [
        "https://system.example.org",
        "http://127.0.0.1:8080/",
        "https://x.example/sub//",
    ] {
        let theirs = client_household_request(base);
        assert_eq!(theirs.method, "GET");
        assert_eq!(
            token::system_url(base, token::OWN_HOUSEHOLD),
            theirs.url,
            "{base}"
        );
        // It asks for JSON, as the start-up module does; the token is added by each.
        assert_eq!(theirs.header("accept"), Some("application/json"));
        assert_eq!(theirs.body, None);
        let config = ClientConfig::split("https://data.example.org", base);
        assert_eq!(
            token::system_url(base, token::PING),
            config.url(Api::System, "system/ping", &[]),
            "{base}"
        );
    }
    assert_eq!(token::bearer("abc"), "Bearer abc");
}

/// What a refused sign-in says, read as the start-up module reads it (`said`: the answer's
/// `error.detail`, `error` or `detail` when a text; `text`: the body unless a JSON object).
fn start_module_reading(status: u16, body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let said = parsed.as_ref().and_then(|answer| {
        let error = answer.get("error");
        error
            .and_then(|e| e.get("detail"))
            .and_then(Value::as_str)
            .or_else(|| error.and_then(Value::as_str))
            .or_else(|| answer.get("detail").and_then(Value::as_str))
            .map(str::to_string)
    });
    let text = (!matches!(parsed, Some(Value::Object(_)))).then_some(body);
    login::failure_detail(status, said, text)
}

#[test]
fn a_refused_sign_in_says_what_the_client_says() {
    use larder_api::auth::token_from_answer;
    let long = "word ".repeat(100);
    let bodies = [
        (
            401,
            r#"{"success":false,"error":{"title":"AuthenticationError","detail":"Invalid credentials.","code":"auth/invalid"}}"#,
        ),
        (401, r#"{"detail":"Invalid user credentials"}"#),
        (
            400,
            r#"{"error":"invalid_grant","error_description":"Bad"}"#,
        ),
        (403, r#"{"error":{"title":"Forbidden"}}"#),
        (
            503,
            r#"{"success":false,"error":{"detail":"Closed","code":"platform/maintenance"}}"#,
        ),
        (502, "Bad Gateway"),
        (
            502,
            "  Bad 
	 Gateway  ",
        ),
        (500, ""),
        (500, r#""oops""#),
        (500, "[1, 2]"),
        (418, long.as_str()),
    ];
    for (status, body) in bodies {
        let theirs = match token_from_answer(&HttpResponse::text(status, body), 0) {
            Err(ApiError::Authentication { detail, .. }) => detail,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            start_module_reading(status, body),
            theirs,
            "{status} {body}"
        );
    }
    // Where the two differ, on purpose: a proxy's HTML page (the client reads its words, the
    // start-up module says the status) and a validation list (the form is checked first, so
    // the start-up module never sends a body that fails one).
    assert_eq!(
        start_module_reading(502, "<html><body><h1>Bad Gateway</h1></body></html>"),
        "Sign-in answered status 502."
    );
}

#[test]
fn the_token_is_the_one_the_client_reads() {
    use larder_api::auth::token_from_answer;
    let answers = [
        json!({"success": true, "result": {"access_token": "a", "expires_in": 300}}),
        json!({"access_token": "bare"}),
        json!({"result": {"token": "t", "access_token": "a"}}),
        json!({"result": {"token": "", "jwt": "j"}}),
        json!({"result": {"jwt": "j", "access_token": "a"}}),
        json!({"result": {"access_token": 5}}),
        json!({"result": {}}),
        json!({"token": "outer", "result": {"access_token": "inner"}}),
    ];
    for answer in answers {
        let theirs = token_from_answer(&HttpResponse::json(200, &answer), 0)
            .ok()
            .map(|t| t.value);
        let result = answer.get("result").unwrap_or(&answer).clone();
        let ours = token::token(|key| result.get(key)?.as_str().map(str::to_string));
        assert_eq!(ours, theirs, "{answer}");
    }
}
