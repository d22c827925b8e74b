//! The browser transport: fetch through gloo-net, timeouts through AbortController.

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Headers, RequestBuilder};
use web_sys::AbortController;

use super::{HttpRequest, HttpResponse, StreamedResponse, Transport, TransportError};

/// fetch in the browser.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlooTransport;

/// Aborts the request when the timeout runs out; dropping it cancels the timer.
struct Deadline {
    controller: AbortController,
    fired: Rc<Cell<bool>>,
    _timer: gloo_timers::callback::Timeout,
}

impl Deadline {
    fn new(timeout_ms: u64) -> Result<Deadline, TransportError> {
        let controller = AbortController::new()
            .map_err(|_| TransportError::Network("AbortController is unavailable".into()))?;
        let fired = Rc::new(Cell::new(false));
        let timer = {
            let controller = controller.clone();
            let fired = fired.clone();
            gloo_timers::callback::Timeout::new(timeout_ms.min(u32::MAX as u64) as u32, move || {
                fired.set(true);
                controller.abort();
            })
        };
        Ok(Deadline {
            controller,
            fired,
            _timer: timer,
        })
    }

    fn error(&self, error: gloo_net::Error) -> TransportError {
        if self.fired.get() {
            TransportError::Timeout
        } else {
            TransportError::Network(error.to_string())
        }
    }
}

async fn fetch(
    request: HttpRequest,
    deadline: &Deadline,
) -> Result<gloo_net::http::Response, TransportError> {
    let headers = Headers::new();
    for (name, value) in &request.headers {
        headers.append(name, value);
    }
    let builder = RequestBuilder::new(&request.url)
        .method(
            request
                .method
                .parse()
                .map_err(|_| TransportError::Network(format!("bad method {}", request.method)))?,
        )
        .headers(headers)
        .abort_signal(Some(&deadline.controller.signal()));
    let built = match request.body {
        Some(body) => builder.body(body),
        None => builder.build(),
    }
    .map_err(|e| TransportError::Network(e.to_string()))?;
    built.send().await.map_err(|e| deadline.error(e))
}

fn header_pairs(response: &gloo_net::http::Response) -> Vec<(String, String)> {
    response.headers().entries().collect()
}

impl Transport for GlooTransport {
    type Stream = web_sys::Response;

    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let deadline = Deadline::new(request.timeout_ms)?;
        let response = fetch(request, &deadline).await?;
        let headers = header_pairs(&response);
        let status = response.status();
        // The deadline covers the body too: a stalled body is a timeout.
        let body = response.text().await.map_err(|e| deadline.error(e))?;
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }

    async fn open(
        &self,
        request: HttpRequest,
    ) -> Result<StreamedResponse<web_sys::Response>, TransportError> {
        // Only the head is under the deadline: a large download may take longer than any timeout.
        let deadline = Deadline::new(request.timeout_ms)?;
        let response = fetch(request, &deadline).await?;
        let (status, headers) = (response.status(), header_pairs(&response));
        Ok(StreamedResponse {
            status,
            headers,
            stream: response.into(),
        })
    }

    async fn stream_text(&self, stream: web_sys::Response) -> String {
        match stream.text() {
            Ok(promise) => wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    async fn sleep(&self, ms: u64) {
        gloo_timers::future::TimeoutFuture::new(ms.min(u32::MAX as u64) as u32).await;
    }

    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }
}
