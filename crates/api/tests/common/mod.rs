//! Helpers shared by the native integration tests.
#![allow(dead_code)]

use larder_api::transport::fake::FakeTransport;
use larder_api::transport::{HttpRequest, HttpResponse, TransportError};
use larder_api::{Client, ClientConfig};
use serde_json::{json, Value};

pub type Answer = Result<HttpResponse, TransportError>;

pub const START: u64 = 1_000_000;

/// A success envelope around `result`.
pub fn ok(result: Value) -> Answer {
    Ok(HttpResponse::json(
        200,
        &json!({"success": true, "result": result, "help": "h"}),
    ))
}

/// A failure envelope with the code of `status`.
pub fn failing(status: u16, code: &str, detail: &str) -> Answer {
    Ok(HttpResponse::json(
        status,
        &json!({"success": false, "error": {"title": "T", "detail": detail, "code": code}, "help": "h"}),
    ))
}

/// A client on two base URLs over a fake answering `answers` in order.
pub fn scripted(answers: Vec<Answer>) -> (FakeTransport, Client<FakeTransport>) {
    let fake = FakeTransport::scripted(START, answers);
    let client = Client::new(
        fake.clone(),
        ClientConfig::split("http://data/", "http://sys"),
    );
    (fake, client)
}

/// The JSON body of a recorded request.
pub fn body(request: &HttpRequest) -> Value {
    request
        .body
        .as_deref()
        .map(|text| serde_json::from_str(text).expect("bodies are JSON"))
        .unwrap_or(Value::Null)
}

/// Method and URL of a recorded request.
pub fn line(request: &HttpRequest) -> String {
    format!("{} {}", request.method, request.url)
}

/// The `Authorization` header a request carried, if any.
pub fn bearer(request: &HttpRequest) -> Option<String> {
    request.header("authorization").map(str::to_string)
}
