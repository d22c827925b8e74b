//! The demo data set (`--demo`) and synthetic articles (`--generate-articles N`). Both are idempotent.

mod households;
mod library;
mod member_data;

pub use households::{FAMILY_COUNT, FAMILY_PASSWORD};

use serde_json::{json, Value};

use crate::auth::{AccountKind, AccountSpec, Auth};
use crate::store::Store;
use larder_contract::collections::ARTICLES;

/// Demo user accounts: name, password, roles.
pub const DEMO_USERS: &[(&str, &str, &[&str])] = &[
    ("admin", "admin-demo", &["admin"]),
    ("curator", "curator-demo", &["expert"]),
    ("olivia", "olivia-demo", &[]),
    ("noah", "noah-demo", &[]),
];

/// Demo machine clients: id, secret, roles.
pub const DEMO_CLIENTS: &[(&str, &str, &[&str])] = &[("enhancer", "enhancer-demo", &["agent"])];

const TOPICS: &[(&str, &str, &str)] = &[
    ("vitamin-d-bone-health", "Vitamin D and bone health in older adults", "A review of vitamin D supplementation and fracture risk in adults over 65."),
    ("mediterranean-diet-cvd", "The Mediterranean diet and cardiovascular disease", "Adherence to a Mediterranean diet was associated with fewer cardiovascular events."),
    ("sodium-blood-pressure", "Sodium reduction and blood pressure", "Lowering sodium intake reduced systolic blood pressure in adults with hypertension."),
    ("fiber-gut-microbiome", "Dietary fiber and the gut microbiome", "Higher fiber intake increased microbial diversity and short-chain fatty acid production."),
    ("iron-deficiency-children", "Iron deficiency in young children", "Iron-fortified foods reduced anaemia prevalence among children under five."),
    ("sugar-sweetened-beverages", "Sugar-sweetened beverages and obesity", "Replacing sugary drinks with water lowered weight gain in adolescents."),
    ("omega-3-cognition", "Omega-3 fatty acids and cognition", "Fish oil supplementation showed small effects on memory in older adults."),
    ("plant-protein-muscle", "Plant protein and muscle mass", "Plant and animal protein supported similar muscle protein synthesis with resistance training."),
    ("folate-pregnancy", "Folate in pregnancy", "Periconceptional folic acid reduced neural tube defects."),
    ("breakfast-school-performance", "Breakfast and school performance", "School breakfast programmes improved attention in primary school pupils."),
    ("ultra-processed-foods", "Ultra-processed foods and mortality", "Higher consumption of ultra-processed foods was associated with all-cause mortality."),
    ("calcium-dairy-alternatives", "Calcium in dairy alternatives", "Fortified plant drinks provided calcium comparable to cow's milk."),
    ("intermittent-fasting", "Intermittent fasting and weight loss", "Time-restricted eating produced weight loss similar to calorie restriction."),
    ("vegan-b12-status", "Vitamin B12 status in vegans", "Vegans without supplements showed a high prevalence of B12 deficiency."),
    ("coffee-liver", "Coffee consumption and liver disease", "Regular coffee drinking was associated with lower risk of chronic liver disease."),
    ("whole-grains-diabetes", "Whole grains and type 2 diabetes", "Whole grain intake was inversely associated with type 2 diabetes risk."),
    ("nuts-cholesterol", "Nut consumption and cholesterol", "Daily nut intake lowered LDL cholesterol in a dose-dependent way."),
    ("hydration-elderly", "Hydration in the elderly", "Older adults often drink less than recommended; structured reminders helped."),
    ("probiotics-antibiotics", "Probiotics during antibiotic treatment", "Probiotics reduced antibiotic-associated diarrhoea in children."),
    ("iodine-salt", "Iodised salt and thyroid function", "Universal salt iodisation reduced goitre prevalence."),
    ("red-meat-colorectal", "Processed red meat and colorectal cancer", "Each 50 g daily of processed meat raised colorectal cancer risk."),
    ("sleep-diet-quality", "Sleep duration and diet quality", "Short sleep was associated with higher intake of energy-dense snacks."),
];

