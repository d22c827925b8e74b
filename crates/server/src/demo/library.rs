//! Demo guides with guidelines and a text artifact, a textbook (`library/textbook.rs`: its
//! structure tree and passages), and food composition tables. Children are only added with a
//! new parent, so a second run changes nothing.

use larder_contract::collections::{
    ARTIFACTS, FCTABLES, GUIDELINES, GUIDES, ORGANIZATIONS, RCOLLECTIONS,
};
use larder_contract::validate::Extra;
use larder_contract::{Collection, API_PREFIX};
use serde_json::{json, Value};

use crate::model;
use crate::store::{now, Store};

mod textbook;

/// Published: active, verified and public. A published guide can no longer change.
const PUBLISHED: [(&str, &str); 4] = [
    ("status", "active"),
    ("review_status", "verified"),
    ("visibility", "public"),
    ("applicability_status", "current"),
];

/// Active and verified but internal: readable by everyone, still editable by curators.
const ACTIVE_INTERNAL: [(&str, &str); 4] = [
    ("status", "active"),
    ("review_status", "verified"),
    ("visibility", "internal"),
    ("applicability_status", "current"),
];

/// A record built as a create through the API would build it: the body checked against the
/// collection's create schema, then the service's stamps and defaults. Demo data is thereby
/// data production would accept.
pub fn build(
    collection: &Collection,
    fields: Value,
    state: &[(&str, &str)],
) -> anyhow::Result<Value> {
    let mut map = fields.as_object().cloned().unwrap_or_default();
    for (field, value) in state {
        map.insert((*field).into(), json!(value));
    }
    let checked = model::validated(collection.create, Extra::Forbid, &map)
        .map_err(|e| anyhow::anyhow!("demo {}: {} {:?}", collection.path, e.detail, e.errors))?;
    model::new_record(collection, checked, "demo", &now())
        .map(Value::Object)
        .map_err(|e| anyhow::anyhow!("demo {}: {}", collection.path, e.detail))
}

/// Inserts a parent record unless its URN exists; the record when it was inserted.
fn insert_once(
    store: &Store,
    collection: &'static Collection,
    slug: &str,
    mut fields: Value,
    state: &[(&str, &str)],
) -> anyhow::Result<Option<Value>> {
    if store.records().urn_exists(&collection.full_urn(slug))? {
        return Ok(None);
    }
    fields["urn"] = json!(slug);
    let doc = build(collection, fields, state)?;
    store.records().insert(collection, &doc)?;
    Ok(Some(doc))
}

/// Stores a text artifact of `parent` with its file in the artifact folder.
fn text_artifact(store: &Store, parent: &Value, title: &str, text: &str) -> anyhow::Result<Value> {
    let mut doc = build(
        &ARTIFACTS,
        json!({
            "parent_urn": parent["urn"], "title": title, "file_type": "text/plain",
            "file_size": text.len(), "language": "en", "file_url": "https://placeholder.invalid/",
            "description": "Plain-text edition for the demo.",
        }),
        &[],
    )?;
    let id = doc["id"].as_str().unwrap_or_default().to_string();
    doc["file_url"] = json!(format!("{API_PREFIX}/artifacts/{id}/download"));
    let parent_urn = parent["urn"].as_str().unwrap_or_default();
    let (kind, slug) = parent_urn
        .strip_prefix("urn:")
        .and_then(|rest| rest.split_once(':'))
        .unwrap_or(("record", parent_urn));
    doc["file_s3_url"] = json!(format!("s3://larder-artifacts/{kind}/{slug}/{id}.txt"));
    std::fs::write(store.files().join(&id), text)?;
    store.records().insert(&ARTIFACTS, &doc)?;
    Ok(doc)
}

const EAT_WELL: &[(&str, &str, &str, &str, i64)] = &[
    ("Eat at least five portions of a variety of fruit and vegetables every day.", "eat", "vegetables", "daily", 4),
    ("Base meals on potatoes, bread, rice, pasta or other starchy carbohydrates, choosing wholegrain where possible.", "choose", "grains", "per_meal", 6),
    ("Have some dairy or dairy alternatives, choosing lower fat and lower sugar options.", "choose", "dairy", "daily", 8),
    ("Eat beans, pulses, fish, eggs and other proteins, including two portions of fish a week.", "eat", "protein_foods", "weekly", 10),
    ("Choose unsaturated oils and spreads and eat them in small amounts.", "use", "fats_and_oils", "daily", 12),
    ("Drink six to eight glasses of fluid a day, preferring water.", "drink", "beverages", "daily", 14),
    ("Limit salt to no more than 6 g a day for adults.", "limit", "salt", "daily", 16),
    ("Reduce foods and drinks high in free sugars.", "reduce", "sugars_and_sweets", "occasional", 18),
    ("Limit red and processed meat to 70 g a day.", "limit", "protein_foods", "daily", 20),
    ("Increase fibre intake to 30 g a day from varied plant foods.", "increase", "grains", "daily", 22),
    ("Prepare meals at home with fresh ingredients as often as possible.", "prepare", "mixed", "weekly", 24),
    ("Be physically active for at least 150 minutes a week alongside a healthy diet.", "do", "none", "weekly", 26),
];

