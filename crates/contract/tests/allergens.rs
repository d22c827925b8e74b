//! The allergen folding against production.md §10.2 itself: an oracle reads the id table and the
//! whole alias table from the spec's text and folds by the spec's four steps, written apart from
//! `larder_contract::allergens`; both must agree on every alias and id, in many spellings, and
//! on the examples the spec gives.

use std::collections::BTreeMap;

use larder_contract::allergens::{self, Fold};

const SPEC: &str = include_str!("../spec/production.md");

/// The lines of §10.2, up to the next section.
fn section() -> Vec<&'static str> {
    SPEC.lines()
        .skip_while(|l| !l.starts_with("### 10.2 Allergens"))
        .skip(1)
        .take_while(|l| !l.starts_with("### "))
        .collect()
}

/// The spec's id table: id to English label (the parenthesis after `Wheat` is a remark).
fn spec_ids() -> Vec<(String, String)> {
    let mut ids = Vec::new();
    for line in section().iter().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        for pair in cells.chunks(3) {
            if let [id, label, ..] = pair {
                if let Some(id) = id.strip_prefix('`').and_then(|i| i.strip_suffix('`')) {
                    let label = label.split(" (").next().unwrap_or(label);
                    ids.push((id.to_string(), label.to_string()));
                }
            }
        }
    }
    ids
}

/// The spec's alias table: every alias to its ids.
fn spec_aliases() -> BTreeMap<String, Vec<String>> {
    let text: String = section().join(" ");
    let start = text.find("Aliases:").expect("the alias paragraph") + "Aliases:".len();
    let end = text[start..].find("So U's own").expect("its end") + start;
    let mut table = BTreeMap::new();
    for group in text[start..end].replace("**", "").split(" · ") {
        let (names, ids) = group.split_once('→').expect("a group maps names to ids");
        let ids: Vec<String> = ids
            .trim()
            .trim_end_matches('.')
            .split('+')
            .map(|id| id.trim().to_string())
            .collect();
        for name in names.split('`').skip(1).step_by(2) {
            assert!(
                table.insert(name.to_string(), ids.clone()).is_none(),
                "{name} twice"
            );
        }
    }
    table
}

/// The spec's steps, written apart from the module: a character at a time.
fn oracle_key(value: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in value.to_lowercase().chars() {
        if c == '_' || c == '-' || c.is_whitespace() {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    out
}

fn oracle_fold(
    value: &str,
    ids: &[(String, String)],
    aliases: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let lookup = |key: &str| -> Option<Vec<String>> {
        ids.iter()
            .find(|(id, _)| id.replace('_', " ") == key)
            .map(|(id, _)| vec![id.clone()])
            .or_else(|| aliases.get(key).cloned())
    };
    let key = oracle_key(value);
    if key.is_empty() {
        return None;
    }
    lookup(&key).or_else(|| {
        if key.ends_with('s') && key.chars().count() > 3 && !key.ends_with("ss") {
            lookup(&key[..key.len() - 1])
        } else {
            None
        }
    })
}

/// Spellings people store: as written, capitals, underscores, hyphens, stray spaces, plurals.
fn spellings(name: &str) -> Vec<String> {
    vec![
        name.to_string(),
        name.to_uppercase(),
        format!("  {}\t", name.replace(' ', "_")),
        name.replace(' ', "-"),
        name.replace(' ', " \u{a0} "),
        format!("{name}s"),
        format!("{}s", name.to_uppercase().replace(' ', "_")),
        format!("{name}ss"),
        format!("x{name}"),
    ]
}

#[test]
fn the_table_is_productions_whole_table() {
    let ids = spec_ids();
    let ours: Vec<(String, String)> = allergens::ALL
        .iter()
        .map(|a| (a.id.to_string(), a.label.to_string()))
        .collect();
    let mut theirs = ids.clone();
    theirs.sort();
    let mut sorted = ours.clone();
    sorted.sort();
    assert_eq!(sorted, theirs, "ids and English labels");
    assert_eq!(ids.len(), 15);

    let aliases = spec_aliases();
    assert!(aliases.len() > 90, "read {} aliases", aliases.len());
    let table: BTreeMap<String, Vec<String>> = allergens::ALIASES
        .iter()
        .map(|(alias, ids)| {
            (
                alias.to_string(),
                ids.iter().map(|i| i.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(table, aliases);
}

#[test]
fn every_alias_and_id_folds_as_the_spec_folds_it_in_every_spelling() {
    let ids = spec_ids();
    let aliases = spec_aliases();
    let names = aliases
        .keys()
        .cloned()
        .chain(ids.iter().map(|(id, _)| id.clone()));
    let mut checked = 0;
    for name in names.chain(
        [
            "kiwi", "kiwis", "ss", "bus", "oats", "grass", "fructose", "",
        ]
        .map(String::from),
    ) {
        for spelling in spellings(&name) {
            let expected = oracle_fold(&spelling, &ids, &aliases);
            let got = match allergens::fold(&spelling) {
                Fold::Known(ids) => Some(ids.iter().map(|i| i.to_string()).collect()),
                Fold::Unknown(key) => {
                    assert_eq!(key, oracle_key(&spelling), "{spelling:?}");
                    None
                }
                Fold::Empty => {
                    assert!(oracle_key(&spelling).is_empty(), "{spelling:?}");
                    None
                }
            };
            assert_eq!(got, expected, "{spelling:?}");
            checked += 1;
        }
    }
    assert!(checked > 900, "{checked} spellings");
}

#[test]
fn the_specs_examples() {
    assert_eq!(
        allergens::normalize(["Dairy", "milk", "eggs"]),
        ["milk", "egg"]
    );
    assert_eq!(
        allergens::fold("Kiwi_Fruit"),
        Fold::Unknown("kiwi fruit".into())
    );
    assert_eq!(allergens::normalize(["Kiwi_Fruit"]), ["kiwi fruit"]);
    assert_eq!(
        allergens::fold("shellfish"),
        Fold::Known(vec!["crustacean_shellfish", "molluscs"])
    );
    assert_eq!(allergens::label_en("shellfish"), "Crustaceans, Molluscs");
    assert_eq!(allergens::label_en("kiwi_fruit"), "Kiwi fruit");
    // U's own old values.
    assert_eq!(
        allergens::normalize([
            "gluten",
            "dairy",
            "eggs",
            "nuts",
            "peanuts",
            "soy",
            "shellfish",
            "fish",
            "sesame",
            "sulfites",
            "lactose",
            "fructose"
        ]),
        [
            "gluten",
            "milk",
            "egg",
            "tree_nut",
            "peanut",
            "soy",
            "crustacean_shellfish",
            "molluscs",
            "fish",
            "sesame",
            "sulphites",
            "fructose"
        ]
    );
    // Plurals: a trailing s is tried away, not after "ss" and not on short words.
    assert_eq!(
        allergens::fold("Crabs"),
        Fold::Known(vec!["crustacean_shellfish"])
    );
    assert_eq!(allergens::fold("tree nuts"), Fold::Known(vec!["tree_nut"]));
    assert_eq!(allergens::fold("oats"), Fold::Known(vec!["gluten"]));
    assert_eq!(allergens::fold("nuts"), Fold::Known(vec!["tree_nut"]));
    assert_eq!(allergens::fold("ss"), Fold::Unknown("ss".into()));
    assert_eq!(allergens::fold("mollusks"), Fold::Known(vec!["molluscs"]));
    assert_eq!(allergens::fold("Sulphites"), Fold::Known(vec!["sulphites"]));
    assert_eq!(allergens::normalize(["", "  ", "milk", "Milk"]), ["milk"]);
}
