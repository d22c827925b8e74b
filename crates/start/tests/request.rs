//! The start-up module's sign-in request is the API client's own: same method, URL, headers it
//! needs and body, for both kinds of credentials and any text typed.

use larder_api::transport::fake::FakeTransport;
use larder_api::transport::HttpResponse;
use larder_api::{Client, ClientConfig, Credentials};
use larder_start::{household, login};
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
    for (name, secret) in [("", ""), ("  ", "x"), ("a", ""), ("a", "b"), (" a ", " ")] {
        let theirs = Credentials::from_fields(name, secret, "", "").is_ok();
        assert_eq!(login::complete(name, secret), theirs, "{name:?} {secret:?}");
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
fn the_household_is_read_with_the_clients_request() {
    for base in [
        "https://system.example.org",
        "http://127.0.0.1:8080/",
        "https://x.example/sub//",
    ] {
        let theirs = client_household_request(base);
        assert_eq!(theirs.method, "GET");
        assert_eq!(household::own_household_url(base), theirs.url, "{base}");
        // It asks for JSON, as the start-up module does; the token is added by each.
        assert_eq!(theirs.header("accept"), Some("application/json"));
        assert_eq!(theirs.body, None);
    }
    assert_eq!(household::bearer("abc"), "Bearer abc");
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
        let ours = household::token(|key| result.get(key)?.as_str().map(str::to_string));
        assert_eq!(ours, theirs, "{answer}");
    }
}
