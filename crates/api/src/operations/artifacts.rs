//! Artifacts: listing by parent, creation by metadata, multipart upload and streamed download.

use std::sync::Arc;

use serde_json::Value;

use super::records::path_segment;
use crate::machinery::client::Client;
use crate::machinery::client::{decode, CancelToken};
use crate::machinery::config::Api;
use crate::machinery::error::{failure_from_answer, ApiError};
use crate::machinery::exchange::{Answer, Exchange, UploadParts};
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::{Progress, ProgressFn, Transport};
use crate::wire::Listed;
use crate::wire::{Artifact, NewArtifact};

/// A file to upload as a new artifact of `parent_urn`.
pub struct ArtifactUpload<F> {
    /// The record the file is attached to.
    pub parent_urn: String,
    /// The file (a browser `File` or `Blob` in wasm).
    pub file: F,
    /// The name sent with the file (a browser `File` has its own; a `Blob` has none).
    pub file_name: Option<String>,
    /// Title; the service uses the file name when absent.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Language code.
    pub language: Option<String>,
    /// Told how many bytes have gone.
    pub progress: Option<ProgressFn>,
    /// How long the upload may go without progress, instead of the client's timeout.
    pub timeout_ms: Option<u64>,
}

impl<F> ArtifactUpload<F> {
    /// An upload of `file` to `parent_urn`.
    pub fn new(parent_urn: impl Into<String>, file: F) -> ArtifactUpload<F> {
        ArtifactUpload {
            parent_urn: parent_urn.into(),
            file,
            file_name: None,
            title: None,
            description: None,
            language: None,
            progress: None,
            timeout_ms: None,
        }
    }
    /// Sets the file name.
    pub fn file_name(mut self, file_name: impl Into<String>) -> Self {
        self.file_name = Some(file_name.into());
        self
    }
    /// Sets the title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }
    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
    /// Sets the language.
    pub fn language(mut self, language: impl Into<String>) -> Self {
        self.language = Some(language.into());
        self
    }
    /// Calls `progress` as bytes go.
    pub fn on_progress(mut self, progress: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }
}

/// A download whose body has not been read: in the browser `stream` is the fetch `Response`,
/// to be piped into a Blob or a file with progress, so the bytes never pass through wasm memory.
pub struct Download<S> {
    /// The unread body.
    pub stream: S,
    /// `Content-Length`, when the service sent it (and, cross-origin, exposed it).
    pub content_length: Option<u64>,
    /// The file name from `Content-Disposition`.
    pub file_name: Option<String>,
    /// `Content-Type`.
    pub content_type: Option<String>,
}

impl<S> std::fmt::Debug for Download<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Download")
            .field("content_length", &self.content_length)
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .finish_non_exhaustive()
    }
}