const CHILD_PLATES: &[(&str, &str, &str, &str, i64)] = &[
    (
        "Offer children three meals and two healthy snacks each day.",
        "eat",
        "mixed",
        "daily",
        3,
    ),
    (
        "Give whole milk until age two, then semi-skimmed milk.",
        "drink",
        "dairy",
        "daily",
        4,
    ),
    (
        "Serve a vegetable with every meal, repeating new ones many times.",
        "eat",
        "vegetables",
        "per_meal",
        5,
    ),
    (
        "Offer water between meals instead of juice or squash.",
        "drink",
        "beverages",
        "daily",
        6,
    ),
    (
        "Avoid adding salt to food prepared for young children.",
        "avoid",
        "salt",
        "per_meal",
        7,
    ),
    (
        "Limit sweets and biscuits to occasional treats.",
        "limit",
        "sugars_and_sweets",
        "occasional",
        8,
    ),
    (
        "Include iron-rich foods such as meat, beans or fortified cereals daily.",
        "eat",
        "protein_foods",
        "daily",
        9,
    ),
    (
        "Choose wholegrain bread and cereals for part of the starchy foods.",
        "choose",
        "grains",
        "daily",
        10,
    ),
    (
        "Give a vitamin D supplement to children aged one to four.",
        "use",
        "other",
        "daily",
        11,
    ),
    (
        "Eat together as a family whenever possible.",
        "do",
        "none",
        "daily",
        12,
    ),
    (
        "Offer fruit as a dessert instead of sweet puddings.",
        "choose",
        "fruits",
        "per_meal",
        13,
    ),
];

fn guide(
    store: &Store,
    slug: &str,
    fields: Value,
    state: &[(&str, &str)],
    rules: &[(&str, &str, &str, &str, i64)],
    populations: &[&str],
    artifact: Option<&str>,
) -> anyhow::Result<()> {
    let Some(guide) = insert_once(store, &GUIDES, slug, fields, state)? else {
        return Ok(());
    };
    let artifact_id = match artifact {
        Some(text) => {
            Some(text_artifact(store, &guide, &format!("{slug}-summary.txt"), text)?["id"].clone())
        }
        None => None,
    };
    let mut guidelines = Vec::new();
    for (index, (rule, action, group, frequency, page)) in rules.iter().enumerate() {
        let mut fields = json!({
            "guide_urn": guide["urn"], "rule_text": rule,
            "title": rule.split(',').next().unwrap_or(rule).trim_end_matches('.'),
            "action_type": action, "food_groups": [group], "frequency": frequency,
            "target_populations": populations, "page_no": page, "sequence_no": index + 1,
        });
        if let Some(artifact_id) = &artifact_id {
            fields["source_refs"] = json!([{"artifact_id": artifact_id, "page_start": page}]);
        }
        let mut doc = build(&GUIDELINES, fields, state)?;
        doc["guide_region"] = guide["region"].clone();
        doc["applicable_regions"] = json!([guide["region"]]);
        guidelines.push(doc);
    }
    store.records().insert_many(&GUIDELINES, &guidelines)?;
    Ok(())
}

/// The organizations the demo's guides, articles, textbook and recipe collections point at.
pub const ORGANIZATIONS_DEMO: &[(&str, &str, &str)] = &[
    (
        "national-nutrition-council",
        "National Nutrition Council",
        "Issues the national food-based dietary guidelines.",
    ),
    (
        "department-of-health-ie",
        "Department of Health (Ireland)",
        "Publishes guidance on feeding young children.",
    ),
    (
        "hellenic-nutrition-institute",
        "Hellenic Nutrition Institute",
        "Researches and promotes the Mediterranean diet.",
    ),
    (
        "open-nutrition-press",
        "Open Nutrition Press",
        "Publishes open textbooks of nutrition science.",
    ),
    (
        "nutrition-research-institute",
        "Nutrition Research Institute",
        "Runs and reviews studies of diet and health.",
    ),
];

fn organizations(store: &Store) -> anyhow::Result<()> {
    for (slug, title, description) in ORGANIZATIONS_DEMO {
        insert_once(
            store,
            &ORGANIZATIONS,
            slug,
            json!({
                "title": title, "description": description,
                "url": format!("https://example.org/{slug}"),
                "contact_email": format!("info@{slug}.example.org"),
            }),
            &[],
        )?;
    }
    Ok(())
}

