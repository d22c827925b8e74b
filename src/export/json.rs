//! JSON written as a stream: an array whose items arrive a page at a time, one item per line, so
//! the whole array never has to exist as one value or one string.

use serde::Serialize;

/// Writes `[`, then items separated by `,` and a line end, then `]`.
#[derive(Debug, Default)]
pub struct ArrayWriter {
    items: u64,
}

impl ArrayWriter {
    /// A writer that has written nothing yet.
    pub fn new() -> ArrayWriter {
        ArrayWriter::default()
    }

    /// The opening of the array.
    pub fn open(&self, out: &mut String) {
        out.push('[');
    }

    /// Appends one item (compact JSON on a line of its own).
    pub fn push(&mut self, item: &impl Serialize, out: &mut String) -> Result<(), String> {
        out.push_str(if self.items == 0 { "\n" } else { ",\n" });
        let text = serde_json::to_string(item).map_err(|e| e.to_string())?;
        out.push_str(&text);
        self.items += 1;
        Ok(())
    }

    /// The end of the array.
    pub fn close(&self, out: &mut String) {
        out.push_str(if self.items == 0 { "]" } else { "\n]" });
    }

    /// How many items were written.
    pub fn count(&self) -> u64 {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn an_array_written_in_pieces_parses_back_whole() {
        let mut writer = ArrayWriter::new();
        let mut chunks = vec![String::new()];
        writer.open(&mut chunks[0]);
        for page in 0..3 {
            let mut chunk = String::new();
            for n in 0..2 {
                writer
                    .push(
                        &json!({"page": page, "n": n, "t": "a \"q\", b\n"}),
                        &mut chunk,
                    )
                    .unwrap();
            }
            chunks.push(chunk);
        }
        let mut end = String::new();
        writer.close(&mut end);
        chunks.push(end);
        let whole: Value = serde_json::from_str(&chunks.concat()).unwrap();
        assert_eq!(whole.as_array().unwrap().len(), 6);
        assert_eq!(whole[5], json!({"page": 2, "n": 1, "t": "a \"q\", b\n"}));
        assert_eq!(writer.count(), 6);
    }

    #[test]
    fn an_empty_array_is_valid_json() {
        let writer = ArrayWriter::new();
        let mut out = String::new();
        writer.open(&mut out);
        writer.close(&mut out);
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), json!([]));
    }
}
