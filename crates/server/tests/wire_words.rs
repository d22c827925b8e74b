//! Both dialects' words (`larder_server::wire::words`), walked row by row. Every message of the
//! production dialect is production's own words, found at the place its row cites, quoted, in
//! production.md (`crates/contract/spec/production.md`) or in the answers production's own
//! households service gave when run here (realprod's ANSWERS.md, copied to
//! `crates/contract/spec/realprod-answers.md`); the reference dialect words each message as a
//! sentence of its own. A word changed on either side of the table, or in the record, fails here.

use larder_server::wire::words::{fill, Source};
use larder_server::wire::{About, Said, PRODUCTION, REFERENCE};

const PRODUCTION_MD: &str = include_str!("../../contract/spec/production.md");
const ANSWERS: &str = include_str!("../../contract/spec/realprod-answers.md");

/// Section `number` of production.md (`"1.1"`): from its heading to the next heading.
fn production_md_section(number: &str) -> String {
    let heading = format!("### {number} ");
    let mut lines = PRODUCTION_MD
        .lines()
        .skip_while(|l| !l.starts_with(&heading));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("production.md has no section {number}"));
    std::iter::once(first)
        .chain(lines.take_while(|l| !l.starts_with('#')))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Step `step` of ANSWERS.md's table of every step.
fn answers_step(step: u32) -> String {
    let row = format!("| {step} |");
    ANSWERS
        .lines()
        .find(|l| l.starts_with(&row))
        .unwrap_or_else(|| panic!("ANSWERS.md has no step {step}"))
        .to_string()
}

/// The record a row cites, and how to name it.
fn record(source: Source) -> (String, String) {
    match source {
        Source::ProductionMd(section) => (
            format!("production.md §{section}"),
            production_md_section(section),
        ),
        Source::Answers(step) => (format!("ANSWERS.md step {step}"), answers_step(step)),
    }
}

/// Whether `text` stands in `within` whole, between quotes or backticks (not as the start of
/// a longer sentence).
fn quoted(text: &str, within: &str) -> bool {
    ['"', '`']
        .iter()
        .flat_map(|open| ['"', '`'].map(|close| format!("{open}{text}{close}")))
        .any(|whole| within.contains(&whole))
}

#[test]
fn every_production_message_is_productions_own_words() {
    for said in Said::ALL {
        let words = said.words();
        let text = PRODUCTION.says(said, words.example);
        assert_eq!(text, fill(words.production, &words.example));
        let (place, record) = record(words.source);
        assert!(
            quoted(&text, &record),
            "{said:?}: the production dialect says {text:?}, which {place} does not:\n{record}"
        );
    }
    // The check can fail: the reference's sentence is not production's words.
    let (_, step) = record(Said::BearerMissing.words().source);
    assert!(!quoted(
        &REFERENCE.says(Said::BearerMissing, About::default()),
        &step
    ));
}

#[test]
fn the_reference_dialect_words_each_message_as_a_sentence_of_its_own() {
    for said in Said::ALL {
        let words = said.words();
        let reference = REFERENCE.says(said, words.example);
        let production = PRODUCTION.says(said, words.example);
        assert_eq!(reference, fill(words.reference, &words.example));
        assert!(reference.ends_with('.'), "{said:?}: {reference:?}");
        // Production ends no detail with a full stop.
        assert!(!production.ends_with('.'), "{said:?}: {production:?}");
        assert_ne!(reference, production, "{said:?}: the same on both wires");
        for template in [words.reference, words.production] {
            let filled = fill(template, &About::default());
            assert!(
                !filled.contains('{'),
                "{said:?}: {template:?} names a value no message has"
            );
        }
    }
}

#[test]
fn the_table_has_one_row_per_message() {
    for (index, said) in Said::ALL.iter().enumerate() {
        // No `_` arm: a new message fails to compile here until it has its place in `ALL`.
        let place = match said {
            Said::BearerMissing => 0,
            Said::InvalidCredentials => 1,
            Said::NoRoute => 2,
            Said::WrongMethod => 3,
            Said::NoOwnHousehold => 4,
            Said::HouseholdMissing => 5,
            Said::AlreadyOwnsHousehold => 6,
            Said::NoHouseholdAccess => 7,
            Said::MemberMissing => 8,
            Said::NoMemberAccess => 9,
            Said::ProfileMissing => 10,
            Said::ProfileMissingOnPatch => 11,
        };
        assert_eq!(place, index, "{said:?}");
    }
}
