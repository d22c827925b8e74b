//! The one place the client touches the network and the clock.
//!
//! Everything else is plain Rust over [`HttpRequest`] and [`HttpResponse`], so every rule is
//! tested natively with [`fake::FakeTransport`] and its virtual clock.

use std::future::Future;
use std::sync::Arc;

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

/// How far an upload has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Bytes sent so far.
    pub loaded: u64,
    /// Bytes to send in all, when known.
    pub total: Option<u64>,
}

/// Called as an upload proceeds.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// A multipart upload: the head of a request, the form's text fields and one file.
pub struct UploadRequest<F> {
    /// Method, URL, headers and timeout. It has no body and no Content-Type: the transport writes
    /// the multipart body and its boundary. The timeout counts from the last sign of progress,
    /// so a large file is not cut off while it is still moving.
    pub head: HttpRequest,
    /// Text fields, in order.
    pub fields: Vec<(String, String)>,
    /// The name of the file's field (`file`).
    pub file_field: String,
    /// The file (a browser `Blob` or `File` in wasm: its bytes never enter wasm memory).
    pub file: F,
    /// The file name sent with the file.
    pub file_name: Option<String>,
    /// Told about progress, when given.
    pub progress: Option<ProgressFn>,
}

impl<F> std::fmt::Debug for UploadRequest<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UploadRequest")
            .field("head", &self.head)
            .field("fields", &self.fields)
            .field("file_field", &self.file_field)
            .field("file_name", &self.file_name)
            .finish_non_exhaustive()
    }
}

/// Sends requests and keeps time.
pub trait Transport {
    /// A body that has not been read (the browser's `Response` in wasm).
    type Stream;
    /// A file to upload (the browser's `Blob` in wasm); cloning it must not copy the bytes.
    type File: Clone;

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
    /// Sends a multipart form with one file and reads the whole answer.
    fn upload(
        &self,
        request: UploadRequest<Self::File>,
    ) -> impl Future<Output = Result<HttpResponse, TransportError>>;
    /// Sends a request with a body, telling `progress` how much of the body has gone out, and
    /// reads the whole answer (for large JSON bodies such as a bulk replacement). Without a
    /// way to watch the bytes go, it sends as [`Transport::send`] and reports the end.
    fn send_tracked(
        &self,
        request: HttpRequest,
        progress: ProgressFn,
    ) -> impl Future<Output = Result<HttpResponse, TransportError>> {
        async move {
            let size = request.body.as_ref().map_or(0, |b| b.len() as u64);
            let answer = self.send(request).await;
            progress(Progress {
                loaded: size,
                total: Some(size),
            });
            answer
        }
    }
    /// Reads an unread body as text (for a failing streamed answer).
    fn stream_text(&self, stream: Self::Stream) -> impl Future<Output = String>;
    /// Waits.
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;
    /// Unix time in milliseconds.
    fn now_ms(&self) -> u64;
}
