//! Reading CSV (RFC 4180): records of fields separated by commas, a field in double quotes may
//! hold commas, line breaks and doubled quotes; CRLF, LF or CR line ends; a UTF-8 byte-order
//! mark is skipped; lines that are entirely empty are skipped.
//!
//! Memory is bounded (issue 36: 16 MiB of commas once made 16.8 million strings, 402 MiB):
//! records come one at a time, a field is borrowed from the text unless it holds a doubled
//! quote, and [`Limits`] bound the fields of a record, the bytes of a field and the records.
//!
//! Hand-written rather than `csv-core` (0.1, BurntSushi, no_std, no allocation), which was
//! weighed for this: it "can never return an error; it prefers a parse over no parse", so a
//! quote left open swallows every later row into one field and `"a"b` reads as `ab`, silently,
//! where an import must name the line that is wrong. Size decides nothing: alone in a wasm
//! module (opt-level z, LTO) with a loop over the records, this reader takes 4,163 bytes (2,304
//! gzipped), csv-core 4,113 (2,352). csv-core is this reader's oracle in the tests (every text
//! read here reads the same there), beside a plain reference reader that also checks errors.

use std::borrow::Cow;

use crate::i18n::{t, tf};

/// What one reading may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fields in one record.
    pub fields: usize,
    /// Bytes of one field, as written in the text (quotes and doubled quotes included).
    pub field_bytes: usize,
    /// Records read before the reading stops with an error.
    pub records: usize,
}

/// What was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A quote inside a field that does not start with one.
    QuoteInField,
    /// Text after the closing quote of a field.
    TextAfterQuote,
    /// A quoted field is not closed.
    Unclosed,
    /// More fields in a record than [`Limits::fields`].
    TooManyFields(usize),
    /// A field longer than [`Limits::field_bytes`].
    FieldTooLong(usize),
    /// More records than [`Limits::records`].
    TooManyRecords(usize),
}

/// Where the text broke the format or a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    /// The 1-based line: of the record for too many records, of the field that begins there
    /// for an unclosed quote or a field too long, else where the fault is.
    pub line: usize,
    pub problem: Problem,
}

impl CsvError {
    /// The problem in the console's language, without its line.
    pub fn message(&self) -> String {
        let max = |n: &usize| n.to_string();
        match &self.problem {
            Problem::QuoteInField => t("A quote inside a field that does not start with one."),
            Problem::TextAfterQuote => t("Text after the closing quote of a field."),
            Problem::Unclosed => t("A quoted field is not closed."),
            Problem::TooManyFields(n) => tf("More than {max} fields.", &[("max", &max(n))]),
            Problem::FieldTooLong(n) => tf("A field longer than {max} bytes.", &[("max", &max(n))]),
            Problem::TooManyRecords(n) => tf("More than {max} rows.", &[("max", &max(n))]),
        }
    }
}

/// A record and the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    pub line: usize,
    pub fields: Vec<Cow<'a, str>>,
}

/// The records of `text`, one at a time; after an error there are none.
pub fn records(text: &str, limits: Limits) -> Records<'_> {
    Records {
        text: text.strip_prefix('\u{feff}').unwrap_or(text),
        at: 0,
        line: 1,
        read: 0,
        limits,
        failed: false,
    }
}

/// See [`records`].
pub struct Records<'a> {
    text: &'a str,
    /// The byte where reading continues.
    at: usize,
    line: usize,
    read: usize,
    limits: Limits,
    failed: bool,
}

fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| **b == b'\n').count()
}

impl<'a> Records<'a> {
    /// Past one line end (CRLF, LF or CR) at `at`, if there is one.
    fn line_end(&mut self) -> bool {
        let bytes = self.text.as_bytes();
        match bytes.get(self.at) {
            Some(b'\r') if bytes.get(self.at + 1) == Some(&b'\n') => self.at += 2,
            Some(b'\r' | b'\n') => self.at += 1,
            _ => return false,
        }
        self.line += 1;
        true
    }

    fn fail(&mut self, line: usize, problem: Problem) -> CsvError {
        self.failed = true;
        CsvError { line, problem }
    }