impl<T: Transport> Client<T> {
    /// `GET artifacts?parent_urn=..&limit&offset` (ext of the reference server; production embeds
    /// them in the parent's `artifacts`). Entries given as bare ids come back with only `id` set.
    pub async fn artifacts_of(
        &self,
        parent_urn: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Artifact>, ApiError> {
        let request = Request::data_get("artifacts")
            .query("parent_urn", parent_urn)
            .query("limit", limit)
            .query("offset", offset);
        let listed: Vec<Listed> = self.call(request).await?;
        listed
            .into_iter()
            .map(|entry| match entry {
                Listed::Identifier(id) => Ok(Artifact {
                    id: Some(id),
                    ..Artifact::default()
                }),
                Listed::Record(record) => decode(Value::Object(record)),
            })
            .collect()
    }

    /// Every artifact of a parent, page after page of [`larder_contract::limits::MAX_PAGE_SIZE`].
    /// Reading stops at a short page, or when a page repeats the first entry already read (a
    /// service that ignores `offset`).
    pub async fn all_artifacts_of(&self, parent_urn: &str) -> Result<Vec<Artifact>, ApiError> {
        let page_size = larder_contract::limits::MAX_PAGE_SIZE;
        let mut all: Vec<Artifact> = Vec::new();
        loop {
            let page = self
                .artifacts_of(parent_urn, page_size, all.len() as u32)
                .await?;
            let last = (page.len() as u32) < page_size;
            let repeated = page
                .first()
                .is_some_and(|first| first.id.is_some() && all.iter().any(|a| a.id == first.id));
            if repeated {
                return Ok(all);
            }
            all.extend(page);
            if last {
                return Ok(all);
            }
        }
    }

    /// `POST artifacts` with the metadata of a file stored elsewhere.
    pub async fn create_artifact(&self, artifact: &NewArtifact) -> Result<Artifact, ApiError> {
        let body = serde_json::to_value(artifact).map_err(|e| ApiError::Caller(e.to_string()))?;
        self.call(Request::new(Api::Data, Method::Post(body), "artifacts"))
            .await
    }

    /// `POST artifacts/upload`, multipart: `file` plus `parent_urn`, `title`, `description`,
    /// `language`. Never retried (POST); repeated once after a 401 like every call.
    pub async fn upload_artifact(
        &self,
        upload: ArtifactUpload<T::File>,
    ) -> Result<Artifact, ApiError> {
        if upload.parent_urn.trim().is_empty() {
            return Err(ApiError::Caller("An upload needs a parent_urn.".into()));
        }
        let mut fields = vec![("parent_urn".to_string(), upload.parent_urn)];
        for (name, value) in [
            ("title", upload.title),
            ("description", upload.description),
            ("language", upload.language),
        ] {
            // An empty part would be stored as given, and production then fails to read the parent.
            if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
                fields.push((name.to_string(), value));
            }
        }
        let parts = UploadParts {
            fields,
            file: upload.file,
            file_name: upload.file_name,
            progress: upload.progress,
        };
        let mut request = Request::new(Api::Data, Method::Post(Value::Null), "artifacts/upload");
        request.timeout_ms = upload.timeout_ms;
        let response = match self
            .exchange(&request, &Exchange::Upload(&parts), None)
            .await?
        {
            Answer::Full(response) => response,
            Answer::Streamed(_) => return Err(ApiError::Network("unexpected stream".into())),
        };
        decode(crate::machinery::client::interpret(response)?)
    }

    /// `GET artifacts/{id}/download`, returned as soon as the head has arrived. Failing statuses
    /// become errors like any call; GET, so 429 and 5xx are retried.
    pub async fn download_artifact(
        &self,
        id: &str,
        cancel: Option<&CancelToken>,
    ) -> Result<Download<T::Stream>, ApiError> {
        let path = format!("artifacts/{}/download", path_segment(id));
        let request = Request::data_get(path);
        let answer = self.exchange(&request, &Exchange::Open, cancel).await?;
        let response = match answer {
            Answer::Streamed(response) => response,
            Answer::Full(response) => {
                return Err(crate::machinery::client::interpret(response)
                    .err()
                    .unwrap_or_else(|| ApiError::Network("unexpected whole answer".into())))
            }
        };
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        if !(200..300).contains(&response.status) {
            let retry_after = header("retry-after").and_then(|v| v.trim().parse().ok());
            let status = response.status;
            let body = self.transport().stream_text(response.stream).await;
            return Err(ApiError::Api(Box::new(failure_from_answer(
                status,
                &body,
                retry_after,
            ))));
        }
        Ok(Download {
            content_length: header("content-length").and_then(|v| v.trim().parse().ok()),
            file_name: header("content-disposition")
                .as_deref()
                .and_then(content_disposition_file_name),
            content_type: header("content-type"),
            stream: response.stream,
        })
    }
}

/// The name production saves an artifact's file under: its title when the title has an
/// extension, else `<id>.<file_type>` (production.md §2.7). Production does not expose
/// `Content-Disposition` across origins, so a console names downloads from the record.
pub fn file_name_of(artifact: &crate::wire::Record) -> String {
    let text = |key: &str| {
        artifact
            .get(key)
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .unwrap_or_default()
    };
    let title = text("title");
    let title = title.rsplit(['/', '\\']).next().unwrap_or_default();
    let has_extension = title
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && !ext.is_empty() && !ext.contains(' '));
    if has_extension {
        return title.to_string();
    }
    let id = if text("id").is_empty() {
        "artifact"
    } else {
        text("id")
    };
    match text("file_type") {
        "" => id.to_string(),
        ext => format!("{id}.{}", ext.trim_start_matches('.')),
    }
}

