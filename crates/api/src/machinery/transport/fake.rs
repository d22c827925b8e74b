//! A scripted transport with a virtual clock, for native tests of the client's rules.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use super::{
    HttpRequest, HttpResponse, Progress, StreamedResponse, Transport, TransportError, UploadRequest,
};

type Handler = dyn Fn(&HttpRequest) -> Result<HttpResponse, TransportError> + Send + Sync;

/// Answers requests with a handler (or a queue of scripted answers) and records what happened.
#[derive(Clone)]
pub struct FakeTransport {
    state: Arc<Mutex<FakeState>>,
    handler: Arc<Handler>,
}

#[derive(Default)]
struct FakeState {
    now_ms: u64,
    requests: Vec<HttpRequest>,
    uploads: Vec<RecordedUpload>,
    sleeps: Vec<u64>,
    queue: VecDeque<Result<HttpResponse, TransportError>>,
    open: usize,
    most_open: usize,
}

/// A multipart upload as the fake received it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedUpload {
    /// The URL.
    pub url: String,
    /// The headers the client set (the multipart Content-Type is the transport's business).
    pub headers: Vec<(String, String)>,
    /// The text fields, in order.
    pub fields: Vec<(String, String)>,
    /// The name of the file's field.
    pub file_field: String,
    /// The file name.
    pub file_name: Option<String>,
    /// The file's bytes.
    pub file: Vec<u8>,
}

impl FakeTransport {
    /// Answers every request with `handler`; the clock starts at `start_ms`.
    pub fn new(
        start_ms: u64,
        handler: impl Fn(&HttpRequest) -> Result<HttpResponse, TransportError> + Send + Sync + 'static,
    ) -> FakeTransport {
        let state = FakeState {
            now_ms: start_ms,
            ..FakeState::default()
        };
        FakeTransport {
            state: Arc::new(Mutex::new(state)),
            handler: Arc::new(handler),
        }
    }

    /// Answers from a queue, in order; when it is empty, 599 with a text body.
    pub fn scripted(
        start_ms: u64,
        answers: Vec<Result<HttpResponse, TransportError>>,
    ) -> FakeTransport {
        let fake = FakeTransport::new(start_ms, |_| {
            Ok(HttpResponse::text(599, "no scripted answer left"))
        });
        fake.lock().queue = answers.into();
        fake
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Every request sent so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.lock().requests.clone()
    }
    /// Every upload so far (each is also among [`FakeTransport::requests`]).
    pub fn uploads(&self) -> Vec<RecordedUpload> {
        self.lock().uploads.clone()
    }
    /// Every wait so far, in milliseconds.
    pub fn sleeps(&self) -> Vec<u64> {
        self.lock().sleeps.clone()
    }
    /// The most requests that were open at once.
    pub fn most_open(&self) -> usize {
        self.lock().most_open
    }
    /// Moves the virtual clock forward.
    pub fn advance(&self, ms: u64) {
        self.lock().now_ms += ms;
    }

    fn answer(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let mut state = self.lock();
        state.requests.push(request.clone());
        if let Some(answer) = state.queue.pop_front() {
            return answer;
        }
        drop(state);
        (self.handler)(&request)
    }
}

/// Pending once, then ready: lets concurrent calls interleave like real network calls.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

impl Transport for FakeTransport {
    type Stream = Vec<u8>;
    type File = Vec<u8>;

    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        {
            let mut state = self.lock();
            state.open += 1;
            state.most_open = state.most_open.max(state.open);
        }
        // Two turns in flight, so concurrent calls overlap as real ones do.
        YieldOnce(false).await;
        YieldOnce(false).await;
        let answer = self.answer(request);
        self.lock().open -= 1;
        answer
    }

    async fn open(
        &self,
        request: HttpRequest,
    ) -> Result<StreamedResponse<Vec<u8>>, TransportError> {
        YieldOnce(false).await;
        self.answer(request).map(|response| StreamedResponse {
            status: response.status,
            headers: response.headers,
            stream: response.body.into_bytes(),
        })
    }

    async fn upload(
        &self,
        request: UploadRequest<Vec<u8>>,
    ) -> Result<HttpResponse, TransportError> {
        YieldOnce(false).await;
        self.lock().uploads.push(RecordedUpload {
            url: request.head.url.clone(),
            headers: request.head.headers.clone(),
            fields: request.fields.clone(),
            file_field: request.file_field.clone(),
            file_name: request.file_name.clone(),
            file: request.file.clone(),
        });
        if let Some(progress) = &request.progress {
            let total = request.file.len() as u64;
            progress(Progress {
                loaded: total,
                total: Some(total),
            });
        }
        self.answer(request.head)
    }

    async fn stream_text(&self, stream: Vec<u8>) -> String {
        String::from_utf8_lossy(&stream).into_owned()
    }

    async fn sleep(&self, ms: u64) {
        {
            let mut state = self.lock();
            state.sleeps.push(ms);
            state.now_ms += ms;
        }
        YieldOnce(false).await;
    }

    fn now_ms(&self) -> u64 {
        self.lock().now_ms
    }
}