/// Creates the demo accounts and data; running it again changes nothing.
pub fn load(store: &Store, auth: &Auth) -> anyhow::Result<()> {
    for (name, password, roles) in DEMO_USERS {
        if !auth.account_exists(store, AccountKind::User, name)? {
            let spec = AccountSpec {
                name: name.to_string(),
                secret: password.to_string(),
                roles: roles.iter().map(|r| r.to_string()).collect(),
            };
            auth.upsert_account(store, AccountKind::User, &spec)?;
        }
    }
    for (id, secret, roles) in DEMO_CLIENTS {
        if !auth.account_exists(store, AccountKind::Client, id)? {
            let spec = AccountSpec {
                name: id.to_string(),
                secret: secret.to_string(),
                roles: roles.iter().map(|r| r.to_string()).collect(),
            };
            auth.upsert_account(store, AccountKind::Client, &spec)?;
        }
    }
    for (index, (slug, title, abstract_text)) in TOPICS.iter().enumerate() {
        insert_article_once(
            store,
            slug,
            json!({
                "title": title,
                "venue": "Demo Journal of Nutrition",
                "type": "JournalArticle",
                "abstract": abstract_text,
                "content": format!("{abstract_text} This demo record summarises the study design, population and main findings."),
                "publication_year": 2015 + (index % 10),
                "keywords": title.to_lowercase().split_whitespace().filter(|w| w.len() > 4).take(3).collect::<Vec<_>>(),
                "authors": ["A. Researcher", "B. Scientist"],
                "open_access": index % 2 == 0,
            }),
        )?;
    }
    // A record carrying a field this console does not know, as a newer service may send one:
    // the console shows it read-only and its edits leave it alone.
    if !store
        .records()
        .urn_exists(&ARTICLES.full_urn("newer-service-fields"))?
    {
        let mut doc = article_doc(
            "newer-service-fields",
            json!({"title": "A record from a newer service", "venue": "Demo Journal of Nutrition",
                   "authors": ["N. Ewer"], "publication_year": 2014,
                   "content": "This record carries a field the console does not know."}),
        )?;
        doc["x_lab_note"] = json!({"batch": 7, "checked": true});
        store.records().insert(&ARTICLES, &doc)?;
    }
    library::load(store)?;
    households::load(store, auth)?;
    Ok(())
}

/// Adds `count` deterministic synthetic articles (`synthetic-0` ...).
pub fn generate_articles(store: &Store, count: usize) -> anyhow::Result<()> {
    const WORDS: &[&str] = &[
        "protein", "fiber", "vitamin", "mineral", "sodium", "sugar", "fat", "calcium", "iron",
        "zinc", "energy", "diet", "children", "adults", "elderly", "intake",
    ];
    let mut batch = Vec::new();
    for n in 0..count {
        let pick = |k: usize| WORDS[(n * 7 + k * 13) % WORDS.len()];
        let title = format!(
            "Synthetic study {n}: {} and {} in {}",
            pick(1),
            pick(2),
            pick(3)
        );
        let slug = format!("synthetic-{n}");
        if store.records().urn_exists(&ARTICLES.full_urn(&slug))? {
            continue;
        }
        batch.push(article_doc(
            &slug,
            json!({
                "title": title,
                "venue": "Synthetic Studies",
                "authors": ["S. Ynthetic"],
                "abstract": format!("We measured {} {} across {} participants.", pick(4), pick(5), n % 900 + 100),
                "content": format!("Synthetic content {n} about {} {} {}.", pick(6), pick(7), pick(8)),
                "publication_year": 1990 + n % 35,
            }),
        )?);
        // One transaction per thousand: a synchronous commit per article would take minutes.
        if batch.len() == 1000 {
            store.records().insert_many(&ARTICLES, &batch)?;
            batch.clear();
        }
    }
    store.records().insert_many(&ARTICLES, &batch)?;
    Ok(())
}

/// An article as a create would make it, with the language production's pipeline sets.
fn article_doc(slug: &str, mut fields: Value) -> anyhow::Result<Value> {
    fields["urn"] = json!(slug);
    let mut doc = library::build(&ARTICLES, fields, &[])?;
    doc["language"] = json!("en");
    Ok(doc)
}

fn insert_article_once(store: &Store, slug: &str, fields: Value) -> anyhow::Result<()> {
    if store.records().urn_exists(&ARTICLES.full_urn(slug))? {
        return Ok(());
    }
    store
        .records()
        .insert(&ARTICLES, &article_doc(slug, fields)?)?;
    Ok(())
}
