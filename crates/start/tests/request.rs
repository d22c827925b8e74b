//! The start-up module's sign-in request is the API client's own: same method, URL, headers it
//! needs and body, for both kinds of credentials and any text typed.

use larder_api::transport::fake::FakeTransport;
use larder_api::transport::HttpResponse;
use larder_api::{Client, ClientConfig, Credentials};
use larder_start::login;
use serde_json::Value;

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
