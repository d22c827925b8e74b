//! Artifact files: the streamed multipart upload and the streamed download.
//!
//! A file is stored as `<artifact uuid>` in the store's folder. The caller's file name is kept
//! only as data (the default `title`), so no name a caller sends can reach the file system.

use std::path::PathBuf;

use axum::body::Body;
use axum::extract::multipart::{Multipart, MultipartError, MultipartRejection};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use larder_contract::collections::ARTIFACTS;
use larder_contract::API_PREFIX;
use serde_json::{json, Map, Value};
use tokio::io::AsyncWriteExt;

use super::children::check_artifact_parent;
use super::{blocking, find, present, require, viewer};
use crate::auth::Caller;
use crate::error::{too_large, ApiError, ApiResult, Created, PathParams};
use crate::model;
use crate::store::now;
use crate::SharedState;

/// Multipart text fields longer than this are refused (they are titles and URNs).
const MAX_TEXT_FIELD: usize = 64 << 10;

/// Where the file of artifact `id` lives; `None` for anything but a UUID.
fn file_path(state: &SharedState, id: &str) -> Option<PathBuf> {
    uuid::Uuid::parse_str(id)
        .ok()
        .map(|uuid| state.store.files().join(uuid.hyphenated().to_string()))
}

/// Removes the stored file of artifact `id`, if there is one.
pub async fn remove_file(state: &SharedState, id: &str) {
    if let Some(path) = file_path(state, id) {
        if let Err(error) = tokio::fs::remove_file(&path).await {
            if error.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!(%error, path = %path.display(), "could not remove an artifact file");
            }
        }
    }
}

/// Deletes a partly written upload unless it was kept.
struct PartFile {
    path: PathBuf,
    keep: bool,
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn multipart_error(error: MultipartError) -> ApiError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::invalid(format!(
            "The multipart body is malformed: {}",
            error.body_text()
        ))
    }
}

fn io_error(error: std::io::Error) -> ApiError {
    ApiError::internal(format!("artifact storage: {error}"))
}

/// Keeps the last path component of a client's file name, without control characters.
fn clean_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = base.chars().filter(|c| !c.is_control()).collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_string();
    if cleaned.is_empty() {
        "upload".into()
    } else {
        cleaned.chars().take(200).collect()
    }
}

