//! The ways a request goes on the wire (read whole, read whole with its body's progress, open
//! as a stream, upload a file), so
//! tokens, retries and the one re-sign-in after a 401 are written once for all of them.

use super::transport::{
    HttpRequest, HttpResponse, ProgressFn, StreamedResponse, Transport, TransportError,
    UploadRequest,
};

/// How a request is sent.
pub(crate) enum Exchange<'a, F> {
    /// Sent and read whole.
    Send,
    /// Sent; the body is left unread.
    Open,
    /// Sent as a multipart form with a file.
    Upload(&'a UploadParts<F>),
    /// Sent with its body's progress reported, and read whole.
    Tracked(ProgressFn),
}

/// The form of an upload, kept so a repeat after a 401 can send it again.
pub(crate) struct UploadParts<F> {
    pub fields: Vec<(String, String)>,
    pub file: F,
    pub file_name: Option<String>,
    pub progress: Option<ProgressFn>,
}

/// An answer, read whole or with its body unread.
pub(crate) enum Answer<S> {
    Full(HttpResponse),
    Streamed(StreamedResponse<S>),
}

impl<S> Answer<S> {
    pub(crate) fn status(&self) -> u16 {
        match self {
            Answer::Full(response) => response.status,
            Answer::Streamed(response) => response.status,
        }
    }

    /// Notes `id`, the `X-Request-Id` this attempt went with, as the answer's own where the
    /// service did not echo one: a failure then names the id the service logged it under (or
    /// would have), whichever the service is.
    pub(crate) fn remember_request_id(&mut self, id: String) {
        use super::correlation::REQUEST_ID;
        if self.header(REQUEST_ID).is_some() {
            return;
        }
        let headers = match self {
            Answer::Full(response) => &mut response.headers,
            Answer::Streamed(response) => &mut response.headers,
        };
        headers.push((REQUEST_ID.to_string(), id));
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let headers = match self {
            Answer::Full(response) => &response.headers,
            Answer::Streamed(response) => &response.headers,
        };
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Puts one attempt on the wire through `transport`.
pub(crate) async fn dispatch<T: Transport>(
    transport: &T,
    mut http: HttpRequest,
    how: &Exchange<'_, T::File>,
) -> Result<Answer<T::Stream>, TransportError> {
    match how {
        Exchange::Send => transport.send(http).await.map(Answer::Full),
        Exchange::Tracked(progress) => transport
            .send_tracked(http, progress.clone())
            .await
            .map(Answer::Full),
        Exchange::Open => {
            // A download is whatever type the file has; JSON only comes back on failure.
            for (name, value) in &mut http.headers {
                if name.eq_ignore_ascii_case("accept") {
                    *value = "*/*".to_string();
                }
            }
            transport.open(http).await.map(Answer::Streamed)
        }
        Exchange::Upload(parts) => {
            http.body = None;
            http.headers
                .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
            let upload = UploadRequest {
                head: http,
                fields: parts.fields.clone(),
                file_field: "file".to_string(),
                file: parts.file.clone(),
                file_name: parts.file_name.clone(),
                progress: parts.progress.clone(),
            };
            transport.upload(upload).await.map(Answer::Full)
        }
    }
}
