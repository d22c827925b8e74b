//! The browser half of exports: files gathered as Blob parts (bytes copied out of wasm memory
//! every 64 KiB, so a file of any size holds at most that much here), a zip of such files
//! assembled from Blobs, the time of an export, and the save through the existing download.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsValue;

use super::zip::{Crc32, ZipWriter};

/// Text gathered in wasm memory before it is copied into a Blob part.
const FLUSH_AT: usize = 64 * 1024;

/// A file being written: its parts live in JS memory; its size and checksum are counted here.
pub struct BlobFile {
    parts: Array,
    pending: String,
    size: u64,
    crc: Crc32,
}

impl Default for BlobFile {
    fn default() -> Self {
        BlobFile::new()
    }
}

impl BlobFile {
    /// An empty file.
    pub fn new() -> BlobFile {
        BlobFile {
            parts: Array::new(),
            pending: String::new(),
            size: 0,
            crc: Crc32::new(),
        }
    }

    /// Appends `text` (UTF-8).
    pub fn push(&mut self, text: &str) {
        self.pending.push_str(text);
        if self.pending.len() >= FLUSH_AT {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let bytes = self.pending.as_bytes();
        self.crc.update(bytes);
        self.size += bytes.len() as u64;
        self.parts.push(&Uint8Array::from(bytes));
        // A fresh string: the old one's capacity goes back to the allocator.
        self.pending = String::new();
    }

    /// Bytes written so far.
    pub fn size(&mut self) -> u64 {
        self.flush();
        self.size
    }

    /// The file as a Blob of type `mime`.
    pub fn blob(mut self, mime: &str) -> Result<web_sys::Blob, JsValue> {
        self.flush();
        let options = web_sys::BlobPropertyBag::new();
        options.set_type(mime);
        web_sys::Blob::new_with_u8_array_sequence_and_options(&self.parts, &options)
    }
}

/// A zip (stored, see [`super::zip`]) of `files`, each `(name, file)`, as a Blob.
pub fn zip_blob(files: Vec<(String, BlobFile)>, timestamp: &str) -> Result<web_sys::Blob, JsValue> {
    let mut zip = ZipWriter::new(timestamp);
    let parts = Array::new();
    let too_large = |_| JsValue::from_str("the file is larger than 4 GiB");
    for (name, mut file) in files {
        file.flush();
        let header = zip
            .local_header(&name, file.crc.value(), file.size)
            .map_err(too_large)?;
        parts.push(&Uint8Array::from(header.as_slice()));
        let body: JsValue = file.blob("application/octet-stream")?.into();
        parts.push(&body);
    }
    let directory = zip.finish().map_err(too_large)?;
    parts.push(&Uint8Array::from(directory.as_slice()));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/zip");
    web_sys::Blob::new_with_blob_sequence_and_options(&parts, &options)
}

/// Now, in UTC, to the second: `2026-11-26T22:39:25Z`.
pub fn now_utc() -> String {
    let iso = String::from(js_sys::Date::new_0().to_iso_string());
    match iso.get(..19) {
        Some(seconds) => format!("{seconds}Z"),
        None => iso,
    }
}

/// Today in UTC, `YYYY-MM-DD`: the service's today (production takes meal plans for its own
/// `date.today()`, on a UTC clock).
pub fn today_utc() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        now.get_utc_full_year(),
        now.get_utc_month() + 1,
        now.get_utc_date()
    )
}

/// Today in the browser's own calendar, `YYYY-MM-DD`.
pub fn today_local() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        now.get_full_year(),
        now.get_month() + 1,
        now.get_date()
    )
}

/// Saves `blob` as `name` (the artifact download's way: an object URL and `<a download>`).
pub fn offer(blob: &web_sys::Blob, name: &str) -> Result<(), String> {
    crate::components::download::offer_blob(blob, name).map_err(|error| {
        error
            .as_string()
            .unwrap_or_else(|| crate::i18n::t("the browser stopped the download"))
    })
}