    /// The field at `at`, leaving `at` just after it.
    fn field(&mut self) -> Result<Cow<'a, str>, CsvError> {
        let (text, bytes, max) = (self.text, self.text.as_bytes(), self.limits.field_bytes);
        let (begin, first_line) = (self.at, self.line);
        if bytes.get(begin) != Some(&b'"') {
            let end = bytes[begin..]
                .iter()
                .position(|b| matches!(b, b',' | b'\r' | b'\n' | b'"'))
                .map_or(bytes.len(), |n| begin + n);
            if bytes.get(end) == Some(&b'"') {
                return Err(self.fail(self.line, Problem::QuoteInField));
            }
            if end - begin > max {
                return Err(self.fail(first_line, Problem::FieldTooLong(max)));
            }
            self.at = end;
            return Ok(Cow::Borrowed(&text[begin..end]));
        }
        // Quoted: borrowed unless a doubled quote must become one.
        let mut owned: Option<String> = None;
        let mut piece = begin + 1;
        loop {
            let Some(quote) = bytes[self.at + 1..].iter().position(|b| *b == b'"') else {
                return Err(self.fail(first_line, Problem::Unclosed));
            };
            let quote = self.at + 1 + quote;
            self.line += newlines(&bytes[self.at + 1..quote]);
            if quote + 1 - begin > max {
                return Err(self.fail(first_line, Problem::FieldTooLong(max)));
            }
            self.at = quote;
            if bytes.get(quote + 1) == Some(&b'"') {
                // Up to and with the first quote of the pair.
                owned
                    .get_or_insert_with(String::new)
                    .push_str(&text[piece..=quote]);
                self.at = quote + 1;
                piece = quote + 2;
                continue;
            }
            self.at = quote + 1;
            if !matches!(bytes.get(self.at), None | Some(b',' | b'\r' | b'\n')) {
                return Err(self.fail(self.line, Problem::TextAfterQuote));
            }
            return Ok(match owned {
                Some(mut field) => {
                    field.push_str(&text[piece..quote]);
                    Cow::Owned(field)
                }
                None => Cow::Borrowed(&text[piece..quote]),
            });
        }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, CsvError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        while self.line_end() {}
        if self.at >= self.text.len() {
            return None;
        }
        let line = self.line;
        if self.read == self.limits.records {
            return Some(Err(self.fail(line, Problem::TooManyRecords(self.read))));
        }
        let mut fields = Vec::new();
        loop {
            match self.field() {
                Ok(field) => fields.push(field),
                Err(e) => return Some(Err(e)),
            }
            if self.text.as_bytes().get(self.at) != Some(&b',') {
                break;
            }
            if fields.len() == self.limits.fields {
                let max = self.limits.fields;
                return Some(Err(self.fail(self.line, Problem::TooManyFields(max))));
            }
            self.at += 1;
        }
        self.line_end();
        self.read += 1;
        Some(Ok(Record { line, fields }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANY: Limits = Limits {
        fields: usize::MAX,
        field_bytes: usize::MAX,
        records: usize::MAX,
    };

    /// Records as lines and owned fields.
    type Rows = Vec<(usize, Vec<String>)>;

    fn read(text: &str, limits: Limits) -> Result<Rows, CsvError> {
        records(text, limits)
            .map(|r| r.map(|r| (r.line, r.fields.into_iter().map(String::from).collect())))
            .collect()
    }

    fn rows(text: &str) -> Vec<Vec<String>> {
        read(text, ANY)
            .unwrap()
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    }

    #[test]
    fn fields_quotes_and_line_ends() {
        assert_eq!(
            rows("a,b,c\r\n1,\"x, y\",\"say \"\"hi\"\"\"\n\n2,,\"\"\n"),
            vec![
                vec!["a", "b", "c"],
                vec!["1", "x, y", "say \"hi\""],
                vec!["2", "", ""],
            ]
        );
        assert_eq!(
            rows("\u{feff}h\n\"two\nlines\""),
            vec![vec!["h"], vec!["two\nlines"]]
        );
        assert_eq!(rows("only"), vec![vec!["only"]]);
        assert_eq!(rows(""), Vec::<Vec<String>>::new());
        assert_eq!(rows("ő,ü\n"), vec![vec!["ő", "ü"]]);
        assert_eq!(
            rows("a\rb\r\n\r\nc,"),
            vec![vec!["a"], vec!["b"], vec!["c", ""]]
        );
        let lines: Vec<usize> = read("a\n\"b\nc\"\nd", ANY)
            .unwrap()
            .iter()
            .map(|(l, _)| *l)
            .collect();
        assert_eq!(lines, [1, 2, 4]);
    }

    #[test]
    fn only_fields_with_a_doubled_quote_are_copied() {
        let text = "plain,\"quoted, with a comma\",\"a \"\"doubled\"\" quote\"";
        let record = records(text, ANY).next().unwrap().unwrap();
        let copied: Vec<bool> = record
            .fields
            .iter()
            .map(|f| matches!(f, Cow::Owned(_)))
            .collect();
        assert_eq!(copied, [false, false, true]);
    }

    #[test]
    fn broken_quotes_are_named_with_their_line() {
        let line = |text| read(text, ANY).unwrap_err().line;
        assert_eq!(line("a\n\"open"), 2);
        assert_eq!(line("a\nb\"c"), 2);
        assert_eq!(line("\"a\"b"), 1);
        assert_eq!(line("x\n\"a\nb\"c"), 3);
        assert_eq!(
            read("a\n\"open\nmore", ANY).unwrap_err().problem,
            Problem::Unclosed
        );
    }

    #[test]
    fn fields_rows_and_field_bytes_are_bounded() {
        let limits = Limits {
            fields: 3,
            field_bytes: 5,
            records: 2,
        };
        assert_eq!(read("a,b,c\n1,2,3", limits).unwrap().len(), 2);
        let error = read("a,b,c\n1,2,3,4", limits).unwrap_err();
        assert_eq!((error.line, error.problem), (2, Problem::TooManyFields(3)));
        let error = read("a,b,c\nx,yyyyyy", limits).unwrap_err();
        assert_eq!((error.line, error.problem), (2, Problem::FieldTooLong(5)));
        // Quotes count: the field is five bytes as written.
        assert!(read("\"abc\"", limits).is_ok());
        assert_eq!(
            read("\"abcd\"", limits).unwrap_err().problem,
            Problem::FieldTooLong(5)
        );
        // A doubled quote is refused before it is copied past the limit.
        assert_eq!(
            read("\"\"\"\"\"\"\"\"", limits).unwrap_err().problem,
            Problem::FieldTooLong(5)
        );
        let error = read("a\n\nb\n\nc", limits).unwrap_err();
        assert_eq!((error.line, error.problem), (5, Problem::TooManyRecords(2)));
        // 16 MiB of commas: refused at the fourth field, having read a few bytes.
        let commas = ",".repeat(16 << 20);
        let mut reading = records(&commas, limits);
        assert_eq!(
            reading.next().unwrap().unwrap_err().problem,
            Problem::TooManyFields(3)
        );
        assert!(reading.next().is_none());
        assert_eq!(reading.at, 2);
    }

    #[test]
    fn errors_say_their_problem() {
        let error = read("a,b,c", Limits { fields: 2, ..ANY }).unwrap_err();
        assert_eq!(error.message(), "More than 2 fields.");
    }

    /// Checks against two other readers over random texts (native only: proptest's randomness
    /// has no wasm32 backend).
    #[cfg(not(target_arch = "wasm32"))]
    mod oracle {
        use super::*;
        use proptest::prelude::*;

        /// A plain reader of the same grammar, a walk over characters rather than a search for
        /// the next delimiter, to check the reader above (records, errors and their lines).
        fn reference(text: &str) -> Result<Rows, (usize, Problem)> {
            let chars: Vec<char> = text
                .strip_prefix('\u{feff}')
                .unwrap_or(text)
                .chars()
                .collect();
            let (mut i, mut line) = (0, 1);
            let mut out = Vec::new();
            let is_end = |c: Option<&char>| matches!(c, Some('\r' | '\n'));
            let skip_end = |i: &mut usize, line: &mut usize| {
                if chars.get(*i) == Some(&'\r') && chars.get(*i + 1) == Some(&'\n') {
                    *i += 1;
                }
                *i += 1;
                *line += 1;
            };
            while i < chars.len() {
                if is_end(chars.get(i)) {
                    skip_end(&mut i, &mut line);
                    continue;
                }
                let start = line;
                let mut record = Vec::new();
                loop {
                    let mut field = String::new();
                    if chars.get(i) == Some(&'"') {
                        let opened = line;
                        i += 1;
                        loop {
                            match chars.get(i) {
                                None => return Err((opened, Problem::Unclosed)),
                                Some('"') if chars.get(i + 1) == Some(&'"') => {
                                    field.push('"');
                                    i += 2;
                                }
                                Some('"') => {
                                    i += 1;
                                    break;
                                }
                                Some(c) => {
                                    line += usize::from(*c == '\n');
                                    field.push(*c);
                                    i += 1;
                                }
                            }
                        }
                        if !(chars.get(i).is_none() || chars[i] == ',' || is_end(chars.get(i))) {
                            return Err((line, Problem::TextAfterQuote));
                        }
                    } else {
                        while let Some(c) = chars.get(i).filter(|c| !matches!(c, ',' | '\r' | '\n'))
                        {
                            if *c == '"' {
                                return Err((line, Problem::QuoteInField));
                            }
                            field.push(*c);
                            i += 1;
                        }
                    }
                    record.push(field);
                    if chars.get(i) == Some(&',') {
                        i += 1;
                        continue;
                    }
                    if is_end(chars.get(i)) {
                        skip_end(&mut i, &mut line);
                    }
                    break;
                }
                out.push((start, record));
            }
            Ok(out)
        }

        /// The records csv-core reads from `text` (a text this reader accepts). A record's output
        /// and ends continue across calls (the last field's end comes with the empty input).
        fn csv_core(text: &str) -> Vec<Vec<String>> {
            let text = text.strip_prefix('\u{feff}').unwrap_or(text).as_bytes();
            let mut reader = csv_core::Reader::new();
            let (mut output, mut ends) = (vec![0; text.len() + 1], vec![0; text.len() + 2]);
            let (mut rest, mut out) = (text, Vec::new());
            let (mut written, mut ended) = (0, 0);
            loop {
                let (result, read, wrote, count) =
                    reader.read_record(rest, &mut output[written..], &mut ends[ended..]);
                rest = &rest[read..];
                (written, ended) = (written + wrote, ended + count);
                match result {
                    csv_core::ReadRecordResult::Record => {
                        let mut start = 0;
                        let fields = ends[..ended].iter().map(|&end| {
                            let field = String::from_utf8(output[start..end].to_vec()).unwrap();
                            start = end;
                            field
                        });
                        out.push(fields.collect());
                        (written, ended) = (0, 0);
                    }
                    csv_core::ReadRecordResult::End => return out,
                    csv_core::ReadRecordResult::InputEmpty => {}
                    other => panic!("{other:?} with room for the whole text"),
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(4000))]

            #[test]
            fn reads_as_the_reference_and_csv_core_do(text in "\u{feff}?[ab\u{151},\"\r\n]{0,40}") {
                let ours = read(&text, ANY).map_err(|e| (e.line, e.problem));
                prop_assert_eq!(&ours, &reference(&text));
                if let Ok(records) = ours {
                    let fields: Vec<Vec<String>> = records.into_iter().map(|(_, f)| f).collect();
                    prop_assert_eq!(fields, csv_core(&text));
                }
            }

            #[test]
            fn limits_refuse_exactly_what_passes_them(
                text in "[ab,\"\n]{0,30}",
                fields in 1usize..5,
                field_bytes in 0usize..6,
                rows in 0usize..4,
            ) {
                let limits = Limits { fields, field_bytes, records: rows };
                let Ok(all) = read(&text, ANY) else { return Ok(()) };
                let within = all.len() <= rows
                    && all.iter().all(|(_, f)| f.len() <= fields);
                match read(&text, limits) {
                    Ok(read) => {
                        prop_assert!(within);
                        prop_assert_eq!(read, all);
                    }
                    Err(CsvError { problem: Problem::FieldTooLong(_), .. }) => {
                        prop_assert!(field_bytes < text.len())
                    }
                    Err(_) => prop_assert!(!within),
                }
                if within && field_bytes >= text.len() {
                    prop_assert!(read(&text, limits).is_ok());
                }
            }
        }
    }
}
