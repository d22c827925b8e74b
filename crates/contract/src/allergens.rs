//! The allergen vocabulary production's surfaces agree on (production.md §10.2, read from
//! wisefood-ui app/utils/allergens.ts @9668ffc): the EU's fourteen declared groups plus `wheat`,
//! their English labels, the alias table, and the folding that turns a stored or typed name into
//! the ids the meal planner matches exactly. A profile that stores `dairy` excludes nothing
//! there; one that stores `milk` does.
//!
//! Hand-written: the table is production's, and the folding is a few string steps over it (no
//! crate knows this vocabulary). `tests/allergens.rs` checks it against production.md's own
//! alias table and examples.

/// One allergen: its id (what is stored and matched) and production's English label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allergen {
    pub id: &'static str,
    pub label: &'static str,
}

const fn allergen(id: &'static str, label: &'static str) -> Allergen {
    Allergen { id, label }
}

/// Every id, in the order production shows its chips: the EU groups in the order of Regulation
/// 1169/2011 Annex II, with `wheat` beside the gluten group it belongs to.
pub const ALL: [Allergen; 15] = [
    allergen("gluten", "Cereals containing gluten"),
    allergen("wheat", "Wheat"),
    allergen("crustacean_shellfish", "Crustaceans"),
    allergen("egg", "Eggs"),
    allergen("fish", "Fish"),
    allergen("peanut", "Peanuts"),
    allergen("soy", "Soybeans"),
    allergen("milk", "Milk"),
    allergen("tree_nut", "Nuts"),
    allergen("celery", "Celery"),
    allergen("mustard", "Mustard"),
    allergen("sesame", "Sesame seeds"),
    allergen("sulphites", "Sulphur dioxide and sulphites"),
    allergen("lupin", "Lupin"),
    allergen("molluscs", "Molluscs"),
];

/// `wheat` is a filter id only (under gluten): a profile declares from the other fourteen.
const FILTER_ONLY: &str = "wheat";

/// The fourteen groups a profile declares, in chip order.
pub fn declared() -> impl Iterator<Item = &'static Allergen> {
    ALL.iter().filter(|a| a.id != FILTER_ONLY)
}

/// The allergen with id `id`.
pub fn by_id(id: &str) -> Option<&'static Allergen> {
    ALL.iter().find(|a| a.id == id)
}

/// What people store or type, folded (see [`key`]), to the id or ids it means. A bare
/// `shellfish` means both crustaceans and molluscs, `seafood` all three sea groups: an allergy,
/// so the wider reading is the safe one.
pub const ALIASES: &[(&str, &[&str])] = &[
    ("cereals containing gluten", &["gluten"]),
    ("gluten containing cereals", &["gluten"]),
    ("wheat gluten", &["gluten"]),
    ("coeliac", &["gluten"]),
    ("celiac", &["gluten"]),
    ("rye", &["gluten"]),
    ("barley", &["gluten"]),
    ("oat", &["gluten"]),
    ("spelt", &["gluten"]),
    ("kamut", &["gluten"]),
    ("khorasan", &["gluten"]),
    ("khorasan wheat", &["gluten"]),
    ("crustacean", &["crustacean_shellfish"]),
    ("crab", &["crustacean_shellfish"]),
    ("prawn", &["crustacean_shellfish"]),
    ("shrimp", &["crustacean_shellfish"]),
    ("lobster", &["crustacean_shellfish"]),
    ("crayfish", &["crustacean_shellfish"]),
    ("langoustine", &["crustacean_shellfish"]),
    ("scampi", &["crustacean_shellfish"]),
    ("shellfish", &["crustacean_shellfish", "molluscs"]),
    ("seafood", &["fish", "crustacean_shellfish", "molluscs"]),
    ("hen egg", &["egg"]),
    ("hens egg", &["egg"]),
    ("hen's egg", &["egg"]),
    ("finfish", &["fish"]),
    ("groundnut", &["peanut"]),
    ("ground nut", &["peanut"]),
    ("monkey nut", &["peanut"]),
    ("arachis", &["peanut"]),
    ("soya", &["soy"]),
    ("soja", &["soy"]),
    ("soybean", &["soy"]),
    ("soy bean", &["soy"]),
    ("soya bean", &["soy"]),
    ("dairy", &["milk"]),
    ("dairy product", &["milk"]),
    ("milk product", &["milk"]),
    ("milk protein", &["milk"]),
    ("cow milk", &["milk"]),
    ("cows milk", &["milk"]),
    ("cow's milk", &["milk"]),
    ("lactose", &["milk"]),
    ("casein", &["milk"]),
    ("whey", &["milk"]),
    ("nut", &["tree_nut"]),
    ("treenut", &["tree_nut"]),
    ("almond", &["tree_nut"]),
    ("hazelnut", &["tree_nut"]),
    ("walnut", &["tree_nut"]),
    ("cashew", &["tree_nut"]),
    ("cashew nut", &["tree_nut"]),
    ("pecan", &["tree_nut"]),
    ("pecan nut", &["tree_nut"]),
    ("brazil nut", &["tree_nut"]),
    ("pistachio", &["tree_nut"]),
    ("pistachio nut", &["tree_nut"]),
    ("macadamia", &["tree_nut"]),
    ("macadamia nut", &["tree_nut"]),
    ("queensland nut", &["tree_nut"]),
    ("celeriac", &["celery"]),
    ("celery root", &["celery"]),
    ("celery seed", &["celery"]),
    ("mustard seed", &["mustard"]),
    ("sesame seed", &["sesame"]),
    ("sesamum", &["sesame"]),
    ("sulphite", &["sulphites"]),
    ("sulfite", &["sulphites"]),
    ("sulfites", &["sulphites"]),
    ("sulphur dioxide", &["sulphites"]),
    ("sulfur dioxide", &["sulphites"]),
    ("sulphur dioxide and sulphites", &["sulphites"]),
    ("sulfur dioxide and sulfites", &["sulphites"]),
    ("so2", &["sulphites"]),
    ("metabisulphite", &["sulphites"]),
    ("metabisulfite", &["sulphites"]),
    ("lupine", &["lupin"]),
    ("lupini", &["lupin"]),
    ("lupin bean", &["lupin"]),
    ("lupini bean", &["lupin"]),
    ("lupin flour", &["lupin"]),
    ("mollusc", &["molluscs"]),
    ("mollusk", &["molluscs"]),
    ("mollusc shellfish", &["molluscs"]),
    ("mussel", &["molluscs"]),
    ("oyster", &["molluscs"]),
    ("clam", &["molluscs"]),
    ("scallop", &["molluscs"]),
    ("squid", &["molluscs"]),
    ("calamari", &["molluscs"]),
    ("octopus", &["molluscs"]),
    ("cuttlefish", &["molluscs"]),
    ("snail", &["molluscs"]),
    ("escargot", &["molluscs"]),
    ("cockle", &["molluscs"]),
    ("whelk", &["molluscs"]),
    ("abalone", &["molluscs"]),
];