/// `POST artifacts/upload`: multipart `file` plus `parent_urn`, `title?`, `description?`,
/// `language?`. The file streams to disk; past `--max-upload` bytes it is a 413.
pub async fn upload(
    State(state): State<SharedState>,
    caller: Caller,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Created<Value>> {
    let identity = require(&caller, ARTIFACTS.roles.create, "uploading artifacts")?.clone();
    let max = state.options.max_upload;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    // The multipart framing adds a little; a body far past the limit is refused unread.
    if declared.is_some_and(|length| length > max.saturating_add(1 << 20)) {
        return Err(too_large());
    }
    let mut multipart = multipart?;
    let mut part = PartFile {
        path: state
            .store
            .files()
            .join(format!("upload-{}.part", uuid::Uuid::new_v4())),
        keep: false,
    };
    let mut fields = Map::new();
    let mut file: Option<(u64, String, Option<String>)> = None;
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            if file.is_some() {
                return Err(ApiError::unprocessable("file", "send one file per upload"));
            }
            let file_name = clean_file_name(field.file_name().unwrap_or_default());
            let content_type = field.content_type().map(str::to_string);
            let mut out = tokio::fs::File::create(&part.path)
                .await
                .map_err(io_error)?;
            let mut size: u64 = 0;
            while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
                size += chunk.len() as u64;
                if size > max {
                    return Err(too_large());
                }
                out.write_all(&chunk).await.map_err(io_error)?;
            }
            // Durable before acknowledged, like the database.
            out.sync_all().await.map_err(io_error)?;
            file = Some((size, file_name, content_type));
        } else {
            let mut text = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
                text.extend_from_slice(&chunk);
                if text.len() > MAX_TEXT_FIELD {
                    return Err(ApiError::unprocessable(&name, "is too long"));
                }
            }
            if matches!(
                name.as_str(),
                "parent_urn" | "title" | "description" | "language"
            ) {
                let text = String::from_utf8(text)
                    .map_err(|_| ApiError::unprocessable(&name, "must be UTF-8 text"))?;
                fields.insert(name, Value::String(text));
            }
        }
    }
    let Some((size, file_name, content_type)) = file else {
        return Err(ApiError::unprocessable("file", "field required"));
    };
    if size == 0 {
        return Err(ApiError::unprocessable("file", "the file is empty"));
    }
    fields
        .entry("title")
        .or_insert_with(|| Value::String(file_name.clone()));
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_string())
        .or(content_type)
        .unwrap_or_else(|| "bin".into());
    fields.insert("file_type".into(), json!(extension));
    fields.insert("file_size".into(), json!(size));
    // The file's address is set below, once the id is known.
    fields.insert("file_url".into(), json!("https://placeholder.invalid/"));
    let mut fields = model::validated(
        ARTIFACTS.create,
        larder_contract::validate::Extra::Ignore,
        &fields,
    )?;
    let parent_urn = fields["parent_urn"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    {
        let state = state.clone();
        let parent_urn = parent_urn.clone();
        blocking(move || check_artifact_parent(&state, &parent_urn)).await?;
    }
    fields.remove("file_url");
    let mut record = model::new_record(&ARTIFACTS, fields, &identity.name, &now())?;
    let id = record["id"].as_str().unwrap_or_default().to_string();
    let download = format!("{API_PREFIX}/artifacts/{id}/download");
    record.insert(
        "file_url".into(),
        json!(match &state.options.public_url {
            Some(public) => format!("{public}{download}"),
            None => download,
        }),
    );
    let (parent_type, parent_slug) = parent_urn
        .strip_prefix("urn:")
        .and_then(|rest| rest.split_once(':'))
        .unwrap_or(("record", parent_urn.as_str()));
    let file_type = record["file_type"].as_str().unwrap_or("bin").to_string();
    record.insert(
        "file_s3_url".into(),
        json!(format!(
            "s3://larder-artifacts/{parent_type}/{parent_slug}/{id}.{file_type}"
        )),
    );
    let target = file_path(&state, &id).ok_or_else(|| ApiError::internal("minted a bad id"))?;
    tokio::fs::rename(&part.path, &target)
        .await
        .map_err(io_error)?;
    part.keep = true;
    // The rename is durable only once the folder's entry is on disk: without this a crash could
    // leave a committed artifact record whose file is missing.
    let folder = state.store.files().to_path_buf();
    let synced = tokio::task::spawn_blocking(move || sync_dir(&folder))
        .await
        .map_err(|_| ApiError::internal("the folder sync panicked"))
        .and_then(|synced| synced.map_err(io_error));
    if let Err(error) = synced {
        remove_file(&state, &id).await;
        return Err(error);
    }
    let doc = Value::Object(record);
    let stored = {
        let state = state.clone();
        let doc = doc.clone();
        blocking(move || Ok(state.store.records().insert(&ARTIFACTS, &doc)?)).await
    };
    if let Err(error) = stored {
        remove_file(&state, &id).await;
        return Err(error);
    }
    let viewer = viewer(&identity);
    blocking(move || Ok(Created(present(&state, &ARTIFACTS, doc, viewer)?))).await
}

/// Flushes a folder's entries (new names, renames) to disk.
fn sync_dir(folder: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(folder)?.sync_all()
    }
    // Elsewhere a folder can't be opened as a file; NTFS journals its entries itself.
    #[cfg(not(unix))]
    {
        let _ = folder;
        Ok(())
    }
}

/// A content type for a file name's extension.
fn guess_type(file_name: &str) -> &'static str {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "pdf" => "application/pdf",
        "txt" | "text" => "text/plain",
        "md" => "text/markdown",
        "csv" => "text/csv",
        "json" => "application/json",
        "html" | "htm" => "text/html",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "zip" => "application/zip",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}

