//! The one place the client touches the network and the clock.
//!
//! Everything else is plain Rust over [`HttpRequest`] and [`HttpResponse`], so every rule is
//! tested natively with [`fake::FakeTransport`] and its virtual clock.

use std::future::Future;

pub mod fake;
#[cfg(target_arch = "wasm32")]
pub mod gloo;

/// A request ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// GET, POST, ...
    pub method: &'static str,
    /// The full URL with its query.
    pub url: String,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The JSON text of the body, if any.
    pub body: Option<String>,
    /// Abort after this many milliseconds.
    pub timeout_ms: u64,
}

impl HttpRequest {
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// A complete answer.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    /// The status.
    pub status: u16,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
}

impl HttpResponse {
    /// An answer with a JSON body.
    pub fn json(status: u16, body: &serde_json::Value) -> HttpResponse {
        HttpResponse::text(status, &body.to_string())
    }
    /// An answer with a text body.
    pub fn text(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            status,
            headers: Vec::new(),
            body: body.to_string(),
        }
    }
    /// Adds a header.
    pub fn with_header(mut self, name: &str, value: &str) -> HttpResponse {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// The head of a streamed answer, with the body left unread in `stream`.
pub struct StreamedResponse<S> {
    /// The status.
    pub status: u16,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The unread body.
    pub stream: S,
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportError {
    /// Connection refused, DNS, CORS, dropped connection.
    Network(String),
    /// The timeout ran out and the request was aborted.
    Timeout,
}

/// Sends requests and keeps time.
pub trait Transport {
    /// A body that has not been read (the browser's `Response` in wasm).
    type Stream;

    /// Sends a request and reads the whole answer.
    fn send(
        &self,
        request: HttpRequest,
    ) -> impl Future<Output = Result<HttpResponse, TransportError>>;
    /// Sends a request and returns as soon as the head has arrived.
    fn open(
        &self,
        request: HttpRequest,
    ) -> impl Future<Output = Result<StreamedResponse<Self::Stream>, TransportError>>;
    /// Reads an unread body as text (for a failing streamed answer).
    fn stream_text(&self, stream: Self::Stream) -> impl Future<Output = String>;
    /// Waits.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;
    /// Unix time in milliseconds.
    fn now_ms(&self) -> u64;
}
