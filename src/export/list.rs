//! A list or search exported: the columns come from the contract (every field of the collection,
//! headed by its label), a last column keeps the fields the contract does not know; rows arrive
//! a page at a time and leave as CSV and JSON text.

use larder_api::Record;
use larder_contract::limits::MAX_SEARCH_WINDOW;

use super::csv::{push_line, record_cells, LIST_SEPARATOR};
use super::json::ArrayWriter;
use crate::kb::schema::provenance::{ai_generated, ai_marks};
use crate::kb::schema::{label, Schema};

/// The field that names a record's machine-written values; a collection that has it gets the
/// export's `ai_generated` column.
const AI_GENERATED_FIELDS: &str = "ai_generated_fields";

/// Rows asked for per request. Smaller than the service's 1,000: one page is in wasm memory
/// (its text and its parsed records) at a time, and a thousand long articles would pass the
/// 2 MB bound; 200 keeps a page to a few hundred kilobytes.
pub const EXPORT_PAGE: u32 = 200;

/// The most rows one search can give (offset + limit stay within the service's window).
pub const MOST_FOUND: u64 = MAX_SEARCH_WINDOW as u64;

/// The CSV and JSON of one list, written together.
pub struct ListWriter {
    columns: Vec<&'static str>,
    /// Whether the rows carry the `ai_generated` cell (see [`ai_generated_cell`]).
    ai_column: bool,
    json: ArrayWriter,
}

/// Text to append to each file.
#[derive(Debug, Default)]
pub struct Chunk {
    /// Appended to the CSV file.
    pub csv: String,
    /// Appended to the JSON file.
    pub json: String,
}

impl ListWriter {
    /// The writer of `schema`'s records, with the CSV header and the JSON opening.
    pub fn new(schema: &Schema) -> (ListWriter, Chunk) {
        let columns: Vec<&'static str> = schema.fields().iter().map(|f| f.name).collect();
        let ai_column = columns.contains(&AI_GENERATED_FIELDS);
        let mut chunk = Chunk::default();
        let labels = columns
            .iter()
            .map(|name| label(name))
            .chain(ai_column.then(|| crate::i18n::t("AI-generated")))
            .chain([crate::i18n::t("Other fields")]);
        push_line(labels, &mut chunk.csv);
        let json = ArrayWriter::new();
        json.open(&mut chunk.json);
        (
            ListWriter {
                columns,
                ai_column,
                json,
            },
            chunk,
        )
    }

    /// The lines of a page of records.
    pub fn rows<'r>(
        &mut self,
        records: impl IntoIterator<Item = &'r Record>,
    ) -> Result<Chunk, String> {
        let mut chunk = Chunk::default();
        for record in records {
            let mut cells = record_cells(&self.columns, true, record);
            if self.ai_column {
                // Before the last cell, the fields the contract does not know.
                cells.insert(cells.len() - 1, ai_generated_cell(record));
            }
            push_line(cells, &mut chunk.csv);
            self.json.push(record, &mut chunk.json)?;
        }
        Ok(chunk)
    }

    /// The end of the files.
    pub fn finish(&self) -> Chunk {
        let mut chunk = Chunk::default();
        self.json.close(&mut chunk.json);
        chunk
    }

    /// How many rows were written.
    pub fn count(&self) -> u64 {
        self.json.count()
    }
}

