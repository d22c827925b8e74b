//! The browser transport: fetch through gloo-net, timeouts through AbortController.

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Headers, RequestBuilder};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, FormData, ProgressEvent, XmlHttpRequest};

use super::{
    HttpRequest, HttpResponse, Progress, StreamedResponse, Transport, TransportError, UploadRequest,
};

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

fn js_error(error: JsValue) -> TransportError {
    TransportError::Network(
        error
            .as_string()
            .or_else(|| {
                error
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            })
            .unwrap_or_else(|| "the browser refused the request".into()),
    )
}

/// `Name: value` lines of `getAllResponseHeaders()`.
fn parse_header_block(block: &str) -> Vec<(String, String)> {
    block
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .collect()
}

/// Aborts an upload whose future was dropped before it finished (the caller went away).
struct AbortOnDrop {
    xhr: XmlHttpRequest,
    finished: bool,
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.xhr.abort();
        }
    }
}

/// What an XMLHttpRequest sends.
enum XhrBody {
    Form(FormData),
    Text(String),
}

/// A multipart form with the upload's fields and file (the file stays a Blob).
fn form_of(request: &UploadRequest<web_sys::Blob>) -> Result<FormData, TransportError> {
    let form = FormData::new().map_err(js_error)?;
    for (name, value) in &request.fields {
        form.append_with_str(name, value).map_err(js_error)?;
    }
    match &request.file_name {
        Some(file_name) => {
            form.append_with_blob_and_filename(&request.file_field, &request.file, file_name)
        }
        None => form.append_with_blob(&request.file_field, &request.file),
    }
    .map_err(js_error)?;
    Ok(form)
}

/// XMLHttpRequest rather than fetch: fetch reports no upload progress.
async fn xhr_exchange(
    head: &HttpRequest,
    body: XhrBody,
    progress: Option<super::ProgressFn>,
) -> Result<HttpResponse, TransportError> {
    let xhr = XmlHttpRequest::new().map_err(js_error)?;
    xhr.open_with_async(head.method, &head.url, true)
        .map_err(js_error)?;
    for (name, value) in &head.headers {
        xhr.set_request_header(name, value).map_err(js_error)?;
    }

    // The timeout counts from the last progress, so a large upload that keeps moving goes on.
    let last_activity = Rc::new(Cell::new(js_sys::Date::now()));
    let fired = Rc::new(Cell::new(false));
    let on_upload_progress = {
        let last_activity = last_activity.clone();
        Closure::<dyn FnMut(ProgressEvent)>::new(move |event: ProgressEvent| {
            last_activity.set(js_sys::Date::now());
            if let Some(progress) = &progress {
                progress(Progress {
                    loaded: event.loaded().max(0.0) as u64,
                    total: event
                        .length_computable()
                        .then(|| event.total().max(0.0) as u64),
                });
            }
        })
    };
    let on_answer_progress = {
        let last_activity = last_activity.clone();
        Closure::<dyn FnMut(ProgressEvent)>::new(move |_: ProgressEvent| {
            last_activity.set(js_sys::Date::now());
        })
    };
    if let Ok(target) = xhr.upload() {
        target.set_onprogress(Some(on_upload_progress.as_ref().unchecked_ref()));
        // A small body may go out without a progress event; its end is reported either way.
        target.set_onload(Some(on_upload_progress.as_ref().unchecked_ref()));
    }
    xhr.set_onprogress(Some(on_answer_progress.as_ref().unchecked_ref()));
    let timeout_ms = head.timeout_ms as f64;
    let _watchdog = {
        let xhr = xhr.clone();
        let fired = fired.clone();
        let period = head.timeout_ms.clamp(10, 1000) as u32;
        gloo_timers::callback::Interval::new(period, move || {
            if js_sys::Date::now() - last_activity.get() > timeout_ms && !fired.get() {
                fired.set(true);
                let _ = xhr.abort();
            }
        })
    };
    let done = js_sys::Promise::new(&mut |resolve, reject| {
        xhr.set_onload(Some(&resolve));
        xhr.set_onerror(Some(&reject));
        xhr.set_onabort(Some(&reject));
    });
    let mut guard = AbortOnDrop {
        xhr: xhr.clone(),
        finished: false,
    };
    match &body {
        XhrBody::Form(form) => xhr.send_with_opt_form_data(Some(form)),
        XhrBody::Text(text) => xhr.send_with_opt_str(Some(text)),
    }
    .map_err(js_error)?;
    let outcome = wasm_bindgen_futures::JsFuture::from(done).await;
    guard.finished = true;
    if outcome.is_err() {
        return Err(if fired.get() {
            TransportError::Timeout
        } else {
            TransportError::Network("the request failed (network or CORS)".into())
        });
    }
    Ok(HttpResponse {
        status: xhr.status().map_err(js_error)?,
        headers: parse_header_block(&xhr.get_all_response_headers().unwrap_or_default()),
        body: xhr.response_text().ok().flatten().unwrap_or_default(),
    })
}

impl Transport for GlooTransport {
    type Stream = web_sys::Response;
    type File = web_sys::Blob;

    async fn upload(
        &self,
        request: UploadRequest<web_sys::Blob>,
    ) -> Result<HttpResponse, TransportError> {
        let form = form_of(&request)?;
        xhr_exchange(&request.head, XhrBody::Form(form), request.progress).await
    }

    async fn send_tracked(
        &self,
        mut request: HttpRequest,
        progress: super::ProgressFn,
    ) -> Result<HttpResponse, TransportError> {
        let body = XhrBody::Text(request.body.take().unwrap_or_default());
        xhr_exchange(&request, body, Some(progress)).await
    }

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
