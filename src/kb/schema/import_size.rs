//! How large an imported file or pasted text may be. Each import dialog says its limit, refuses a
//! larger file by the size the browser reports before reading a byte of it, and its reader
//! refuses a longer text (pasted, or a file whose decoding grew it: an invalid byte becomes a
//! three-byte replacement character) before parsing it.

use crate::i18n::format::bytes;
use crate::i18n::tf;

/// The whole megabytes within `limit` bytes: the console says sizes in decimal units, so a limit
/// of 8 MiB would read "8.4 MB" and a file of 8.39 MB would be refused under it; 8 MB is said
/// exactly.
pub const fn whole_megabytes(limit: usize) -> usize {
    limit / 1_000_000 * 1_000_000
}

/// The hint beside a file input.
pub fn hint(max: usize) -> String {
    tf("Files up to {size}.", &[("size", &bytes(max as u64))])
}

/// Why a file of `size` bytes is not read, when it is over `max`.
pub fn file_refusal(size: u64, max: usize) -> Option<String> {
    (size > max as u64).then(|| {
        tf(
            "The file is {size}; this import takes files up to {max}. It was not read.",
            &[("size", &bytes(size)), ("max", &bytes(max as u64))],
        )
    })
}

/// Why a text of `text`'s length is not parsed, when it is over `max` bytes.
pub fn text_refusal(text: &str, max: usize) -> Option<String> {
    (text.len() > max).then(|| {
        tf(
            "The text is {size}; this import takes up to {max}.",
            &[
                ("size", &bytes(text.len() as u64)),
                ("max", &bytes(max as u64)),
            ],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_over_the_limit_are_refused_with_both_named() {
        assert_eq!(file_refusal(8 << 20, 8 << 20), None);
        assert_eq!(
            file_refusal((8 << 20) + 1, 8 << 20).as_deref(),
            Some("The file is 8.388609 megabyte; this import takes files up to 8.388608 megabyte. It was not read.")
        );
        assert_eq!(text_refusal("abc", 3), None);
        assert!(text_refusal("abcd", 3)
            .unwrap()
            .starts_with("The text is 4 byte"));
        assert_eq!(hint(1 << 20), "Files up to 1.048576 megabyte.");
    }
}
