//! The demo textbook: its structure tree (parts, chapters, sections with their pages) and a
//! passage per page, added once with the textbook.

use larder_contract::collections::{TEXTBOOKS, TEXTBOOK_PASSAGES};
use serde_json::{json, Value};

use super::{build, insert_once, text_artifact, PUBLISHED};
use crate::routes::passages::passage_doc;
use crate::store::Store;

/// A section: id, title, first and last page.
type Section = (&'static str, &'static str, i64, i64);
/// A chapter: id, title, sections.
type Chapter = (&'static str, &'static str, &'static [Section]);

const CHAPTERS: &[Chapter] = &[
    (
        "c1",
        "Chapter 1. Macronutrients",
        &[
            ("s1-1", "1.1 Carbohydrates", 1, 2),
            ("s1-2", "1.2 Proteins and fats", 3, 4),
        ],
    ),
    (
        "c2",
        "Chapter 2. Micronutrients",
        &[
            ("s2-1", "2.1 Vitamins", 5, 6),
            ("s2-2", "2.2 Minerals", 7, 7),
        ],
    ),
    (
        "c3",
        "Chapter 3. Dietary patterns",
        &[
            ("s3-1", "3.1 The Mediterranean diet", 8, 9),
            ("s3-2", "3.2 Plant-based diets", 10, 11),
        ],
    ),
    (
        "c4",
        "Chapter 4. Nutrition and public health",
        &[
            ("s4-1", "4.1 Food policy", 12, 13),
            ("s4-2", "4.2 Food security", 14, 14),
        ],
    ),
];

const PAGE_TEXT: &[&str] = &[
    "Carbohydrates are the main source of energy in most diets; starch and sugars are digested to glucose.",
    "Dietary fibre is a carbohydrate that escapes digestion and feeds the gut microbiome.",
    "Proteins supply essential amino acids; requirements rise in growth, pregnancy and older age.",
    "Fats provide energy and fat-soluble vitamins; unsaturated fats protect the heart.",
    "Vitamins are organic compounds needed in small amounts; vitamin D is made in the skin.",
    "Vitamin B12 is found almost only in animal foods, so vegans need a supplement.",
    "Iron, calcium, iodine and zinc are the minerals most often lacking worldwide.",
    "The Mediterranean diet is rich in olive oil, vegetables, legumes, fish and whole grains.",
    "Adherence to the Mediterranean diet lowers cardiovascular events in trials.",
    "Plant-based diets can meet every need when they are planned with care.",
    "Vegetarian children grow normally when energy, iron and B12 are sufficient.",
    "Food policy shapes what people eat through prices, labels and school meals.",
    "Salt reduction programmes have lowered blood pressure across whole populations.",
    "Food security means reliable access to enough safe and nutritious food.",
];

pub(super) fn textbook(store: &Store) -> anyhow::Result<()> {
    let tree = json!({ "roots": [
        part("p1", "Part I. Nutrients", &CHAPTERS[..2]),
        part("p2", "Part II. Diets and populations", &CHAPTERS[2..]),
    ]});
    let Some(textbook) = insert_once(
        store,
        &TEXTBOOKS,
        "foundations-of-nutrition-science",
        json!({
            "title": "Foundations of Nutrition Science", "subtitle": "From nutrients to public health",
            "authors": ["M. Alvarez", "J. Chen"], "editors": ["R. Okafor"], "publisher": "Open Nutrition Press",
            "edition": "2nd", "publication_year": 2023, "language": "en", "page_count": PAGE_TEXT.len(),
            "isbn13": "9780000000002", "keywords": ["nutrients", "diet", "public health"],
            "description": "An introductory textbook of human nutrition.", "structure_tree": tree,
            "license": "CC-BY-4.0", "organization_urn": "urn:organization:open-nutrition-press",
        }),
        &PUBLISHED,
    )?
    else {
        return Ok(());
    };
    let full_text = PAGE_TEXT.join("\n\n");
    let artifact = text_artifact(
        store,
        &textbook,
        "foundations-of-nutrition-science.txt",
        &full_text,
    )?;
    let artifact_id = artifact["id"].as_str().unwrap_or_default();
    let mut passages = Vec::new();
    for (index, text) in PAGE_TEXT.iter().enumerate() {
        let page = index as i64 + 1;
        for (sequence, sentence) in [*text, "Key terms on this page are listed in the glossary."]
            .iter()
            .enumerate()
        {
            let mut passage =
                passage_doc(&textbook, artifact_id, page, sequence as i64 + 1, sentence);
            passage["extractor_name"] = json!("demo");
            let mut map = passage.as_object().cloned().unwrap_or_default();
            let placed: Vec<(String, Value)> = ["structure_node_id", "structure_path"]
                .iter()
                .filter_map(|f| map.remove(*f).map(|v| (f.to_string(), v)))
                .collect();
            let mut doc = build(&TEXTBOOK_PASSAGES, Value::Object(map), &[])?;
            for (field, value) in placed {
                doc[field] = value;
            }
            passages.push(doc);
        }
    }
    store.records().insert_many(&TEXTBOOK_PASSAGES, &passages)?;
    Ok(())
}

fn part(id: &str, title: &str, chapters: &[Chapter]) -> Value {
    let children: Vec<Value> = chapters
        .iter()
        .map(|(id, title, sections)| {
            let start = sections.first().map(|s| s.2).unwrap_or(1);
            let end = sections.last().map(|s| s.3).unwrap_or(start);
            json!({"id": id, "title": title, "kind": "chapter", "page_start": start, "page_end": end,
                   "children": sections.iter().map(|(id, title, start, end)| json!({
                       "id": id, "title": title, "kind": "section", "page_start": start, "page_end": end, "children": []
                   })).collect::<Vec<_>>()})
        })
        .collect();
    let start = children
        .first()
        .map(|c| c["page_start"].clone())
        .unwrap_or(json!(1));
    let end = children
        .last()
        .map(|c| c["page_end"].clone())
        .unwrap_or(json!(1));
    json!({"id": id, "title": title, "kind": "part", "page_start": start, "page_end": end, "children": children})
}