fn recipe_collections(store: &Store) -> anyhow::Result<()> {
    insert_once(
        store,
        &RCOLLECTIONS,
        "mediterranean-home-cooking",
        json!({
            "title": "Mediterranean Home Cooking", "source_type": "manual_curation",
            "description": "Everyday recipes of the Greek and Cypriot kitchen, checked by dietitians.",
            "organization_urn": "urn:organization:hellenic-nutrition-institute",
            "recipe_count": 240, "cuisines": ["greek", "cypriot"], "meal_types": ["lunch", "dinner"],
            "dietary_patterns": ["mediterranean", "vegetarian"], "geographic_coverage": ["GR", "CY"],
            "has_nutritional_data": true, "has_images": true, "data_completeness": "full",
            "is_curated": true, "language": "en", "license": "CC-BY-4.0", "tags": ["mediterranean"],
        }),
        &[
            ("status", "active"),
            ("review_status", "verified"),
            ("visibility", "public"),
        ],
    )?;
    insert_once(
        store,
        &RCOLLECTIONS,
        "school-meals-dataset",
        json!({
            "title": "School Meals Dataset", "source_type": "dataset",
            "description": "Menus served in primary schools, with portion sizes.",
            "recipe_count": 1200, "meal_types": ["lunch"], "geographic_coverage": ["IE", "GB"],
            "has_nutritional_data": true, "has_images": false, "data_completeness": "partial",
            "is_curated": false,
        }),
        &[],
    )?;
    Ok(())
}

/// A demo rule: text, action, food group, frequency, page, life stages, nutrients.
type DemoRule = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    i64,
    &'static [&'static str],
    &'static [&'static str],
);

/// The Mediterranean guide's rules: text, action, group, frequency, page, and the facets an
/// enrichment agent wrote (production.md §10.5), which the guideline's `ai_generated_fields`
/// and `enhancements` record.
const MEDITERRANEAN: &[DemoRule] = &[
    (
        "Use olive oil as the main added fat.",
        "use",
        "fats_and_oils",
        "daily",
        3,
        &["adulthood"],
        &["fat"],
    ),
    (
        "Eat legumes at least three times a week.",
        "eat",
        "protein_foods",
        "weekly",
        4,
        &["adulthood", "older_adulthood"],
        &["protein", "fibre"],
    ),
    (
        "Choose whole grains for bread, pasta and rice.",
        "choose",
        "grains",
        "per_meal",
        5,
        &["school_age", "adulthood"],
        &["fibre"],
    ),
    (
        "Limit sweets to special occasions.",
        "limit",
        "sugars_and_sweets",
        "occasional",
        6,
        &[],
        &["sugar"],
    ),
];

/// A draft guide whose rules carry facets: some an agent wrote (marked in
/// `ai_generated_fields`, with the event in `enhancements`), some a person set. Its rules are
/// drafts, so an editorial policy can activate them.
fn mediterranean(store: &Store) -> anyhow::Result<()> {
    let Some(guide) = insert_once(
        store,
        &GUIDES,
        "mediterranean-diet-guide",
        json!({
            "title": "The Mediterranean Diet: A Guide for Families",
            "region": "GR", "language": "en", "issuing_authority": "Hellenic Nutrition Institute",
            "organization_urn": "urn:organization:hellenic-nutrition-institute",
            "publication_year": 2022, "page_count": 8, "tags": ["mediterranean"],
            "description": "How to eat the Mediterranean way at home, for every age.",
            "content": "Four recommendations on olive oil, legumes, whole grains and sweets.",
            "url": "https://example.org/mediterranean-diet-guide", "license": "CC-BY-4.0",
        }),
        &[("status", "draft"), ("review_status", "in_review")],
    )?
    else {
        return Ok(());
    };
    let mut guidelines = Vec::new();
    for (index, (rule, action, group, frequency, page, stages, nutrients)) in
        MEDITERRANEAN.iter().enumerate()
    {
        let machine = [
            "life_stage",
            "nutrients",
            "guideline_type",
            "enrichment_version",
        ];
        let mut doc = build(
            &GUIDELINES,
            json!({
                "guide_urn": guide["urn"], "rule_text": rule, "title": rule.trim_end_matches('.'),
                "action_type": action, "food_groups": [group], "frequency": frequency,
                "page_no": page, "sequence_no": index + 1, "life_stage": stages,
                "nutrients": nutrients, "guideline_type": "food_based",
                "setting": ["home"], "audience": ["individual", "caregiver"],
                "topic": ["mediterranean diet"], "section_label": "What to eat",
                "extractor_name": "demo-extractor", "extraction_model": "demo",
                "ai_generated_fields": machine,
            }),
            &[("status", "draft"), ("review_status", "unreviewed")],
        )?;
        doc["guide_region"] = guide["region"].clone();
        doc["applicable_regions"] = json!(["GR"]);
        doc["enrichment_version"] = json!(1);
        doc["enrichment_confidence"] = json!(0.8);
        doc["enhancements"] = json!([{
            "agent": "demo-enricher", "run_id": format!("00000000-0000-4000-8000-00000000000{index}"),
            "enhanced_at": doc["created_at"], "fields": machine, "skipped_fields": [],
            "before": {"life_stage": [], "nutrients": [], "guideline_type": null, "enrichment_version": null},
            "after": {"life_stage": stages, "nutrients": nutrients, "guideline_type": "food_based", "enrichment_version": 1},
        }]);
        guidelines.push(doc);
    }
    store.records().insert_many(&GUIDELINES, &guidelines)?;
    Ok(())
}