/// `file_type` as a content type: a MIME type as it is, a bare extension mapped.
fn content_type(file_type: Option<&str>, file_name: &str) -> HeaderValue {
    let chosen = match file_type {
        Some(t) if t.contains('/') => t.to_string(),
        Some(t) => guess_type(&format!("x.{t}")).to_string(),
        None => guess_type(file_name).to_string(),
    };
    HeaderValue::from_str(&chosen)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"))
}

/// Whether `c` may not appear in a download name: C0/C1 controls, and the bidirectional marks,
/// embeddings, overrides and isolates that make `exe.pdf` display as `fdp.exe`.
fn hidden_in_names(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `attachment; filename="ascii"; filename*=UTF-8''percent-encoded`, without control and
/// bidirectional characters (a title stored before names were cleaned may still carry them).
fn disposition(file_name: &str) -> HeaderValue {
    let file_name: String = file_name.chars().filter(|c| !hidden_in_names(*c)).collect();
    let ascii: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = file_name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

/// `GET artifacts/{uuid}/download`: the stored file, streamed. Only uploaded artifacts have a
/// file (others are production's 422). The name is the title when it has an extension, else
/// `<id>.<file_type>`. Content-Length only where the dialect sends it (production streams without).
pub async fn download(
    State(state): State<SharedState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
) -> ApiResult<Response> {
    let viewer = viewer(caller.require()?);
    let row = {
        let state = state.clone();
        blocking(move || find(&state, &ARTIFACTS, &id, viewer)).await?
    };
    let no_file = || {
        ApiError::unprocessable(
            "file_s3_url",
            "This artifact has no stored file to download.",
        )
    };
    let path = file_path(&state, &row.id).ok_or_else(no_file)?;
    let file = match tokio::fs::File::open(&path).await {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(no_file()),
        Err(error) => return Err(io_error(error)),
    };
    let length = file.metadata().await.map_err(io_error)?.len();
    let title = row.doc["title"].as_str().map(clean_file_name);
    let file_name = match title {
        Some(title)
            if title
                .rsplit_once('.')
                .is_some_and(|(stem, ext)| !stem.is_empty() && !ext.is_empty()) =>
        {
            title
        }
        _ => format!(
            "{}.{}",
            row.id,
            row.doc["file_type"].as_str().unwrap_or("bin")
        ),
    };
    let mut response = Body::from_stream(tokio_util::io::ReaderStream::new(file)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        content_type(row.doc["file_type"].as_str(), &file_name),
    );
    if state.dialect.download_length {
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    }
    headers.insert(header::CONTENT_DISPOSITION, disposition(&file_name));
    // An uploaded HTML or SVG file must never run as a page of this origin.
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("sandbox; default-src 'none'"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_names() {
        assert_eq!(clean_file_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_file_name("C:\\x\\..\\report.pdf"), "report.pdf");
        assert_eq!(clean_file_name(".."), "upload");
        assert_eq!(clean_file_name(""), "upload");
        let header = disposition("rapport \"é\".pdf");
        let text = header.to_str().unwrap();
        assert!(
            text.starts_with("attachment; filename=\"rapport ___.pdf\""),
            "{text}"
        );
        assert!(
            text.contains("filename*=UTF-8''rapport%20%22%C3%A9%22.pdf"),
            "{text}"
        );
    }

    /// Security review 2, finding 12: a name kept a right-to-left override.
    #[test]
    fn download_names_lose_bidi_and_control_characters() {
        for hidden in [
            '\u{202E}', '\u{202A}', '\u{202D}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{200F}',
            '\u{061C}', '\u{0007}', '\u{009B}', '\u{007F}',
        ] {
            let header = disposition(&format!("invoice{hidden}fdp.exe"));
            let text = header.to_str().unwrap();
            assert!(
                text.starts_with("attachment; filename=\"invoicefdp.exe\""),
                "{hidden:?}: {text}"
            );
            assert!(
                text.ends_with("filename*=UTF-8''invoicefdp.exe"),
                "{hidden:?}: {text}"
            );
        }
    }

    #[test]
    fn a_folder_syncs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), b"a").unwrap();
        sync_dir(dir.path()).unwrap();
    }
}
