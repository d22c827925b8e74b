//! `fq` filters: parsed, then compiled against the index's columns once per search.

use crate::column::{Column, Scalar};
use crate::index::Index;

/// One `fq` filter, already parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Filter {
    /// `field:value`: the field (or one element of it, for lists) equals the value.
    Equals {
        /// A dotted field name.
        field: String,
        /// The value as text.
        value: String,
    },
    /// `field:*`: the field is present and not null.
    Exists {
        /// A dotted field name.
        field: String,
    },
    /// `field:prefix*`: a word of the field's text begins with `prefix` (both folded: lower case,
    /// no accents), as production's query-string filter matches a trailing wildcard on an
    /// analysed text field. Only values the index keeps as short values (at most
    /// [`crate::MAX_VALUE_LEN`] bytes) are looked at.
    Prefix {
        /// A dotted field name.
        field: String,
        /// What a word begins with.
        prefix: String,
    },
    /// `field:[low TO high]`, `*` leaving a side open.
    Range {
        /// A dotted field name.
        field: String,
        /// Inclusive lower bound.
        low: Option<String>,
        /// Inclusive upper bound.
        high: Option<String>,
    },
}

fn year_of(text: &str) -> Option<f64> {
    let year = text.get(..4)?;
    (year.chars().all(|c| c.is_ascii_digit()) && text[4..].starts_with('-'))
        .then(|| year.parse().ok())
        .flatten()
}

/// What a filter asks of one value, its bounds parsed once per search.
pub(crate) enum Test<'q> {
    Equals {
        value: &'q str,
        number: Option<f64>,
    },
    /// Numeric bounds (open sides infinite): a date compares by its year.
    NumericRange {
        low: f64,
        high: f64,
    },
    TextRange {
        low: Option<&'q str>,
        high: Option<&'q str>,
    },
    /// A word of the text begins with this (folded).
    WordPrefix(String),
}

impl Test<'_> {
    fn accepts(&self, value: &Scalar) -> bool {
        match self {
            Test::Equals {
                value: wanted,
                number,
            } => value.as_text() == *wanted || number.is_some_and(|n| value.as_number() == Some(n)),
            // `publication_year:[2000 TO 2010]` over production's `YYYY-MM-DD` years.
            Test::NumericRange { low, high } => {
                let n = match value {
                    Scalar::Str(s) => year_of(s),
                    other => other.as_number(),
                };
                n.is_some_and(|n| n >= *low && n <= *high)
            }
            Test::TextRange { low, high } => {
                let Scalar::Str(s) = value else {
                    return false;
                };
                low.is_none_or(|l| s.as_ref() >= l) && high.is_none_or(|h| s.as_ref() <= h)
            }
            Test::WordPrefix(prefix) => match value {
                Scalar::Str(s) => {
                    crate::text::folded_words(s).any(|w| w.starts_with(prefix.as_str()))
                }
                _ => false,
            },
        }
    }
}

const UNDECIDED: u8 = 0;
const ACCEPTED: u8 = 1;
const REFUSED: u8 = 2;

/// A filter with its column resolved once per search. Each distinct value is tested once and
/// the answer remembered by value id, so records sharing a value cost one array read.
pub(crate) enum Compiled<'i, 'q> {
    Values {
        column: Option<&'i Column>,
        test: Test<'q>,
        decided: Vec<u8>,
    },
    Exists {
        columns: Vec<&'i Column>,
    },
}

impl<'i, 'q> Compiled<'i, 'q> {
    pub(crate) fn new(index: &'i Index, filter: &'q Filter) -> Compiled<'i, 'q> {
        let (field, test) = match filter {
            Filter::Equals { field, value } => (
                field,
                Test::Equals {
                    value,
                    number: value.parse::<f64>().ok(),
                },
            ),
            Filter::Exists { field } => {
                return Compiled::Exists {
                    columns: index.columns_under(field),
                }
            }
            Filter::Prefix { field, prefix } => (
                field,
                Test::WordPrefix(
                    crate::text::folded_words(prefix)
                        .collect::<Vec<_>>()
                        .concat(),
                ),
            ),
            Filter::Range { field, low, high } => {
                let parse = |bound: &Option<String>, open: f64| match bound {
                    None => Some(open),
                    Some(text) => text.parse::<f64>().ok(),
                };
                let test = match (parse(low, f64::NEG_INFINITY), parse(high, f64::INFINITY)) {
                    (Some(low), Some(high)) => Test::NumericRange { low, high },
                    _ => Test::TextRange {
                        low: low.as_deref(),
                        high: high.as_deref(),
                    },
                };
                (field, test)
            }
        };
        let column = index.column(field);
        Compiled::Values {
            column,
            test,
            decided: vec![UNDECIDED; column.map_or(0, Column::ids_len)],
        }
    }

    pub(crate) fn matches(&mut self, rid: u32) -> bool {
        match self {
            Compiled::Values { column: None, .. } => false,
            Compiled::Values {
                column: Some(column),
                test,
                decided,
            } => column.ids(rid).any(|id| {
                let answer = &mut decided[id as usize];
                if *answer == UNDECIDED {
                    *answer = if test.accepts(column.value(id)) {
                        ACCEPTED
                    } else {
                        REFUSED
                    };
                }
                *answer == ACCEPTED
            }),
            Compiled::Exists { columns } => columns.iter().any(|c| c.first(rid).is_some()),
        }
    }
}