/// Loads the organizations, guides, textbook, food composition tables and recipe collections.
pub fn load(store: &Store) -> anyhow::Result<()> {
    organizations(store)?;
    guide(
        store,
        "eat-well-2024",
        json!({
            "title": "Eat Well: National Dietary Guidelines 2024", "short_title": "Eat Well 2024",
            "region": "GB", "language": "en", "issuing_authority": "National Nutrition Council",
            "publication_year": 2024, "page_count": 32, "document_type": "dietary_guideline",
            "target_audiences": ["general public"], "tags": ["food-based", "adults"],
            "description": "Food-based dietary guidelines for the general population.",
            "content": "Twelve recommendations on fruit and vegetables, starchy foods, dairy, protein, fats, fluids, salt and sugar.",
            "url": "https://example.org/eat-well-2024", "license": "CC-BY-4.0",
            "organization_urn": "urn:organization:national-nutrition-council",
        }),
        &PUBLISHED,
        EAT_WELL,
        &["general_population", "adults"],
        Some("Eat Well 2024, summary.\n\nEat a variety of fruit and vegetables, base meals on wholegrain starchy foods, choose lower-fat dairy, eat pulses and fish, use unsaturated oils sparingly, drink water, and limit salt, sugar and processed meat.\n"),
    )?;
    guide(
        store,
        "healthy-plates-children",
        json!({
            "title": "Healthy Plates for Children Under Five", "region": "IE", "language": "en",
            "issuing_authority": "Department of Health", "publication_year": 2021, "page_count": 16,
            "target_audiences": ["parents", "childminders"], "tags": ["children", "early years"],
            "description": "Guidance on feeding children from one to five years.",
            "content": "Eleven recommendations on meals, milk, vegetables, drinks, salt, iron and vitamin D for young children.",
            "url": "https://example.org/healthy-plates", "license": "CC0",
            "organization_urn": "urn:organization:department-of-health-ie",
        }),
        &ACTIVE_INTERNAL,
        CHILD_PLATES,
        &["under_5_years"],
        None,
    )?;
    mediterranean(store)?;
    textbook::textbook(store)?;
    recipe_collections(store)?;
    insert_once(
        store,
        &FCTABLES,
        "nordic-fct-2023",
        json!({
            "title": "Nordic Food Composition Table 2023", "database_name": "NordFCT",
            "compiling_institution": "Nordic Food Institute", "region": "Nordic countries", "language": "en",
            "description": "Nutrient values for 2,100 foods commonly eaten in the Nordic countries.",
            "number_of_entries": 2100, "completeness_percent": 92.5, "min_nutrients_per_item": 30, "max_nutrients_per_item": 58,
            "nutrient_coverage": ["energy", "protein", "fat", "carbohydrate", "fibre", "vitamins", "minerals"],
            "data_formats": ["csv", "xlsx"], "measurement_units": ["g/100g", "mg/100g", "kcal/100g"],
            "classification_schemes": ["FoodEx2"], "tags": ["europe"],
        }),
        &[],
    )?;
    insert_once(
        store,
        &FCTABLES,
        "west-african-fct-2019",
        json!({
            "title": "West African Food Composition Table", "database_name": "WAFCT 2019",
            "compiling_institution": "FAO/INFOODS", "region": "West Africa", "language": "en",
            "description": "Composition of 1,028 foods from fifteen West African countries.",
            "number_of_entries": 1028, "completeness_percent": 78.0, "min_nutrients_per_item": 20, "max_nutrients_per_item": 41,
            "nutrient_coverage": ["energy", "protein", "fat", "carbohydrate", "minerals"],
            "data_formats": ["xlsx", "pdf"], "measurement_units": ["g/100g", "mg/100g"],
            "classification_schemes": ["INFOODS"], "tags": ["africa"],
        }),
        &[],
    )?;
    Ok(())
}