/// The machine-written values as one export cell: each field with its agent and run where an
/// enhancement names them, `life_stage (demo-enricher, run 3f2a…); setting`. The export's
/// `ai_generated` column, which keeps in a spreadsheet what the "AI" mark shows on screen.
pub fn ai_generated_cell(record: &Record) -> String {
    let marks = ai_marks(record);
    ai_generated(record)
        .into_iter()
        .map(|name| {
            let mark = marks.get(&name).cloned().unwrap_or_default();
            let who: Vec<String> = mark
                .agent
                .into_iter()
                .chain(mark.run_id.map(|run| format!("run {run}")))
                .collect();
            if who.is_empty() {
                name
            } else {
                format!("{name} ({})", who.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(LIST_SEPARATOR)
}

/// The requests `(limit, offset)` that read `wanted` rows, [`EXPORT_PAGE`] at a time.
pub fn pages(wanted: u64) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    while offset < wanted {
        let size = (wanted - offset).min(EXPORT_PAGE as u64);
        out.push((size as u32, offset as u32));
        offset += size;
    }
    out
}

/// `articles-2026-11-26.csv` from the collection's path and the export's UTC timestamp.
pub fn file_name(path: &str, exported_at: &str, extension: &str) -> String {
    let day = exported_at.get(..10).unwrap_or("export");
    format!("{path}-{day}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn headers_are_the_contract_labels_and_rows_follow_them() {
        let schema = crate::kb::schema::schema("articles").unwrap();
        let (mut writer, head) = ListWriter::new(schema);
        let header = head.csv.lines().next().unwrap();
        assert!(header.starts_with(&label(schema.fields()[0].name)));
        assert!(header.contains("Title"), "{header}");
        assert!(header.ends_with("Other fields"));
        let record = json!({"title": "Salt, \"less\"", "tags": ["a", "b"], "not_in_contract": 1});
        let record = record.as_object().unwrap().clone();
        let body = writer.rows([&record]).unwrap();
        let columns = header.split(',').count();
        assert!(body.csv.contains("\"Salt, \"\"less\"\"\""));
        assert!(body.csv.contains("a; b"));
        assert!(body.csv.ends_with("\"{\"\"not_in_contract\"\":1}\"\r\n"));
        assert!(columns > 3);
        let json_text = format!("{}{}{}", head.json, body.json, writer.finish().json);
        let back: Value = serde_json::from_str(&json_text).unwrap();
        assert_eq!(back[0]["title"], "Salt, \"less\"");
        assert_eq!(writer.count(), 1);
    }

    #[test]
    fn collections_with_machine_written_values_get_the_ai_generated_column() {
        let schema = crate::kb::schema::schema("guidelines").unwrap();
        let (mut writer, head) = ListWriter::new(schema);
        let header = cells_of(head.csv.trim_end());
        let ai = header.len() - 2;
        assert_eq!(header[ai], "AI-generated");
        let record = json!({
            "title": "Olive oil",
            "ai_generated_fields": ["life_stage"],
            "enhancements": [{"agent": "bot", "run_id": "r9", "fields": ["life_stage"]}],
        });
        let body = writer.rows([record.as_object().unwrap()]).unwrap();
        let cells = cells_of(body.csv.trim_end());
        assert_eq!(cells.len(), header.len());
        assert_eq!(cells[ai], "life_stage (bot, run r9)");
        // Articles have the field too; a collection without it has no such column.
        let (_, organizations) =
            ListWriter::new(crate::kb::schema::schema("organizations").unwrap());
        assert!(!organizations.csv.contains("AI-generated"));
    }

    /// The cells of one CSV line, quotes undone (enough for these tests' lines).
    fn cells_of(line: &str) -> Vec<String> {
        let (mut cells, mut cell, mut quoted) = (Vec::new(), String::new(), false);
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    cell.push('"');
                    chars.next();
                }
                '"' => quoted = !quoted,
                ',' if !quoted => cells.push(std::mem::take(&mut cell)),
                other => cell.push(other),
            }
        }
        cells.push(cell);
        cells
    }

    #[test]
    fn the_export_cell_names_each_field_with_its_writer() {
        let r = json!({
            "ai_generated_fields": ["nutrients", "setting", "life_stage"],
            "enhancements": [
                {"agent": "old-bot", "run_id": "r1", "fields": ["nutrients"]},
                {"agent": "new-bot", "fields": ["life_stage"]},
            ]
        });
        assert_eq!(
            ai_generated_cell(r.as_object().unwrap()),
            "nutrients (old-bot, run r1); setting; life_stage (new-bot)"
        );
        assert_eq!(
            ai_generated_cell(json!({"title": "x"}).as_object().unwrap()),
            ""
        );
    }

    #[test]
    fn pages_cover_exactly_what_is_wanted() {
        assert_eq!(pages(0), vec![]);
        assert_eq!(pages(450), vec![(200, 0), (200, 200), (50, 400)]);
        let all = pages(MOST_FOUND);
        assert_eq!(all.len(), 50);
        assert!(all.iter().all(|(l, o)| l + o <= MAX_SEARCH_WINDOW));
    }

    #[test]
    fn file_names_carry_the_collection_and_day() {
        assert_eq!(
            file_name("articles", "2026-11-26T22:39:25Z", "csv"),
            "articles-2026-11-26.csv"
        );
    }
}