/// The file name of a `Content-Disposition` header: `filename*=UTF-8''...` (RFC 5987) wins
/// over `filename="..."` or `filename=...`. Only the last path segment is kept, because the
/// name becomes a file on the user's disk.
pub fn content_disposition_file_name(header: &str) -> Option<String> {
    let mut plain = None;
    let mut extended = None;
    for (name, value) in parameters(header) {
        match name.to_ascii_lowercase().as_str() {
            "filename*" => extended = extended.or_else(|| decode_ext_value(&value)),
            "filename" => plain = plain.or(Some(value)),
            _ => {}
        }
    }
    let name = extended.or(plain)?;
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default().trim();
    (!last.is_empty() && last != "." && last != "..").then(|| last.to_string())
}

/// `name=value` pairs after the disposition type, quoted strings unescaped.
fn parameters(header: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = match header.find(';') {
        Some(at) => &header[at + 1..],
        None => return out,
    };
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        if rest.is_empty() {
            return out;
        }
        let Some(eq) = rest.find('=') else {
            return out;
        };
        let name = rest[..eq].trim().to_string();
        rest = rest[eq + 1..].trim_start();
        let value = if let Some(quoted) = rest.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, escaped)) = chars.next() {
                            value.push(escaped);
                        }
                    }
                    '"' => {
                        end = at + 1;
                        break;
                    }
                    c => value.push(c),
                }
            }
            rest = &quoted[end.min(quoted.len())..];
            value
        } else {
            let end = rest.find(';').unwrap_or(rest.len());
            let value = rest[..end].trim().to_string();
            rest = &rest[end..];
            value
        };
        out.push((name, value));
    }
}

/// RFC 5987 `charset'language'percent-encoded`; UTF-8 and ISO-8859-1 are read.
fn decode_ext_value(value: &str) -> Option<String> {
    let mut parts = value.splitn(3, '\'');
    let charset = parts.next()?.to_ascii_lowercase();
    let _language = parts.next()?;
    let encoded = parts.next()?;
    let mut bytes = Vec::with_capacity(encoded.len());
    let mut iter = encoded.bytes();
    while let Some(byte) = iter.next() {
        if byte == b'%' {
            let high = (iter.next()? as char).to_digit(16)?;
            let low = (iter.next()? as char).to_digit(16)?;
            bytes.push((high * 16 + low) as u8);
        } else {
            bytes.push(byte);
        }
    }
    match charset.as_str() {
        "utf-8" => String::from_utf8(bytes).ok(),
        "iso-8859-1" => Some(bytes.into_iter().map(char::from).collect()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::content_disposition_file_name as name;

    #[test]
    fn file_names_in_every_form() {
        let cases = [
            (r#"attachment; filename="report.pdf""#, Some("report.pdf")),
            ("attachment; filename=report.pdf", Some("report.pdf")),
            ("attachment;filename=report.pdf;size=3", Some("report.pdf")),
            (
                r#"attachment; filename="a \"b\"; c.txt""#,
                Some("a \"b\"; c.txt"),
            ),
            (
                r#"attachment; filename="na_ve.txt"; filename*=UTF-8''na%C3%AFve%20file.txt"#,
                Some("naïve file.txt"),
            ),
            (
                "attachment; filename*=utf-8'en'%E2%82%AC%20rates.csv",
                Some("€ rates.csv"),
            ),
            (
                "attachment; FILENAME*=iso-8859-1''caf%E9.txt",
                Some("café.txt"),
            ),
            (
                r#"attachment; filename*=UTF-8''bad%ZZ; filename="fallback.txt""#,
                Some("fallback.txt"),
            ),
            (r#"attachment; filename="../../etc/passwd""#, Some("passwd")),
            (r#"attachment; filename="C:\\dir\\x.txt""#, Some("x.txt")),
            ("attachment", None),
            ("attachment; filename=\"\"", None),
            ("attachment; filename=\"..\"", None),
            ("attachment; filename=\"unterminated", Some("unterminated")),
            ("inline; size=5", None),
            ("", None),
            (";;;=;=\"", None),
        ];
        for (header, expected) in cases {
            assert_eq!(name(header).as_deref(), expected, "{header}");
        }
    }
}