/// The longest value folded, in bytes. Longer text is no allergen name: it is kept as it is
/// ([`Fold::Unknown`] of its first bytes' key would lose the rest), and folding never copies more.
pub const MAX_FOLDED_BYTES: usize = 200;

/// `value` folded as production folds it (`allergenKey`): lower case, every `_` and `-` a
/// space, runs of white space one space, trimmed. `Kiwi_Fruit` gives `kiwi fruit`.
pub fn key(value: &str) -> String {
    let lower = crate::text::lowercase(value);
    let mut out = String::with_capacity(lower.len());
    for word in lower
        .split(|c: char| c == '_' || c == '-' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn lookup(key: &str) -> Option<Vec<&'static str>> {
    if let Some(a) = ALL.iter().find(|a| a.id.replace('_', " ") == key) {
        return Some(vec![a.id]);
    }
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map(|(_, ids)| ids.to_vec())
}

/// What one stored or typed name means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Nothing but white space, underscores or hyphens.
    Empty,
    /// The allergen ids it means, in the table's order.
    Known(Vec<&'static str>),
    /// A name the vocabulary does not know ("kiwi"): the meal planner may not recognise it.
    /// Carries production's folded key (`kiwi fruit`), or the text itself past
    /// [`MAX_FOLDED_BYTES`].
    Unknown(String),
}

/// What `value` means (`canonicalAllergenIds`): its key looked up as an id (with `_` read as a
/// space) or an alias; on a miss, a key ending in `s` (longer than 3 characters, not ending in
/// `ss`) is tried again without it, so plurals need no entries.
pub fn fold(value: &str) -> Fold {
    if value.len() > MAX_FOLDED_BYTES {
        return Fold::Unknown(value.to_string());
    }
    let key = key(value);
    if key.is_empty() {
        return Fold::Empty;
    }
    let found = lookup(&key).or_else(|| {
        let singular = key.strip_suffix('s')?;
        (key.chars().count() > 3 && !key.ends_with("ss"))
            .then(|| lookup(singular))
            .flatten()
    });
    match found {
        Some(ids) => Fold::Known(ids),
        None => Fold::Unknown(key),
    }
}

/// Whether `value` is stored exactly as a canonical id (`milk`, not `Milk` or `dairy`).
pub fn is_canonical(value: &str) -> bool {
    ALL.iter().any(|a| a.id == value)
}

/// A list of names as production normalises it (`normalizeAllergens`): known names become their
/// ids, unknown ones their folded key, empties drop and duplicates collapse in first-seen order,
/// so `['Dairy', 'milk', 'eggs']` gives `['milk', 'egg']`.
pub fn normalize<'a>(values: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |id: String| {
        if !out.contains(&id) {
            out.push(id);
        }
    };
    for value in values {
        match fold(value) {
            Fold::Empty => {}
            Fold::Known(ids) => ids.into_iter().for_each(|id| add(id.to_string())),
            Fold::Unknown(key) => add(key),
        }
    }
    out
}

/// The English label of a stored value: its ids' labels joined by ", " (`shellfish` gives
/// "Crustaceans, Molluscs"), else the folded key with a capital ("Kiwi fruit").
pub fn label_en(value: &str) -> String {
    match fold(value) {
        Fold::Known(ids) => ids
            .iter()
            .filter_map(|id| by_id(id))
            .map(|a| a.label)
            .collect::<Vec<_>>()
            .join(", "),
        Fold::Unknown(key) => crate::text::capitalized(&key),
        Fold::Empty => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_are_declared_and_every_alias_names_real_ids() {
        assert_eq!(declared().count(), 14);
        assert!(declared().all(|a| a.id != "wheat"));
        for (alias, ids) in ALIASES {
            assert_eq!(key(alias), *alias, "aliases are stored folded");
            assert!(ids.iter().all(|id| by_id(id).is_some()), "{alias}");
        }
    }

    #[test]
    fn long_text_is_kept_not_folded() {
        let long = "Milk ".repeat(60);
        assert_eq!(fold(&long), Fold::Unknown(long.clone()));
        assert_eq!(fold(" _-\t"), Fold::Empty);
    }
}
