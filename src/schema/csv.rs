//! Reading CSV (RFC 4180): records of fields separated by commas, a field in double quotes may
//! hold commas, line breaks and doubled quotes; CRLF or LF line ends; a UTF-8 byte-order mark
//! is skipped.
//!
//! Hand-written rather than a crate, on purpose. `csv` 1.4 (well kept, BurntSushi) reads from
//! `std::io` sources and deserialises typed rows through serde, and pulls `csv-core`, `itoa` and
//! `ryu`; the console has the whole text as a `String` already and wants rows of strings with the
//! line each starts on (to name problems by line). `csv-core` alone (no_std) would do the
//! splitting, but through a caller-driven buffer loop that is longer than this reader, and still
//! without line numbers. Not measured in wasm bytes: this is some ninety lines and no dependency.

use crate::i18n::k;

/// Where the text broke the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    /// The 1-based line the record started on.
    pub line: usize,
    /// What was wrong.
    pub message: &'static str,
}

/// The records of `text`, each a list of fields, with the line each record starts on. Lines
/// that are entirely empty are skipped.
pub fn read(text: &str) -> Result<Vec<(usize, Vec<String>)>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut start) = (1, 1);
    // The field began with a quote and has not yet seen its closing one.
    let mut quoted = false;
    // The field was quoted (so an empty one still counts as a field).
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            '"' => {
                return Err(CsvError {
                    line,
                    message: k("A quote inside a field that does not start with one."),
                })
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                if !(record.is_empty() && field.is_empty() && !was_quoted) {
                    record.push(std::mem::take(&mut field));
                    records.push((start, std::mem::take(&mut record)));
                }
                was_quoted = false;
                line += 1;
                start = line;
            }
            _ if was_quoted => {
                return Err(CsvError {
                    line,
                    message: k("Text after the closing quote of a field."),
                })
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(CsvError {
            line: start,
            message: k("A quoted field is not closed."),
        });
    }
    if !(record.is_empty() && field.is_empty() && !was_quoted) {
        record.push(field);
        records.push((start, record));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<Vec<String>> {
        read(text).unwrap().into_iter().map(|(_, r)| r).collect()
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
        let lines: Vec<usize> = read("a\n\"b\nc\"\nd")
            .unwrap()
            .iter()
            .map(|(l, _)| *l)
            .collect();
        assert_eq!(lines, [1, 2, 4]);
    }

    #[test]
    fn broken_quotes_are_named_with_their_line() {
        assert_eq!(read("a\n\"open").unwrap_err().line, 2);
        assert_eq!(read("a\nb\"c").unwrap_err().line, 2);
        assert_eq!(read("\"a\"b").unwrap_err().line, 1);
    }
}
